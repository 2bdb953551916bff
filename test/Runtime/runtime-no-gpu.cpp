//===- runtime-no-gpu.cpp - Self-test of the tile runtime -----------------===//
//
// Runs everywhere: the host-only parts (kinfo parsing, argument packing,
// TMA validation, float conversions, error messages) are always checked.
// Without a driver it prints "no GPU: <why>"; with one it also runs a few
// small kernels JIT-compiled from embedded PTX. Exits non-zero on any
// unexpected result.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
// White-box checks of NVSHMEM's bootstrap plan and kernel scan.
#include "NvshmemApi.h"
#include "tile/Runtime/DiskCache.h"
#include "tile/Runtime/Launcher.h"
#include "tile/Runtime/Runtime.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace tile::rt;
using namespace tile_test;

namespace {

//===----------------------------------------------------------------------===//
// Kernel info
//===----------------------------------------------------------------------===//

const char *kKernelInfo = R"(# Written by tile-translate.

tma gemm param 0 arg 0 type bf16 box 64x64 swizzle 128   # before its kernel
kernel gemm block 384 1 1 cluster 2 1 1 smem 197632
tma gemm param 1 arg 1 type bf16 box 256x64 swizzle 128
tma gemm param 5 arg 2 type f32 box 8x16x4 swizzle 0
kernel copy block 128 1 1 cluster 1 1 1 smem 0
link copy nvshmem   # it calls NVSHMEM
)";

const char *kExpectedDump = R"(kernel gemm block 384x1x1 cluster 2x1x1 smem 197632 tmas 3
  tma param 0 arg 0 type bf16 box [64,64] swizzle 128 oobZero 1
  tma param 1 arg 1 type bf16 box [256,64] swizzle 128 oobZero 1
  tma param 5 arg 2 type f32 box [8,16,4] swizzle 0 oobZero 1
kernel copy block 128x1x1 cluster 1x1x1 smem 0 tmas 0 links nvshmem
)";

std::string dump(const std::vector<KernelInfo> &infos) {
  std::ostringstream os;
  for (const KernelInfo &k : infos) {
    os << "kernel " << k.name << " block " << k.block.x << "x" << k.block.y
       << "x" << k.block.z << " cluster " << k.cluster.x << "x" << k.cluster.y
       << "x" << k.cluster.z << " smem " << k.sharedBytes << " tmas "
       << k.tmas.size() << (k.linksNvshmem ? " links nvshmem" : "") << "\n";
    for (const TmaInfo &t : k.tmas) {
      os << "  tma param " << t.param << " arg " << t.arg << " type "
         << t.spec.elementType << " box [";
      for (size_t i = 0; i < t.spec.box.size(); ++i)
        os << (i ? "," : "") << t.spec.box[i];
      os << "] swizzle " << t.spec.swizzleBytes << " oobZero "
         << t.spec.oobZeroFill << "\n";
    }
  }
  return os.str();
}

void testKernelInfo() {
  std::vector<KernelInfo> infos;
  try {
    infos = parseKernelInfo(kKernelInfo);
  } catch (const Error &e) {
    expect(false, std::string("parseKernelInfo: ") + e.what());
    return;
  }
  std::string text = dump(infos);
  std::printf("%s", text.c_str());
  expect(text == kExpectedDump, "kinfo dump matches the expected text");

  const KernelInfo &gemm = findKernel(infos, "gemm");
  LaunchConfig config = launchConfigFor(gemm, Dim3{8, 4, 1});
  expect(config.grid.x == 8 && config.grid.y == 4 && config.block.x == 384 &&
             config.cluster.x == 2 && config.dynamicSharedBytes == 197632,
         "launchConfigFor copies block/cluster/smem");
  expectError("findKernel unknown", [&] { findKernel(infos, "nope"); },
              "kernel 'nope' is not described in the kernel info (known: "
              "gemm, copy)");
  expect(parseKernelInfo("# only a comment\n\n   \n").empty(),
         "comments and blank lines only");
  expect(parseKernelInfo("kernel k block 1 1 1 cluster 1 1 1 smem 0\r\n")
                 .size() == 1,
         "CRLF line endings");

  struct BadCase {
    const char *text;
    const char *error;
  };
  const BadCase badCases[] = {
      {"kernel k block 1 1 cluster 1 1 1 smem 0",
       "kinfo:1: expected block z but found 'cluster'"},
      {"\n\nkernel k block 1 1 1 cluster 1 1 1 smem",
       "kinfo:3: expected shared memory bytes but the line ends"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0 extra",
       "kinfo:1: unexpected 'extra' at the end of the line"},
      {"kernel k blocks 1 1 1 cluster 1 1 1 smem 0",
       "kinfo:1: expected 'block' but found 'blocks'"},
      {"kernel k block 0 1 1 cluster 1 1 1 smem 0",
       "kinfo:1: block x must be 1 to 4294967295, got 0"},
      {"kernel k block -1 1 1 cluster 1 1 1 smem 0",
       "kinfo:1: expected block x but found '-1'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 99999999999",
       "kinfo:1: shared memory bytes must be 0 to 4294967295"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n"
       "kernel k block 1 1 1 cluster 1 1 1 smem 0",
       "kinfo:2: duplicate kernel 'k' (first on line 1)"},
      {"kernal k", "kinfo:1: unknown record 'kernal'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n"
       "tma other param 0 arg 0 type f16 box 8x8 swizzle 0",
       "kinfo:2: tma record names unknown kernel 'other'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n#\n"
       "tma k param 0 arg 0 type f8 box 8x8 swizzle 0",
       "kinfo:3: unknown element type 'f8'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n"
       "tma k param 0 arg 0 type f16 box 8xx8 swizzle 0",
       "kinfo:2: expected a box dimension but found ''"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n"
       "tma k param 0 arg 0 type f16 box 8x0 swizzle 0",
       "kinfo:2: a box dimension must be 1 to"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n"
       "tma k param 0 arg 0 type f16 box 8x8 swizzle 16",
       "kinfo:2: swizzle must be 0, 32, 64 or 128, got 16"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n"
       "tma k param 0 arg 0 type f16 box 8x8 swizzle 0\n"
       "tma k param 0 arg 1 type f16 box 8x8 swizzle 0",
       "kinfo:3: kernel 'k' has two tma records for param 0"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\n"
       "tma k param 0 arg 0 type f16 box 8x8",
       "kinfo:2: expected 'swizzle' but the line ends"},
  };
  for (const BadCase &bad : badCases)
    expectError(std::string("parseKernelInfo rejects \"") + bad.text + "\"",
                [&] { parseKernelInfo(bad.text); }, bad.error);

  expectError("loadKernelInfo missing file",
              [] { loadKernelInfo("/nonexistent/x.kinfo"); },
              "cannot read kernel info file '/nonexistent/x.kinfo'");
}

