//===- allgather-gemm.cpp - all-gather + GEMM, overlapped, across GPUs ----===//
//
// Tensor parallelism's first linear layer: each PE (one process per GPU)
// holds `part` rows of the tokens A (part x K, bf16) and its N columns of
// the weight B (N x K); C = gather(A) B^T (n * part x N, bf16). One call:
//  - the compute stream waits for the previous call, then every PE's comm
//    stream meets in nvshmemx_barrier_all_on_stream (no PE may overwrite a
//    slot a peer's previous GEMM still reads), and the GEMM waits for that
//    barrier (a kernel of one CTA, which would find no SM free once the
//    persistent GEMM spins);
//  - the GEMM (allgather-gemm.mlir) starts at once on this PE's own rows;
//  - the comm stream puts this PE's rows to every peer, the one that needs
//    them soonest first, each put setting the peer's signal word for this
//    PE's part (nvshmemx_putmem_signal_on_stream: the copy engine over
//    NVLink, no SM); the GEMM's producer waits on those words before it
//    loads a peer's rows.
//
// Checked on every PE (alone, or under `tile-run -n N`): every
// configuration on parts of 128, 200 and 384 rows (200: tiles straddling
// two parts), random bf16 inputs any PE can evaluate for any PE (seeded by
// PE 0's clock), the peers' rows of A and all of C poisoned, two calls
// back to back, twice each, against a CPU product; every PE's verdict is
// shared, so all stop or go on together. The peers must map each other's
// memory (one node). Unless `--check`: timed at GPT-style shapes next
// to NCCL's all-gather followed by cuBLAS (in the same run, on the same
// stream), with each one alone beside.
//
//===----------------------------------------------------------------------===//

#include "../common/OverlapRun.h"
#include "../gemm/GemmBench.h"
#include "allgather-gemm_launcher.h"

#include <cmath>

using namespace tile;
using namespace tile::examples;

namespace {

/// Rows a part holds at least: a 128-row tile then spans at most two parts,
/// the two the kernel waits for.
constexpr int64_t kMinPartRows = 128;

/// The check's shapes (LayerShape: rows of A per PE, the output columns
/// per PE, K): tiles that straddle parts (200), a partial column tile
/// (N = 384 with BN = 256) and a K of five steps.
const std::vector<LayerShape> kCheckShapes = {{128, 256, 320, "check"},
                                              {200, 384, 320, "check"},
                                              {384, 384, 192, "check"}};

/// GPT-style layers at 4096 to 16384 tokens over the PEs: the MLP's first
/// half (hidden 4096, 16384 columns shared out) and a QKV projection
/// (hidden 8192, 24576 columns). Each PE's columns are rounded down to a
/// multiple of 64 (C's rows must be whole 16-byte units for TMA, where n
/// does not divide the columns).
std::vector<LayerShape> benchShapes(int n) {
  auto columns = [n](int64_t total) { return total / n / 64 * 64; };
  std::vector<LayerShape> shapes;
  for (int64_t tokens : {4096, 8192, 16384})
    shapes.push_back({tokens / n, columns(16384), 4096, "MLP up, hidden 4096"});
  for (int64_t tokens : {4096, 8192, 16384})
    shapes.push_back({tokens / n, columns(24576), 8192, "QKV, hidden 8192"});
  return shapes;
}

class AllgatherGemm {
public:
  AllgatherGemm(int64_t maxRows, int64_t maxN, int64_t maxK)
      : run(allgather_gemm_kernels::module()), me(run.me), n(run.n),
        a(size_t(maxRows) * maxK * 2), b(size_t(maxN) * maxK * 2),
        c(size_t(maxRows) * maxN * 2) {
    run.requirePeersMapped(a.ptr());
    rt::nvshmemBarrierAll();
  }

