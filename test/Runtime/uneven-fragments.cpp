//===- uneven-fragments.cpp - fragments the threads share unevenly --------===//
//
// test/Runtime/uneven-fragments.mlir through its generated launcher: a 1x1
// fragment in a CTA of 128 threads, and 3x200 bf16 rows (75 runs of 8 over
// 128 threads) with a broadcast bias row, on M not a multiple of 3. Checked
// against a CPU reference on fresh random inputs, outputs poisoned first;
// without a GPU, launching must say why it cannot.
//
//===----------------------------------------------------------------------===//

#include "uneven-fragments_launcher.h"

#include "Check.h"
#include "tile/Runtime/Driver.h"
#include "tile/Runtime/Float.h"

#include <cmath>
#include <random>

using namespace tile::rt;
using namespace tile_test;

namespace {

// bf16 rounding of a float, as the kernel rounds each result.
float roundBf16(float x) { return bf16ToFloat(floatToBf16(x)); }

void testWithDevice() {
  Device device = Device::open();
  std::mt19937 random(std::random_device{}());
  std::uniform_real_distribution<float> value(-4, 4);

  // One element, held by thread 0 of 128.
  {
    float x = value(random), y = 0;
    DeviceBuffer dx(4), dy(4 * 2);
    dx.upload(std::vector<float>{x});
    dy.fillWords(0x7fc00001); // a NaN the kernel must overwrite ...
    uneven_kernels::scalar(MemRef<float, 2>::rowMajor(dx.ptr(), {1, 1}),
                           MemRef<float, 2>::rowMajor(dy.ptr(), {1, 1}))
        .launch();
    std::vector<float> out(2);
    dy.download(out);
    y = out[0];
    expect(y == 2 * x + 1, "scalar: " + std::to_string(y) + " for 2 * " +
                               std::to_string(x) + " + 1");
    // ... and the word after it, which no thread may write.
    expect(std::isnan(out[1]), "scalar: nothing written past the element");
  }

  // Rows of 200 bf16, three per CTA, M not a multiple of three.
  for (int64_t m : {int64_t(1), int64_t(7), int64_t(1000)}) {
    const int64_t n = 200;
    std::vector<uint16_t> x(m * n), bias(n);
    for (uint16_t &v : x)
      v = floatToBf16(value(random));
    for (uint16_t &v : bias)
      v = floatToBf16(value(random));
    DeviceBuffer dx(x.size() * 2), db(bias.size() * 2), dy(x.size() * 2 + 64);
    dx.upload(x);
    db.upload(bias);
    dy.fillWords(0x7fc17fc1); // bf16 NaNs, past the end too
    uneven_kernels::rows(
        MemRef<bf16, 2>::rowMajor(dx.ptr(), {m, n}),
        MemRef<bf16, 2>::rowMajor(db.ptr(), {1, n}),
        MemRef<bf16, 2>::rowMajor(dy.ptr(), {m, n}))
        .launch();
    std::vector<uint16_t> y(x.size() + 32);
    dy.download(y);
    int64_t wrong = 0;
    for (int64_t i = 0; i < m * n; ++i) {
      float a = bf16ToFloat(x[i]), c = bf16ToFloat(bias[i % n]);
      // Each op rounded to bf16, or the two fused into one rounding.
      float twice = roundBf16(roundBf16(a * a) + c);
      float fused = roundBf16(a * a + c);
      float got = bf16ToFloat(y[i]);
      if (got != twice && got != fused)
        ++wrong;
    }
    int64_t past = 0;
    for (size_t i = m * n; i < y.size(); ++i)
      past += y[i] != 0x7fc1;
    expect(wrong == 0, "rows, M = " + std::to_string(m) + ": " +
                           std::to_string(wrong) + " wrong elements");
    expect(past == 0, "rows, M = " + std::to_string(m) +
                          ": nothing written past the end");
  }
  synchronize();
  std::printf("uneven fragments checked on %s\n", device.name().c_str());
}

} // namespace

int main() {
  std::string why;
  if (!driverAvailable(&why)) {
    std::printf("no GPU: %s\n", why.c_str());
    expectError(
        "launching without a driver says why",
        [] {
          uneven_kernels::scalar(MemRef<float, 2>{}, MemRef<float, 2>{});
        },
        "");
  } else {
    runChecked(testWithDevice);
  }
  return finish("uneven-fragments: ok");
}
