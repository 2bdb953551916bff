//===- cannon.cpp - Cannon's GEMM over a square grid of GPUs --------------===//
//
// Cannon's GEMM (cannon.mlir says how it runs): the PEs (one process per
// GPU) form a Q x Q grid, PE r * Q + c at (r, c); C = A B^T with A: M x K
// and B: N x K in bf16, C in fp32, and each PE computes its block (r, c)
// of C, M/Q x N/Q, from the Q blocks of K that pass through it. One call:
//  - the call's start (OverlapRun::beginCall): every PE's previous GEMM is
//    done before any slot is written again;
//  - the comm stream forwards slot s of A to the left neighbour's slot
//    s + 1 and slot s of B to the upper neighbour's, s = 0 .. Q - 2, each
//    once slot s has arrived here (a wait on its signal word, enqueued on
//    the stream: no kernel), by a put with a signal (the copy engine over
//    NVLink, no SM);
//  - the GEMM runs meanwhile on the compute stream, step by step: step 0
//    at once, step s once its blocks' words say they have arrived.
//
// Checked on every PE (alone, Q = 1, or under `tile-run -n 4`, Q = 2):
// every configuration on blocks of 128, 200 and 136 rows (partial tiles, a
// K-block that is not a multiple of 64), random bf16 inputs any PE can
// evaluate for any block (seeded by PE 0's clock), the slots yet to arrive
// and C poisoned, two calls back to back, against a CPU product over the
// whole K; every PE's verdict is shared. The peers must map each other's
// memory (one node). Unless `--check`: timed at square shapes next to NCCL
// gathering the blocks each PE needs (its row's blocks of A, its column's
// of B: grouped sends and receives) followed by cuBLAS over the whole K,
// (fp32 out, as tile's), with each alone beside. cuBLAS reads the gathered
// bytes as if they were laid out M/Q x K: the relayout a real program would
// need is not counted, in the anchor's favour. The benchmark's inputs are
// random (fillRandomBf16).
//
//===----------------------------------------------------------------------===//

#include "../common/OverlapRun.h"
#include "../gemm/GemmBench.h"
#include "cannon_launcher.h"

#include <cmath>

using namespace tile;
using namespace tile::examples;

namespace {

/// The check's blocks (LayerShape: rows, columns and K of each PE's block
/// of A, B and C: Ml, Nl, Kl): partial tiles, and a K-block that is not a
/// multiple of 64; 200 rows make tiles that straddle two slots.
const std::vector<LayerShape> &kCheckShapes = kPartialTileCheckShapes;

/// Square products, and one with a short K, as each PE's blocks on a
/// Q x Q grid.
std::vector<LayerShape> benchShapes(int q) {
  struct Product {
    int64_t m, n, k;
    const char *what;
  };
  std::vector<LayerShape> shapes;
  for (Product p : {Product{8192, 8192, 8192, "8192^3"},
                    Product{16384, 16384, 16384, "16384^3"},
                    Product{16384, 16384, 4096, "16384^2 x 4096"}})
    shapes.push_back({p.m / q, p.n / q, p.k / q, p.what});
  return shapes;
}

/// Element (i, k) of the whole A (B with the weight seed) of K columns.
float aValue(uint64_t seed, int64_t i, int64_t k, int64_t K) {
  return bf16InputValue(seed, 0, size_t(i) * K + k);
}
uint64_t weightSeed(uint64_t seed) { return seed ^ 0xb0b0b0b0ull; }

/// The side of the square grid of `pes` PEs.
int gridSide(int pes) {
  int q = int(std::lround(std::sqrt(double(pes))));
  if (q * q != pes)
    throw rt::Error("Cannon's GEMM needs a square number of PEs (1, 4, 9, "
                    "...); got " +
                    std::to_string(pes) + ": run it with tile-run -n 4");
  return q;
}

class Cannon {
public:
  Cannon(int q, int64_t maxMl, int64_t maxNl, int64_t maxKl)
      : run(cannon_kernels::module()), me(run.me), n(run.n), q(q),
        row(me / q), col(me % q), a(size_t(q) * maxMl * maxKl * 2),
        b(size_t(q) * maxNl * maxKl * 2), c(size_t(maxMl) * maxNl * 4) {
    run.requirePeersMapped(a.ptr());
    rt::nvshmemBarrierAll();
  }

