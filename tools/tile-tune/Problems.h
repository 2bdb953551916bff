//===- Problems.h - how tile-tune feeds, checks and compares a family -*- C++ -*-===//
//
// A Problem makes a shape's operands, binds a candidate to them, checks
// its result and runs the reference it is timed against: GEMM families
// against cuBLAS, row families against a device-to-device copy, attention
// against PyTorch's cuDNN attention measured beside (--reference).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_TUNE_PROBLEMS_H
#define TILE_TOOLS_TILE_TUNE_PROBLEMS_H

#include "TileTune.h"

#include "tile/Runtime/Launcher.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tile::tune {

/// What tile-tune knows of a kind of family: how to make operands for a
/// shape, bind a kernel to them, check its result and run the reference
/// it is timed against.
class Problem {
public:
  virtual ~Problem() = default;
  virtual std::string reference() const = 0;
  virtual std::vector<std::pair<std::string, std::string>> key() const = 0;
  /// Operands for `shape`, and the expected result for `kernel`'s variant.
  virtual void prepare(const Shape &shape, const rt::KernelInfo &kernel) = 0;
  virtual rt::BoundLaunch bind(const rt::Module &module,
                               const rt::KernelInfo &kernel) = 0;
  /// The relative error of `launch`'s result (its output poisoned first).
  virtual double check(rt::BoundLaunch &launch) = 0;
  virtual double tolerance() const = 0;
  /// Runs the reference once, timed interleaved with the candidates.
  virtual void runReference() = 0;
  /// The reference's time at the prepared shape, in microseconds, where it
  /// is not run here but was measured beside on the same GPU (attention:
  /// PyTorch's cuDNN, --reference); none where runReference() is timed.
  virtual std::optional<double> recordedReferenceUs() const {
    return std::nullopt;
  }
};

/// The problem `kernel`'s family is (it opens cuBLAS: a GPU is needed), or
/// an error saying which tile-tune knows. `referenceFile` is --reference's
/// file, for the problems whose reference runs elsewhere (empty: none),
/// which must have been measured on `deviceName`, this GPU.
std::unique_ptr<Problem> problemFor(const rt::KernelInfo &kernel,
                                    const std::string &referenceFile,
                                    const std::string &deviceName);
/// Which sizes of its shapes' key are flags (0 or 1; the others are
/// sizes of at least 1), one entry per key size; no GPU needed.
std::vector<bool> keyFlags(const rt::KernelInfo &kernel);
/// Whether its reference is measured elsewhere and read from --reference
/// (attention's: PyTorch's cuDNN attention).
bool referenceIsRecorded(const rt::KernelInfo &kernel);
/// What `kernel` computes, as far as the check's expected result goes: a
/// GEMM's epilogue flags and C's type (the rows compute one function).
std::string computes(const rt::KernelInfo &kernel);

} // namespace tile::tune

#endif // TILE_TOOLS_TILE_TUNE_PROBLEMS_H
