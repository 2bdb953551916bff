//===- gpt-kernels.cpp - check and time the GPT building blocks -----------===//
//
// layernorm.mlir, softmax.mlir, gelu.mlir and residual.mlir (the table in
// GptKernels.h says how each kernel is launched):
//
//   gpt-kernels [--check] [--bench] [--seed S] [FILTER]
//
// --check runs every kernel on odd shapes with fresh random inputs, outputs
// poisoned (NaN) first and a poisoned guard after the output that must stay
// untouched, and compares each element with a double-precision CPU
// reference from the same bf16 inputs. --bench times each kernel on GPT-2
// sized problems next to a device-to-device copy of the same bytes,
// interleaved in the same run. Without either, both; FILTER keeps the
// kernels whose name contains it. Exits 1 when a check fails, 77 without a
// GPU.
//
//===----------------------------------------------------------------------===//

#include "GptKernels.h"
#include "GptMain.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

using namespace tile;
using namespace tile::examples;
using namespace tile::examples::gpt;

namespace {

constexpr float kEps = 1e-5f;
/// Poisoned elements after every output; more than one CTA's worth of any
/// kernel in the table, so that a CTA past the end that is not skipped
/// shows up.
constexpr size_t kGuard = 8192;
constexpr uint16_t kPoison = 0xFFFF; // what poison() writes: a NaN

bool matches(const char *filter, const char *name) {
  return !filter || std::strstr(name, filter);
}

rt::DeviceBuffer uploadBf16(const std::vector<uint16_t> &bits) {
  rt::DeviceBuffer buffer(std::max<size_t>(1, bits.size()) * 2);
  buffer.upload(bits);
  return buffer;
}

//===----------------------------------------------------------------------===//
// Check
//===----------------------------------------------------------------------===//

/// Compares the kernel's output (with its guard) with `expected`; prints the
/// first mismatch. m x n for row ops, 1 x n for flat ones.
bool compare(const KernelSpec &spec, int64_t m, int64_t n,
             const std::vector<uint16_t> &out,
             const std::vector<double> &expected, double &worst) {
  Tolerance tolerance = toleranceFor(spec.op, n);
  size_t elements = size_t(m) * n, bad = 0, first = 0;
  worst = 0;
  for (size_t k = 0; k < elements; ++k) {
    double got = rt::bf16ToFloat(out[k]);
    double tol = tolerance.of(expected[k]);
    double err = std::fabs(got - expected[k]);
    if (!(err <= tol)) {
      if (!bad++)
        first = k;
      continue;
    }
    if (tol > 0)
      worst = std::max(worst, err / tol);
  }
  if (bad) {
    double got = rt::bf16ToFloat(out[first]);
    if (isRowOp(spec.op))
      std::printf("  MISMATCH %s M=%lld N=%lld at row %zu col %zu: ", spec.name,
                  (long long)m, (long long)n, first / size_t(n),
                  first % size_t(n));
    else
      std::printf("  MISMATCH %s n=%lld at element %zu: ", spec.name,
                  (long long)n, first);
    std::printf("got %.8g, expected %.8g (tolerance %.3g); %zu of %zu "
                "elements wrong\n",
                got, expected[first], tolerance.of(expected[first]), bad,
                elements);
    return false;
  }
  for (size_t k = elements; k < out.size(); ++k)
    if (out[k] != kPoison) {
      std::printf("  MISMATCH %s M=%lld N=%lld: wrote 0x%04x past the end of "
                  "the output, %zu elements after it\n",
                  spec.name, (long long)m, (long long)n, out[k], k - elements);
      return false;
    }
  return true;
}

/// Runs `kernel` once on m x n (flat ops: m = 1) with fresh inputs and
/// checks it.
bool checkOne(GptKernel &kernel, int64_t m, int64_t n) {
  const KernelSpec &spec = kernel.kernelSpec();
  size_t elements = size_t(m) * n;
  rt::DeviceBuffer y((elements + kGuard) * 2);
  poison(y);
  std::vector<double> expected;
  // Inputs stay alive until the kernel has finished.
  std::vector<rt::DeviceBuffer> inputs;
  // What else the kernel must have written (x, for the residual add).
  std::function<bool()> checkInPlace = [] { return true; };
  switch (spec.op) {
  case Op::LayerNorm: {
    Bf16Data x = randomBf16(elements, -2, 2);
    // Rows with a mean away from zero, so that forgetting it shows, and
    // every fourth far from it (300 against a spread of about 1), where a
    // variance taken as mean(x^2) - mean^2 in fp32 would cancel.
    std::uniform_real_distribution<float> shift(-2, 2);
    shiftRows(x, m, n, [&](int64_t i) {
      return (i % 4 == 3 ? 300.0f : 0.0f) + shift(rng());
    });
    Bf16Data w = randomBf16(n, 0.5f, 1.5f), b = randomBf16(n, -0.25f, 0.25f);
    for (Bf16Data *data : {&x, &w, &b})
      inputs.push_back(uploadBf16(data->bits));
    kernel.bindRows(inputs[0].ptr(), y.ptr(), m, n, inputs[1].ptr(),
                    inputs[2].ptr(), kEps);
    expected = layernormReference(x.values, w.values, b.values, m, n, kEps);
    break;
  }
  case Op::ResidualLayerNorm: {
    Bf16Data x = randomBf16(elements, -2, 2), res = randomBf16(elements, -1, 1);
    std::uniform_real_distribution<float> shift(-2, 2);
    shiftRows(x, m, n, [&](int64_t i) {
      return (i % 4 == 3 ? 300.0f : 0.0f) + shift(rng());
    });
    Bf16Data w = randomBf16(n, 0.5f, 1.5f), b = randomBf16(n, -0.25f, 0.25f);
    for (Bf16Data *data : {&x, &res, &w, &b})
      inputs.push_back(uploadBf16(data->bits));
    kernel.bindRows(inputs[0].ptr(), y.ptr(), m, n, inputs[2].ptr(),
                    inputs[3].ptr(), kEps, inputs[1].ptr());
    // x + res rounded to bf16 once: the new x, exactly, and what is
    // normalised.
    std::vector<uint16_t> sum(elements);
    std::vector<float> sumValues(elements);
    for (size_t k = 0; k < elements; ++k) {
      sum[k] = rt::floatToBf16(x.values[k] + res.values[k]);
      sumValues[k] = rt::bf16ToFloat(sum[k]);
    }
    expected = layernormReference(sumValues, w.values, b.values, m, n, kEps);
    checkInPlace = [&, sum] {
      std::vector<uint16_t> got(elements);
      inputs[0].download(got);
      for (size_t k = 0; k < elements; ++k)
        if (got[k] != sum[k]) {
          std::printf("  MISMATCH %s: x at element %zu is 0x%04x, x + res is "
                      "0x%04x\n",
                      spec.name, k, got[k], sum[k]);
          return false;
        }
      return true;
    };
    break;
  }
  case Op::RmsNorm: {
    Bf16Data x = randomBf16(elements, -2, 2), w = randomBf16(n, 0.5f, 1.5f);
    for (Bf16Data *data : {&x, &w})
      inputs.push_back(uploadBf16(data->bits));
    kernel.bindRows(inputs[0].ptr(), y.ptr(), m, n, inputs[1].ptr(), 0, kEps);
    expected = rmsnormReference(x.values, w.values, m, n, kEps);
    break;
  }
  case Op::Softmax: {
    Bf16Data x = randomBf16(elements, -4, 4);
    // Every third row around 100, where exp overflows fp32 unless the
    // row's maximum is subtracted first.
    shiftRows(x, m, n, [](int64_t i) { return i % 3 == 1 ? 100.0f : 0.0f; });
    inputs.push_back(uploadBf16(x.bits));
    kernel.bindRows(inputs[0].ptr(), y.ptr(), m, n);
    expected = softmaxReference(x.values, m, n);
    break;
  }
  case Op::Gelu: {
    Bf16Data x = randomBf16(elements, -3, 3);
    inputs.push_back(uploadBf16(x.bits));
    kernel.bindFlat({inputs[0].ptr(), y.ptr()}, n);
    expected = geluReference(x.values);
    break;
  }
  case Op::Residual: {
    Bf16Data a = randomBf16(elements, -2, 2), b = randomBf16(elements, -2, 2);
    inputs.push_back(uploadBf16(a.bits));
    inputs.push_back(uploadBf16(b.bits));
    kernel.bindFlat({inputs[0].ptr(), inputs[1].ptr(), y.ptr()}, n);
    expected = residualReference(a.values, b.values);
    break;
  }
  }
  kernel.launch();
  rt::synchronize();
  std::vector<uint16_t> out(elements + kGuard);
  y.download(out);
  double worst = 0;
  bool ok = compare(spec, m, n, out, expected, worst) && checkInPlace();
  if (isRowOp(spec.op))
    std::printf("  %-23s M=%-4lld N=%-5lld %s", spec.name, (long long)m,
                (long long)n, ok ? "ok" : "FAILED");
  else
    std::printf("  %-23s n=%-10lld %s", spec.name, (long long)n,
                ok ? "ok" : "FAILED");
  if (ok)
    std::printf(" (worst error %.2f of tolerance)", worst);
  std::printf("\n");
  return ok;
}

bool check(const GptModules &modules, const char *filter) {
  const int64_t rowCounts[] = {1, 3, 37, 130};
  const int64_t rowLengths[] = {1,    7,    64,    768,   1000,
                                1024, 1025, 3000,  4096,  4097,
                                8192, 10000, 12288, 32768, 40001, 65536, 65537};
  const int64_t vectorLengths[] = {1, 100, 2047, 2048, 2049, 1000003};
  bool ok = true;
  for (const KernelSpec &spec : kKernels) {
    if (!matches(filter, spec.name))
      continue;
    GptKernel kernel(spec, modules);
    if (!isRowOp(spec.op)) {
      for (int64_t n : vectorLengths)
        ok &= checkOne(kernel, 1, n);
      continue;
    }
    // Each row kernel on the lengths it is chosen for; a tuned dispatch
    // on every length it takes.
    for (int64_t n : rowLengths)
      if (spec.tunedFamily ? n <= maxColumns(spec)
                           : kernelFor(spec.op, n) == &spec)
        for (int64_t m : rowCounts)
          ok &= checkOne(kernel, m, n);
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Bench
//===----------------------------------------------------------------------===//

constexpr int kLaunchesPerSample = 20;

/// Milliseconds per call of each contender: each sample times
/// kLaunchesPerSample calls in a row; the contenders take turns (clocks and
/// power drift within a run) over three rounds of a warm-up and 5 samples,
/// and the median of all samples counts.
std::vector<double>
interleavedMs(const std::vector<std::function<void()>> &contenders) {
  rt::Timer timer;
  std::vector<std::vector<float>> ms(contenders.size());
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < contenders.size(); ++i)
      for (int sample = 0; sample < 5; ++sample)
        ms[i].push_back(timer.timeMs(
            [&] {
              for (int k = 0; k < kLaunchesPerSample; ++k)
                contenders[i]();
            },
            sample == 0 ? 1 : 0, 1));
  std::vector<double> medians;
  for (std::vector<float> &v : ms) {
    std::sort(v.begin(), v.end());
    medians.push_back(double(v[v.size() / 2]) / kLaunchesPerSample);
  }
  return medians;
}

/// The buffers of one bench run: x, y, z for the kernels (M x N each) and a
/// copy's source and destination, as large as the largest kernel moves.
struct BenchBuffers {
  BenchBuffers(size_t elements, const std::vector<uint16_t> &data)
      : x(elements * 2), y(elements * 2), z(elements * 2),
        copySrc(bytesMoved(Op::ResidualLayerNorm, 1, int64_t(elements)) / 2),
        copyDst(copySrc.size()) {
    x.upload(data.data(), elements * 2);
    y.upload(data.data(), elements * 2);
    copySrc.fillWords(0x3f803f80u);
  }
  rt::DeviceBuffer x, y, z, copySrc, copyDst;
};

void bench(const rt::Device &device, const GptModules &modules,
           const char *filter) {
  struct Size {
    int64_t rows, cols;
  };
  // The four sizes, and three of models' (LLaMA-13B's 5120-wide
  // rows, GPT-3's 12288, GPT-2's 50257-token vocabulary for the softmax).
  const Size sizes[] = {{8192, 768},   {8192, 4096}, {65536, 768},
                        {1024, 32768}, {8192, 5120}, {4096, 12288},
                        {1024, 50257}};
  size_t maxElements = 0;
  for (Size size : sizes)
    maxElements = std::max(maxElements, size_t(size.rows) * size.cols);
  size_t l2 = size_t(device.attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  std::printf("bench on %s: GB/s = bytes read + written / time (layernorm, "
              "softmax, gelu: x and y; residual: a, b and c; residual+layernorm: "
              "x and res read, x and y written), each next to "
              "cuMemcpyDtoD moving as many bytes (half read, half written), "
              "interleaved; median ms per launch; sets: buffer sets taken in "
              "turn so that the data does not stay in the %zu MiB L2\n",
              device.name().c_str(), l2 >> 20);
  std::printf("  %-23s %13s %4s %9s %8s %9s %8s %7s\n", "kernel",
              "rows x cols", "sets", "ms", "GB/s", "copy ms", "GB/s", "ratio");
  // One set of random inputs for every size (the timing does not depend on
  // the values, but the exponentials should see real ones).
  Bf16Data data = randomBf16(maxElements, -2, 2);
  for (Size size : sizes) {
    int64_t m = size.rows, n = size.cols, elements = m * n;
    // Enough sets that what one round of them touches is twice the L2.
    size_t leastBytes = bytesMoved(Op::Gelu, m, n);
    size_t setCount = std::max<size_t>(1, (2 * l2 + leastBytes - 1) / leastBytes);
    std::vector<BenchBuffers> sets;
    sets.reserve(setCount);
    for (size_t i = 0; i < setCount; ++i)
      sets.emplace_back(size_t(elements), data.bits);
    Bf16Data w = randomBf16(n, 0.5f, 1.5f), b = randomBf16(n, -0.25f, 0.25f);
    rt::DeviceBuffer dw = uploadBf16(w.bits), db = uploadBf16(b.bits);
    for (Op op : kOps) {
      const KernelSpec *spec = kernelFor(op, n);
      if (!spec && !matches(filter, opName(op)))
        continue;
      if (!spec) {
        std::printf("  %-23s %6lld x %-6lld no kernel takes rows that long\n",
                    opName(op), (long long)m, (long long)n);
        continue;
      }
      if (!matches(filter, spec->name))
        continue;
      std::vector<GptKernel> kernels;
      kernels.reserve(setCount);
      for (BenchBuffers &set : sets) {
        kernels.emplace_back(*spec, modules);
        GptKernel &kernel = kernels.back();
        switch (op) {
        case Op::LayerNorm:
          kernel.bindRows(set.x.ptr(), set.z.ptr(), m, n, dw.ptr(), db.ptr(),
                          kEps);
          break;
        case Op::Softmax:
          kernel.bindRows(set.x.ptr(), set.z.ptr(), m, n);
          break;
        case Op::RmsNorm:
          kernel.bindRows(set.x.ptr(), set.z.ptr(), m, n, dw.ptr(), 0, kEps);
          break;
        case Op::Gelu:
          kernel.bindFlat({set.x.ptr(), set.z.ptr()}, elements);
          break;
        case Op::Residual:
          kernel.bindFlat({set.x.ptr(), set.y.ptr(), set.z.ptr()}, elements);
          break;
        case Op::ResidualLayerNorm: // x += y in place, z = layernorm(x)
          kernel.bindRows(set.x.ptr(), set.z.ptr(), m, n, dw.ptr(), db.ptr(),
                          kEps, set.y.ptr());
          break;
        }
      }
      size_t bytes = bytesMoved(op, m, n);
      size_t copyBytes = bytes / 2; // read once and written once
      size_t nextKernel = 0, nextCopy = 0;
      std::vector<double> ms = interleavedMs(
          {[&] { kernels[nextKernel++ % setCount].launch(); },
           [&] {
             BenchBuffers &set = sets[nextCopy++ % setCount];
             set.copyDst.copyFrom(set.copySrc, copyBytes);
           }});
      double kernelGBs = bytes / (ms[0] * 1e6);
      double copyGBs = 2.0 * copyBytes / (ms[1] * 1e6);
      std::printf("  %-23s %6lld x %-6lld %4zu %9.4f %8.0f %9.4f %8.0f "
                  "%6.1f%%\n",
                  spec->name, (long long)m, (long long)n, setCount, ms[0],
                  kernelGBs, ms[1], copyGBs, 100.0 * kernelGBs / copyGBs);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  return gptMain(argc, argv, "gpt-kernels", /*takesFilter=*/true,
                 [](const rt::Device &device, const RunOptions &options) {
                   GptModules modules;
                   bool ok = !options.check || check(modules, options.filter);
                   if (options.bench)
                     bench(device, modules, options.filter);
                   return ok;
                 });
}