//===----------------------------------------------------------------------===//
// Host-only helpers
//===----------------------------------------------------------------------===//

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void testConversions() {
  expect(floatToBf16(1.0f) == 0x3f80, "bf16(1.0)");
  expect(floatToBf16(-2.0f) == 0xc000, "bf16(-2.0)");
  expect(floatToBf16(fromBits(0x3f808000)) == 0x3f80, "bf16 tie to even down");
  expect(floatToBf16(fromBits(0x3f818000)) == 0x3f82, "bf16 tie to even up");
  expect(floatToBf16(fromBits(0x3f808001)) == 0x3f81, "bf16 above tie");
  expect(floatToBf16(fromBits(0x7f7fffff)) == 0x7f80, "bf16 overflow to inf");
  expect(std::isnan(bf16ToFloat(floatToBf16(std::nanf("")))), "bf16 NaN");
  expect(std::isnan(bf16ToFloat(floatToBf16(fromBits(0x7f800001)))),
         "bf16 NaN with low payload stays NaN");

  expect(floatToHalf(1.0f) == 0x3c00, "half(1.0)");
  expect(floatToHalf(-2.0f) == 0xc000, "half(-2.0)");
  expect(floatToHalf(0.1f) == 0x2e66, "half(0.1)");
  expect(floatToHalf(65504.0f) == 0x7bff, "half(65504)");
  expect(floatToHalf(65519.0f) == 0x7bff, "half(65519)");
  expect(floatToHalf(65520.0f) == 0x7c00, "half(65520) -> inf");
  expect(floatToHalf(std::ldexp(1.0f, -24)) == 0x0001, "half min subnormal");
  expect(floatToHalf(std::ldexp(1.0f, -25)) == 0x0000, "half 2^-25 ties to 0");
  expect(floatToHalf(std::ldexp(1.5f, -25)) == 0x0001, "half 1.5*2^-25");
  expect(floatToHalf(std::ldexp(3.0f, -25)) == 0x0002, "half 3*2^-25 tie up");
  expect(floatToHalf(std::ldexp(1023.5f, -24)) == 0x0400,
         "half subnormal rounds into the smallest normal");
  expect(std::isnan(halfToFloat(floatToHalf(std::nanf("")))), "half NaN");
  expect(halfToFloat(0x8001) == -std::ldexp(1.0f, -24), "half -subnormal");

  // Every finite value must survive a round trip.
  int bad16 = 0, badBf16 = 0;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    uint16_t bits = uint16_t(h);
    if ((bits & 0x7c00) != 0x7c00 && floatToHalf(halfToFloat(bits)) != bits)
      ++bad16;
    if ((bits & 0x7f80) != 0x7f80 && floatToBf16(bf16ToFloat(bits)) != bits)
      ++badBf16;
  }
  expect(bad16 == 0, "half round trip of all finite values");
  expect(badBf16 == 0, "bf16 round trip of all finite values");
}

template <typename T> T paramAs(ArgPack &args, size_t i) {
  T value;
  std::memcpy(&value, args.params()[i], sizeof(T));
  return value;
}

/// A cubin's ELF header: 64 bytes, CUDA's OS ABI and machine, ABI version
/// `abi` and e_flags `flags`.
std::vector<unsigned char> fakeCubinHeader(unsigned char abi, uint32_t flags) {
  std::vector<unsigned char> elf(64, 0);
  std::memcpy(elf.data(), "\x7f" "ELF", 4);
  elf[4] = 2; // 64-bit
  elf[5] = 1; // little-endian
  elf[7] = abi >= 8 ? 0x41 : 0x33;
  elf[8] = abi;
  elf[18] = 190; // EM_CUDA
  for (int i = 0; i < 4; ++i)
    elf[48 + i] = (flags >> (8 * i)) & 0xff;
  return elf;
}

void testCubinArchitecture() {
  // e_flags as CUDA 13's ptxas writes them for sm_90a and sm_100a (ABI 8),
  // and an ABI 7 cubin's (SM in the low byte).
  std::vector<unsigned char> sm90a = fakeCubinHeader(8, 0x6005a04);
  std::vector<unsigned char> sm100a = fakeCubinHeader(8, 0x6006402);
  std::vector<unsigned char> sm80 = fakeCubinHeader(7, 0x500550);
  expect(cubinArchitecture(sm90a.data(), sm90a.size()) == 90, "sm_90a cubin");
  expect(cubinArchitecture(sm100a.data(), sm100a.size()) == 100,
         "sm_100a cubin");
  expect(cubinArchitecture(sm80.data(), sm80.size()) == 80, "ABI 7 cubin");
  const char ptx[] = "//\n.version 8.0\n.target sm_90a\n";
  expect(cubinArchitecture(ptx, sizeof(ptx)) == 0, "PTX is not a cubin");
  expect(cubinArchitecture(sm90a.data(), 40) == 0, "truncated header");
}

void testArgPack() {
  ArgPack args;
  args.addScalar<int32_t>(-7).addScalar<float>(2.5f);
  args.addMemRef(0x1000, {4, 8}, {8, 1});
  expect(args.size() == 2 + 3 + 2 * 2, "memref expands to 3 + 2*rank params");
  expect(paramAs<int32_t>(args, 0) == -7, "int scalar");
  expect(paramAs<float>(args, 1) == 2.5f, "float scalar");
  expect(paramAs<CUdeviceptr>(args, 2) == 0x1000, "memref allocated ptr");
  expect(paramAs<CUdeviceptr>(args, 3) == 0x1000, "memref aligned ptr");
  expect(paramAs<int64_t>(args, 4) == 0, "memref offset");
  expect(paramAs<int64_t>(args, 5) == 4 && paramAs<int64_t>(args, 6) == 8,
         "memref sizes");
  expect(paramAs<int64_t>(args, 7) == 8 && paramAs<int64_t>(args, 8) == 1,
         "memref strides");

  CUtensorMap map;
  for (int i = 0; i < 16; ++i)
    map.opaque[i] = 0x0101010101010101ull * uint64_t(i);
  void *first = args.params()[0];
  args.addTensorMap(map);
  expect(reinterpret_cast<uintptr_t>(args.params()[9]) % 64 == 0,
         "tensor map slot is 64-byte aligned");
  expect(std::memcmp(args.params()[9], &map, sizeof(map)) == 0,
         "tensor map bytes");
  for (int i = 0; i < 1000; ++i)
    args.addScalar(i);
  expect(args.params()[0] == first && paramAs<int32_t>(args, 0) == -7,
         "parameter addresses stay stable");
  ArgPack moved = std::move(args);
  expect(moved.params()[0] == first, "moving keeps parameter addresses");
  expectError("addMemRef rank mismatch",
              [] { ArgPack a; a.addMemRef(0, {1, 2}, {1}); },
              "ArgPack::addMemRef: 2 sizes but 1 strides");
}