  /// One all-gather + GEMM of configuration `config` (see the file
  /// comment); `overlap` false: the GEMM alone, every part taken as there
  /// (epoch 0, which every word satisfies). The puts are enqueued before
  /// the GEMM is launched (with the launch first, runs hung inside it:
  /// docs/design.md, "All-gather + GEMM").
  void call(size_t config, const LayerShape &s, bool overlap = true) {
    int64_t m = s.part * n;
    uint64_t word = 0;
    if (overlap) {
      word = run.beginCall();
      size_t bytes = size_t(s.part) * s.k * 2;
      CUdeviceptr mine = a.ptr() + size_t(me) * bytes;
      // Peer me - i takes this PE's part as its i-th (it walks its own
      // first).
      for (int i = 1; i < n; ++i)
        rt::nvshmemPutSignalOnStream(mine, mine, bytes, run.word(me), word,
                                     (me - i + n) % n, run.comm);
    }
    // Bound once per configuration and shape; only the epoch is set anew.
    auto key = std::make_tuple(config, s.part, s.n, s.k);
    auto it = bound.find(key);
    if (it == bound.end())
      it = bound
               .emplace(
                   key,
                   allgather_gemm_kernels::allgather_gemm(
                       config,
                       rt::MemRef<rt::bf16, 2>::rowMajor(a.ptr(), {m, s.k}),
                       rt::MemRef<rt::bf16, 2>::rowMajor(b.ptr(), {s.n, s.k}),
                       rt::MemRef<rt::bf16, 2>::rowMajor(c.ptr(), {m, s.n}),
                       rt::MemRef<int64_t, 1>::rowMajor(run.flags.ptr(), {n}),
                       0, int32_t(me), int32_t(n), run.compute))
               .first;
    it->second.set(4, int64_t(word)).launch();
    if (overlap)
      run.computeWaitsComm(); // the next call overwrites nothing in flight
  }

  /// This PE's part of A and its B from `seed`, the peers' parts of A and
  /// all of C poisoned; two calls; checks C against the CPU's product.
  bool check(size_t config, const LayerShape &s, uint64_t seed) {
    int64_t m = s.part * n;
    std::vector<uint16_t> hostA(size_t(m) * s.k, 0xFFFF);
    size_t partElems = size_t(s.part) * s.k;
    for (size_t i = 0; i < partElems; ++i)
      hostA[size_t(me) * partElems + i] =
          rt::floatToBf16(collective::inputValue(seed, me, i));
    std::vector<uint16_t> hostB(size_t(s.n) * s.k);
    for (size_t i = 0; i < hostB.size(); ++i)
      hostB[i] =
          rt::floatToBf16(collective::inputValue(seed ^ 0xb0b0b0b0ull, me, i));
    a.upload(hostA);
    b.upload(hostB);
    poison(c);
    rt::nvshmemBarrierAll(); // no peer puts before A is poisoned
    // Two calls back to back: the second's barrier and puts follow the
    // first's GEMM on every PE without the host in between.
    call(config, s);
    call(config, s);
    checkCuda(cudaStreamSynchronize(run.compute), "cudaStreamSynchronize");
    rt::nvshmemBarrierAll();
    std::vector<float> got = c.downloadBf16(size_t(m) * s.n);
    // The reference: every PE's part from the seed, in fp32.
    std::vector<float> fullA(size_t(m) * s.k), fullB(hostB.size());
    for (int pe = 0; pe < n; ++pe)
      for (size_t i = 0; i < partElems; ++i)
        fullA[size_t(pe) * partElems + i] = bf16InputValue(seed, pe, i);
    for (size_t i = 0; i < fullB.size(); ++i)
      fullB[i] = rt::bf16ToFloat(hostB[i]);
    size_t wrong = 0, first = 0;
    float firstWant = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        float want = 0;
        for (int64_t k = 0; k < s.k; ++k)
          want += fullA[size_t(i) * s.k + k] * fullB[size_t(j) * s.k + k];
        float have = got[size_t(i) * s.n + j];
        // bf16's rounding of C (2^-9 relative) and the order of the sums.
        if (!(std::fabs(have - want) <= 0.01f * std::fabs(want) + 0.02f) &&
            wrong++ == 0) {
          first = size_t(i) * s.n + j;
          firstWant = want;
        }
      }
    if (wrong)
      std::printf(
          "  PE %d, %s, %lld rows a part, N %lld, K %lld: MISMATCH in "
          "%zu of %zu; first C[%zu][%zu] = %g, want %g\n",
          me, allgather_gemm_kernels::allgather_gemm_configs[config].kernel,
          (long long)s.part, (long long)s.n, (long long)s.k, wrong, got.size(),
          first / size_t(s.n), first % size_t(s.n), got[first], firstWant);
    return wrong == 0;
  }

  OverlapRun run;
  int me, n;
  rt::SymmetricBuffer a;
  rt::DeviceBuffer b, c;
  // The launches bound so far, by configuration and shape.
  std::map<std::tuple<size_t, int64_t, int64_t, int64_t>, rt::BoundLaunch>
      bound;
};

