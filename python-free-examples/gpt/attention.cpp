//===- attention.cpp - check and time the flash attention kernels ---------===//
//
// attention.mlir on GPT-2's layout (Attention.h):
//
//   attention [--check] [--bench] [--seed S]
//
// --check runs each head dim, causal and not, on small problems with fresh
// random inputs, the output poisoned (NaN) first with a poisoned guard after
// it, against a double-precision CPU reference from the same bf16 inputs.
// --bench times the problems of the issue and prints TFLOP/s (causal FLOPs
// halved). Without either, both. Exits 1 when a check fails, 77 without a
// GPU.
//
//===----------------------------------------------------------------------===//

#include "Attention.h"
#include "GptMain.h"

#include <algorithm>
#include <cstring>

using namespace tile;
using namespace tile::examples;
using namespace tile::examples::gpt;

namespace {

constexpr uint16_t kPoison = 0xFFFF; // what poison() writes: a NaN
constexpr size_t kGuard = 128 * 128;

const char *describe(const AttentionShape &s) {
  static char text[96];
  std::string kv = s.keyValueHeads() == s.heads
                       ? ""
                       : "KV" + std::to_string(s.keyValueHeads());
  std::snprintf(text, sizeof(text), "hd%lld B%lldH%lld%sS%lld %s",
                (long long)s.headDim, (long long)s.batch, (long long)s.heads,
                kv.c_str(), (long long)s.seq, s.causal ? "causal" : "full");
  return text;
}

bool checkOne(const AttentionShape &shape) {
  int64_t rows = shape.batch * shape.seq;
  int64_t width = shape.heads * shape.headDim;
  Bf16Data qkv = randomBf16(size_t(rows) * shape.qkvWidth(), -2, 2);
  rt::DeviceBuffer dqkv(qkv.bits.size() * 2);
  dqkv.upload(qkv.bits);
  size_t elements = size_t(rows) * width;
  rt::DeviceBuffer dout((elements + kGuard) * 2);
  poison(dout);
  rt::BoundLaunch kernel = bindAttention(shape, dqkv.ptr(), dout.ptr());
  kernel.launch();
  rt::synchronize();
  std::vector<uint16_t> out(elements + kGuard);
  dout.download(out);

  std::vector<double> expected = attentionReference(
      qkv.values, shape.batch, shape.heads, shape.seq, shape.headDim,
      shape.causal, /*roundP=*/false, shape.keyValueHeads());
  Tolerance tolerance = attentionTolerance();
  size_t bad = 0, first = 0;
  double worst = 0, maxError = 0, maxExpected = 0;
  for (size_t k = 0; k < elements; ++k) {
    double got = rt::bf16ToFloat(out[k]);
    double err = std::fabs(got - expected[k]);
    maxExpected = std::max(maxExpected, std::fabs(expected[k]));
    if (!(err <= tolerance.of(expected[k]))) {
      if (!bad++)
        first = k;
      continue;
    }
    maxError = std::max(maxError, err);
    worst = std::max(worst, err / tolerance.of(expected[k]));
  }
  for (size_t k = elements; k < out.size() && !bad; ++k)
    if (out[k] != kPoison) {
      std::printf("  MISMATCH %s: wrote 0x%04x %zu elements past the output\n",
                  describe(shape), out[k], k - elements);
      return false;
    }
  if (bad) {
    std::printf("  MISMATCH %s at row %zu col %zu: got %.6g, expected %.6g; "
                "%zu of %zu wrong\n",
                describe(shape), first / size_t(width), first % size_t(width),
                rt::bf16ToFloat(out[first]), expected[first], bad, elements);
    return false;
  }
  std::printf("  %-28s ok (max error %.2e, %.2e of the largest output; "
              "worst %.2f of tolerance)\n",
              describe(shape), maxError, maxError / maxExpected, worst);
  return true;
}

bool check() {
  const AttentionShape shapes[] = {
      {2, 3, 256, 64, false},  {2, 3, 256, 64, true},
      {1, 2, 640, 64, false},  {1, 2, 640, 64, true},
      {1, 2, 128, 64, true},   {2, 2, 256, 128, false},
      {2, 2, 256, 128, true},  {1, 1, 640, 128, true},
      // Sequences that are not a multiple of the tile: the last tile's
      // keys past S masked, its rows past S not written (the next
      // sequence's rows are checked too).
      {3, 2, 200, 64, false},  {3, 2, 200, 64, true},
      {2, 2, 77, 128, false},  {2, 2, 77, 128, true},
      {2, 1, 1, 64, false},    {1, 2, 383, 64, true},
      // Grouped-query attention: 4 and 8 query heads per key/value head.
      {2, 8, 256, 64, false, 2}, {2, 8, 256, 64, true, 2},
      {1, 8, 200, 128, true, 1}, {2, 8, 300, 64, false, 1},
      // Head dim 256: tiles of 64 keys.
      {2, 2, 256, 256, false}, {2, 2, 256, 256, true},
      {1, 2, 200, 256, true},  {2, 4, 130, 256, false, 2},
  };
  bool ok = true;
  for (const AttentionShape &shape : shapes)
    ok &= checkOne(shape);
  return ok;
}

void bench(const rt::Device &device) {
  std::printf("bench on %s: median ms per launch of 20 after a warm-up; "
              "TFLOP/s = 4 B H S^2 hd / time, halved when causal\n",
              device.name().c_str());
  std::printf("  %-28s %9s %9s\n", "problem", "ms", "TFLOP/s");
  struct Problem {
    int64_t b, h, s, hd;
  };
  const Problem problems[] = {{8, 12, 1024, 64}, {4, 12, 2048, 64},
                              {2, 12, 4096, 64}, {1, 12, 8192, 64},
                              {4, 16, 4096, 128}, {2, 16, 8192, 128},
                              {1, 16, 16384, 128}, {4, 8, 4096, 256}};
  rt::Timer timer;
  for (bool causal : {false, true})
    for (Problem p : problems) {
      AttentionShape shape{p.b, p.h, p.s, p.hd, causal};
      int64_t rows = p.b * p.s, width = p.h * p.hd;
      Bf16Data qkv = randomBf16(size_t(rows) * shape.qkvWidth(), -2, 2);
      rt::DeviceBuffer dqkv(qkv.bits.size() * 2), dout(size_t(rows) * width * 2);
      dqkv.upload(qkv.bits);
      rt::BoundLaunch kernel = bindAttention(shape, dqkv.ptr(), dout.ptr());
      float ms = timer.timeMs([&] { kernel.launch(); }, 3, 20);
      std::printf("  %-28s %9.4f %9.1f\n", describe(shape), ms,
                  shape.flops() / (double(ms) * 1e9));
    }
}

} // namespace

int main(int argc, char **argv) {
  return gptMain(argc, argv, "attention", /*takesFilter=*/false,
                 [](const rt::Device &device, const RunOptions &options) {
                   bool ok = !options.check || check();
                   if (options.bench)
                     bench(device);
                   return ok;
                 });
}