// Where a launch zeroes a memref argument (tile.zero_before_launch): the
// view's rows, never the gaps between them, and no view it cannot.
void testZeroRegion() {
  auto same = [](const ZeroRegion &r, size_t width, size_t pitch,
                 size_t rows) {
    return r.widthBytes == width && r.pitchBytes == pitch && r.rows == rows;
  };
  expect(same(zeroRegionOf({0x1000, {100, 64}, {64, 1}}, 4), 256, 256, 100),
         "a contiguous matrix: 100 rows of 256 bytes");
  expect(same(zeroRegionOf({0x1000, {100, 64}, {80, 1}}, 2), 128, 160, 100),
         "a padded matrix: 100 rows of 128 bytes, 160 apart");
  expect(same(zeroRegionOf({0x1000, {3, 5, 7}, {70, 14, 1}}, 4), 28, 56, 15),
         "rank 3 whose outer dimensions collapse: 15 rows");
  expect(same(zeroRegionOf({0x1000, {1000}, {1}}, 2), 2000, 2000, 1),
         "a vector: one row");
  expect(same(zeroRegionOf({0x1000, {1, 7}, {1000, 1}}, 4), 28, 28, 1),
         "one row of a padded matrix");
  expect(zeroRegionOf({0x1000, {0, 64}, {64, 1}}, 4).rows == 0,
         "an empty view zeroes nothing");
  expect(same(zeroRegionOf({0x1000, {8, 8}, {16, 2}}, 4), 4, 8, 64),
         "every other element: 64 rows of one element, 8 bytes apart");
  expect(same(zeroRegionOf({0x1000, {2, 1, 4}, {40, 8, 1}}, 4), 16, 160, 2),
         "one row of each of two matrices: the size-1 dimension ignored");
  expectError("a rank-4 view whose rows are not evenly spaced",
              [] { zeroRegionOf({0, {2, 1, 3, 4}, {40, 40, 8, 1}}, 4); },
              "dimension 0 does not step evenly over the rows inside it "
              "(stride 40)");
  expectError("a strided row", [] { zeroRegionOf({0, {8, 8}, {12, 2}}, 4); },
              "dimension 0 does not step evenly over the rows inside it "
              "(stride 12)");
  expectError("uneven outer dimensions",
              [] { zeroRegionOf({0, {3, 5, 7}, {100, 14, 1}}, 4); },
              "dimension 0 does not step evenly over the rows inside it "
              "(stride 100)");
  expectError("overlapping rows",
              [] { zeroRegionOf({0, {4, 8}, {4, 1}}, 4); },
              "its rows overlap (row stride 4 elements, 8 per row)");
  expectError("sizes past 64 bits",
              [] { zeroRegionOf({0, {int64_t(1) << 62, 8}, {8, 1}}, 4); },
              "it has too many rows to address");
  expectError("a negative stride",
              [] { zeroRegionOf({0, {4, 8}, {-8, 1}}, 4); },
              "negative size or stride in dimension 0");
}

void testTensorMapValidation() {
  TensorMapSpec spec;
  spec.elementType = "bf16";
  spec.box = {64, 64};
  spec.swizzleBytes = 128;
  auto encode = [&](TensorMapSpec s, CUdeviceptr base,
                    std::vector<uint64_t> dims, std::vector<uint64_t> strides) {
    return [=] { encodeTiledTensorMap(s, base, dims, strides); };
  };
  expectError("misaligned base", encode(spec, 0x1008, {128, 128}, {256}),
              "base address is not 16-byte aligned");
  expectError("stride not multiple of 16",
              encode(spec, 0x1000, {128, 100}, {200}),
              "stride 0 (200 bytes) is not a multiple of 16 bytes");
  expectError("bad innermost stride",
              encode(spec, 0x1000, {128, 128}, {256, 4}),
              "innermost stride must be the element size (2 bytes), got 4");
  TensorMapSpec rank3 = spec;
  rank3.box = {2, 64, 64};
  expectError("stride count", encode(rank3, 0x1000, {8, 128, 128}, {256}),
              "expected 2 or 3 strides, got 1");
  TensorMapSpec big = spec;
  big.box = {512, 64};
  expectError("box too large", encode(big, 0x1000, {1024, 128}, {256}),
              "box dimension 0 must be 1 to 256");
  TensorMapSpec wide = spec;
  wide.box = {64, 128};
  expectError("swizzle span", encode(wide, 0x1000, {128, 128}, {256}),
              "innermost box extent (256 bytes) exceeds the 128-byte "
              "swizzle span");
  TensorMapSpec narrow = spec;
  narrow.box = {64, 4};
  narrow.swizzleBytes = 0;
  expectError("inner box bytes", encode(narrow, 0x1000, {128, 128}, {256}),
              "innermost box extent (8 bytes) is not a multiple of 16 bytes");
  TensorMapSpec odd = spec;
  odd.swizzleBytes = 16;
  expectError("swizzle value", encode(odd, 0x1000, {128, 128}, {256}),
              "swizzle must be 0, 32, 64 or 128 bytes");
  TensorMapSpec unknown = spec;
  unknown.elementType = "f8";
  expectError("unknown type", encode(unknown, 0x1000, {128, 128}, {256}),
              "unknown element type 'f8'");
  TensorMapSpec nanInt = spec;
  nanInt.elementType = "i8";
  nanInt.box = {64, 128};
  nanInt.oobZeroFill = false;
  expectError("NaN fill for ints", encode(nanInt, 0x1000, {128, 128}, {128}),
              "NaN out-of-bounds fill needs a floating-point element type");
  expectError("rank mismatch", encode(spec, 0x1000, {128}, {}),
              "box has rank 2 but the tensor has rank 1");
  expect(elementTypeBytes("tf32") == 4 && elementTypeBytes("i8") == 1,
         "elementTypeBytes");
}

//===----------------------------------------------------------------------===//
// No-driver behaviour
//===----------------------------------------------------------------------===//

void testWithoutDriver() {
  const char bogus[] = "definitely not a cubin";
  expectError("bogus image without a driver",
              [&] { Module::loadImage(bogus, sizeof(bogus)); },
              "cuModuleLoadData failed: no usable CUDA driver (");
  expectError("Device::open without a driver", [] { Device::open(); },
              "cuDeviceGetCount failed: no usable CUDA driver (");
  expectError("DeviceBuffer without a driver", [] { DeviceBuffer b(16); },
              "cuMemAlloc failed: no usable CUDA driver (");
  expectError("encode without a driver",
              [] {
                TensorMapSpec spec{"f32", {8, 8}, 0, true};
                encodeTiledTensorMap(spec, 0x1000, {64, 64}, {256});
              },
              "cuTensorMapEncodeTiled failed: no usable CUDA driver (");
  expectError("synchronize without a driver", [] { synchronize(); },
              "cuCtxSynchronize failed: no usable CUDA driver (");
  expectError("Stream::create without a driver", [] { Stream::create(); },
              "cuStreamCreate failed: no usable CUDA driver (");
  expect(formatError("cuFoo", CUDA_ERROR_INVALID_VALUE)
                 .rfind("cuFoo failed: ", 0) == 0,
         "formatError names the call");
  // Constructing and destroying empty RAII objects must never touch CUDA.
  DeviceBuffer empty(0);
  expect(empty.ptr() == 0 && empty.size() == 0, "empty buffer");
  expectError("downloadBf16 past the end", [&] { empty.downloadBf16(1); },
              "DeviceBuffer::downloadBf16: 1 bf16 elements do not fit in a "
              "buffer of 0 bytes");
}

//===----------------------------------------------------------------------===//
// Graphs: misuse refused before the driver is asked
//===----------------------------------------------------------------------===//

void testGraphMisuse() {
  Graph empty;
  expect(empty.empty() && empty.size() == 0, "a default Graph is empty");
  expectError("launch of an empty graph", [&] { empty.launch(nullptr); },
              "Graph::launch: the graph is empty (capture one with "
              "Graph::capture first)");
  expectError("capture on the legacy default stream",
              [] { Graph::capture(nullptr, [](CUstream) {}); },
              "Graph::capture: the legacy default stream (nullptr) cannot be "
              "captured; capture on a stream of its own "
              "(rt::Stream::create())");
  expectError("update on the legacy default stream",
              [&] { empty.update(nullptr, [](CUstream) {}); },
              "Graph::update: the legacy default stream (nullptr) cannot be "
              "captured");
  // A stream handle that is never used: the missing recorder is refused
  // first.
  CUstream unused = reinterpret_cast<CUstream>(uintptr_t(0x10));
  expectError("capture without a recorder",
              [&] { Graph::capture(unused, Graph::Recorder()); },
              "Graph::capture: no function to record");
  Graph moved = std::move(empty);
  expect(moved.empty(), "a moved empty Graph stays empty");
  Stream none;
  expect(none.handle() == nullptr, "a default Stream holds no stream");
}

