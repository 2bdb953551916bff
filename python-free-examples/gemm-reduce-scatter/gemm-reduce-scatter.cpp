//===- gemm-reduce-scatter.cpp - GEMM + reduce-scatter, overlapped --------===//
//
// Tensor parallelism's second linear layer (the MLP's down projection, the
// attention's output projection): each PE (one process per GPU) holds all
// M tokens' K columns of the activations A (M x K, bf16) and the matching K
// columns of the weight B (N x K); the layer's output is the sum over the
// PEs of A B^T, and PE r keeps rows [r * part, (r + 1) * part) of it
// (part x N, bf16). One call:
//  - the comm stream waits for the compute stream's previous work, then
//    every PE's comm stream meets in nvshmemx_barrier_all_on_stream (no PE
//    may overwrite a slot a peer's previous reduction still reads), and the
//    compute stream waits for the barrier (../common/OverlapRun.h says why);
//  - the compute stream runs the GEMM one band of `part` rows at a time
//    (gemm.mlir's family through its tuning table), the peers' bands first
//    (band me + 1 first, so every PE computes every other PE's band before
//    its own) and this PE's own band last, straight into its own slot of
//    `parts`;
//  - after each peer's band, the comm stream puts it into slot `me` of that
//    peer's `parts` with a signal (nvshmemx_putmem_signal_on_stream: the
//    copy engine over NVLink, no SM), while the next band's GEMM runs;
//  - @sum_parts (gemm-reduce-scatter.mlir) waits for the peers' signal
//    words and sums the slots into the output in fp32.
// The puts hide behind the GEMM of the next band; what is left is the last
// put's tail (if it outlasts the own band's GEMM) and the reduction, which
// reads n slots of part x N and writes one.
//
// Checked on every PE (alone, or under `tile-run -n N`): every reduction
// configuration on parts of 128, 200 and 136 rows (odd sizes: a partial
// GEMM tile, a partial reduction chunk), random bf16 inputs any PE can
// evaluate for any PE (seeded by PE 0's clock), `parts`, the partial
// products and the output poisoned, two calls back to back, against a CPU
// reference; every PE's verdict is shared. The peers must map each other's
// memory (one node). Unless `--check`: timed at GPT-style shapes next to
// cuBLAS followed by NCCL's reduce-scatter (in the same run, on the same
// stream), with each one alone beside.
//
//===----------------------------------------------------------------------===//

#include "../common/OverlapRun.h"
#include "../gemm/GemmBench.h"
#include "gemm-reduce-scatter_launcher.h"
#include "gemm_launcher.h"

#include <cmath>

using namespace tile;
using namespace tile::examples;

namespace {

/// The check's shapes (LayerShape: output rows per PE, the output
/// columns, K per PE): partial GEMM tiles, and reduction chunks that do
/// not divide a slot.
const std::vector<LayerShape> &kCheckShapes = kPartialTileCheckShapes;

/// GPT-style layers at 4096 to 16384 tokens over the PEs: the MLP's second
/// half (hidden 4096: 16384 columns of activations shared out) and an
/// attention output projection (hidden 8192).
std::vector<LayerShape> benchShapes(int n) {
  std::vector<LayerShape> shapes;
  for (int64_t tokens : {4096, 8192, 16384})
    shapes.push_back({tokens / n, 4096, 16384 / n, "MLP down, hidden 4096"});
  for (int64_t tokens : {4096, 8192, 16384})
    shapes.push_back({tokens / n, 8192, 8192 / n, "out proj, hidden 8192"});
  return shapes;
}

/// The seed of PE `pe`'s B (its A's is the call's).
uint64_t weightSeed(uint64_t seed) { return seed ^ 0xb0b0b0b0ull; }

class GemmReduceScatter {
public:
  GemmReduceScatter(int64_t maxRows, int64_t maxN, int64_t maxK)
      : run(gemm_reduce_scatter_kernels::module()), me(run.me), n(run.n),
        a(size_t(maxRows) * maxK * 2), b(size_t(maxN) * maxK * 2),
        partial(size_t(maxRows) * maxN * 2),
        out(size_t(maxRows) / size_t(n) * maxN * 2), zeroBias(size_t(maxN) * 2),
        parts(size_t(maxRows) * maxN * 2) {
    run.requirePeersMapped(parts.ptr());
    zeroBias.fillBytes(0);
    rt::nvshmemBarrierAll();
  }

