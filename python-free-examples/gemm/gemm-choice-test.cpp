//===- gemm-choice-test.cpp - the kernel choice by shape, without a GPU ---===//
//
// The choice of GemmChoice.h on an H100's 132 SMs: the table answers for
// the sweep's shapes and nothing else; the model picks the kernel that was
// fastest on each sweep shape when it was fitted (docs/measurements.md,
// "GEMM at every shape"), except where the record says it misses; and the
// model's pieces behave:
// stream-K splits only ragged waves, more K steps cost more; a kernel is
// chosen only where it can run.
//
//===----------------------------------------------------------------------===//

#include "GemmChoice.h"

#include <cstdio>
#include <cstring>

using namespace tile::examples;

namespace {
int failures = 0;

void expectChoice(int64_t m, int64_t n, int64_t k, GemmKernel expected,
                  bool model = false) {
  GemmKernel got = model ? modelGemmKernel(m, n, k, 132)
                         : chooseGemmKernel(m, n, k, 132);
  if (got != expected) {
    std::printf("FAIL %lld x %lld x %lld: %s chose %s, expected %s\n",
                (long long)m, (long long)n, (long long)k,
                model ? "the model" : "the choice", gemmKernelTraits(got).name,
                gemmKernelTraits(expected).name);
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
  // The model picks the sweep's fastest kernel (H100, 2026-11-24) where
  // the record says it does.
  const bool model = true;
  expectChoice(2048, 2048, 2048, GemmKernel::Tile128x256, model);
  expectChoice(4096, 4096, 4096, GemmKernel::Tile128x256, model);
  expectChoice(8192, 8192, 8192, GemmKernel::Tile128x256, model);
  expectChoice(6144, 6144, 6144, GemmKernel::Tile128x256, model);
  expectChoice(1024, 2304, 768, GemmKernel::Tile128x256, model);
  expectChoice(8192, 2304, 768, GemmKernel::Pingpong128x128, model);
  expectChoice(8192, 768, 768, GemmKernel::Pingpong128x128, model);
  expectChoice(8192, 768, 3072, GemmKernel::Pingpong64x256, model);
  expectChoice(4096, 4096, 1024, GemmKernel::Tile128x256, model);
  expectChoice(2048, 8192, 8192, GemmKernel::Tile128x256, model);
  // Products of few 128 x 128 tiles: 128 x 64 tiles fill more SMs.
  expectChoice(1024, 1024, 1024, GemmKernel::Tile128x64, model);
  expectChoice(1024, 768, 768, GemmKernel::Tile128x64, model);
  // A ragged last wave of 128 x 256 tiles (6 waves and 8 tiles): stream-K.
  expectChoice(5120, 5120, 5120, GemmKernel::StreamK, model);
  // Few tiles and a long K: stream-K fills the SMs. (The model's choice;
  // 128x64 measured 2% faster there, one of the model's misses, which the
  // table corrects.)
  expectChoice(1024, 768, 3072, GemmKernel::StreamK128x128, model);
  // ... unless C's rows are not 16 bytes (N % 4 != 0): stream-K adds its
  // partial tiles by TMA, which cannot address them.
  GemmKernel oddN = chooseGemmKernel(64, 4097, 4096, 132);
  expect(!gemmKernelTraits(oddN).cByTma,
         "a kernel that writes C by TMA was chosen for N % 4 != 0");

  // The table answers for its shapes on 132 SMs only; elsewhere the model.
  for (const GemmSweepEntry &e : kGemmSweep) {
    const GemmShape &s = e.shape;
    expectChoice(s.m, s.n, s.k, e.fastest);
    expect(chooseGemmKernel(s.m, s.n, s.k, 114) ==
               modelGemmKernel(s.m, s.n, s.k, 114),
           "the table answered for another SM count");
  }
  expect(chooseGemmKernel(3000, 3000, 2999, 132) ==
             modelGemmKernel(3000, 3000, 2999, 132),
         "the table answered for a shape it does not hold");
  for (const GemmShape &s : gemmSweepShapes()) {
    bool listed = false;
    for (const GemmSweepEntry &e : kGemmSweep)
      listed |= e.shape.m == s.m && e.shape.n == s.n && e.shape.k == s.k;
    expect(listed, "a sweep shape is missing from the table");
  }

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