//===----------------------------------------------------------------------===//
// NVSHMEM, installed or not
//===----------------------------------------------------------------------===//

/// Sets or (with nullptr) unsets a variable for the scope of one check.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old, hadValue = true;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (hadValue)
      setenv(name, previous.c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::string previous;
  bool hadValue = false;
};

void touch(const std::string &path) { std::ofstream(path) << ""; }

void testNvshmemDiscovery() {
  // A fake installation: discovery only looks for the files.
  char root[] = "/tmp/tile-nvshmem-XXXXXX";
  if (!mkdtemp(root)) {
    expect(false, "mkdtemp");
    return;
  }
  std::string home = root;
  NvshmemInstall install;
  std::string why;
  {
    ScopedEnv env("NVSHMEM_HOME", root);
    expect(!findNvshmem(install, &why), "empty NVSHMEM_HOME");
    expect(why.find("NVSHMEM_HOME is set to '" + home + "' but neither it "
                    "nor its lib/ holds both libnvshmem_host.so.3 and "
                    "libnvshmem_device.a") != std::string::npos,
           "empty NVSHMEM_HOME says so: " + why);
    mkdir((home + "/lib").c_str(), 0755);
    mkdir((home + "/include").c_str(), 0755);
    touch(home + "/lib/libnvshmem_host.so.3");
    expect(!findNvshmem(install, &why), "NVSHMEM_HOME without device lib");
    touch(home + "/lib/libnvshmem_device.a");
    touch(home + "/include/nvshmem.h");
    expect(findNvshmem(install, &why), "NVSHMEM_HOME complete: " + why);
    expect(install.origin == "NVSHMEM_HOME" &&
               install.libraryDir == home + "/lib" &&
               install.hostLibrary == home + "/lib/libnvshmem_host.so.3" &&
               install.deviceLibrary == home + "/lib/libnvshmem_device.a" &&
               install.includeDir == home + "/include",
           "NVSHMEM_HOME install: " + install.libraryDir + " " +
               install.includeDir);
  }
  // The Python package in a virtual environment.
  std::string package = home + "/venv/lib/python3.12/site-packages/nvidia";
  std::string nvshmem = package + "/nvshmem";
  for (const std::string &dir :
       {home + "/venv", home + "/venv/lib", home + "/venv/lib/python3.12",
        home + "/venv/lib/python3.12/site-packages", package, nvshmem,
        nvshmem + "/lib"})
    mkdir(dir.c_str(), 0755);
  touch(nvshmem + "/lib/libnvshmem_host.so.3");
  touch(nvshmem + "/lib/libnvshmem_device.a");
  {
    ScopedEnv noHome("NVSHMEM_HOME", nullptr);
    ScopedEnv venv("VIRTUAL_ENV", (home + "/venv").c_str());
    bool found = findNvshmem(install, &why);
    // An NVSHMEM installed on this machine may come first.
    std::string python = "the Python package nvidia-nvshmem-cu13";
    expect(found && (install.libraryDir == nvshmem + "/lib" ||
                     install.origin != python),
           "Python package in VIRTUAL_ENV: " + install.libraryDir + why);
    expect(install.libraryDir != nvshmem + "/lib" ||
               install.includeDir.empty(),
           "no headers in the fake package");
  }
  std::string cleanup = "rm -rf '" + home + "'";
  expect(std::system(cleanup.c_str()) == 0, "removing " + home);
}

void testNvshmemBootstrapPlan() {
  using detail::NvshmemBootstrap;
  using detail::planNvshmemBootstrap;
  ScopedEnv a(nvshmemenv::kUniqueId, nullptr), b(nvshmemenv::kRank, nullptr),
      c(nvshmemenv::kWorldSize, nullptr), d(nvshmemenv::kLocalRank, nullptr),
      e("NVSHMEM_BOOTSTRAP", nullptr), f("OMPI_COMM_WORLD_SIZE", nullptr),
      g("PMI_SIZE", nullptr), h("SLURM_STEP_NUM_TASKS", nullptr),
      i("OMPI_COMM_WORLD_LOCAL_RANK", nullptr), j("MPI_LOCALRANKID", nullptr),
      k("SLURM_LOCALID", nullptr);
  expect(planNvshmemBootstrap().kind == NvshmemBootstrap::Alone,
         "no launcher: one PE");
  expect(nvshmemLocalRank() == 0, "no launcher: local rank 0");
  {
    ScopedEnv rank("OMPI_COMM_WORLD_LOCAL_RANK", "3");
    expect(nvshmemLocalRank() == 3, "Open MPI's local rank");
    ScopedEnv tile(nvshmemenv::kLocalRank, "1");
    expect(nvshmemLocalRank() == 1, "TILE_LOCAL_RANK comes first");
  }
  {
    ScopedEnv rank(nvshmemenv::kLocalRank, "one");
    expectError("malformed TILE_LOCAL_RANK", [] { nvshmemLocalRank(); },
                "TILE_LOCAL_RANK='one' is not a non-negative integer");
  }
  {
    ScopedEnv size("OMPI_COMM_WORLD_SIZE", "4");
    expectError("mpirun without NVSHMEM_BOOTSTRAP",
                [] { planNvshmemBootstrap(); },
                "nvshmemInit: this process is one of 4 started by a "
                "launcher (OMPI_COMM_WORLD_SIZE=4) but neither "
                "TILE_NVSHMEM_UID nor NVSHMEM_BOOTSTRAP is set");
    ScopedEnv bootstrap("NVSHMEM_BOOTSTRAP", "PMI");
    NvshmemBootstrap plan = planNvshmemBootstrap();
    expect(plan.kind == NvshmemBootstrap::Nvshmem &&
               plan.description == "NVSHMEM_BOOTSTRAP=PMI",
           "NVSHMEM_BOOTSTRAP: NVSHMEM's own bootstrap");
  }
  std::string uid(256, '0');
  {
    ScopedEnv id(nvshmemenv::kUniqueId, uid.c_str());
    expectError("uid without rank", [] { planNvshmemBootstrap(); },
                "TILE_NVSHMEM_UID is set but TILE_RANK is not: start the "
                "program with tile-run -n <PEs>");
    ScopedEnv rank(nvshmemenv::kRank, "2"), size(nvshmemenv::kWorldSize, "2");
    expectError("rank beyond size", [] { planNvshmemBootstrap(); },
                "TILE_RANK=2 is not below TILE_WORLD_SIZE=2");
    ScopedEnv rank1(nvshmemenv::kRank, "1");
    NvshmemBootstrap plan = planNvshmemBootstrap();
    expect(plan.kind == NvshmemBootstrap::UniqueId && plan.rank == 1 &&
               plan.size == 2 &&
               plan.description == "PE 1 of 2 from TILE_NVSHMEM_UID",
           "tile-run's variables: " + plan.description);
  }
  {
    ScopedEnv id(nvshmemenv::kUniqueId, "abc");
    expectError("short uid", [] { planNvshmemBootstrap(); },
                "TILE_NVSHMEM_UID must be 256 hex digits, got 3 characters");
    std::string bad = uid;
    bad[7] = 'g';
    ScopedEnv id2(nvshmemenv::kUniqueId, bad.c_str());
    expectError("non-hex uid", [] { planNvshmemBootstrap(); },
                "TILE_NVSHMEM_UID holds 'g', which is not a hex digit");
  }
}

