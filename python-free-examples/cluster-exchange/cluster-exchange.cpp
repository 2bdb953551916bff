//===- cluster-exchange.cpp - run cluster-exchange.mlir, check, time ------===//
//
// Clusters of 2 CTAs exchange 4 KiB tiles through distributed shared memory
// (put with a signal, wait, get). Checked against the CPU on fresh random
// inputs with the outputs poisoned first: Y[g] = X[g] + X[previous CTA of
// the cluster], Z[g] = X[next] - X[g]. Then timed on enough clusters to fill
// the GPU: the tiles moved between CTAs per second, next to a device copy
// of the same bytes. `--check` checks only, on fewer clusters (what the
// compute-sanitizer runs use).
//
//===----------------------------------------------------------------------===//

#include "../common/ExampleUtil.h"

#include <cmath>
#include <cstdio>
#include <string>

using namespace tile;
using namespace tile::examples;

namespace {
constexpr size_t kTile = 1024; // floats per CTA, as in cluster-exchange.mlir
constexpr size_t kCluster = 2; // CTAs per cluster

struct Run {
  rt::DeviceBuffer x, y, z;
  rt::ArgPack args;
  explicit Run(size_t n)
      : x(n * 4), y(n * 4), z(n * 4) {
    for (rt::DeviceBuffer *buffer : {&x, &y, &z})
      args.addMemRef(buffer->ptr(), {static_cast<int64_t>(n)}, {1});
  }
};

bool check(const std::vector<float> &x, const std::vector<float> &y,
           const std::vector<float> &z, size_t ctas) {
  for (size_t g = 0; g < ctas; ++g) {
    size_t rank = g % kCluster, first = g - rank;
    size_t prev = first + (rank + kCluster - 1) % kCluster;
    size_t next = first + (rank + 1) % kCluster;
    for (size_t i = 0; i < kTile; ++i) {
      float wantY = x[g * kTile + i] + x[prev * kTile + i];
      float wantZ = x[next * kTile + i] - x[g * kTile + i];
      float gotY = y[g * kTile + i], gotZ = z[g * kTile + i];
      if (gotY != wantY || gotZ != wantZ) {
        std::printf("  MISMATCH CTA %zu element %zu: Y %g (want %g), Z %g "
                    "(want %g)\n",
                    g, i, gotY, wantY, gotZ, wantZ);
        return false;
      }
    }
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  requireGpu("cluster-exchange");
  bool checkOnly = argc > 1 && std::string(argv[1]) == "--check";
  try {
    rt::Device device = rt::Device::open();
    rt::Module module =
        rt::Module::loadCubinFile(kernelFile(CLUSTER_EXCHANGE_KERNEL_CUBIN));
    auto infos = rt::loadKernelInfo(kernelFile(CLUSTER_EXCHANGE_KERNEL_KINFO));
    rt::Kernel kernel = module.kernel("cluster_exchange");
    const rt::KernelInfo &info = rt::findKernel(infos, "cluster_exchange");
    std::printf("cluster-exchange on %s: clusters of %zu CTAs, %zu-float "
                "tiles\n",
                device.name().c_str(), kCluster, kTile);

    bool ok = true;
    std::vector<size_t> sizes = {2, 8, 2 * 132};
    if (!checkOnly)
      sizes.push_back(4096);
    for (size_t ctas : sizes) {
      size_t n = ctas * kTile;
      Run run(n);
      std::vector<float> x = randomFloats(n);
      run.x.upload(x.data(), n * 4);
      poison(run.y);
      poison(run.z);
      rt::launch(kernel,
                 rt::launchConfigFor(info, {static_cast<unsigned>(ctas), 1, 1}),
                 run.args);
      rt::synchronize();
      std::vector<float> y(n), z(n);
      run.y.download(y.data(), n * 4);
      run.z.download(z.data(), n * 4);
      bool pass = check(x, y, z, ctas);
      std::printf("  %5zu CTAs: %s\n", ctas, pass ? "ok" : "FAILED");
      ok &= pass;
    }

    if (checkOnly || !ok) {
      std::printf("%s\n", ok ? "cluster-exchange: all checks passed"
                             : "cluster-exchange: FAILED");
      return ok ? 0 : 1;
    }
    // Each CTA moves two tiles through distributed shared memory (its put
    // and its get) and reads one and writes two in global memory.
    const size_t ctas = 1 << 16, n = ctas * kTile;
    Run run(n);
    run.x.fillWords(0x3f800000u);
    rt::LaunchConfig config =
        rt::launchConfigFor(info, {static_cast<unsigned>(ctas), 1, 1});
    rt::Timer timer;
    float ms = timer.timeMs([&] { rt::launch(kernel, config, run.args); }, 5,
                            50);
    rt::DeviceBuffer src(3 * n * 4), dst(3 * n * 4);
    float copyMs = timer.timeMs([&] { dst.copyFrom(src, 3 * n * 4); }, 5, 50);
    double dsmemGBs = 2.0 * n * 4 / (ms * 1e6);
    double globalGBs = 3.0 * n * 4 / (ms * 1e6);
    double copyGBs = 2.0 * 3 * n * 4 / (copyMs * 1e6);
    std::printf("  %zu CTAs: %.3f ms; %.0f GB/s between CTAs (put + get), "
                "%.0f GB/s of global traffic; cuMemcpyDtoD %.0f GB/s "
                "(read+write)\n",
                ctas, ms, dsmemGBs, globalGBs, copyGBs);
    std::printf("%s\n", ok ? "cluster-exchange: all checks passed"
                           : "cluster-exchange: FAILED");
    return ok ? 0 : 1;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "cluster-exchange: %s\n", error.what());
    return 1;
  }
}