  /// One GEMM + reduce-scatter with reduction configuration `config` (see
  /// the file comment); `overlap` false: the GEMM's bands alone, no put and
  /// no reduction.
  void call(size_t config, const LayerShape &s, bool overlap = true) {
    uint64_t word = overlap ? run.beginCall() : 0;
    size_t slotBytes = size_t(s.part) * s.n * 2;
    for (int step = 0; step < n; ++step) {
      int band = (me + 1 + step) % n;
      gemmBand(s, band).launch();
      if (!overlap || band == me)
        continue;
      run.commWaitsCompute();
      rt::nvshmemPutSignalOnStream(parts.ptr() + size_t(me) * slotBytes,
                                   partial.ptr() + size_t(band) * slotBytes,
                                   slotBytes, run.word(me), word, band,
                                   run.comm);
    }
    if (!overlap)
      return;
    reduction(config, s).set(3, int64_t(word)).launch();
    run.computeWaitsComm(); // the next call overwrites nothing in flight
  }

  /// The reduction alone, of the last call's slots (every word holds the
  /// epoch already).
  void reduceAgain(size_t config, const LayerShape &s) {
    reduction(config, s).set(3, int64_t(run.epoch)).launch();
  }

  /// This PE's A and B from `seed`, `parts`, the partial products and the
  /// output poisoned; two calls; checks the output against the CPU's.
  bool check(size_t config, const LayerShape &s, uint64_t seed) {
    int64_t m = s.part * n;
    std::vector<uint16_t> hostA(size_t(m) * s.k), hostB(size_t(s.n) * s.k);
    for (size_t i = 0; i < hostA.size(); ++i)
      hostA[i] = rt::floatToBf16(collective::inputValue(seed, me, i));
    for (size_t i = 0; i < hostB.size(); ++i)
      hostB[i] = rt::floatToBf16(collective::inputValue(weightSeed(seed), me, i));
    a.upload(hostA);
    b.upload(hostB);
    poison(parts);
    poison(partial);
    poison(out);
    rt::nvshmemBarrierAll(); // no peer puts before `parts` is poisoned
    // Two calls back to back: the second's barrier and puts follow the
    // first's reduction on every PE without the host in between.
    call(config, s);
    call(config, s);
    checkCuda(cudaStreamSynchronize(run.compute), "cudaStreamSynchronize");
    rt::nvshmemBarrierAll();
    std::vector<float> got = out.downloadBf16(size_t(s.part) * s.n);
    // The reference: every PE's partial product of this PE's rows, rounded
    // to bf16 as the GEMM rounds it, summed in fp32.
    std::vector<float> want(got.size(), 0.0f), size(got.size(), 0.0f);
    std::vector<float> rowsA(size_t(s.part) * s.k), peerB(hostB.size());
    for (int pe = 0; pe < n; ++pe) {
      size_t first = size_t(me) * s.part * s.k;
      for (size_t i = 0; i < rowsA.size(); ++i)
        rowsA[i] = bf16InputValue(seed, pe, first + i);
      for (size_t i = 0; i < peerB.size(); ++i)
        peerB[i] = bf16InputValue(weightSeed(seed), pe, i);
      for (int64_t i = 0; i < s.part; ++i)
        for (int64_t j = 0; j < s.n; ++j) {
          float p = 0;
          for (int64_t k = 0; k < s.k; ++k)
            p += rowsA[size_t(i) * s.k + k] * peerB[size_t(j) * s.k + k];
          p = rt::bf16ToFloat(rt::floatToBf16(p));
          want[size_t(i) * s.n + j] += p;
          size[size_t(i) * s.n + j] += std::fabs(p);
        }
    }
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < got.size(); ++i)
      // bf16's rounding of the partial products (2^-9 relative, the order
      // of their sums) and of the output.
      if (!(std::fabs(got[i] - want[i]) <= 0.01f * size[i] + 0.02f) &&
          wrong++ == 0)
        first = i;
    if (wrong)
      std::printf("  PE %d, %s, %lld rows a part, N %lld, K %lld: MISMATCH "
                  "in %zu of %zu; first out[%zu][%zu] = %g, want %g\n",
                  me,
                  gemm_reduce_scatter_kernels::sum_parts_configs[config].kernel,
                  (long long)s.part, (long long)s.n, (long long)s.k, wrong,
                  got.size(), first / size_t(s.n), first % size_t(s.n),
                  got[first], want[first]);
    return wrong == 0;
  }