void testNvshmemScan() {
  // What tile-translate's PTX declares for NVSHMEM calls.
  const char ptx[] =
      ".version 8.6\n.target sm_90a\n.address_size 64\n"
      ".extern .func  (.param .b32 func_retval0) nvshmem_my_pe\n()\n;\n"
      ".extern .func nvshmemx_putmem_signal_nbi_block\n(\n"
      "\t.param .b64 p0\n);\n"
      ".extern .func  (.param .b32 func_retval0) nvshmem_my_pe\n()\n;\n"
      ".extern .func other_function\n()\n;\n";
  std::vector<std::string> names =
      detail::undefinedNvshmemFunctions(ptx, sizeof(ptx));
  expect(names == std::vector<std::string>{"nvshmem_my_pe",
                                           "nvshmemx_putmem_signal_nbi_block"},
         "NVSHMEM calls of a PTX image");
  const char notElf[] = "\x7f" "ELF garbage";
  expect(detail::undefinedNvshmemFunctions(notElf, sizeof(notElf)).empty(),
         "a damaged ELF image yields nothing");
}

// The disk cache: entries round-trip; a damaged entry (cut short, a byte
// changed, another key filed under this one's name) reads as absent and
// is written again; no folder, or one that cannot be written, only costs
// the compilation; the folder comes from the environment.
void testDiskCache() {
  char root[] = "/tmp/tile-cache-XXXXXX";
  if (!mkdtemp(root)) {
    expect(false, "mkdtemp for the disk cache test");
    return;
  }
  DiskCache cache(std::string(root) + "/a/b");
  std::string data("\x7f" "ELF and \0 some bytes", 19);
  expect(!cache.load("kind", "key 1").has_value(), "empty cache misses");
  expect(cache.store("kind", "key 1", data), "store creates the folders");
  expect(cache.load("kind", "key 1") == data, "stored entry reads back");
  expect(!cache.load("kind", "key 2").has_value() &&
             !cache.load("other", "key 1").has_value(),
         "another key or kind misses");
  std::string path = cache.path("kind", "key 1");
  auto contents = [&] {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  };
  auto overwrite = [&](const std::string &bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  };
  std::string whole = contents();
  overwrite(whole.substr(0, whole.size() - 3));
  expect(!cache.load("kind", "key 1").has_value(), "a cut entry misses");
  std::string flipped = whole;
  flipped.back() ^= 1;
  overwrite(flipped);
  expect(!cache.load("kind", "key 1").has_value(),
         "an entry with a changed byte misses (checksum)");
  std::string longer = whole + "x";
  overwrite(longer);
  expect(!cache.load("kind", "key 1").has_value(),
         "an entry with bytes past its data misses");
  std::string otherKey = whole;
  otherKey.replace(otherKey.find("key 1"), 5, "key 9");
  overwrite(otherKey);
  expect(!cache.load("kind", "key 1").has_value(),
         "an entry holding another key misses");
  overwrite("garbage");
  expect(!cache.load("kind", "key 1").has_value(), "garbage misses");
  expect(cache.store("kind", "key 1", data) &&
             cache.load("kind", "key 1") == data,
         "a damaged entry is written again");
  size_t files = 0;
  if (DIR *dir = opendir((std::string(root) + "/a/b").c_str())) {
    while (dirent *entry = readdir(dir))
      files += entry->d_name[0] != '.';
    closedir(dir);
  }
  expect(files == 1, "one entry and no temporary file left");
  // A header whose sizes do not account for the file is a miss, before
  // anything is allocated for them.
  std::string huge = whole;
  huge.replace(huge.find(" 19 "), 4, " 99999999999 ");
  overwrite(huge);
  expect(!cache.load("kind", "key 1").has_value(),
         "a header asking for more than the file holds misses");
  expect(cache.store("kind", "key 1", data), "written again");

  DiskCache off("");
  expect(!off.enabled() && !off.store("kind", "key", data) &&
             !off.load("kind", "key").has_value(),
         "no folder: no cache, no error");
  std::string file = std::string(root) + "/file";
  touch(file);
  DiskCache unwritable(file + "/below");
  expect(!unwritable.store("kind", "key", data) &&
             !unwritable.load("kind", "key").has_value(),
         "a folder that cannot be made: store fails quietly");
  {
    ScopedEnv dir("TILE_CACHE_DIR", "/somewhere/cache");
    expect(DiskCache::defaultFolder() == "/somewhere/cache",
           "TILE_CACHE_DIR names the folder");
  }
  {
    ScopedEnv dir("TILE_CACHE_DIR", "off");
    expect(DiskCache::defaultFolder().empty(), "TILE_CACHE_DIR=off");
  }
  {
    ScopedEnv dir("TILE_CACHE_DIR", nullptr), xdg("XDG_CACHE_HOME", "/xdg"),
        home("HOME", "/home/u");
    expect(DiskCache::defaultFolder() == "/xdg/tile", "XDG_CACHE_HOME");
  }
  {
    ScopedEnv dir("TILE_CACHE_DIR", nullptr), xdg("XDG_CACHE_HOME", nullptr),
        home("HOME", "/home/u");
    expect(DiskCache::defaultFolder() == "/home/u/.cache/tile",
           "HOME/.cache/tile");
  }
  std::system(("rm -rf " + std::string(root)).c_str());
}

// The key of NVSHMEM's device functions changes with each thing the cubin
// depends on, and only with those.
void testNvshmemCacheKey() {
  std::vector<std::string> names = {"nvshmem_my_pe", "nvshmemx_putmem_block"};
  std::vector<std::string> options = {"-arch=sm_90a", "-I/nvshmem/include"};
  std::string key =
      detail::nvshmemFunctionsKey(names, options, "13.0", "3.4.5 lib 100 1");
  expect(key == detail::nvshmemFunctionsKey(names, options, "13.0",
                                            "3.4.5 lib 100 1"),
         "the same inputs give the same key");
  expect(key != detail::nvshmemFunctionsKey({"nvshmem_my_pe"}, options, "13.0",
                                            "3.4.5 lib 100 1"),
         "the key names the function set");
  std::vector<std::string> otherArch = {"-arch=sm_100a", "-I/nvshmem/include"};
  expect(key != detail::nvshmemFunctionsKey(names, otherArch, "13.0",
                                            "3.4.5 lib 100 1"),
         "the key names the chip");
  expect(key != detail::nvshmemFunctionsKey(names, options, "12.9",
                                            "3.4.5 lib 100 1"),
         "the key names NVRTC's version");
  expect(key != detail::nvshmemFunctionsKey(names, options, "13.0",
                                            "3.5.0 lib 100 1"),
         "the key names NVSHMEM's version");
  expect(key.find("nvshmemx_putmem_block") != std::string::npos,
         "the key holds the translation unit");
}

