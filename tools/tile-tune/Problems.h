//===- Problems.h - how tile-tune feeds, checks and compares a family -*- C++ -*-===//
//
// A Problem makes a shape's operands, binds a candidate to them, checks
// its result and runs the reference it is timed against: GEMM families
// against cuBLAS, row families against a device-to-device copy.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_TUNE_PROBLEMS_H
#define TILE_TOOLS_TILE_TUNE_PROBLEMS_H

#include "TileTune.h"

#include "tile/Runtime/Launcher.h"

#include <memory>
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
  virtual void runReference() = 0;
};

/// The problem `kernel`'s family is (it opens cuBLAS: a GPU is needed), or
/// an error saying which tile-tune knows.
std::unique_ptr<Problem> problemFor(const rt::KernelInfo &kernel);
/// The sizes its shapes have (its key's); no GPU needed.
size_t keySize(const rt::KernelInfo &kernel);
/// What `kernel` computes, as far as the check's expected result goes: a
/// GEMM's epilogue flags and C's type (the rows compute one function).
std::string computes(const rt::KernelInfo &kernel);

} // namespace tile::tune

#endif // TILE_TOOLS_TILE_TUNE_PROBLEMS_H
