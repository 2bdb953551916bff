//===- GemmChoice.h - which GEMM kernel a shape runs on ---------*- C++ -*-===//
//
// The kernel choice by shape for C[M, N] (fp32) = A[M, K] B[N, K]^T (bf16):
// a table of measured shapes and a rule for the rest, over the compiled
// Hopper kernels, from the shape and the device's SM count, so that callers
// name no kernel. It needs no GPU and names no
// kernel file (HopperKernels.h loads the kernels; gemm-choice-test checks
// the rule).
//
// The rule is a cost model fitted to the measured sweep (docs/measurements.md,
// "GEMM at every shape"): a persistent kernel's time is its number of
// waves of tiles over the SMs times a tile's time (its K loop and its
// epilogue), so a shape whose tiles leave part of the last wave idle loses
// that share; larger tiles are faster per K step, ping-pong teams hide the
// epilogue, and stream-K loses no wave but pays for zeroing and adding
// partial tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_GEMMCHOICE_H
#define TILE_EXAMPLES_GEMM_GEMMCHOICE_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tile::examples {

struct GemmShape {
  int64_t m, n, k;
  const char *what;
};

/// The Hopper GEMM kernels a shape may be given.
enum class GemmKernel {
  Tile128x256,     // gemm.mlir (defaults): persistent, two warpgroups of 64 x 256
  Tile256x128,     // gemm.mlir BM = 256: two warpgroups of 128 x 128
  Tile128x128,     // gemm-tiles.mlir BN = 128: one CTA per tile
  Tile128x64,      // gemm-tiles.mlir BN = 64: 128 x 64 tiles, one CTA per tile
  Pingpong128x128, // gemm.mlir PINGPONG: 128 x 128 ping-pong teams
  StreamK,         // gemm-streamk.mlir (defaults): 128 x 256 tiles, stream-K
  StreamK128x128,  // gemm-streamk.mlir BN = 128: 128 x 128 tiles, stream-K
  Pingpong64x256,  // gemm.mlir PINGPONG: 64 x 256 ping-pong teams
};

/// The shapes the rule is tuned and judged on (gemm-bench's sweep; gemm-check
/// checks the choice on each): squares, including sizes that are not
/// multiples of the tiles; GPT-2 small's linear layers at batch 1 and 8
/// (1024 and 8192 tokens: qkv, attention output, MLP up and down, logits);
/// skinny M; short K; rectangles. Each with the choice's table entry: the
/// fastest kernel measured on it on an H100 SXM (132 SMs; gemm-bench --all,
/// 2026-11-24, docs/measurements.md), like an autotuner's cache. The model
/// misses 8 of these 23 shapes, by up to 0.17x of cuBLAS (128 x 8192 x 8192)
/// and 0.27x on the logits (8192 x 50257 x 768, left out of the fit), where
/// several kernels' costs are close or a cost it does not model (L2 reuse)
/// decides. An H200 (also 132 SMs) uses the table too, unmeasured there.
struct GemmSweepEntry {
  GemmShape shape;
  GemmKernel fastest;
};
inline constexpr int64_t kGemmTableSms = 132;
inline constexpr GemmSweepEntry kGemmSweep[] = {
    {{1024, 1024, 1024, "square"}, GemmKernel::Tile128x64},
    {{2048, 2048, 2048, "square"}, GemmKernel::Tile128x256},
    {{3000, 3000, 3000, "square, ragged"}, GemmKernel::StreamK},
    {{3072, 3072, 3072, "square"}, GemmKernel::Pingpong64x256},
    {{4096, 4096, 4096, "square"}, GemmKernel::Tile128x256},
    {{5120, 5120, 5120, "square"}, GemmKernel::StreamK},
    {{6144, 6144, 6144, "square"}, GemmKernel::Tile128x256},
    {{8192, 8192, 8192, "square"}, GemmKernel::Tile128x256},
    {{1024, 2304, 768, "GPT-2 B1 qkv"}, GemmKernel::Tile128x256},
    {{1024, 768, 768, "GPT-2 B1 attn out"}, GemmKernel::Tile128x64},
    {{1024, 3072, 768, "GPT-2 B1 mlp up"}, GemmKernel::Pingpong128x128},
    {{1024, 768, 3072, "GPT-2 B1 mlp down"}, GemmKernel::Tile128x64},
    {{1024, 50257, 768, "GPT-2 B1 logits"}, GemmKernel::Pingpong64x256},
    {{8192, 2304, 768, "GPT-2 B8 qkv"}, GemmKernel::Pingpong128x128},
    {{8192, 768, 768, "GPT-2 B8 attn out"}, GemmKernel::Pingpong128x128},
    {{8192, 3072, 768, "GPT-2 B8 mlp up"}, GemmKernel::Tile128x256},
    {{8192, 768, 3072, "GPT-2 B8 mlp down"}, GemmKernel::Pingpong64x256},
    {{8192, 50257, 768, "GPT-2 B8 logits"}, GemmKernel::Tile128x128},
    {{64, 4096, 4096, "skinny M"}, GemmKernel::StreamK},
    {{128, 8192, 8192, "skinny M"}, GemmKernel::Tile128x64},
    {{4096, 4096, 1024, "short K"}, GemmKernel::Tile128x256},
    {{8192, 2048, 4096, "rectangle"}, GemmKernel::Tile128x256},
    {{2048, 8192, 8192, "rectangle"}, GemmKernel::Tile128x256},
};