void testNvshmem() {
  testNvshmemDiscovery();
  testNvshmemBootstrapPlan();
  testNvshmemScan();
  testDiskCache();
  testNvshmemCacheKey();
  std::string why;
  if (nvshmemAvailable(&why)) {
    std::printf("NVSHMEM: %s\n", nvshmemInstall().libraryDir.c_str());
    return;
  }
  std::printf("no NVSHMEM: %s\n", why.c_str());
  for (const char *needle :
       {"needs NVSHMEM (libnvshmem_host.so.3 and libnvshmem_device.a); none "
        "found in NVSHMEM_HOME",
        "the Python package nvidia-nvshmem-cu13",
        "pip install nvidia-nvshmem-cu13 or set NVSHMEM_HOME"})
    expect(why.find(needle) != std::string::npos,
           std::string("the reason names '") + needle + "': " + why);
  expectError("nvshmemInit without NVSHMEM", [] { nvshmemInit(); },
              "needs NVSHMEM (");
  expectError("SymmetricBuffer without NVSHMEM", [] { SymmetricBuffer b(64); },
              "needs NVSHMEM (");
  expectError("unique id without NVSHMEM", [] { nvshmemCreateUniqueId(); },
              "needs NVSHMEM (");
  expectError("stream wait without NVSHMEM",
              [] { nvshmemSignalWaitOnStream(0x1000, 1, nullptr); },
              "needs NVSHMEM (");
  expect(!nvshmemInitialized(), "not initialised");
  // A module whose kernel calls NVSHMEM is refused before the driver is
  // touched, naming the kernel.
  std::vector<KernelInfo> infos =
      parseKernelInfo("kernel ring block 128 1 1 cluster 1 1 1 smem 0\n"
                      "link ring nvshmem\n");
  const char image[] = "\x7f" "ELF not really a cubin";
  expectError("NVSHMEM module without NVSHMEM",
              [&] { Module::loadImage(image, sizeof(image), infos); },
              "kernel 'ring' needs NVSHMEM (libnvshmem_host.so.3 and "
              "libnvshmem_device.a); none found");
}

//===----------------------------------------------------------------------===//
// With a GPU
//===----------------------------------------------------------------------===//

// Two kernels compiled by nvcc -arch=sm_90 -ptx (lowered to PTX ISA 7.8 so
// older drivers JIT it too):
//   iota_memref(memref<?xf32, strided<[?]>>, float scale):
//     aligned[offset + i * stride] = scale * i for i < size
//   echo_map(const __grid_constant__ 128-byte map, u64 *out):
//     out[i] = map.q[i] for i < 16
const char *kPtx = R"(
.version 7.8
.target sm_90
.address_size 64

.visible .entry iota_memref(
  .param .u64 iota_memref_param_0,
  .param .u64 iota_memref_param_1,
  .param .u64 iota_memref_param_2,
  .param .u64 iota_memref_param_3,
  .param .u64 iota_memref_param_4,
  .param .f32 iota_memref_param_5
)
{
  .reg .pred %p<2>;
  .reg .f32 %f<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<13>;

  ld.param.u64 %rd2, [iota_memref_param_1];
  ld.param.u64 %rd3, [iota_memref_param_2];
  ld.param.u64 %rd5, [iota_memref_param_3];
  ld.param.u64 %rd4, [iota_memref_param_4];
  ld.param.f32 %f1, [iota_memref_param_5];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mul.wide.u32 %rd6, %r1, %r2;
  mov.u32 %r3, %tid.x;
  cvt.u64.u32 %rd7, %r3;
  add.s64 %rd1, %rd6, %rd7;
  setp.ge.s64 %p1, %rd1, %rd5;
  @%p1 bra $L__BB0_2;
  cvta.to.global.u64 %rd8, %rd2;
  cvt.rn.f32.s64 %f2, %rd1;
  mul.f32 %f3, %f2, %f1;
  mul.lo.s64 %rd9, %rd1, %rd4;
  add.s64 %rd10, %rd9, %rd3;
  shl.b64 %rd11, %rd10, 2;
  add.s64 %rd12, %rd8, %rd11;
  st.global.f32 [%rd12], %f3;
$L__BB0_2:
  ret;
}

.visible .entry echo_map(
  .param .align 64 .b8 echo_map_param_0[128],
  .param .u64 echo_map_param_1
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<9>;

  mov.b64 %rd1, echo_map_param_0;
  ld.param.u64 %rd2, [echo_map_param_1];
  mov.u32 %r1, %tid.x;
  setp.gt.u32 %p1, %r1, 15;
  @%p1 bra $L__BB1_2;
  mul.wide.u32 %rd4, %r1, 8;
  add.s64 %rd5, %rd1, %rd4;
  ld.param.u64 %rd6, [%rd5];
  cvta.to.global.u64 %rd7, %rd2;
  add.s64 %rd8, %rd7, %rd4;
  st.global.u64 [%rd8], %rd6;
$L__BB1_2:
  ret;
}
)";

// tma_load_2d(const __grid_constant__ CUtensorMap map, float *out, int x,
//             int y): one TMA load of an 8x16 f32 box at column x, row y into
// shared memory, copied to out[0..128). Needs PTX ISA 8.0.
const char *kTmaPtx = R"(
.version 8.0
.target sm_90
.address_size 64

.visible .entry tma_load_2d(
  .param .align 128 .b8 tma_load_2d_param_0[128],
  .param .u64 tma_load_2d_param_1,
  .param .u32 tma_load_2d_param_2,
  .param .u32 tma_load_2d_param_3
)
{
  .reg .pred %p<4>;
  .reg .f32 %f<2>;
  .reg .b32 %r<19>;
  .reg .b64 %rd<8>;
  .shared .align 128 .b8 tile[512];
  .shared .align 8 .u64 bar;

  mov.b64 %rd2, tma_load_2d_param_0;
  ld.param.u64 %rd3, [tma_load_2d_param_1];
  ld.param.u32 %r5, [tma_load_2d_param_2];
  ld.param.u32 %r6, [tma_load_2d_param_3];
  mov.u32 %r18, %tid.x;
  setp.ne.s32 %p1, %r18, 0;
  @%p1 bra $L__BB0_2;
  mov.u32 %r7, bar;
  mbarrier.init.shared::cta.b64 [%r7], 1;
  fence.proxy.async.shared::cta;
  mov.u32 %r9, 512;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r7], %r9;
  cvta.param.u64 %rd4, %rd2;
  mov.u32 %r10, tile;
  cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r10], [%rd4, {%r5, %r6}], [%r7];
  {
  .reg .pred p;
  WAIT_0:
  mbarrier.try_wait.parity.shared::cta.b64 p, [%r7], 0;
  @!p bra WAIT_0;
  }
$L__BB0_2:
  bar.sync 0;
  setp.gt.s32 %p2, %r18, 127;
  @%p2 bra $L__BB0_5;
  mov.u32 %r2, %ntid.x;
  cvta.to.global.u64 %rd1, %rd3;
  mov.u32 %r16, tile;
$L__BB0_4:
  shl.b32 %r15, %r18, 2;
  add.s32 %r17, %r16, %r15;
  ld.shared.f32 %f1, [%r17];
  mul.wide.s32 %rd6, %r18, 4;
  add.s64 %rd7, %rd1, %rd6;
  st.global.f32 [%rd7], %f1;
  add.s32 %r18, %r18, %r2;
  setp.lt.s32 %p3, %r18, 128;
  @%p3 bra $L__BB0_4;
$L__BB0_5:
  ret;
}
)";