  OverlapRun run;
  int me, n;
  rt::DeviceBuffer a, b, partial, out, zeroBias;
  rt::SymmetricBuffer parts;

private:
  using Matrix = rt::MemRef<rt::bf16, 2>;

  /// The GEMM of band `band`'s rows (into the own slot of `parts`, or into
  /// `partial` for a peer), bound once per shape: gemm.mlir's family
  /// through its tuning table (bf16 out, a zero bias: the variant tuned at
  /// the linear layers' shapes).
  rt::BoundLaunch &gemmBand(const LayerShape &s, int band) {
    auto key = std::make_tuple(s.part, s.n, s.k, band);
    auto it = gemms.find(key);
    if (it != gemms.end())
      return it->second;
    size_t slotBytes = size_t(s.part) * s.n * 2;
    CUdeviceptr c = band == me ? parts.ptr() + size_t(me) * slotBytes
                               : partial.ptr() + size_t(band) * slotBytes;
    return gemms
        .emplace(key,
                 gemm_kernels::gemm_bf16_tuned(
                     {{"BIAS", 1}, {"GELU", 0}, {"RESIDUAL", 0}},
                     Matrix::rowMajor(a.ptr() + size_t(band) * s.part * s.k * 2,
                                      {s.part, s.k}),
                     Matrix::rowMajor(b.ptr(), {s.n, s.k}),
                     Matrix::rowMajor(c, {s.part, s.n}),
                     rt::MemRef<rt::bf16, 1>::rowMajor(zeroBias.ptr(), {s.n}),
                     Matrix{}, run.compute))
        .first->second;
  }

  /// @sum_parts of configuration `config` over this shape's slots, bound
  /// once; the epoch (argument 3) is set for each call.
  rt::BoundLaunch &reduction(size_t config, const LayerShape &s) {
    auto key = std::make_tuple(s.part, s.n, config);
    auto it = reductions.find(key);
    if (it != reductions.end())
      return it->second;
    int64_t slot = s.part * s.n;
    return reductions
        .emplace(key, gemm_reduce_scatter_kernels::sum_parts(
                          config, Matrix::rowMajor(parts.ptr(), {n, slot}),
                          Matrix::rowMajor(out.ptr(), {1, slot}),
                          rt::MemRef<int64_t, 1>::rowMajor(run.flags.ptr(), {n}),
                          0, int32_t(me), run.compute))
        .first->second;
  }

  // By shape and band; by slot shape and configuration.
  std::map<std::tuple<int64_t, int64_t, int64_t, int>, rt::BoundLaunch> gemms;
  std::map<std::tuple<int64_t, int64_t, size_t>, rt::BoundLaunch> reductions;
};

