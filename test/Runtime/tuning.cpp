//===- tuning.cpp - tuning tables: reading, writing, choosing -------------===//
//
// The tuning table's parser and writer agree, malformed tables are refused
// with the line, cost models are fitted, and tunedKernels() orders a
// variant's configurations: the one measured at the shape, then by the
// cost models, then by times estimated from near shapes, then by distance,
// then the family's others; no CUDA needed.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "tile/Runtime/Tuning.h"

#include <cmath>
#include <cstdio>
#include <fstream>

using namespace tile::rt;
using namespace tile_test;

namespace {

const char *kTable = R"(# a table for the test
family gemm
chip sm_90a
device Test GPU
sms 132
date 2026-11-27
reference cublas (the plain product)
key M=dim(0,0) N=dim(1,0) K=dim(0,1)
variant OUT=f32 BIAS=0
shape 4096 4096 4096 BM=128,BN=256 190.5 200.0  # 1.050x, square
shape 64 8192 8192 BM=64,BN=128 40.0 41.0  # skinny
shape 1024 768 3072 BM=128,BN=64 15.0 12.0
variant OUT=bf16 BIAS=1
shape 1024 2304 768 BM=128,BN=128 13.7 13.6
)";

KernelInfo kernel(const std::string &name, int64_t bm, int64_t bn,
                  int64_t bias, const std::string &out) {
  KernelInfo info;
  info.name = name;
  info.family = "gemm";
  info.config = {{"BIAS", bias}, {"BM", bm}, {"BN", bn}};
  info.configTypes = {{"OUT", out}};
  info.args = std::vector<ArgInfo>{{"A", true, "bf16", 2},
                                   {"B", true, "bf16", 2},
                                   {"C", true, out, 2}};
  return info;
}

/// gemm's plain-product kernel "k<BM>x<BN>" with gemm.mlir's persistent
/// grid rule: min(tiles, sms).
KernelInfo tiledKernel(int64_t bm, int64_t bn) {
  KernelInfo k = kernel("k" + std::to_string(bm) + "x" + std::to_string(bn),
                        bm, bn, 0, "f32");
  k.grid = GridRule{"min(mul(ceildiv(dim(0,0)," + std::to_string(bm) +
                        "),ceildiv(dim(1,0)," + std::to_string(bn) + ")),sms)",
                    "1", "1"};
  return k;
}

std::vector<std::string> names(const std::vector<const KernelInfo *> &kernels) {
  std::vector<std::string> result;
  for (const KernelInfo *k : kernels)
    result.push_back(k->name);
  return result;
}

void roundTrip() {
  TuningTable table = parseTuningTable(kTable);
  expect(table.family == "gemm" && table.chip == "sm_90a" &&
             table.device == "Test GPU" && table.sms == 132 &&
             table.reference == "cublas (the plain product)",
         "the header records");
  expect(table.key.size() == 3 && table.key[2].first == "K" &&
             table.key[2].second == "dim(0,1)",
         "the key");
  expect(table.variants.size() == 2 &&
             table.variants[0].shapes.size() == 3 &&
             table.variants[1].fixed ==
                 ParamValues{{"OUT", "bf16"}, {"BIAS", "1"}},
         "the variants");
  const TunedShape &first = table.variants[0].shapes[0];
  expect(first.key == std::vector<int64_t>{4096, 4096, 4096} &&
             first.config == ParamValues{{"BM", "128"}, {"BN", "256"}} &&
             first.timeUs == 190.5 && first.referenceUs == 200.0 &&
             first.note == "1.050x, square",
         "a shape line");
  expect(table.comments == std::vector<std::string>{"a table for the test"},
         "the leading comment");
  std::string text = serializeTuningTable(table);
  TuningTable again = parseTuningTable(text);
  expect(serializeTuningTable(again) == text, "write, read, write agree");
  expect(tunedConfigurations(table).size() == 4,
         "four configurations, each once");
}