/// Loads boxes through a real TMA descriptor; checks the outermost-first to
/// innermost-first reversal, the byte strides and the zero OOB fill.
void testTmaLoad() {
  const int rows = 32, cols = 40, pitch = 48; // Row pitch 192 bytes.
  std::vector<float> host(size_t(rows) * pitch, -1.0f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      host[size_t(r) * pitch + c] = float(r * 100 + c);
  DeviceBuffer tensor(host.size() * 4), out(128 * 4);
  tensor.upload(host);

  Module module = Module::loadImage(kTmaPtx, std::strlen(kTmaPtx));
  Kernel kernel = module.kernel("tma_load_2d");
  TensorMapSpec spec{"f32", {8, 16}, 0, true};
  struct Case {
    int col, row;
    std::vector<uint64_t> strides;
  };
  const Case cases[] = {{16, 8, {pitch * 4}}, {32, 24, {pitch * 4, 4}}};
  for (const Case &c : cases) {
    CUtensorMap map =
        encodeTiledTensorMap(spec, tensor.ptr(), {rows, cols}, c.strides);
    ArgPack args;
    args.addTensorMap(map).addPointer(out.ptr()).addScalar(c.col).addScalar(
        c.row);
    LaunchConfig config;
    config.block.x = 128;
    out.fillWords(0xffffffffu);
    launch(kernel, config, args);
    synchronize();
    std::vector<float> tile(128);
    out.download(tile);
    int bad = 0;
    for (int r = 0; r < 8; ++r)
      for (int k = 0; k < 16; ++k) {
        int gr = c.row + r, gc = c.col + k;
        float want = gc < cols ? float(gr * 100 + gc) : 0.0f;
        bad += tile[size_t(r) * 16 + k] != want;
      }
    expect(bad == 0, "TMA load of box at column " + std::to_string(c.col) +
                         ", row " + std::to_string(c.row) + ": " +
                         std::to_string(bad) + " wrong elements");
  }
}
// Capture, replay and update of a graph of iota_memref launches.
void testGraphs(const Kernel &iota, size_t n) {
  Stream stream = Stream::create();
  CUstream s = stream.handle();
  DeviceBuffer out(n * 4);
  const uint32_t poison = 0xffffffffu;
  out.fillWords(poison);
  LaunchConfig config;
  config.grid.x = unsigned((n + 127) / 128);
  config.block.x = 128;
  ArgPack args;
  args.addMemRef(out.ptr(), {int64_t(n)}, {1}).addScalar(2.0f);
  auto launches = [&](int count) {
    return [&, count](CUstream on) {
      LaunchConfig c = config;
      c.stream = on;
      for (int i = 0; i < count; ++i)
        launch(iota, c, args);
    };
  };
  auto holds = [&](float scale) {
    std::vector<float> result(n);
    out.download(result);
    bool ok = true;
    for (size_t i = 0; i < n; ++i)
      ok &= result[i] == scale * float(i);
    return ok;
  };
  Graph graph;
  // Poisons `out`, replays the graph and checks what it wrote.
  auto replayHolds = [&](float scale) {
    out.fillWords(poison);
    synchronize(); // the fill ran on the legacy stream, the replay won't
    graph.launch(s);
    synchronize(s);
    return holds(scale);
  };

  graph = Graph::capture(s, [&](CUstream on) {
    fillWordsAsync(out.ptr(), 0, n, on);
    launches(1)(on);
  });
  expect(graph.size() == 2, "a fill and a launch captured as two operations, "
                            "not " + std::to_string(graph.size()));
  synchronize(s);
  std::vector<uint32_t> words(n);
  out.download(words);
  expect(words[0] == poison && words[n - 1] == poison,
         "capture records the launches without running them");
  graph.launch(s);
  synchronize(s);
  expect(holds(2.0f), "replay runs the captured launch");
  expect(replayHolds(2.0f), "replayed again");
  out.fillWords(poison);
  graph.launch(nullptr); // any stream of the context
  synchronize();
  expect(holds(2.0f), "replayed on the legacy default stream");

  // New arguments, the same launches: updated in place.
  float three = 3.0f;
  args.setBytes(5, &three, 4);
  expect(graph.update(s, [&](CUstream on) {
    fillWordsAsync(out.ptr(), 0, n, on);
    launches(1)(on);
  }),
         "an argument change updates the graph in place");
  expect(replayHolds(3.0f), "the updated graph uses the new argument");
  // Other operations: instantiated anew.
  expect(!graph.update(s, launches(3)), "three launches instead of a fill "
                                        "and one: instantiated anew");
  expect(graph.size() == 3, "the new graph has three operations");
  expect(replayHolds(3.0f), "the re-instantiated graph runs");

  // Misuse while capturing: each ends the capture, and the stream stays
  // usable.
  expectError("synchronising while capturing",
              [&] { Graph::capture(s, [](CUstream on) { synchronize(on); }); },
              "Graph::capture: cuStreamSynchronize failed: "
              "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED");
  // Work enqueued elsewhere runs at once, uncaptured.
  expectError("only a copy to the host while capturing",
              [&] {
                Graph::capture(s, [&](CUstream) { out.download(words); });
              },
              "Graph::capture: the function enqueued nothing on the "
              "capturing stream");
  expectError("nothing enqueued",
              [&] { Graph::capture(s, [](CUstream) {}); },
              "Graph::capture: the function enqueued nothing on the "
              "capturing stream");
  expectError("a recorder that throws",
              [&] {
                Graph::capture(s, [](CUstream) { throw Error("no weights"); });
              },
              "Graph::capture: no weights");
  expectError("a failed update leaves the graph as it was",
              [&] { graph.update(s, [](CUstream) {}); },
              "Graph::update: the function enqueued nothing");
  expect(graph.size() == 3, "the graph after a failed update");
  expect(replayHolds(3.0f), "the stream and graph work after refused captures");
  Graph moved = std::move(graph);
  expect(graph.empty() && moved.size() == 3, "Graph move");
}

void testWithDevice() {
  Device device = Device::open(0);
  int cc = device.computeCapability();
  std::printf("device 0: %s (sm_%d, %d SMs, %zu bytes opt-in shared memory)\n",
              device.name().c_str(), cc, device.smCount(),
              device.maxSharedPerBlockOptin());
  expect(cc >= 10 && device.smCount() > 0, "device attributes");
  expectError("Device::open bad ordinal", [] { Device::open(1 << 20); },
              "Device::open: no device with ordinal");

  // Buffers.
  const size_t n = 1000;
  DeviceBuffer a(n * 4), b(n * 4);
  std::vector<uint32_t> host(n), back(n);
  for (size_t i = 0; i < n; ++i)
    host[i] = uint32_t(i * 2654435761u);
  a.upload(host);
  b.copyFrom(a, n * 4);
  b.download(back);
  expect(back == host, "upload / copyFrom / download round trip");
  b.fillWords(0x7fc00000u);
  b.download(back);
  expect(back[0] == 0x7fc00000u && back[n - 1] == 0x7fc00000u, "fillWords");
  b.fillBytes(0xab);
  b.download(back);
  expect(back[17] == 0xababababu, "fillBytes");
  expectError("upload too large", [&] { a.upload(host.data(), n * 8); },
              "DeviceBuffer::upload: 8000 bytes do not fit in a buffer of "
              "4000 bytes");
  DeviceBuffer moved = std::move(a);
  expect(a.ptr() == 0 && moved.size() == n * 4, "DeviceBuffer move");

  // Zeroing a view: its rows (f32 words, and bytes where a row is not
  // whole words), not the gaps between them.
  {
    DeviceBuffer pitched(10 * 16 * 4);
    pitched.fillWords(0xffffffffu);
    zeroAsync(zeroRegionOf({pitched.ptr(), {10, 12}, {16, 1}}, 4));
    zeroAsync(zeroRegionOf({pitched.ptr() + 12 * 4, {10, 3}, {64, 1}}, 1));
    synchronize();
    std::vector<uint32_t> words(10 * 16);
    pitched.download(words);
    std::string wrong;
    for (size_t i = 0; i < words.size() && wrong.empty(); ++i) {
      size_t column = i % 16;
      uint32_t expected = column < 12 ? 0u
                          : column == 12 ? 0xff000000u
                                         : 0xffffffffu;
      if (words[i] != expected)
        wrong = " (word " + std::to_string(i) + " is " +
                std::to_string(words[i]) + ", not " +
                std::to_string(expected) + ")";
    }
    expect(wrong.empty(),
           "zeroAsync: 10 rows of 12 words and of 3 bytes, gaps kept" + wrong);
  }

  // Error formatting with real driver errors.
  const char bogus[] = "definitely not a cubin";
  expectError("bogus image", [&] { Module::loadImage(bogus, sizeof(bogus)); },
              "cuModuleLoadData failed: CUDA_ERROR_");
  expectError("missing cubin file",
              [] { Module::loadCubinFile("/nonexistent/k.cubin"); },
              "Module::loadCubinFile: cannot read '/nonexistent/k.cubin'");
  expect(formatError("cuFoo", CUDA_ERROR_INVALID_VALUE) ==
             "cuFoo failed: CUDA_ERROR_INVALID_VALUE (invalid argument)",
         "formatError: " + formatError("cuFoo", CUDA_ERROR_INVALID_VALUE));

  if (cc < 90) {
    std::printf("skipping kernel tests: they need sm_90 or newer\n");
    return;
  }
  Module module = Module::loadImage(kPtx, std::strlen(kPtx));
  expectError("unknown kernel", [&] { module.kernel("no_such_kernel"); },
              "kernel 'no_such_kernel'");

  // Memref arguments: write every other float of `out`.
  Kernel iota = module.kernel("iota_memref");
  DeviceBuffer out(2 * n * 4);
  out.fillWords(0xffffffffu);
  ArgPack args;
  args.addMemRef(out.ptr(), {int64_t(n)}, {2}).addScalar(0.5f);
  LaunchConfig config;
  config.grid.x = unsigned((n + 127) / 128);
  config.block.x = 128;
  launch(iota, config, args);
  synchronize();
  std::vector<float> result(2 * n);
  out.download(result);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    uint32_t gap;
    std::memcpy(&gap, &result[2 * i + 1], 4);
    ok &= result[2 * i] == 0.5f * float(i) && gap == 0xffffffffu;
  }
  expect(ok, "iota_memref through cuLaunchKernel");

  // Same kernel through cuLaunchKernelEx with a cluster and > 48 KiB of
  // dynamic shared memory.
  out.fillWords(0);
  config.grid.x = 8;
  config.cluster.x = 2;
  config.dynamicSharedBytes = 100 * 1024;
  ArgPack args2;
  args2.addMemRef(out.ptr(), {int64_t(n)}, {1}).addScalar(1.0f);
  launch(iota, config, args2);
  synchronize(nullptr);
  out.download(result);
  ok = true;
  for (size_t i = 0; i < n; ++i)
    ok &= result[i] == float(i);
  expect(ok, "iota_memref with cluster 2x1x1 and 100 KiB dynamic smem");
  config.grid.x = 7;
  expectError("grid not a multiple of the cluster",
              [&] { launch(iota, config, args2); },
              "is not a multiple of its cluster 2x1x1");

  // Bad launches are refused before the kernel runs: an extra argument,
  // one of the wrong size (both against the driver's sizes), a missing one
  // (against the description's parameters), more shared memory than the
  // device has.
  config.grid.x = 8;
  LaunchConfig described = config;
  described.paramBytes = std::vector<uint32_t>{8, 8, 8, 8, 8, 4};
  ArgPack missing;
  missing.addMemRef(out.ptr(), {int64_t(n)}, {1});
  expectError("missing argument", [&] { launch(iota, described, missing); },
              "launch: kernel 'iota_memref' takes 6 parameters, but 5 "
              "arguments were packed");
  launch(iota, described, args2);
  synchronize();
  ArgPack extra;
  extra.addMemRef(out.ptr(), {int64_t(n)}, {1}).addScalar(1.0f).addScalar(7);
  expectError("extra argument", [&] { launch(iota, config, extra); },
              "launch: kernel 'iota_memref' takes 6 parameters, but 7 "
              "arguments were packed");
  ArgPack wide;
  wide.addMemRef(out.ptr(), {int64_t(n)}, {1}).addScalar(1.0);
  expectError("argument of the wrong size",
              [&] { launch(iota, config, wide); },
              "launch: parameter 5 of kernel 'iota_memref' is 4 bytes, but "
              "the argument packed for it is 8");
  LaunchConfig huge = config;
  huge.dynamicSharedBytes = 1 << 20;
  expectError("too much shared memory", [&] { launch(iota, huge, args2); },
              "(requesting 1048576 bytes of dynamic shared memory for kernel "
              "'iota_memref'; the device allows at most ");

  // A cubin for another chip names both chips.
  std::vector<unsigned char> other =
      fakeCubinHeader(8, uint32_t(cc == 100 ? 90 : 100) << 8);
  expectError("cubin for another chip",
              [&] { Module::loadImage(other.data(), other.size()); },
              std::string("(the cubin is for sm_") +
                  (cc == 100 ? "90" : "100") + ", the current device is sm_" +
                  std::to_string(cc));

  // A real tensor map passed by value arrives intact.
  TensorMapSpec spec{"bf16", {64, 64}, 128, true};
  DeviceBuffer tensor(256 * 256 * 2);
  CUtensorMap map =
      encodeTiledTensorMap(spec, tensor.ptr(), {256, 256}, {512, 2});
  Kernel echo = module.kernel("echo_map");
  DeviceBuffer echoed(128);
  ArgPack args3;
  args3.addTensorMap(map).addPointer(echoed.ptr());
  LaunchConfig one;
  one.block.x = 32;
  launch(echo, one, args3);
  synchronize();
  std::vector<uint64_t> words(16);
  echoed.download(words);
  expect(std::memcmp(words.data(), &map, 128) == 0,
         "tensor map passed by value");

  testGraphs(iota, n);

  // Timing.
  Timer timer;
  float ms = timer.timeMs([&] { launch(echo, one, args3); }, 2, 5);
  std::printf("echo_map median time: %.4f ms\n", ms);
  expect(ms >= 0 && ms < 1000, "Timer returns a plausible median");

  testTmaLoad();
}

} // namespace

int main() {
  std::string why;
  bool haveGpu = driverAvailable(&why);
  if (!haveGpu) {
    std::printf("no GPU: %s\n", why.c_str());
    expect(!why.empty(), "driverAvailable gives a reason");
  }

  testKernelInfo();
  testConversions();
  testArgPack();
  testZeroRegion();
  testCubinArchitecture();
  testTensorMapValidation();
  testNvshmem();
  testGraphMisuse();

  if (!haveGpu)
    testWithoutDriver();
  else
    runChecked(testWithDevice);
  return finish("all runtime checks passed");
}
