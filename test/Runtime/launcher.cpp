//===- launcher.cpp - a generated launcher, compiled and run --------------===//
//
// test/Runtime/launcher-family.mlir compiled with --launcher (namespace
// test_kernels): the generated header must compile, its embedded
// description must say what the kernels are, the family table must list
// the configurations, and arguments of the wrong type must be refused.
// Without a GPU, launching says why it cannot; with one, every
// configuration of the family is run through the dispatcher and checked
// against a CPU reference on fresh random inputs, outputs poisoned first.
//
//===----------------------------------------------------------------------===//

#include "launcher-family_launcher.h"

#include "Check.h"
#include "tile/Runtime/Driver.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace tile::rt;
using namespace tile_test;

namespace {

void testDescription() {
  const std::vector<KernelInfo> &infos = test_kernels::module().infos();
  expect(infos.size() == 7,
         "four configurations of axpy (one from the tuning table), fill and "
         "two of negate");
  expect(!test_kernels::module().loaded(), "nothing loaded before first use");
  const KernelInfo &fill = test_kernels::module().info("fill");
  expect(fill.family.empty() && fill.args && fill.args->size() == 3,
         "fill: no family, three arguments");
  if (fill.args && fill.args->size() == 3)
    expect((*fill.args)[0].name == "c" && (*fill.args)[0].isMemRef &&
               (*fill.args)[0].type == "i32" && (*fill.args)[2].type == "index",
           "fill's arguments as written");

  static_assert(test_kernels::axpy_config_count == 4,
                "three configurations and the tuning table's fourth");
  expect(std::string(test_kernels::axpy_configs[3].kernel) ==
             "axpy__TILE1024_THREADS256",
         "the tuning table's configuration comes after the listed ones");
  const TuningTable &table = test_kernels::axpy_tuning();
  expect(table.family == "axpy" && table.variants.size() == 1 &&
             table.variants[0].shapes.size() == 3,
         "the tuning table is embedded");
  const test_kernels::axpy_config &wide = test_kernels::axpy_configs[1];
  expect(std::string(wide.kernel) == "axpy__TILE2048_THREADS256" &&
             wide.TILE == 2048 && wide.THREADS == 256,
         "the family table lists each configuration's kernel and values");
  const KernelInfo &info = test_kernels::module().info(wide.kernel);
  expect(info.family == "axpy" && info.block.x == 256,
         "the configuration's kernel runs 256 threads");

  // A family over the element type: a table, each kernel its own function.
  static_assert(test_kernels::negate_config_count == 2, "two configurations");
  expect(std::string(test_kernels::negate_configs[1].T) == "bf16" &&
             std::string(test_kernels::negate_configs[1].kernel) ==
                 "negate__Tbf16",
         "the element type in the family table");
  tile::rt::BoundLaunch (*negateBf16)(Dim3, MemRef<bf16, 1>, CUstream) =
      test_kernels::negate__Tbf16;
  expect(negateBf16 != nullptr, "a typed function per element type");
  // One dispatcher overload per argument types; a configuration of other
  // types is refused before anything is loaded.
  tile::rt::BoundLaunch (*negateDispatch)(std::size_t, Dim3, MemRef<bf16, 1>,
                                          CUstream) = test_kernels::negate;
  expect(negateDispatch != nullptr, "a dispatcher for the bf16 arguments");
  expectError(
      "a configuration of other argument types",
      [] { test_kernels::negate(1, {1, 1, 1}, MemRef<float, 1>{}); },
      "family negate: configuration 1 (negate__Tbf16) takes other argument "
      "types than (tile::rt::MemRef<float, 1>)");
  expectError(
      "a configuration of other argument types",
      [] { test_kernels::negate(0, {1, 1, 1}, MemRef<bf16, 1>{}); },
      "family negate: configuration 0 (negate__Tf32) takes other argument "
      "types than (tile::rt::MemRef<tile::rt::bf16, 1>)");
  const KernelInfo &negate = test_kernels::module().info("negate__Tbf16");
  expect(negate.args && (*negate.args)[0].type == "bf16" &&
             negate.configTypes.size() == 1,
         "negate__Tbf16 takes a bf16 memref");

  // The grid the kernel states, evaluated without a GPU.
  expect(info.grid && info.grid->x == "ceildiv(dim(2,0),2048)" &&
             info.grid->y == "1" && !fill.grid,
         "axpy states its grid, fill does not");
  if (info.grid) {
    GridInputs inputs;
    inputs.sizes = {{5000}, {5000}, {5000}, {}};
    inputs.scalars = {0, 0, 0, 0};
    Dim3 grid = evaluateGrid(info, inputs);
    expect(grid.x == 3 && grid.y == 1 && grid.z == 1,
           "ceil(5000 / 2048) = 3 CTAs");
    inputs.sizes[2] = {0};
    expectError(
        "an empty problem", [&] { evaluateGrid(info, inputs); },
        "grid x = ceildiv(dim(2,0),2048) gives 0, outside [1, 2147483647]");
  }
  expectError(
      "a kernel without a grid rule", [&] { evaluateGrid(fill, {}); },
      "kernel 'fill' states no grid");

  // Arguments are checked against the description's types and count.
  checkArgument(info, 0, true, "f32", 1);
  checkArgument(info, 3, false, "f32", 0);
  expectError(
      "a memref of the wrong element type",
      [&] { checkArgument(info, 1, true, "bf16", 1); },
      "kernel 'axpy__TILE2048_THREADS256' argument 1 ('b') is a "
      "memref<1D f32>, got a memref<1D bf16>");
  expectError(
      "a scalar for a memref", [&] { checkArgument(info, 2, false, "f32", 0); },
      "argument 2 ('c') is a memref<1D f32>, got a f32");
  expectError(
      "one argument too many", [&] { checkArgument(info, 4, false, "f32", 0); },
      "takes 4 arguments; argument 4 is one too many");
  // An index takes an int64_t.
  checkArgument(fill, 2, false, "i64", 0);
}

void testWithoutDriver(const std::string &why) {
  std::printf("no GPU: %s\n", why.c_str());
  expectError(
      "the tuned launcher without a driver says why each choice failed",
      [] {
        test_kernels::axpy_tuned({}, MemRef<float, 1>{}, MemRef<float, 1>{},
                                 MemRef<float, 1>{}, 1.0f);
      },
      "family axpy: no tuned configuration takes these operands:");
  expectError(
      "a variant the table does not have",
      [] {
        test_kernels::axpy_tuned({{"THREADS", 64}}, MemRef<float, 1>{},
                                 MemRef<float, 1>{}, MemRef<float, 1>{}, 1.0f);
      },
      "no variant has THREADS=64");
  expectError(
      "launching without a driver says why",
      [] {
        test_kernels::fill({1, 1, 1}, MemRef<int32_t, 1>{}, 7, 512);
      },
      "");
}

void testWithDevice() {
  Device device = Device::open();
  std::mt19937 random(std::random_device{}());
  std::uniform_real_distribution<float> value(-4, 4);
  const int64_t n = 5000; // not a multiple of any tile: edges are masked
  std::vector<float> a(n), b(n), c(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = value(random);
    b[i] = value(random);
  }
  float factor = value(random);
  DeviceBuffer da(n * 4), db(n * 4), dc(n * 4);
  da.upload(a);
  db.upload(b);
  MemRef<float, 1> ma = MemRef<float, 1>::rowMajor(da.ptr(), {n}),
                   mb = MemRef<float, 1>::rowMajor(db.ptr(), {n}),
                   mc = MemRef<float, 1>::rowMajor(dc.ptr(), {n});
  // Every configuration, with the grid given (ceil(n / TILE) CTAs) and
  // with the grid the kernel states, which must be the same.
  for (size_t config = 0; config < test_kernels::axpy_config_count; ++config)
    for (bool stated : {false, true}) {
      dc.fillWords(0x7fc00001); // a NaN the kernel must overwrite
      const test_kernels::axpy_config &chosen =
          test_kernels::axpy_configs[config];
      std::string label =
          std::string(chosen.kernel) + (stated ? " (stated grid)" : "");
      unsigned blocks = unsigned((n + chosen.TILE - 1) / chosen.TILE);
      BoundLaunch launch =
          stated ? test_kernels::axpy(config, ma, mb, mc, factor)
                 : test_kernels::axpy(config, {blocks, 1, 1}, ma, mb, mc,
                                      factor);
      expect(launch.config().grid.x == blocks, label + ": the grid");
      launch.launch();
      dc.download(c);
      int64_t wrong = 0;
      for (int64_t i = 0; i < n; ++i)
        if (!(std::fabs(c[i] - (a[i] * factor + b[i])) <= 1e-5f * 16))
          ++wrong;
      expect(wrong == 0,
             label + ": " + std::to_string(wrong) + " wrong elements");
    }
  // A scalar set anew between launches, the rest kept bound.
  {
    BoundLaunch launch = test_kernels::axpy(0, ma, mb, mc, factor);
    float factor2 = factor + 1.5f;
    dc.fillWords(0x7fc00001);
    launch.set(3, factor2).launch();
    dc.download(c);
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      if (!(std::fabs(c[i] - (a[i] * factor2 + b[i])) <= 1e-5f * 16))
        ++wrong;
    expect(wrong == 0, "set(3, factor): " + std::to_string(wrong) +
                           " wrong elements");
    expectError(
        "set() on a memref argument", [&] { launch.set(0, 1.0f); },
        "argument 0 ('a') is a memref<1D f32>, got a f32");
  }
  // The chooser picks a configuration from the table.
  BoundLaunch chosen = test_kernels::axpy_choose(
      [](const test_kernels::axpy_config *configs, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i)
          if (configs[i].TILE == 512)
            return i;
        return std::size_t(0);
      },
      {unsigned((n + 511) / 512), 1, 1},
      MemRef<float, 1>::rowMajor(da.ptr(), {n}),
      MemRef<float, 1>::rowMajor(db.ptr(), {n}),
      MemRef<float, 1>::rowMajor(dc.ptr(), {n}), factor);
  expect(chosen.info().name == "axpy__TILE512_THREADS128",
         "the chooser's configuration is bound");
  // The tuning table's choice by shape (no cost models in this table: the
  // configuration of the near shapes by estimated time, here the nearest
  // one's), checked like the others.
  for (int64_t size : {int64_t(700), int64_t(150000), int64_t(6000000)}) {
    DeviceBuffer ta(size * 4), tb(size * 4), tc(size * 4);
    std::vector<float> x(size), y(size), z(size);
    for (int64_t i = 0; i < size; ++i) {
      x[i] = value(random);
      y[i] = value(random);
    }
    ta.upload(x);
    tb.upload(y);
    tc.fillWords(0x7fc00001);
    BoundLaunch tuned = test_kernels::axpy_tuned(
        {}, MemRef<float, 1>::rowMajor(ta.ptr(), {size}),
        MemRef<float, 1>::rowMajor(tb.ptr(), {size}),
        MemRef<float, 1>::rowMajor(tc.ptr(), {size}), factor);
    const char *want = size < 10000     ? "axpy__TILE512_THREADS128"
                       : size < 1000000 ? "axpy__TILE1024_THREADS256"
                                        : "axpy__TILE2048_THREADS256";
    expect(tuned.info().name == want,
           "n = " + std::to_string(size) + ": " + tuned.info().name);
    tuned.launch();
    tc.download(z);
    int64_t wrong = 0;
    for (int64_t i = 0; i < size; ++i)
      if (!(std::fabs(z[i] - (x[i] * factor + y[i])) <= 1e-5f * 16))
        ++wrong;
    expect(wrong == 0, "axpy_tuned at n = " + std::to_string(size) + ": " +
                           std::to_string(wrong) + " wrong elements");
  }
  // A second Device on the same context closing leaves the module loaded
  // (this one's launches still use it); the last one closing unloads it.
  { Device second = Device::open(); }
  expect(test_kernels::module().loaded(),
         "the module stays loaded while a Device is open on its context");
  chosen.launch();
  synchronize();
  std::printf("launcher: %zu configurations checked on %s\n",
              test_kernels::axpy_config_count, device.name().c_str());
}

} // namespace

int main() {
  testDescription();
  std::string why;
  if (!driverAvailable(&why))
    testWithoutDriver(why);
  else
    runChecked(testWithDevice);
  return finish("launcher: ok");
}
