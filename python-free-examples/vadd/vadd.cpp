//===- vadd.cpp - run the vadd kernels, check them, time them -------------===//
//
// c = a + b on fp32 and bf16 vectors of odd sizes, checked element by
// element against the CPU on fresh random inputs with the output poisoned
// first; then timed at a large size next to a device-to-device copy.
// `--check` checks only (what the compute-sanitizer runs use).
//
//===----------------------------------------------------------------------===//

#include "../common/ExampleUtil.h"

#include <cmath>
#include <cstdio>

using namespace tile;
using namespace tile::examples;

namespace {
struct Variant {
  const char *kernel;
  size_t elementBytes;
  size_t tile; // elements per CTA, as in vadd.mlir
};

// Uploads a and b as `variant`'s element type, runs the kernel on n
// elements and returns c as floats.
std::vector<float> runOnce(const rt::Kernel &kernel, const rt::KernelInfo &info,
                           const Variant &variant, const std::vector<float> &a,
                           const std::vector<float> &b) {
  size_t n = a.size();
  size_t bytes = std::max<size_t>(1, n) * variant.elementBytes;
  rt::DeviceBuffer da(bytes), db(bytes), dc(bytes);
  if (variant.elementBytes == 4) {
    da.upload(a.data(), n * 4);
    db.upload(b.data(), n * 4);
  } else {
    da.upload(toBf16(a));
    db.upload(toBf16(b));
  }
  poison(dc);
  rt::ArgPack args;
  for (rt::DeviceBuffer *buffer : {&da, &db, &dc})
    args.addMemRef(buffer->ptr(), {static_cast<int64_t>(n)}, {1});
  unsigned blocks = static_cast<unsigned>((n + variant.tile - 1) / variant.tile);
  rt::launch(kernel, rt::launchConfigFor(info, {std::max(1u, blocks), 1, 1}),
             args);
  rt::synchronize();
  std::vector<float> c(n);
  if (variant.elementBytes == 4) {
    dc.download(c.data(), n * 4);
  } else {
    c = dc.downloadBf16(n);
  }
  return c;
}

bool check(const Variant &variant, const std::vector<float> &a,
           const std::vector<float> &b, const std::vector<float> &c) {
  for (size_t i = 0; i < a.size(); ++i) {
    float expected;
    float tolerance = 0;
    if (variant.elementBytes == 4) {
      expected = a[i] + b[i];
    } else {
      // bf16 inputs added exactly, rounded once; allow one bf16 ulp for the
      // hardware's own rounding.
      expected = rt::bf16ToFloat(rt::floatToBf16(
          rt::bf16ToFloat(rt::floatToBf16(a[i])) +
          rt::bf16ToFloat(rt::floatToBf16(b[i]))));
      tolerance = std::ldexp(std::fabs(expected), -7);
    }
    if (!(std::fabs(c[i] - expected) <= tolerance)) {
      std::printf("  MISMATCH %s n=%zu at %zu: got %g, expected %g\n",
                  variant.kernel, a.size(), i, c[i], expected);
      return false;
    }
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  requireGpu("vadd");
  bool checkOnly = argc > 1 && std::string(argv[1]) == "--check";
  try {
    rt::Device device = rt::Device::open();
    rt::Module module = rt::Module::loadCubinFile(kernelFile(VADD_KERNEL_CUBIN));
    auto infos = rt::loadKernelInfo(kernelFile(VADD_KERNEL_KINFO));
    std::printf("vadd on %s\n", device.name().c_str());

    // The two configurations of vadd.mlir's family.
    const Variant variants[] = {{"vadd__Tf32_TILE1024", 4, 1024},
                                {"vadd__Tbf16_TILE2048", 2, 2048}};
    const size_t sizes[] = {1, 3, 1000, 1023, 1025, 4097, (1 << 20) + 7,
                            10'000'019};
    bool ok = true;
    for (const Variant &variant : variants) {
      rt::Kernel kernel = module.kernel(variant.kernel);
      const rt::KernelInfo &info = rt::findKernel(infos, variant.kernel);
      for (size_t n : sizes) {
        std::vector<float> a = randomFloats(n), b = randomFloats(n);
        bool pass = check(variant, a, b, runOnce(kernel, info, variant, a, b));
        std::printf("  %-10s n=%-9zu %s\n", variant.kernel, n,
                    pass ? "ok" : "FAILED");
        ok &= pass;
      }
    }

    // Bandwidth: bytes read + written, against a device-to-device copy of
    // the same bytes in the same run.
    const size_t n = 64u << 20;
    for (const Variant &variant : variants) {
      if (checkOnly)
        break;
      rt::Kernel kernel = module.kernel(variant.kernel);
      const rt::KernelInfo &info = rt::findKernel(infos, variant.kernel);
      size_t bytes = n * variant.elementBytes;
      rt::DeviceBuffer da(bytes), db(bytes), dc(bytes), copy(2 * bytes);
      da.fillWords(0x3f803f80u); // 1.0 in either type: timing only
      db.fillWords(0x3f803f80u);
      rt::ArgPack args;
      for (rt::DeviceBuffer *buffer : {&da, &db, &dc})
        args.addMemRef(buffer->ptr(), {static_cast<int64_t>(n)}, {1});
      rt::LaunchConfig config = rt::launchConfigFor(
          info, {static_cast<unsigned>((n + variant.tile - 1) / variant.tile), 1, 1});
      rt::Timer timer;
      float kernelMs = timer.timeMs([&] { rt::launch(kernel, config, args); },
                                    5, 50);
      rt::DeviceBuffer src(2 * bytes);
      float copyMs = timer.timeMs([&] { copy.copyFrom(src, 2 * bytes); }, 5, 50);
      double kernelGBs = 3.0 * bytes / (kernelMs * 1e6);
      double copyGBs = 2.0 * 2 * bytes / (copyMs * 1e6);
      std::printf("  %-10s n=%zu: %.3f ms, %.0f GB/s; cuMemcpyDtoD %.0f GB/s "
                  "(read+write); ratio %.2f\n",
                  variant.kernel, n, kernelMs, kernelGBs, copyGBs,
                  kernelGBs / copyGBs);
    }
    std::printf("%s\n", ok ? "vadd: all checks passed" : "vadd: FAILED");
    return ok ? 0 : 1;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "vadd: %s\n", error.what());
    return 1;
  }
}
