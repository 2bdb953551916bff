// Calls the scale kernel through its generated launcher: on a GPU, checks
// y = 3 x on fresh random x (y poisoned first); without one, says why and
// checks what needs no GPU (the embedded kernel description).
#include "scale_launcher.h"

#include "tile/Runtime/Driver.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  using namespace tile::rt;
  const KernelInfo &info = scale_kernels::module().info("scale");
  if (info.block.x != 128) {
    std::printf("first-kernel: FAILED: the description says %u threads\n",
                info.block.x);
    return 1;
  }
  std::string why;
  if (!driverAvailable(&why)) {
    std::printf("first-kernel: no GPU (%s); the kernel description is "
                "right\n", why.c_str());
    return 0;
  }
  Device device = Device::open();
  const int64_t n = 5000;
  std::vector<float> x(n), y(n);
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float &v : x)
    v = dist(rng);
  DeviceBuffer dx(n * sizeof(float)), dy(n * sizeof(float));
  dx.upload(x);
  dy.fillWords(0x7fc00001);
  unsigned blocks = unsigned((n + 1023) / 1024);
  scale_kernels::scale({blocks, 1, 1}, MemRef<float, 1>::rowMajor(dx.ptr(), {n}),
                       MemRef<float, 1>::rowMajor(dy.ptr(), {n}), 3.0f)
      .launch();
  dy.download(y);
  for (int64_t i = 0; i < n; ++i)
    if (!(std::fabs(y[i] - 3.0f * x[i]) <= 1e-6f)) {
      std::printf("first-kernel: FAILED at %lld\n", (long long)i);
      return 1;
    }
  std::printf("first-kernel: ok on %s\n", device.name().c_str());
  return 0;
}
