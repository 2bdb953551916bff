//===- kinfo-roundtrip.cpp - The kernel description's schema --------------===//
//
// Checks that what serializeKernelInfo writes (the compiler's side) is what
// parseKernelInfo reads back (the runtime's side), byte for byte in the
// format tile-translate has always written, and that damaged descriptions
// are refused with an Error naming the line instead of crashing. Needs no
// CUDA: it links only the schema library. Exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#include "tile/Version.h"
#include "Check.h"
#include "tile/Runtime/KernelInfo.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace tile::rt;
using namespace tile_test;

namespace {

/// The message of the Error `text` is refused with, or "" if it parses.
/// Any other exception is a failure: malformed input must not escape as
/// anything but Error.
std::string parseError(const std::string &text) {
  try {
    parseKernelInfo(text);
    return "";
  } catch (const Error &e) {
    return e.what();
  } catch (const std::exception &e) {
    ++failures;
    std::printf("FAIL: unexpected exception type for \"%s\": %s\n",
                text.c_str(), e.what());
    return "(not an Error)";
  }
}

bool sameDims(const Dim3 &a, const Dim3 &b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

bool sameKernel(const KernelInfo &a, const KernelInfo &b) {
  if (a.name != b.name || !sameDims(a.block, b.block) ||
      !sameDims(a.cluster, b.cluster) || a.sharedBytes != b.sharedBytes ||
      a.tmas.size() != b.tmas.size() || a.linksNvshmem != b.linksNvshmem ||
      a.dependentLaunch != b.dependentLaunch ||
      a.collectiveLaunch != b.collectiveLaunch ||
      a.paramBytes != b.paramBytes || a.family != b.family ||
      a.config != b.config || a.configTypes != b.configTypes ||
      bool(a.args) != bool(b.args) || bool(a.grid) != bool(b.grid))
    return false;
  if (a.grid && (a.grid->x != b.grid->x || a.grid->y != b.grid->y ||
                 a.grid->z != b.grid->z))
    return false;
  if (a.args)
    for (size_t i = 0; i < a.args->size(); ++i) {
      const ArgInfo &x = (*a.args)[i], &y = (*b.args)[i];
      if (a.args->size() != b.args->size() || x.name != y.name ||
          x.isMemRef != y.isMemRef || x.type != y.type || x.rank != y.rank)
        return false;
    }
  for (size_t i = 0; i < a.tmas.size(); ++i) {
    const TmaInfo &x = a.tmas[i], &y = b.tmas[i];
    if (x.param != y.param || x.arg != y.arg ||
        x.spec.elementType != y.spec.elementType || x.spec.box != y.spec.box ||
        x.spec.swizzleBytes != y.spec.swizzleBytes ||
        x.spec.oobZeroFill != y.spec.oobZeroFill)
      return false;
  }
  return true;
}

std::vector<KernelInfo> sampleKernels() {
  KernelInfo gemm;
  gemm.name = "gemm_bf16_cluster";
  gemm.block = {384, 1, 1};
  gemm.cluster = {2, 1, 1};
  gemm.sharedBytes = 197632;
  TmaInfo a;
  a.param = 3;
  a.arg = 0;
  a.spec.elementType = "bf16";
  a.spec.box = {128, 64};
  a.spec.swizzleBytes = 128;
  TmaInfo c = a;
  c.param = 5;
  c.arg = 2;
  c.spec.elementType = "f32";
  c.spec.box = {8, 16, 4};
  c.spec.swizzleBytes = 0;
  gemm.tmas = {a, c};

  KernelInfo scale;
  scale.name = "scale";
  scale.block = {128, 1, 1};
  return {gemm, scale};
}

// As tile-translate --kernel-info writes it (see test/Target/*.expected).
const std::string kCompilerLine =
    std::string("compiler tile ") + TILE_VERSION + "\n";
const std::string kSampleText =
    "# tile kernel description: launch shape, shared memory, TMA maps\n" +
    kCompilerLine +
    "kernel gemm_bf16_cluster block 384 1 1 cluster 2 1 1 smem 197632\n"
    "tma gemm_bf16_cluster param 3 arg 0 type bf16 box 128x64 swizzle 128\n"
    "tma gemm_bf16_cluster param 5 arg 2 type f32 box 8x16x4 swizzle 0\n"
    "kernel scale block 128 1 1 cluster 1 1 1 smem 0\n";

void testRoundTrip() {
  std::vector<KernelInfo> kernels = sampleKernels();
  std::string text = serializeKernelInfo(kernels);
  expect(text == kSampleText, "serialised text is the established format:\n" +
                                  text);
  std::string error = parseError(text);
  expect(error.empty(), "serialised text parses: " + error);
  if (!error.empty())
    return;
  std::vector<KernelInfo> parsed = parseKernelInfo(text);
  expect(parsed.size() == kernels.size(), "as many kernels read as written");
  for (size_t i = 0; i < parsed.size() && i < kernels.size(); ++i)
    expect(sameKernel(parsed[i], kernels[i]),
           "kernel '" + kernels[i].name + "' reads back unchanged");
  expect(serializeKernelInfo(parsed) == text, "write(read(text)) == text");
  expect(serializeKernelInfo({}) ==
             std::string(kinfo::kHeader) + "\n" + kCompilerLine,
         "no kernels: just the header and the compiler");
  expect(parseKernelInfo(serializeKernelInfo({})).empty(),
         "the header alone reads back as no kernels");
}

// A kernel that calls NVSHMEM, as tile-translate writes it for kernels with
// put/get/signal/wait.
const std::string kLinkText =
    "# tile kernel description: launch shape, shared memory, TMA maps\n" +
    kCompilerLine +
    "kernel ring block 128 1 1 cluster 1 1 1 smem 0\n"
    "link ring nvshmem\n"
    "launch ring collective\n"
    "kernel scale block 128 1 1 cluster 1 1 1 smem 0\n"
    "launch scale dependent\n"
    "params scale 8 8 8 8 8 1\n";

void testLinkRecord() {
  KernelInfo ring;
  ring.name = "ring";
  ring.block = {128, 1, 1};
  ring.linksNvshmem = true;
  // It waits with NVSHMEM's call: a collective launch.
  ring.collectiveLaunch = true;
  KernelInfo scale;
  scale.name = "scale";
  scale.block = {128, 1, 1};
  // It waits for the kernel before it: a launch record.
  scale.dependentLaunch = true;
  // A memref of rank 1 and an i1.
  scale.paramBytes = std::vector<uint32_t>{8, 8, 8, 8, 8, 1};
  std::string text = serializeKernelInfo({ring, scale});
  expect(text == kLinkText, "link record written after its kernel:\n" + text);
  std::string error = parseError(text);
  expect(error.empty(), "link record parses: " + error);
  if (!error.empty())
    return;
  std::vector<KernelInfo> parsed = parseKernelInfo(text);
  expect(parsed.size() == 2 && sameKernel(parsed[0], ring) &&
             sameKernel(parsed[1], scale),
         "link record reads back onto its kernel only");
  expect(!parsed[0].dependentLaunch && parsed[1].dependentLaunch,
         "launch record reads back onto its kernel only");
  expect(parsed[0].collectiveLaunch && !parsed[1].collectiveLaunch,
         "collective launch record reads back onto its kernel only");
  // Both kinds of launch on one kernel, in either order.
  std::vector<KernelInfo> both = parseKernelInfo(
      "launch k collective\nkernel k block 1 1 1 cluster 1 1 1 smem 0\n"
      "launch k dependent\n");
  expect(both.size() == 1 && both[0].collectiveLaunch &&
             both[0].dependentLaunch,
         "a kernel may be both a dependent and a collective launch");
  expect(needsNvshmem(parsed), "needsNvshmem sees the link record");
  expect(!needsNvshmem(sampleKernels()), "no link record, no NVSHMEM");
  expect(serializeKernelInfo(parsed) == text, "write(read(link text)) == text");
  // Like tma records, a link record may come first.
  std::vector<KernelInfo> early = parseKernelInfo(
      "link ring nvshmem # before its kernel\n"
      "kernel ring block 128 1 1 cluster 1 1 1 smem 0\n");
  expect(early.size() == 1 && early[0].linksNvshmem,
         "link record before its kernel");
  // A kernel without parameters has an empty params record.
  std::vector<KernelInfo> none = parseKernelInfo(
      "params k\nkernel k block 1 1 1 cluster 1 1 1 smem 0\n");
  expect(none.size() == 1 && none[0].paramBytes && none[0].paramBytes->empty(),
         "empty params record");
}

// The kernel's arguments as written and its family's configuration.
void testSignature() {
  KernelInfo gemm;
  gemm.name = "gemm__BM128_BN64";
  gemm.args = std::vector<ArgInfo>{{"A", true, "bf16", 2},
                                   {"C", true, "f32", 2},
                                   {"alpha", false, "f32", 0},
                                   {"causal", false, "i1", 0}};
  gemm.family = "gemm";
  gemm.config = {{"BM", 128}, {"BN", 64}, {"SHIFT", -3}};
  gemm.configTypes = {{"T", "bf16"}};
  std::string text = serializeKernelInfo({gemm});
  const char *expected =
      "args gemm__BM128_BN64 A:memref:bf16:2 C:memref:f32:2 alpha:f32 "
      "causal:i1\n"
      "config gemm__BM128_BN64 gemm BM=128 BN=64 SHIFT=-3 T=bf16\n";
  expect(text.find(expected) != std::string::npos,
         "args and config records written:\n" + text);
  std::vector<KernelInfo> parsed = parseKernelInfo(text);
  expect(parsed.size() == 1 && sameKernel(parsed[0], gemm),
         "args and config records read back");
  expect(serializeKernelInfo(parsed) == text, "write(read(args text)) == text");
  expect(scalarTypeBytes("i1") == 1 && scalarTypeBytes("index") == 8 &&
             scalarTypeBytes("bf16") == 2 && scalarTypeBytes("f8") == 0,
         "scalar type sizes");
}

void testGrid() {
  KernelInfo gemm;
  gemm.name = "gemm";
  gemm.args = std::vector<ArgInfo>{{"A", true, "bf16", 2},
                                   {"B", true, "bf16", 2},
                                   {"splits", false, "i32", 0}};
  gemm.grid = GridRule{"min(mul(ceildiv(dim(0,0),128),ceildiv(dim(1,0),256)),sms)",
                       "arg(2)", "1"};
  std::string text = serializeKernelInfo({gemm});
  expect(text.find("grid gemm min(mul(ceildiv(dim(0,0),128),ceildiv(dim(1,0),"
                   "256)),sms) arg(2) 1\n") != std::string::npos,
         "grid record written:\n" + text);
  std::vector<KernelInfo> parsed = parseKernelInfo(text);
  expect(parsed.size() == 1 && sameKernel(parsed[0], gemm),
         "grid record read back");

  // 1000 x 300 tiles of 128 x 256: 8 x 2 = 16 tiles; 132 SMs.
  GridInputs inputs;
  inputs.sizes = {{1000, 64}, {300, 64}, {}};
  inputs.scalars = {0, 0, 3};
  inputs.sms = 132;
  Dim3 grid = evaluateGrid(gemm, inputs);
  expect(grid.x == 16 && grid.y == 3 && grid.z == 1, "min(16, 132) x 3 x 1");
  inputs.sizes[0][0] = 100000;
  expect(evaluateGrid(gemm, inputs).x == 132, "no more CTAs than SMs");

  struct Case {
    GridRule rule;
    const char *error;
  } cases[] = {
      {{"div(8,sub(2,2))"}, "kernel 'gemm': grid x = div(8,sub(2,2)): div by zero"},
      {{"mul(4294967296,4294967296)"}, "overflows 64 bits"},
      {{"sub(1,2)"}, "gives -1, outside [1, 2147483647]"},
      {{"add(sub(1,2),3)"}, "add of a negative value (-1, 3)"},
      {{"1", "70000"}, "grid y = 70000 gives 70000, outside [1, 65535]"},
      {{"dim(0,5)"}, "dim(0,5) of argument 'A', which has no dimension 5"},
  };
  for (const Case &c : cases) {
    KernelInfo bad = gemm;
    bad.grid = c.rule;
    expectError(std::string("evaluateGrid refuses ") + c.rule.x,
                [&] { evaluateGrid(bad, inputs); }, c.error);
  }
  expect(checkGridExpression("pow(2,3)", gemm.args).find(
             "unknown operation 'pow'") != std::string::npos,
         "an unknown operation");
  expect(checkGridExpression("arg(0)", gemm.args).find(
             "arg(0) of argument 'A', which is not an integer") !=
             std::string::npos,
         "arg() of a memref");
  expect(checkGridExpression("dim(3,0)", gemm.args) == "argument 3 of 3",
         "an argument past the last");
  expect(checkGridExpression("add(1,2)x", gemm.args).find("unexpected 'x'") !=
             std::string::npos,
         "text after the expression");
  std::string deep;
  for (int i = 0; i < 100000; ++i)
    deep += "add(";
  expect(checkGridExpression(deep, gemm.args) ==
             "nested deeper than 1024 levels",
         "deep nesting is refused, not recursed into");
}

void testZeroRecord() {
  KernelInfo gemm;
  gemm.name = "gemm";
  gemm.args = std::vector<ArgInfo>{{"A", true, "bf16", 2},
                                   {"C", true, "f32", 2},
                                   {"W", true, "f32", 1}};
  gemm.zeroedArgs = {1, 2};
  std::string text = serializeKernelInfo({gemm});
  expect(text.find("zero gemm 1 2\n") != std::string::npos,
         "zero record written:\n" + text);
  std::vector<KernelInfo> parsed = parseKernelInfo(text);
  expect(parsed.size() == 1 && parsed[0].zeroedArgs == gemm.zeroedArgs,
         "zero record read back");
  expect(serializeKernelInfo(parsed) == text, "write(read(zero text)) == text");
}

void testMalformed() {
  struct Case {
    const char *text;
    const char *error;
  } cases[] = {
      {"kernel", "kinfo:1: expected a kernel name but the line ends"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 99999999999999999999999",
       "kinfo:1: expected shared memory bytes but found "
       "'99999999999999999999999'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 4294967296",
       "kinfo:1: shared memory bytes must be 0 to 4294967295, got 4294967296"},
      {"\n\ntma k param 0 arg 0 type bf16 box 64x swizzle 0",
       "kinfo:3: expected a box dimension but found ''"},
      {"tma k param 0 arg 0 type bf16 box 64x64 swizzle 0",
       "kinfo:1: tma record names unknown kernel 'k'"},
      {"tma k param 2147483648", "kinfo:1: a parameter index must be 0 to "
                                 "2147483647, got 2147483648"},
      {"\xff\xfe garbage", "kinfo:1: unknown record '\xff\xfe'"},
      {"link", "kinfo:1: expected a kernel name but the line ends"},
      {"link k", "kinfo:1: expected a library but the line ends"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nlink k libfoo",
       "kinfo:2: unknown library 'libfoo' in a link record (expected "
       "'nvshmem')"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nlink k nvshmem extra",
       "kinfo:2: unexpected 'extra' at the end of the line"},
      {"link k nvshmem", "kinfo:1: link record names unknown kernel 'k'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nlink k nvshmem\n"
       "link k nvshmem",
       "kinfo:3: kernel 'k' has two 'link nvshmem' records"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nlaunch k eager",
       "kinfo:2: unknown kind of launch 'eager' in a launch record "
       "(expected 'dependent' or 'collective')"},
      {"launch k", "kinfo:1: expected a kind of launch but the line ends"},
      {"launch k dependent", "kinfo:1: launch record names unknown kernel 'k'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nlaunch k dependent\n"
       "launch k dependent",
       "kinfo:3: kernel 'k' has two 'launch dependent' records"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nlaunch k collective\n"
       "launch k dependent\nlaunch k collective",
       "kinfo:4: kernel 'k' has two 'launch collective' records"},
      {"linker k nvshmem", "kinfo:1: unknown record 'linker' (expected "
                           "'kernel', 'tma', 'link', 'launch', 'params', 'args', "
                           "'config', 'grid', 'zero' or 'compiler') (written by a "
                           "tile that records no version; this runtime is "
                           "tile " TILE_VERSION ")"},
      // A description from another release that this one cannot read
      // names both versions.
      {"compiler tile 9.1.0\nkernel k block 1 1 1 cluster 1 1 1 smem 0 "
       "stream 2",
       "kinfo:2: unexpected 'stream' at the end of the line (written by "
       "tile 9.1.0; this runtime is tile " TILE_VERSION ")"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k a:memref:bf16",
       "kinfo:2: expected an argument as <name>:<type> or "
       "<name>:memref:<element type>:<rank>, got 'a:memref:bf16'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k a:f7",
       "kinfo:2: unknown type 'f7' of argument 'a'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k a:memref:f32:0",
       "kinfo:2: a memref rank must be 1 to 64, got 0"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k\nargs k",
       "kinfo:3: kernel 'k' has two 'args' records"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nconfig k gemm BM",
       "kinfo:2: expected a parameter value as <NAME>=<integer>, got 'BM'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nconfig k gemm BM=x",
       "kinfo:2: expected the value of BM but found 'x'"},
      {"config k gemm BM=1", "kinfo:1: config record names unknown kernel 'k'"},
      {"params k 8", "kinfo:1: params record names unknown kernel 'k'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nparams k 8 0",
       "kinfo:2: a parameter size in bytes must be 1 to 4096, got 0"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nparams k 8\nparams k 4",
       "kinfo:3: kernel 'k' has two 'params' records"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\ngrid k 1 1",
       "kinfo:2: expected the grid's z expression but the line ends"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\ngrid k 1 1 1 1",
       "kinfo:2: unexpected '1' at the end of the line"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\ngrid k add(1 1 1",
       "kinfo:2: grid expression 'add(1' of kernel 'k': expected ','"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k n:f32\n"
       "grid k arg(0) 1 1",
       "kinfo:3: grid expression 'arg(0)' of kernel 'k': arg(0) of argument "
       "'n', which is not an integer"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\ngrid k 1 1 1\ngrid k 1 1 1",
       "kinfo:3: kernel 'k' has two 'grid' records"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nzero k",
       "kinfo:2: expected an argument index but the line ends"},
      {"zero k 0", "kinfo:1: zero record names unknown kernel 'k'"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k n:i32\nzero k 0",
       "kinfo:3: zero record of kernel 'k' names argument 0, which is not "
       "a memref argument of it (an args record must say so)"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nzero k 0",
       "kinfo:2: zero record of kernel 'k' names argument 0, which is not "
       "a memref argument of it"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k c:memref:f32:1\n"
       "zero k 0 0",
       "kinfo:3: zero record of kernel 'k' names argument 0 twice"},
      {"kernel k block 1 1 1 cluster 1 1 1 smem 0\nargs k c:memref:f32:1\n"
       "zero k 0\nzero k 0",
       "kinfo:4: kernel 'k' has two 'zero' records"},
  };
  for (const Case &c : cases)
    expectError(std::string("parseKernelInfo refuses \"") + c.text + "\"",
                [&] { parseKernelInfo(c.text); }, c.error);

  // Every truncation of a valid description either parses or is refused
  // with a line-numbered Error.
  for (std::string text : {kSampleText, kLinkText}) {
    for (size_t n = 0; n <= text.size(); ++n) {
      std::string error = parseError(text.substr(0, n));
      expect(error.empty() || error.rfind("kinfo:", 0) == 0,
             "truncated after " + std::to_string(n) + " bytes: " + error);
    }
    // So does every single-byte change to a few troublesome characters.
    for (size_t n = 0; n < text.size(); ++n)
      for (char c : {'\0', ' ', 'x', '#', '-', '9', '\n'}) {
        std::string damaged = text;
        damaged[n] = c;
        std::string error = parseError(damaged);
        expect(error.empty() || error.rfind("kinfo:", 0) == 0,
               "byte " + std::to_string(n) + " changed: " + error);
      }
  }
}

} // namespace

int main() {
  testRoundTrip();
  testLinkRecord();
  testSignature();
  testGrid();
  testZeroRecord();
  testMalformed();
  if (failures) {
    std::printf("%d failure(s)\n", failures);
    return 1;
  }
  std::printf("kinfo round trip: ok\n");
  return 0;
}
