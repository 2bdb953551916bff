//===- cluster-signal.cpp - put, signal and wait between cluster CTAs -----===//
//
// test/Runtime/cluster-signal.mlir through its generated launcher, on a GPU
// (without one, launching must say why it cannot): put_wait (the put
// ordered by a flag) and put_barrier (by a cluster barrier) on 2, 8 and 264
// CTAs, checked against the CPU on fresh random inputs with the output
// poisoned first. `--stress N` then runs put_wait N times on 264 CTAs (132
// clusters), each run on new inputs and checked, and reports how many
// failed: the evidence that racecheck's hazards on the flag protocol
// (docs/testing.md) are not races. `--check` runs the checks only, on
// fewer CTAs (what the compute-sanitizer runs use). `--unordered` runs
// put_unordered (put_wait without its wait: a real race) once on 8 CTAs
// without checking it, racecheck's negative control.
//
//===----------------------------------------------------------------------===//

#include "cluster-signal_launcher.h"

#include "Check.h"
#include "tile/Runtime/Driver.h"

#include <cstring>
#include <random>
#include <string>

using namespace tile::rt;
using namespace tile_test;

namespace {

constexpr int64_t kRows = 64, kCols = 64; // each CTA's tile

using Launch = BoundLaunch (*)(MemRef<float, 2>, MemRef<float, 2>, CUstream);

// Runs `kernel` on `ctas` CTAs with fresh inputs and checks that each CTA
// wrote its peer's rows (CTA g xor 1); the count of wrong elements.
int64_t runOnce(Launch kernel, int64_t ctas, std::mt19937 &random,
                DeviceBuffer &dx, DeviceBuffer &dy) {
  const int64_t m = ctas * kRows, count = m * kCols;
  std::uniform_real_distribution<float> value(-4, 4);
  std::vector<float> x(count), y(count);
  for (float &v : x)
    v = value(random);
  dx.upload(x.data(), count * 4);
  dy.fillWords(0x7fc00001); // a NaN every element must overwrite
  kernel(MemRef<float, 2>::rowMajor(dx.ptr(), {m, kCols}),
         MemRef<float, 2>::rowMajor(dy.ptr(), {m, kCols}), nullptr)
      .launch();
  dy.download(y.data(), count * 4);
  int64_t wrong = 0;
  for (int64_t g = 0; g < ctas; ++g)
    wrong += std::memcmp(&y[g * kRows * kCols], &x[(g ^ 1) * kRows * kCols],
                         kRows * kCols * 4) != 0
                 ? 1
                 : 0;
  return wrong;
}

void testWithDevice(bool checkOnly, int64_t stress) {
  Device device = Device::open();
  std::mt19937 random(std::random_device{}());
  const int64_t most = 264;
  DeviceBuffer dx(most * kRows * kCols * 4), dy(most * kRows * kCols * 4);
  struct Named {
    const char *name;
    Launch kernel;
  };
  for (Named k : {Named{"put_wait", cluster_signal_kernels::put_wait},
                  Named{"put_barrier", cluster_signal_kernels::put_barrier}})
    for (int64_t ctas : {int64_t(2), int64_t(8), most}) {
      if (checkOnly && ctas == most)
        continue;
      int64_t wrong = runOnce(k.kernel, ctas, random, dx, dy);
      expect(wrong == 0, std::string(k.name) + " on " + std::to_string(ctas) +
                             " CTAs: " + std::to_string(wrong) +
                             " CTAs wrote wrong tiles");
    }
  if (stress > 0) {
    int64_t failedRuns = 0;
    for (int64_t i = 0; i < stress; ++i)
      failedRuns +=
          runOnce(cluster_signal_kernels::put_wait, most, random, dx, dy) != 0;
    std::printf("put_wait: %lld runs of %lld clusters, %lld failed\n",
                (long long)stress, (long long)(most / 2),
                (long long)failedRuns);
    expect(failedRuns == 0, "stress: " + std::to_string(failedRuns) +
                                " runs with wrong tiles");
  }
  std::printf("cluster-signal checked on %s\n", device.name().c_str());
}

} // namespace

int main(int argc, char **argv) {
  bool checkOnly = false, unordered = false;
  int64_t stress = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--check")
      checkOnly = true;
    else if (arg == "--unordered")
      unordered = true;
    else if (arg == "--stress" && i + 1 < argc)
      stress = std::atoll(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--check] [--stress N] [--unordered]\n",
                   argv[0]);
      return 2;
    }
  }
  std::string why;
  if (!driverAvailable(&why)) {
    std::printf("no GPU: %s\n", why.c_str());
    expectError(
        "launching without a driver says why",
        [] {
          cluster_signal_kernels::put_wait(MemRef<float, 2>{},
                                           MemRef<float, 2>{}, nullptr);
        },
        "");
  } else if (unordered) {
    runChecked([] {
      Device device = Device::open();
      std::mt19937 random(1);
      DeviceBuffer dx(8 * kRows * kCols * 4), dy(8 * kRows * kCols * 4);
      int64_t wrong =
          runOnce(cluster_signal_kernels::put_unordered, 8, random, dx, dy);
      std::printf("put_unordered (racy, not checked): %lld of 8 CTAs wrote "
                  "other tiles\n",
                  (long long)wrong);
    });
  } else {
    runChecked([&] { testWithDevice(checkOnly, stress); });
  }
  return finish("cluster-signal: ok");
}