  /// The neighbours this PE forwards its blocks of A and B to.
  int left() const { return row * q + (col + q - 1) % q; }
  int up() const { return (row + q - 1) % q * q + col; }

  /// One Cannon's GEMM of configuration `config` (see the file comment);
  /// `overlap` false: the GEMM alone, every slot taken as there (epoch 0,
  /// which every word satisfies).
  void call(size_t config, const LayerShape &s, bool overlap = true) {
    uint64_t word = 0;
    if (overlap) {
      word = run.beginCall();
      size_t aSlot = size_t(s.part) * s.k * 2, bSlot = size_t(s.n) * s.k * 2;
      for (int step = 0; step + 1 < q; ++step) {
        // Slot 0 is this PE's own; slot s > 0 is forwarded once it arrived.
        if (step > 0)
          rt::nvshmemSignalWaitOnStream(run.word(step), word, run.comm);
        rt::nvshmemPutSignalOnStream(a.ptr() + (step + 1) * aSlot,
                                     a.ptr() + step * aSlot, aSlot,
                                     run.word(step + 1), word, left(),
                                     run.comm);
        if (step > 0)
          rt::nvshmemSignalWaitOnStream(run.word(q + step), word, run.comm);
        rt::nvshmemPutSignalOnStream(b.ptr() + (step + 1) * bSlot,
                                     b.ptr() + step * bSlot, bSlot,
                                     run.word(q + step + 1), word, up(),
                                     run.comm);
      }
    }
    // Bound once per configuration and shape; only the epoch is set anew.
    auto key = std::make_tuple(config, s.part, s.n, s.k);
    auto it = bound.find(key);
    if (it == bound.end())
      it = bound
               .emplace(key,
                        cannon_kernels::cannon_gemm(
                            config,
                            rt::MemRef<rt::bf16, 2>::rowMajor(
                                a.ptr(), {q * s.part, s.k}),
                            rt::MemRef<rt::bf16, 2>::rowMajor(b.ptr(),
                                                              {q * s.n, s.k}),
                            rt::MemRef<float, 2>::rowMajor(c.ptr(),
                                                           {s.part, s.n}),
                            rt::MemRef<int64_t, 1>::rowMajor(run.flags.ptr(),
                                                             {2 * q}),
                            0, int32_t(q), run.compute))
               .first;
    it->second.set(4, int64_t(word)).launch();
    if (overlap)
      run.computeWaitsComm(); // the next call overwrites nothing in flight
  }

