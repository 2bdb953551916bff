//===- Driver.h - Driver availability, errors, synchronisation --*- C++ -*-===//
//
// The driver (libcuda.so.1) is loaded lazily with dlopen, so programs linking
// the runtime start and run on machines without an NVIDIA driver; use
// driverAvailable() to find out whether a GPU can be used. Every failing
// driver call throws tile::rt::Error with a message of the form
//   "<call> failed: <CUDA_ERROR_NAME> (<description>)".
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DRIVER_H
#define TILE_RUNTIME_DRIVER_H

#include "tile/Runtime/Error.h"

#include <cuda.h>

#include <string>

namespace tile {
namespace rt {

/// Returns true when libcuda.so.1 could be loaded, cuInit succeeded and at
/// least one device is present. Otherwise returns false and, if `why` is
/// non-null, stores a one-line human-readable reason. Never throws.
bool driverAvailable(std::string *why = nullptr);

/// Formats "<call> failed: <CUDA_ERROR_NAME> (<description>)".
std::string formatError(const char *call, CUresult result);

/// Waits for all work in the current context (cuCtxSynchronize).
void synchronize();
/// Waits for all work queued on `stream` (cuStreamSynchronize).
void synchronize(CUstream stream);

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_DRIVER_H