void refusals() {
  auto refused = [](const std::string &what, const std::string &text,
                    const std::string &needle) {
    expectError(what, [&] { parseTuningTable(text); }, needle);
  };
  const std::string head = "family gemm\nkey M=dim(0,0)\nvariant OUT=f32\n";
  struct Case {
    const char *what;
    std::string text;
    const char *needle;
  };
  const Case cases[] = {
      {"unknown record", head + "shapes 1 BM=1 1 1\n",
       "tuning:4: unknown record 'shapes'"},
      {"too few fields", head + "shape 1 BM=1 1\n",
       "tuning:4: a shape is 1 key sizes, a configuration and two times"},
      {"bad time", head + "shape 1 BM=1 x 1\n",
       "tuning:4: 'x' is not a time in microseconds"},
      {"negative size", head + "shape -1 BM=1 1 1\n", "'-1' is not a size"},
      {"repeated shape", head + "shape 1 BM=1 1 1\nshape 1 BM=2 1 1\n",
       "tuning:5: this shape is already listed (line 4)"},
      {"a fixed value set again", head + "shape 1 OUT=bf16 1 1\n",
       "sets OUT, which its variant fixes"},
      {"bad key", "family gemm\nkey M=dims(0,0)\n", "tuning:2: key M"},
      {"no family", "key M=dim(0,0)\n", "names no family"},
      {"shape before variant", "family gemm\nkey M=dim(0,0)\nshape 1 B=1 1 1\n",
       "a shape before the first variant"},
      {"not NAME=VALUE", head + "shape 1 BM 1 1\n", "'BM' is not NAME=VALUE"},
      {"a variant within another", head + "variant OUT=f32 BIAS=1\n",
       "tuning:4: variant OUT=f32 BIAS=1 and variant OUT=f32 cannot be told "
       "apart"},
      {"the same variant in another order",
       "family g\nkey M=dim(0,0)\nvariant A=1 B=2\nvariant B=2 A=1\n",
       "tuning:4: variant B=2 A=1 is listed twice"},
      {"a model setting a fixed value", head + "model OUT=bf16 1 0 0\n",
       "tuning:4: the configuration sets OUT, which its variant fixes"},
      {"a huge time", head + "shape 1 BM=1 1e60 1\n",
       "'1e60' is not a time in microseconds"},
      {"a huge size", head + "shape 99999999999999 BM=1 1 1\n",
       "is not a size (an integer in [0, 2^40])"},
  };
  for (const Case &c : cases)
    refused(c.what, c.text, c.needle);
  std::string error;
  expect(!loadTuningTable("/nonexistent/table.txt", error) &&
             error.find("cannot read the tuning table") != std::string::npos,
         "a missing file, without exceptions");
}

void choosing() {
  TuningTable table = parseTuningTable(kTable);
  std::vector<KernelInfo> infos = {
      kernel("k128x256", 128, 256, 0, "f32"),
      kernel("k64x128", 64, 128, 0, "f32"),
      kernel("k128x64", 128, 64, 0, "f32"),
      kernel("k128x128", 128, 128, 0, "f32"),  // in no shape line
      kernel("b128x128", 128, 128, 1, "bf16"), // the other variant's
  };
  std::vector<std::string> f32 = {"k128x256", "k64x128", "k128x64",
                                  "k128x128"};
  GridInputs inputs;
  inputs.sizes = {{4000, 4100}, {4000, 4100}, {4000, 4000}};
  inputs.scalars = {0, 0, 0};
  std::vector<int64_t> key = tuningKey(table, infos[0].args, inputs);
  expect(key == std::vector<int64_t>{4000, 4000, 4100}, "the key's sizes");
  expect(names(tunedKernels(table, infos, f32, {}, key)) ==
             std::vector<std::string>{"k128x256", "k128x64", "k64x128",
                                      "k128x128"},
         "near 4096^3: its configuration, the others by distance, then the "
         "family's rest");
  expect(names(tunedKernels(table, infos, f32, {}, {48, 9000, 8000}))[0] ==
             "k64x128",
         "skinny M: the skinny shape's");
  expect(names(tunedKernels(table, infos, {"b128x128"}, {{"BIAS", 1}},
                            {1000, 2000, 700})) ==
             std::vector<std::string>{"b128x128"},
         "the bias variant by its value and the argument types");
  expectError("no variant",
              [&] { tunedKernels(table, infos, f32, {{"BIAS", 1}}, key); },
              "no variant has BIAS=1 and takes these argument types");
  std::vector<std::string> both = f32;
  both.push_back("b128x128");
  expectError("two variants",
              [&] { tunedKernels(table, infos, both, {}, key); },
              "2 variants have no fixed values and take these argument "
              "types: give OUT, BIAS");
  expect(kernelHasConfig(infos[4], "gemm", {{"BIAS", "true"}, {"BM", "0x80"}}),
         "integers compared as the compiler reads them");
  expect(names(tunedKernels(table, infos, {"b128x128"}, {{"BIAS", "true"}},
                            {1000, 2000, 700})) ==
             std::vector<std::string>{"b128x128"},
         "a caller's BIAS=true picks the BIAS=1 variant");
  expect(kernelHasConfig(infos[4], "gemm", {{"OUT", "bf16"}, {"BM", "128"}}) &&
             !kernelHasConfig(infos[4], "gemm", {{"OUT", "f32"}}) &&
             !kernelHasConfig(infos[4], "other", {}),
         "kernelHasConfig compares integers and types, and the family");
  GridInputs missing;
  expectError("a key over a missing argument",
              [&] { tuningKey(table, std::nullopt, missing); },
              "key M = dim(0,0): the launch has no dimension 0 of argument 0");
}

