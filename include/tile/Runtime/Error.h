//===- Error.h - The runtime's exception type -------------------*- C++ -*-===//
//
// Kept apart from the CUDA-facing headers so that the kernel description
// (KernelInfo.h), which the compiler links too, needs no cuda.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_ERROR_H
#define TILE_RUNTIME_ERROR_H

#include <stdexcept>
#include <string>

namespace tile {
namespace rt {

/// Every failure in this library is reported with this exception.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message) : std::runtime_error(message) {}
};

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_ERROR_H
