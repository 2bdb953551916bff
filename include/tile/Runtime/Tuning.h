//===- Tuning.h - tuning tables: the configuration by shape -----*- C++ -*-===//
//
// A tuning table says, for one kernel family on one chip, which
// configuration was fastest at each measured problem shape. tile-tune
// writes it; tile-translate --tuning-table compiles its configurations into
// the family and embeds it in the generated launcher, whose
// <family>_tuned() asks tunedKernels() which kernel to launch. The text is
// meant to be read in a diff:
//
//   # comments
//   family gemm_bf16
//   chip sm_90a
//   device NVIDIA H200
//   sms 132
//   date 2026-11-27
//   reference cublas (cublasGemmEx, bf16 in, fp32 out)
//   key M=dim(0,0) N=dim(1,0) K=dim(0,1)
//   variant OUT=f32 BIAS=0 GELU=0 RESIDUAL=0
//   shape 4096 4096 4096 BM=128,BN=256,STAGES=4,... 192.2 210.2  # 1.094x
//   model BM=128,BN=256,STAGES=4,... 1.2e-06 0.8 3.1
//
// `key` names the sizes a shape is measured by, each a host expression
// over the kernel's arguments (the grid rule's notation, KernelInfo.h).
// A `variant` fixes the parameters that change what the kernel computes
// (the epilogue, the output type); its `shape` lines follow it, each with
// the key's values, the chosen configuration (every other parameter), its
// time and the reference's, in microseconds; its `model` lines give each
// configuration's fitted cost model (CostModel), which picks the
// configuration for shapes between the measured ones. Needs neither CUDA
// nor MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TUNING_H
#define TILE_RUNTIME_TUNING_H