// With grid rules and no models, the time estimated from waves orders the
// configurations of the near shapes: at 2048 x 1024 x 1024 on 132 SMs,
// 64 x 128 tiles make 256 CTAs (two waves, 2 x 9.7 us), 128 x 256 tiles 64
// (one wave, the 19.1 us measured at twice the rows), so 128 x 256 first
// though both shapes are as near; 128 x 128's shape (256 x 8192 x 8192)
// is too far for its estimate (59.3 / 8 us) to be trusted: last.
void choosingByWaves() {
  TuningTable table = parseTuningTable(R"(family gemm
sms 132
key M=dim(0,0) N=dim(1,0) K=dim(0,1)
variant OUT=f32
shape 1024 1024 1024 BM=64,BN=128 9.7 9.0
shape 4096 1024 1024 BM=128,BN=256 19.1 18.6
shape 256 8192 8192 BM=128,BN=128 59.3 52.5
)");
  std::vector<KernelInfo> infos = {tiledKernel(64, 128), tiledKernel(128, 256),
                                   tiledKernel(128, 128)};
  std::vector<std::string> all = {"k64x128", "k128x256", "k128x128"};
  expect(names(tunedKernels(table, infos, all, {}, {2048, 1024, 1024})) ==
             std::vector<std::string>{"k128x256", "k64x128", "k128x128"},
         "the estimated times order the near shapes' configurations");
  expect(names(tunedKernels(table, infos, all, {}, {1024, 1024, 1024}))[0] ==
             "k64x128",
         "a tuned shape keeps its measured configuration");
  // A key size that is not a memref dimension: no estimate, nearest first.
  table.key[0].second = "add(dim(0,0),0)";
  expect(names(tunedKernels(table, infos, all, {}, {2000, 1024, 1024}))[0] ==
             "k64x128",
         "without an estimate, the nearest shape's configuration");
}

// A flag in the key (attention's CAUSAL): 0 and 1 are as far apart as
// sizes a factor of 2 apart, not equal (ln max(x, 1) alone would make them
// so), so an unmeasured masked shape takes the masked shape's
// configuration rather than the unmasked one's at the same sizes.
void flagsInTheKey() {
  TuningTable table = parseTuningTable(R"(family attention
sms 132
key S=arg(2) CAUSAL=arg(6)
variant HD=64
shape 1024 0 BN=128,STAGES=4 10.0 9.0
shape 1536 1 BN=64,STAGES=2 20.0 18.0
)");
  auto kernel = [](const char *name, int bn, int stages) {
    KernelInfo info;
    info.name = name;
    info.family = "attention";
    info.config = {{"HD", 64}, {"BN", bn}, {"STAGES", stages}};
    return info;
  };
  std::vector<KernelInfo> infos = {kernel("full", 128, 4),
                                   kernel("masked", 64, 2)};
  std::vector<std::string> all = {"full", "masked"};
  // At (1024, 1): the unmasked shape is ln 2 away (the flag), the masked
  // one ln 1.5 (the length).
  expect(names(tunedKernels(table, infos, all, {{"HD", 64}}, {1024, 1}))[0] ==
             "masked",
         "a flag that differs counts as a factor of 2");
  expect(names(tunedKernels(table, infos, all, {{"HD", 64}}, {1024, 0}))[0] ==
             "full",
         "the measured shape keeps its configuration");
  std::vector<ProblemShape> list =
      loadProblemShapes("1x12x1024x0,1x12x1024x1", 4,
                        {false, false, false, true});
  expect(list.size() == 2 && list[0].sizes[3] == 0,
         "a flag may be 0");
  expectError("a flag of 2",
              [&] {
                loadProblemShapes("1x12x1024x2", 4,
                                  {false, false, false, true});
              },
              "sizes in [1, 2^20] (size 4: a flag, 0 or 1)");
  expectError("a size of 0 that is not a flag",
              [&] {
                loadProblemShapes("0x12x1024x1", 4,
                                  {false, false, false, true});
              },
              "(size 4: a flag, 0 or 1)");
}