int runAll(bool checkOnly) {
  int n = rt::nvshmemNumPes();
  std::vector<LayerShape> shapes =
      layerShapes(kCheckShapes, benchShapes(n), checkOnly);
  for (const LayerShape &s : shapes)
    if (s.part < kMinPartRows)
      throw rt::Error("a part of " + std::to_string(s.part) +
                      " rows: the kernel needs at least " +
                      std::to_string(kMinPartRows) +
                      " (a tile waits for "
                      "the two parts of its first and last rows)");
  LayerExtent most = largestOf(shapes, n);
  AllgatherGemm gemm(most.rows, most.n, most.k);
  OverlapRun &run = gemm.run;
  int me = run.me;
  collective::FromPe0 data = run.startRun(checkOnly);
  constexpr size_t kConfigs = allgather_gemm_kernels::allgather_gemm_config_count;
  auto name = [](size_t config) {
    return allgather_gemm_kernels::allgather_gemm_configs[config].kernel;
  };
  if (me == 0)
    std::printf("allgather-gemm: %d PE(s), C = gather(A) B^T in bf16, "
                "%zu configurations\n",
                n, kConfigs);
  bool ok = checkEveryConfiguration(
      run, data.seed, kConfigs, kCheckShapes, "parts of 128, 200 and 384 rows",
      name, [&](size_t config, const LayerShape &s, uint64_t seed) {
        return gemm.check(config, s, seed);
      });
  if (!ok || checkOnly)
    return ok ? 0 : 1;

  CublasGemm cublas;
  cublas.setStream(run.compute);
#if TILE_EXAMPLES_NCCL
  collective::Nccl nccl;
  run.startNccl(data, nccl);
  rt::DeviceBuffer ncclA(size_t(most.rows) * most.k * 2);
  // NCCL's in-place all-gather leaves this PE's own part as it was.
  fillRandomBf16(ncclA, size_t(most.rows) * most.k, data.seed + 1);
#endif
  rt::DeviceBuffer cublasC(gemm.c.size());
  fillRandomBf16(gemm.a, size_t(most.rows) * most.k, data.seed);
  fillRandomBf16(gemm.b, size_t(most.n) * most.k, ~data.seed);
  if (me == 0)
    std::printf("\nmicroseconds, PE 0's medians of three interleaved rounds; "
                "rows = tokens (all PEs), N = columns per PE\n"
                "  %-22s %6s %6s %5s | %-34s %9s | %9s %7s | %9s %9s %9s\n",
                "layer", "tokens", "N", "K", "tile: all-gather + GEMM", "us",
                "NCCL+cuBLAS", "speedup", "tile GEMM", "cuBLAS", "NCCL AG");
  for (const LayerShape &s : benchShapes(n)) {
    int64_t m = s.part * n;
    int iters = benchIterations(s, n);
    size_t best = fastestConfiguration(
        run, kConfigs, iters, [&](size_t config) { gemm.call(config, s); });
    std::vector<std::function<void()>> contenders = {
        [&] { gemm.call(best, s); },
        [&] { gemm.call(best, s, /*overlap=*/false); },
        [&] {
          cublas.run(gemm.a.ptr(), gemm.b.ptr(), cublasC.ptr(), m, s.n, s.k,
                     CUDA_R_16BF);
        }};
#if TILE_EXAMPLES_NCCL
    size_t partElems = size_t(s.part) * s.k;
    auto allGather = [&] {
      collective::checkNccl(
          ncclAllGather((const char *)ncclA.ptr() + size_t(me) * partElems * 2,
                        (void *)ncclA.ptr(), partElems, ncclBfloat16, nccl.comm,
                        run.compute),
          "ncclAllGather");
    };
    if (nccl.comm) {
      contenders.push_back([&] {
        allGather();
        cublas.run(ncclA.ptr(), gemm.b.ptr(), cublasC.ptr(), m, s.n, s.k,
                   CUDA_R_16BF);
      });
      contenders.push_back(allGather);
    }
#endif
    std::vector<float> ms =
        collective::interleavedMedianMs(run.compute, contenders, iters);
    if (me != 0)
      continue;
    std::printf("  %-22s %6lld %6lld %5lld | %-34s %9.1f |", s.what,
                (long long)m, (long long)s.n, (long long)s.k,
                name(best) + std::strlen("allgather_gemm__"),
                ms[0] * 1e3);
    printAgainstAnchor(ms, 3, 9);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return overlapMain(argc, argv, "allgather-gemm", runAll);
}
