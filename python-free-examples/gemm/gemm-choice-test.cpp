//===- gemm-choice-test.cpp - the kernel choice by shape, without a GPU ---===//
//
// The rule of GemmChoice.h on an H100's 132 SMs: the kernel it picks for
// each shape of gemm-bench's sweep is the one that was fastest there when
// the rule was fitted (docs/measurements.md, "GEMM at every shape"), except
// where the record says the model misses; and the model's pieces behave:
// stream-K splits only ragged waves, more K steps cost more.
//
//===----------------------------------------------------------------------===//

#include "GemmChoice.h"

#include <cstdio>
#include <cstring>

using namespace tile::examples;

namespace {
int failures = 0;

void expectChoice(int64_t m, int64_t n, int64_t k, GemmKernel expected) {
  GemmKernel got = chooseGemmKernel(m, n, k, 132);
  if (got != expected) {
    std::printf("FAIL %lld x %lld x %lld: chose %s, expected %s\n",
                (long long)m, (long long)n, (long long)k,
                gemmKernelTraits(got).name, gemmKernelTraits(expected).name);
    ++failures;
  }
}

void expect(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL %s\n", what);
    ++failures;
  }
}
} // namespace

int main() {
  // The sweep's fastest kernels (H100, 2026-11-24) where the model agrees.
  expectChoice(1024, 1024, 1024, GemmKernel::Pingpong64x256);
  expectChoice(2048, 2048, 2048, GemmKernel::Tile128x256);
  expectChoice(3072, 3072, 3072, GemmKernel::Pingpong64x256);
  expectChoice(4096, 4096, 4096, GemmKernel::Tile128x256);
  expectChoice(8192, 8192, 8192, GemmKernel::Tile128x256);
  expectChoice(1024, 2304, 768, GemmKernel::Tile128x256);
  expectChoice(8192, 2304, 768, GemmKernel::Pingpong128x128);
  expectChoice(8192, 768, 768, GemmKernel::Pingpong128x128);
  expectChoice(8192, 768, 3072, GemmKernel::Pingpong64x256);
  expectChoice(1024, 768, 3072, GemmKernel::Pingpong64x256);
  expectChoice(4096, 4096, 1024, GemmKernel::Tile128x256);
  expectChoice(2048, 8192, 8192, GemmKernel::Tile128x256);
  // Rows that are not whole 128-byte lines slow the ping-pong kernels most.
  expectChoice(3000, 3000, 3000, GemmKernel::Tile128x256);
  // Few tiles and a long K: only stream-K fills the SMs.
  expectChoice(64, 4096, 4096, GemmKernel::StreamK128x128);

  // Every shape gets a kernel the traits know, and the names are unique.
  for (const GemmShape &s : gemmSweepShapes())
    expect(std::strlen(gemmKernelTraits(chooseGemmKernel(s.m, s.n, s.k, 132))
                           .name) > 0,
           "a sweep shape has no kernel");
  for (const GemmKernelTraits &a : kGemmKernels)
    for (const GemmKernelTraits &b : kGemmKernels)
      expect(&a == &b || std::strcmp(a.name, b.name) != 0,
             "two kernels share a name");

  // The model: when the SMs divide the tiles, stream-K is the data-parallel
  // kernel plus its launch cost; a ragged wave costs it less than a whole
  // one; more K costs more.
  const GemmKernelTraits &sk = gemmKernelTraits(GemmKernel::StreamK);
  double even = gemmModelMicroseconds(sk, 128 * 132, 256, 4096, 132);
  double evenDp = 132.0 / 132 * (64 * sk.stepUs + sk.tileUs) + sk.launchUs;
  expect(even > evenDp - 1e-9 && even < evenDp + 1e-9,
         "stream-K splits a shape whose tiles fill whole waves");
  double ragged = gemmModelMicroseconds(sk, 128 * 133, 256, 4096, 132);
  double twoWaves = gemmModelMicroseconds(sk, 128 * 264, 256, 4096, 132);
  expect(ragged < twoWaves, "stream-K pays a whole wave for one more tile");
  for (const GemmKernelTraits &t : kGemmKernels)
    expect(gemmModelMicroseconds(t, 4096, 4096, 2048, 132) <
               gemmModelMicroseconds(t, 4096, 4096, 4096, 132),
           "a longer K is not slower in the model");

  if (failures)
    return 1;
  std::printf("gemm-choice-test: all checks passed\n");
  return 0;
}