inline std::vector<GemmShape> gemmSweepShapes() {
  std::vector<GemmShape> shapes;
  for (const GemmSweepEntry &e : kGemmSweep)
    shapes.push_back(e.shape);
  return shapes;
}

/// What the rule knows of a kernel: its name as gemm-bench prints it, its
/// tile, and its costs in microseconds on an H100 SXM (132 SMs), fitted to
/// the sweep's timings (docs/measurements.md, "GEMM at every shape"): per
/// K step of 64 of one tile, per tile (the epilogue and the pipeline's
/// ramp, which ping-pong teams hide), and per launch (stream-K: zeroing
/// part of C, a second launch). A stream-K kernel's K step is its
/// data-parallel twin's (the same main loop); its per-tile cost, fitted
/// with that step held fixed, includes adding partial tiles. And how much slower a K step is when the
/// rows of A and B are not whole 128-byte lines (K % 64 != 0: each row of
/// a TMA box then spans two L2 lines; fitted on 3000^3, where ncu counts
/// 2.5x the L2 requests of 3072^3). `cByTma`: the kernel writes C through
/// a tensor map (stream-K's reductions), which needs 16-byte rows of C
/// (N % 4 == 0).
struct GemmKernelTraits {
  GemmKernel kernel;
  const char *name;
  int64_t tileM, tileN;
  double stepUs, tileUs, launchUs;
  double unalignedStep;
  bool cByTma = false;
};

inline constexpr GemmKernelTraits kGemmKernels[] = {
    {GemmKernel::Tile128x256, "128x256", 128, 256, 0.659, 5.98, 1.53, 1.33},
    {GemmKernel::Tile256x128, "256x128", 256, 128, 0.677, 6.29, 1.32, 1.30},
    {GemmKernel::Tile128x128, "128x128", 128, 128, 0.426, 3.26, 1.80, 1.43},
    {GemmKernel::Tile128x64, "128x64", 128, 64, 0.394, 1.21, 3.08, 1.43},
    {GemmKernel::Pingpong128x128, "pingpong-128x128", 128, 128, 0.441, 1.35,
     3.92, 1.50},
    {GemmKernel::StreamK, "stream-k", 128, 256, 0.659, 11.4, 2.89, 1.23,
     true},
    {GemmKernel::StreamK128x128, "stream-k-128x128", 128, 128, 0.426, 3.60,
     9.20, 1.41, true},
    {GemmKernel::Pingpong64x256, "pingpong-64x256", 64, 256, 0.408, 2.18,
     3.09, 1.92},
};