// Cost models: fitted to samples, written and read back, and ordering the
// configurations where the variant has them.
void costModels() {
  // time = 2e-6 * waves * work + 3 * waves + 1, sampled exactly.
  std::vector<std::pair<std::vector<double>, double>> samples;
  for (double waves : {1.0, 2.0, 3.0})
    for (double work : {1e6, 4e6})
      samples.push_back(
          {{waves * work, waves, 1.0}, 2e-6 * waves * work + 3 * waves + 1});
  std::optional<CostModel> model = fitCostModel(samples);
  expect(model && std::fabs(model->a - 2e-6) < 1e-12 &&
             std::fabs(model->b - 3) < 1e-6 && std::fabs(model->c - 1) < 1e-6,
         "the fit recovers exact coefficients");
  expect(!fitCostModel({samples[0]}), "one sample: no model");
  // Times falling with the work: no non-negative full fit; a subset's.
  std::optional<CostModel> flat =
      fitCostModel({{{1, 1, 1}, 5.0}, {{2, 1, 1}, 4.0}, {{3, 2, 1}, 5.0}});
  expect(flat && flat->a >= 0 && flat->b >= 0 && flat->c >= 0,
         "coefficients are never negative");

  TuningTable table = parseTuningTable(R"(family gemm
sms 132
key M=dim(0,0) N=dim(1,0) K=dim(0,1)
variant OUT=f32
shape 1024 1024 1024 BM=64,BN=128 9.7 9.0
shape 4096 1024 1024 BM=128,BN=256 19.1 18.6
model BM=64,BN=128 1e-06 0 0
model BM=128,BN=256 0 0 50
)");
  expect(table.variants[0].models.size() == 2 &&
             table.variants[0].models[1].c == 50,
         "model lines");
  expect(parseTuningTable(serializeTuningTable(table)).variants[0]
                 .models[0]
                 .a == 1e-6,
         "models written and read back");
  std::vector<KernelInfo> infos = {tiledKernel(64, 128), tiledKernel(128, 256)};
  std::vector<std::string> all = {"k64x128", "k128x256"};
  // 64 x 128 at 8192^3: 8192 CTAs, 63 waves of 2^39 / 8192 each: about
  // 4.2e6 us; 128 x 256 is a flat 50 us.
  expect(names(tunedKernels(table, infos, all, {}, {8192, 8192, 8192}))[0] ==
             "k128x256",
         "the lower modelled time first");
  // 64 x 128 at 256 x 256 x 64: 1 wave of 2^22 / 8: about 0.5 us.
  expect(names(tunedKernels(table, infos, all, {}, {256, 256, 64}))[0] ==
             "k64x128",
         "the lower modelled time first, the other way");
  expect(names(tunedKernels(table, infos, all, {}, {4096, 1024, 1024}))[0] ==
             "k128x256",
         "a measured shape keeps its configuration");
  // A partial tile costs a whole one: 384 rows in 256-row tiles are two
  // tile-rows of 256 x 128 x 8192 each.
  KernelInfo tall = tiledKernel(256, 128);
  std::optional<std::vector<double>> features =
      costFeatures(table, tall, {384, 8192, 8192});
  expect(features && (*features)[0] == 256.0 * 128 * 8192 &&
             (*features)[1] == 1 && (*features)[2] == 1 &&
             (*features)[3] == 0,
         "a CTA's work with its tile padded, one wave of 128 CTAs");
  // K = 3000: A's rows (its innermost dimension, bf16) are 6000 bytes, not
  // whole 128-byte lines; M = 3000 is not an innermost dimension.
  features = costFeatures(table, tall, {384, 8192, 3000});
  expect(features && (*features)[3] == (*features)[0],
         "rows off 128-byte lines: the fourth feature is the work");
  features = costFeatures(table, tall, {3000, 8192, 8192});
  expect(features && (*features)[3] == 0,
         "a ragged M keeps rows on lines");
  // time = 1e-6 * work * waves (1 + 0.5 off lines) + 2, sampled exactly:
  // the fourth coefficient is the cost of rows off lines.
  std::vector<std::pair<std::vector<double>, double>> off;
  for (double work : {1e6, 2e6, 4e6})
    for (double offLines : {0.0, 1.0})
      off.push_back({{work, 1, 1, work * offLines},
                     1e-6 * work + 0.5e-6 * work * offLines + 2});
  std::optional<CostModel> offModel = fitCostModel(off);
  expect(offModel && std::fabs(offModel->d - 0.5e-6) < 1e-12 &&
             std::fabs(offModel->a - 1e-6) < 1e-12,
         "the fit recovers the cost of rows off lines");
  TuningTable withD = table;
  withD.variants[0].models[0].d = 3e-7;
  expect(parseTuningTable(serializeTuningTable(withD)).variants[0]
                     .models[0]
                     .d == 3e-7 &&
             serializeTuningTable(table).find(" 0 50\n") != std::string::npos,
         "a fourth coefficient is written where it is not 0, and read back");
  expect(!costFeatures(table, kernel("nogrid", 1, 1, 0, "f32"), {1, 1, 1}),
         "no grid rule: no features");
  KernelInfo reads = kernel("reads", 1, 1, 0, "f32");
  reads.grid = GridRule{"dim(2,1)", "1", "1"}; // C's columns: not in the key
  expect(!costFeatures(table, reads, {64, 64, 64}),
         "a rule reading a size the key does not name: no features");
  expectError("a negative coefficient",
              [] {
                parseTuningTable("family f\nkey M=dim(0,0)\nvariant A=1\n"
                                 "model B=1 -1 0 0\n");
              },
              "tuning:4: '-1' is not a non-negative coefficient");
  expect(tunedConfigurations(table).size() == 2,
         "the models' configurations are the table's");
}