int runAll(bool checkOnly) {
  int n = rt::nvshmemNumPes();
  LayerExtent most = largestOf(
      layerShapes(kCheckShapes, benchShapes(n), checkOnly), n);
  GemmReduceScatter layer(most.rows, most.n, most.k);
  OverlapRun &run = layer.run;
  int me = run.me;
  collective::FromPe0 data = run.startRun(checkOnly);
  constexpr size_t kConfigs = gemm_reduce_scatter_kernels::sum_parts_config_count;
  auto name = [](size_t config) {
    return gemm_reduce_scatter_kernels::sum_parts_configs[config].kernel;
  };
  if (me == 0)
    std::printf("gemm-reduce-scatter: %d PE(s), out = this PE's rows of "
                "sum over PEs (A B^T) in bf16, %zu reduction configurations\n",
                n, kConfigs);
  bool ok = checkEveryConfiguration(
      run, data.seed, kConfigs, kCheckShapes, "parts of 128, 200 and 136 rows",
      name, [&](size_t config, const LayerShape &s, uint64_t seed) {
        return layer.check(config, s, seed);
      });
  if (!ok || checkOnly)
    return ok ? 0 : 1;

  CublasGemm cublas;
  cublas.setStream(run.compute);
  rt::DeviceBuffer cublasC(size_t(most.rows) * most.n * 2);
  fillRandomBf16(layer.a, size_t(most.rows) * most.k, data.seed);
  fillRandomBf16(layer.b, size_t(most.n) * most.k, ~data.seed);
#if TILE_EXAMPLES_NCCL
  collective::Nccl nccl;
  run.startNccl(data, nccl);
#endif
  if (me == 0)
    std::printf("\nmicroseconds, PE 0's medians of three interleaved rounds;"
                " tokens = rows (all PEs), K per PE\n"
                "  %-22s %6s %5s %5s | %-32s %9s | %11s %7s | %9s %9s %9s "
                "%9s\n",
                "layer", "tokens", "N", "K", "tile: GEMM + reduce-scatter",
                "us", "cuBLAS+NCCL", "speedup", "tile GEMM", "reduction",
                "cuBLAS", "NCCL RS");
  for (const LayerShape &s : benchShapes(n)) {
    int64_t m = s.part * n;
    int iters = benchIterations(s, n);
    size_t best = fastestConfiguration(
        run, kConfigs, iters, [&](size_t config) { layer.call(config, s); });
    std::vector<std::function<void()>> contenders = {
        [&] { layer.call(best, s); },
        [&] { layer.call(best, s, /*overlap=*/false); },
        [&] { layer.reduceAgain(best, s); },
        [&] {
          cublas.run(layer.a.ptr(), layer.b.ptr(), cublasC.ptr(), m, s.n, s.k,
                     CUDA_R_16BF);
        }};
#if TILE_EXAMPLES_NCCL
    auto reduceScatter = [&] {
      collective::checkNccl(
          ncclReduceScatter((const void *)cublasC.ptr(), (void *)layer.out.ptr(),
                            size_t(s.part) * s.n, ncclBfloat16, ncclSum,
                            nccl.comm, run.compute),
          "ncclReduceScatter");
    };
    if (nccl.comm) {
      contenders.push_back([&] {
        cublas.run(layer.a.ptr(), layer.b.ptr(), cublasC.ptr(), m, s.n, s.k,
                   CUDA_R_16BF);
        reduceScatter();
      });
      contenders.push_back(reduceScatter);
    }
#endif
    std::vector<float> ms =
        collective::interleavedMedianMs(run.compute, contenders, iters);
    if (me != 0)
      continue;
    std::printf("  %-22s %6lld %5lld %5lld | %-32s %9.1f |", s.what,
                (long long)m, (long long)s.n, (long long)s.k,
                name(best) + std::strlen("sum_parts__"),
                ms[0] * 1e3);
    printAgainstAnchor(ms, 4, 11);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return overlapMain(argc, argv, "gemm-reduce-scatter", runAll);
}