inline const GemmKernelTraits &gemmKernelTraits(GemmKernel kernel) {
  for (const GemmKernelTraits &traits : kGemmKernels)
    if (traits.kernel == kernel)
      return traits;
  return kGemmKernels[0];
}

/// Whether `traits`'s kernel can run an M x N x K product (N: see cByTma).
inline bool gemmKernelTakes(const GemmKernelTraits &traits, int64_t m,
                            int64_t n, int64_t k) {
  (void)m, (void)k;
  return !traits.cByTma || n % 4 == 0;
}

namespace detail {
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace detail

/// gemm-streamk.mlir's split of `tiles` tiles over `ctas` CTAs: how many of
/// the last ones are shared out by K steps (T mod P + P of them, at most
/// T; none when P divides T). The whole waves before them run as in
/// gemm.mlir.
inline int64_t streamKTiles(int64_t tiles, int64_t ctas) {
  int64_t ragged = tiles % ctas;
  return ragged ? std::min(ragged + ctas, tiles) : 0;
}

/// The modelled time (microseconds) of `traits`'s kernel on an M x N x K
/// product over `sms` SMs. A persistent kernel runs its T tiles in
/// ceil(T / sms) waves, each wave costing a tile's K loop and its
/// epilogue. Stream-K runs the whole waves so, then each CTA an equal share
/// of the last tiles' K steps, paying a tile's cost for each tile its
/// share touches.
inline double gemmModelMicroseconds(const GemmKernelTraits &traits, int64_t m,
                                    int64_t n, int64_t k, int64_t sms) {
  using detail::ceilDiv;
  int64_t tiles = ceilDiv(m, traits.tileM) * ceilDiv(n, traits.tileN);
  int64_t ksteps = ceilDiv(k, 64);
  double stepUs = traits.stepUs * (k % 64 ? traits.unalignedStep : 1.0);
  bool streamK = traits.kernel == GemmKernel::StreamK ||
                 traits.kernel == GemmKernel::StreamK128x128;
  if (!streamK) {
    double waves = double(ceilDiv(tiles, sms));
    return waves * (double(ksteps) * stepUs + traits.tileUs) +
           traits.launchUs;
  }
  int64_t skTiles = streamKTiles(tiles, sms);
  double dpWaves = double((tiles - skTiles) / sms);
  double share = double(skTiles) * double(ksteps) / double(sms);
  double touched = skTiles ? share / double(ksteps) + 1.0 : 0.0;
  return (dpWaves * double(ksteps) + share) * stepUs +
         (dpWaves + touched) * traits.tileUs + traits.launchUs;
}

/// The model's kernel for an M x N x K product on a device with `sms` SMs:
/// of those that can take the shape, the one whose modelled time is lowest
/// (ties go to the earlier in kGemmKernels).
inline GemmKernel modelGemmKernel(int64_t m, int64_t n, int64_t k,
                                  int64_t sms) {
  const GemmKernelTraits *best = nullptr;
  double bestUs = 0;
  for (const GemmKernelTraits &traits : kGemmKernels) {
    if (!gemmKernelTakes(traits, m, n, k))
      continue;
    double us = gemmModelMicroseconds(traits, m, n, k, sms);
    if (!best || us < bestUs) {
      best = &traits;
      bestUs = us;
    }
  }
  return best->kernel;
}

/// The kernel for an M x N x K product on a device with `sms` SMs: the
/// table's (kGemmSweep) where it holds the shape and was measured on as
/// many SMs, the model's elsewhere.
inline GemmKernel chooseGemmKernel(int64_t m, int64_t n, int64_t k,
                                   int64_t sms) {
  if (sms == kGemmTableSms)
    for (const GemmSweepEntry &e : kGemmSweep)
      if (e.shape.m == m && e.shape.n == n && e.shape.k == k &&
          gemmKernelTakes(gemmKernelTraits(e.fastest), m, n, k))
        return e.fastest;
  return modelGemmKernel(m, n, k, sms);
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_GEMMCHOICE_H