#include "tile/Runtime/KernelInfo.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tile {
namespace rt {

/// A parameter's value as text: an integer (a flag as 0 or 1) or a type.
struct ParamValue {
  std::string name, value;
  ParamValue(std::string name, std::string value)
      : name(std::move(name)), value(std::move(value)) {}
  ParamValue(std::string name, const char *value)
      : name(std::move(name)), value(value) {}
  ParamValue(std::string name, int64_t value)
      : name(std::move(name)), value(std::to_string(value)) {}
  ParamValue(std::string name, int value)
      : ParamValue(std::move(name), int64_t(value)) {}
  ParamValue(std::string name, bool value)
      : ParamValue(std::move(name), int64_t(value)) {}
  bool operator==(const ParamValue &other) const {
    return name == other.name && value == other.value;
  }
};
using ParamValues = std::vector<ParamValue>;

/// "A=1,B=bf16" (the separator between entries is `sep`).
std::string formatParamValues(const ParamValues &values, char sep = ',');
/// Parses "A=1,B=bf16"; throws Error on an entry without '=' or a name that
/// is not an identifier.
ParamValues parseParamValues(const std::string &text, char sep = ',');

struct TunedShape {
  /// The key's values, in the key's order.
  std::vector<int64_t> key;
  /// Every parameter the variant does not fix.
  ParamValues config;
  double timeUs = 0, referenceUs = 0;
  /// The text after '#' on its line (a ratio, what the shape is).
  std::string note;
  int line = 0;
};

/// A configuration's time modelled over the shapes it was timed at:
///   time_us = a * waves * work + b * waves + c + d * waves * work * off
/// with waves the waves of CTAs its grid rule gives on the table's SMs,
/// work a CTA's share of the product of the key's sizes, its tile padded,
/// and off 1 where a key size is a memref argument's innermost dimension
/// whose rows are then not whole 128-byte lines (a GEMM's K % 64 != 0 in
/// bf16: each row a TMA box reads straddles lines), else 0 (costFeatures);
/// tile-tune fits a, b, c, d >= 0 by least relative squares. A table's
/// `model` line gives d only where it is not 0.
struct CostModel {
  ParamValues config;
  double a = 0, b = 0, c = 0, d = 0;
  int line = 0;
};

struct TuningVariant {
  ParamValues fixed;
  std::vector<TunedShape> shapes;
  std::vector<CostModel> models;
};

struct TuningTable {
  std::string family, chip, device, date, reference;
  int64_t sms = 0;
  /// (name, host expression) per key size.
  std::vector<std::pair<std::string, std::string>> key;
  std::vector<TuningVariant> variants;
  /// Comment lines before the first record, kept when the table is
  /// written again (what tuned it, a summary).
  std::vector<std::string> comments;
};

/// Parses a table; malformed text throws Error("tuning:<line>: <problem>").
TuningTable parseTuningTable(const std::string &text);
/// Reads and parses a table file; errors are prefixed with the path.
TuningTable loadTuningTable(const std::string &path);
/// The same two for callers built without exceptions (the compiler): the
/// error message in `error` and no value instead of a throw.
std::optional<ParamValues> parseParamValues(const std::string &text,
                                            std::string &error);
std::optional<TuningTable> loadTuningTable(const std::string &path,
                                           std::string &error);
/// The table's text, which parseTuningTable reads back.
std::string serializeTuningTable(const TuningTable &table);

/// The configurations the table names (its shapes' and its models'), each
/// its variant's parameters and then its own, once each, in table order:
/// what tile-translate adds to the family.
std::vector<ParamValues> tunedConfigurations(const TuningTable &table);

/// Whether `kernel` is configuration `values` of `family` (every value
/// given equals the kernel's; the kernel's others are not compared).
bool kernelHasConfig(const KernelInfo &kernel, const std::string &family,
                     const ParamValues &values);

/// The key of a launch whose arguments are `inputs` (GridInputs: each
/// memref's sizes, each scalar's value), from the table's expressions.
/// Throws Error naming the key when one cannot be evaluated.
std::vector<int64_t> tuningKey(const TuningTable &table,
                               const std::optional<std::vector<ArgInfo>> &args,
                               const GridInputs &inputs);

/// The features of a cost model of `kernel` at `key`: waves x work, waves,
/// 1 and waves x work where rows are off 128-byte lines (CostModel). Work
/// is a CTA's share of the key's volume with its
/// tile padded: the volume over the CTAs at a shape whose tiled sizes
/// (those that change the CTA count when scaled) are 1024 times larger,
/// so a partial tile costs a whole one. None when the kernel states no
/// grid, a key size is not a memref dimension (dim(I,D)), or its rule
/// fails or gives no CTA there.
std::optional<std::vector<double>>
costFeatures(const TuningTable &table, const KernelInfo &kernel,
             const std::vector<int64_t> &key);

/// Fits a CostModel to (features, time in microseconds) samples (three
/// features, or four: costFeatures'): of the non-negative
/// least-relative-squares fits over each subset of the terms, the closest;
/// none with fewer than two samples.
std::optional<CostModel>
fitCostModel(const std::vector<std::pair<std::vector<double>, double>> &samples);

/// The kernels to try for a launch, best first. Of the table's variants,
/// the one agreeing with every value in `fixed` whose kernels are among
/// `eligible` (the kernels that take the caller's argument types: an
/// element-type parameter is chosen by the types). Within it:
///   - a shape measured at `key` itself: its configuration;
///   - then, where the variant has cost models (`model` lines), every
///     modelled configuration, fastest first by its modelled time at `key`;
///   - then the configurations of the shapes near `key` (distance: the
///     sum of the sizes' log ratios, a zero against a non-zero size, a
///     flag, counting ln 2; at most the
///     nearest one's distance plus ln 2), fastest first by the time
///     estimated at `key` from each one's nearest measured shape: that
///     shape's time scaled by the work in waves of CTAs each needs (the
///     kernel's grid rule on the table's SM count, each CTA's share of the
///     product of the key's sizes), so that a configuration that leaves
///     most of a wave idle at `key` loses; then the others (farther, or
///     whose grid cannot be worked out: no grid rule, a key size that is
///     not a memref dimension), nearest first;
///   - then, as a last resort for a shape none of those can take (a TMA
///     row alignment), the family's other eligible kernels with the
///     variant's values.
/// Throws Error when no variant matches, or more than one does (naming the
/// parameters to give).
std::vector<const KernelInfo *>
tunedKernels(const TuningTable &table, const std::vector<KernelInfo> &infos,
             const std::vector<std::string> &eligible, const ParamValues &fixed,
             const std::vector<int64_t> &key);

/// A problem shape to tune or measure at: its sizes (a tuning key's) and
/// what it is.
struct ProblemShape {
  std::vector<int64_t> sizes;
  std::string what;
};

/// The shapes `source` names: a shape file (one shape per line, its sizes
/// separated by spaces, '# what' after them), or a list "AxBxC,...". Each
/// has `rank` sizes in [1, 2^20], but for those `flags` marks (a causal
/// mask, say), which are 0 or 1; throws Error naming the line otherwise.
std::vector<ProblemShape> loadProblemShapes(const std::string &source,
                                            size_t rank,
                                            const std::vector<bool> &flags = {});

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_TUNING_H