  /// This PE's skewed blocks in slot 0 from `seed`, the other slots and C
  /// poisoned; two calls; checks C against the CPU's product.
  bool check(size_t config, const LayerShape &s, uint64_t seed) {
    int64_t K = q * s.k, first = (row + col) % q * s.k;
    std::vector<uint16_t> hostA(size_t(q) * s.part * s.k, 0xFFFF),
        hostB(size_t(q) * s.n * s.k, 0xFFFF);
    for (int64_t i = 0; i < s.part; ++i)
      for (int64_t k = 0; k < s.k; ++k)
        hostA[size_t(i) * s.k + k] = rt::floatToBf16(
            aValue(seed, row * s.part + i, first + k, K));
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t k = 0; k < s.k; ++k)
        hostB[size_t(j) * s.k + k] = rt::floatToBf16(
            aValue(weightSeed(seed), col * s.n + j, first + k, K));
    a.upload(hostA);
    b.upload(hostB);
    poison(c);
    rt::nvshmemBarrierAll(); // no peer puts before the slots are poisoned
    // Two calls back to back: the second's barrier and puts follow the
    // first's GEMM on every PE without the host in between.
    call(config, s);
    call(config, s);
    checkCuda(cudaStreamSynchronize(run.compute), "cudaStreamSynchronize");
    rt::nvshmemBarrierAll();
    std::vector<float> got(size_t(s.part) * s.n);
    c.download(got);
    // The reference: this PE's rows of A and columns of B over the whole K.
    std::vector<float> rowsA(size_t(s.part) * K), rowsB(size_t(s.n) * K);
    for (int64_t i = 0; i < s.part; ++i)
      for (int64_t k = 0; k < K; ++k)
        rowsA[size_t(i) * K + k] = aValue(seed, row * s.part + i, k, K);
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t k = 0; k < K; ++k)
        rowsB[size_t(j) * K + k] =
            aValue(weightSeed(seed), col * s.n + j, k, K);
    size_t wrong = 0, firstWrong = 0;
    float firstWant = 0;
    for (int64_t i = 0; i < s.part; ++i)
      for (int64_t j = 0; j < s.n; ++j) {
        float want = 0, size = 0;
        for (int64_t k = 0; k < K; ++k) {
          float p = rowsA[size_t(i) * K + k] * rowsB[size_t(j) * K + k];
          want += p;
          size += std::fabs(p);
        }
        float have = got[size_t(i) * s.n + j];
        // fp32 sums in another order (the products of bf16 are exact;
        // wgmma adds them with its own rounding).
        if (!(std::fabs(have - want) <= 1e-3f * size + 1e-4f) &&
            wrong++ == 0) {
          firstWrong = size_t(i) * s.n + j;
          firstWant = want;
        }
      }
    if (wrong)
      std::printf("  PE %d (%d, %d), %s, blocks %lld x %lld x %lld: MISMATCH "
                  "in %zu of %zu; first C[%zu][%zu] = %g, want %g\n",
                  me, row, col, cannon_kernels::cannon_gemm_configs[config].kernel,
                  (long long)s.part, (long long)s.n, (long long)s.k, wrong,
                  got.size(), firstWrong / size_t(s.n),
                  firstWrong % size_t(s.n), got[firstWrong], firstWant);
    return wrong == 0;
  }

  OverlapRun run;
  int me, n, q, row, col;
  rt::SymmetricBuffer a, b;
  rt::DeviceBuffer c;
  // The launches bound so far, by configuration and shape.
  std::map<std::tuple<size_t, int64_t, int64_t, int64_t>, rt::BoundLaunch>
      bound;
};