void shapes() {
  std::vector<ProblemShape> list = loadProblemShapes("2x3x4,5x6x7", 3);
  expect(list.size() == 2 && list[1].sizes == std::vector<int64_t>{5, 6, 7},
         "a list of shapes");
  std::string path = "tuning-test-shapes.txt";
  {
    std::ofstream out(path);
    out << "# a comment\n\n8 9 10  # a shape\n";
  }
  list = loadProblemShapes(path, 3);
  expect(list.size() == 1 && list[0].what == "a shape" &&
             list[0].sizes == std::vector<int64_t>{8, 9, 10},
         "a shape file");
  {
    std::ofstream out(path);
    out << "8 9\n";
  }
  expectError("too few sizes", [&] { loadProblemShapes(path, 3); },
              "tuning-test-shapes.txt:1: a shape is 3 sizes");
  std::remove(path.c_str());
  expectError("a trailing x", [&] { loadProblemShapes("4x4x", 2); },
              "'4x4x' is not a shape AxBxC");
  expectError("zero size", [&] { loadProblemShapes("0x1x1", 3); },
              "sizes in [1, 2^20]");
  expectError("huge size", [&] { loadProblemShapes("99999999x1x1", 3); },
              "sizes in [1, 2^20]");
  expectError("twice", [&] { loadProblemShapes("1x2x3,1x2x3", 3); },
              "this shape is listed twice");
  expectError("no file", [&] { loadProblemShapes("nonexistent.txt", 3); },
              "cannot read the shape file");
}

} // namespace

int main() {
  roundTrip();
  refusals();
  choosing();
  choosingByWaves();
  flagsInTheKey();
  costModels();
  shapes();
  if (failures)
    std::printf("%d failures\n", failures);
  else
    std::printf("tuning: all checks passed\n");
  return failures ? 1 : 0;
}
