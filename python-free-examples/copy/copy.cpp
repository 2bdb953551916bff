//===- copy.cpp - run the TMA copy kernel, check it, time it --------------===//
//
// Copies M x N fp32 matrices whose sizes are not multiples of the 64 x 128
// tile, checks every element against the source (fresh random data, output
// poisoned first), then times a large copy next to cuMemcpyDtoD in the same
// run. TMA needs rows of a multiple of 16 bytes, so the TMA kernel skips
// shapes whose N is not a multiple of 4; the cp.async kernel takes them all.
// `--check` checks only (what the compute-sanitizer runs use).
//
//===----------------------------------------------------------------------===//

#include "../common/ExampleUtil.h"

#include <cstring>

using namespace tile;
using namespace tile::examples;

int main(int argc, char **argv) {
  requireGpu("copy");
  bool checkOnly = argc > 1 && std::string(argv[1]) == "--check";
  try {
    rt::Device device = rt::Device::open();
    rt::Module module =
        rt::Module::loadCubinFile(kernelFile(COPY_KERNEL_CUBIN));
    auto infos = rt::loadKernelInfo(kernelFile(COPY_KERNEL_KINFO));
    bool ok = true;
    // The configurations of copy.mlir's family: TMA load, synchronous load,
    // TMA both ways.
    for (const char *name :
         {"copy_f32__LOADTMA1_STORETMA0", "copy_f32__LOADTMA0_STORETMA0",
          "copy_f32__LOADTMA1_STORETMA1"}) {
      const rt::KernelInfo &info = rt::findKernel(infos, name);
      rt::Kernel kernel = module.kernel(name);
      std::printf("%s on %s (64 x 128 fp32 tiles)\n", name,
                  device.name().c_str());

      auto run = [&](rt::DeviceBuffer &src, rt::DeviceBuffer &dst, int64_t m,
                     int64_t n, std::vector<rt::DeviceBuffer> &maps) {
        rt::ArgPack args;
        rt::packMemRefArgs(
            info, {{src.ptr(), {m, n}, {n, 1}}, {dst.ptr(), {m, n}, {n, 1}}},
            args, maps);
        rt::LaunchConfig config = rt::launchConfigFor(
            info, {static_cast<unsigned>((n + 127) / 128),
                   static_cast<unsigned>((m + 63) / 64), 1});
        return std::make_pair(std::move(args), config);
      };

      const std::pair<int64_t, int64_t> shapes[] = {
          {1, 4},     {64, 128},    {1000, 1000}, {4099, 1028},
          {77, 4092}, {8191, 8196}, {100, 1001},  {33, 130}};
      for (auto [m, n] : shapes) {
        // TMA needs rows of a multiple of 16 bytes.
        if (!info.tmas.empty() && n % 4 != 0)
          continue;
        std::vector<float> host = randomFloats(size_t(m) * n);
        rt::DeviceBuffer src(host.size() * 4), dst(host.size() * 4);
        src.upload(host);
        poison(dst);
        std::vector<rt::DeviceBuffer> maps;
        auto [args, config] = run(src, dst, m, n, maps);
        rt::launch(kernel, config, args);
        rt::synchronize();
        std::vector<float> out(host.size());
        dst.download(out);
        bool pass = std::memcmp(out.data(), host.data(), host.size() * 4) == 0;
        std::printf("  %5lld x %-5lld %s\n", (long long)m, (long long)n,
                    pass ? "ok" : "FAILED");
        ok &= pass;
      }

      if (checkOnly)
        continue;
      // Bandwidth, bytes read + written, next to a device-to-device copy.
      const int64_t m = 8192, n = 16384;
      size_t bytes = size_t(m) * n * 4;
      rt::DeviceBuffer src(bytes), dst(bytes);
      src.fillWords(0x3f800000u);
      std::vector<rt::DeviceBuffer> maps;
      auto [args, config] = run(src, dst, m, n, maps);
      rt::Timer timer;
      float tileMs =
          timer.timeMs([&] { rt::launch(kernel, config, args); }, 5, 30);
      float copyMs = timer.timeMs([&] { dst.copyFrom(src, bytes); }, 5, 30);
      float tileMs2 =
          timer.timeMs([&] { rt::launch(kernel, config, args); }, 5, 30);
      tileMs = std::min(tileMs, tileMs2);
      double tileGBs = 2.0 * bytes / (tileMs * 1e6),
             copyGBs = 2.0 * bytes / (copyMs * 1e6);
      std::printf("  %lld x %lld fp32 (%.0f MiB): tile %.3f ms %.0f GB/s; "
                  "cuMemcpyDtoD %.3f ms %.0f GB/s; ratio %.2f\n",
                  (long long)m, (long long)n, bytes / 1048576.0, tileMs,
                  tileGBs, copyMs, copyGBs, tileGBs / copyGBs);
    }
    std::printf("%s\n", ok ? "copy: all checks passed" : "copy: FAILED");
    return ok ? 0 : 1;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "copy: %s\n", error.what());
    return 1;
  }
}