int runAll(bool checkOnly) {
  int q = gridSide(rt::nvshmemNumPes());
  std::vector<LayerShape> shapes =
      layerShapes(kCheckShapes, benchShapes(q), checkOnly);
  int64_t maxMl = 0, maxNl = 0, maxKl = 0;
  for (const LayerShape &s : shapes) {
    maxMl = std::max(maxMl, s.part);
    maxNl = std::max(maxNl, s.n);
    maxKl = std::max(maxKl, s.k);
  }
  Cannon gemm(q, maxMl, maxNl, maxKl);
  OverlapRun &run = gemm.run;
  int me = run.me;
  collective::FromPe0 data = run.startRun(checkOnly);
  constexpr size_t kConfigs = cannon_kernels::cannon_gemm_config_count;
  auto name = [](size_t config) {
    return cannon_kernels::cannon_gemm_configs[config].kernel;
  };
  if (me == 0)
    std::printf("cannon: %d PE(s) as a %d x %d grid, C = A B^T (bf16 in, "
                "fp32 out), %zu configurations\n",
                run.n, q, q, kConfigs);
  bool ok = checkEveryConfiguration(
      run, data.seed, kConfigs, kCheckShapes,
      "blocks of 128, 200 and 136 rows", name,
      [&](size_t config, const LayerShape &s, uint64_t seed) {
        return gemm.check(config, s, seed);
      });
  if (!ok || checkOnly)
    return ok ? 0 : 1;

  CublasGemm cublas;
  cublas.setStream(run.compute);
  // The blocks this PE needs, gathered by NCCL: its row's of A (Ml x K in
  // all), its column's of B.
  rt::DeviceBuffer gatheredA(size_t(maxMl) * q * maxKl * 2),
      gatheredB(size_t(maxNl) * q * maxKl * 2),
      cublasC(size_t(maxMl) * maxNl * 4);
  size_t aCount = size_t(q) * maxMl * maxKl, bCount = size_t(q) * maxNl * maxKl;
  fillRandomBf16(gemm.a, aCount, data.seed);
  fillRandomBf16(gemm.b, bCount, ~data.seed);
  fillRandomBf16(gatheredA, aCount, data.seed + 1);
  fillRandomBf16(gatheredB, bCount, ~data.seed + 1);
#if TILE_EXAMPLES_NCCL
  collective::Nccl nccl;
  run.startNccl(data, nccl);
#endif
  if (me == 0)
    std::printf("\nmicroseconds, PE 0's medians of three interleaved rounds; "
                "M x N x K the whole product, each PE's block M/%d x N/%d\n"
                "  %-16s | %-28s %9s %7s | %11s %7s | %9s %9s %9s\n",
                q, q, "product", "tile: Cannon's GEMM", "us", "TFLOP/s",
                "NCCL+cuBLAS", "speedup", "tile GEMM", "cuBLAS", "NCCL");
  for (const LayerShape &s : benchShapes(q)) {
    int64_t K = q * s.k;
    int iters = benchIterations(s, run.n);
    size_t best = fastestConfiguration(
        run, kConfigs, iters, [&](size_t config) { gemm.call(config, s); });
    auto gemmOnGathered = [&] {
      cublas.run(gatheredA.ptr(), gatheredB.ptr(), cublasC.ptr(), s.part, s.n,
                 K);
    };
    std::vector<std::function<void()>> contenders = {
        [&] { gemm.call(best, s); },
        [&] { gemm.call(best, s, /*overlap=*/false); }, gemmOnGathered};
#if TILE_EXAMPLES_NCCL
    auto gather = [&] {
      size_t aBlock = size_t(s.part) * s.k, bBlock = size_t(s.n) * s.k;
      collective::checkNccl(ncclGroupStart(), "ncclGroupStart");
      for (int j = 0; j < q; ++j) {
        if (j == gemm.col)
          continue;
        int peer = gemm.row * q + j;
        collective::checkNccl(ncclSend((const void *)gemm.a.ptr(), aBlock,
                                       ncclBfloat16, peer, nccl.comm,
                                       run.compute),
                              "ncclSend");
        collective::checkNccl(
            ncclRecv((void *)(gatheredA.ptr() + size_t(j) * aBlock * 2),
                     aBlock, ncclBfloat16, peer, nccl.comm, run.compute),
            "ncclRecv");
      }
      for (int i = 0; i < q; ++i) {
        if (i == gemm.row)
          continue;
        int peer = i * q + gemm.col;
        collective::checkNccl(ncclSend((const void *)gemm.b.ptr(), bBlock,
                                       ncclBfloat16, peer, nccl.comm,
                                       run.compute),
                              "ncclSend");
        collective::checkNccl(
            ncclRecv((void *)(gatheredB.ptr() + size_t(i) * bBlock * 2),
                     bBlock, ncclBfloat16, peer, nccl.comm, run.compute),
            "ncclRecv");
      }
      collective::checkNccl(ncclGroupEnd(), "ncclGroupEnd");
    };
    if (nccl.comm) {
      contenders.push_back([&] {
        gather();
        gemmOnGathered();
      });
      contenders.push_back(gather);
    }
#endif
    std::vector<float> ms =
        collective::interleavedMedianMs(run.compute, contenders, iters);
    if (me != 0)
      continue;
    double flop = 2.0 * double(s.part) * double(s.n) * double(K);
    std::printf("  %-16s | %-28s %9.1f %7.0f |", s.what,
                name(best) + std::strlen("cannon_gemm__"), ms[0] * 1e3,
                flop / (ms[0] * 1e-3) / 1e12);
    printAgainstAnchor(ms, 3, 11);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return overlapMain(argc, argv, "cannon", runAll);
}
