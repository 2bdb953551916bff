//===- Runtime.h - Host runtime over the CUDA driver API --------*- C++ -*-===//
//
// A small RAII layer for running tile-compiled cubins from host programs
// (tests, examples, benchmarks). It depends on nothing but <cuda.h> and the
// C++ standard library. This header includes every part:
//   Driver.h      loading libcuda, errors, synchronisation
//   Device.h      devices and device memory
//   Launch.h      modules, kernels, argument packs and launches
//   Graph.h       streams, CUDA graphs: launches captured once, replayed
//   Nvshmem.h     NVSHMEM: finding it, PEs, symmetric memory
//   Timer.h       timing GPU work with events
//   TensorMap.h   TMA descriptors, also from a kernel description
//   KernelInfo.h  the kernel description (.kinfo) tile-translate writes
//   Float.h       host-side bf16/f16 conversions
//
// Lifetime rules: keep the Device alive for as long as any buffer, module or
// event exists (they live in its primary context), and keep a Module alive
// while any Kernel obtained from it is launched.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_RUNTIME_H
#define TILE_RUNTIME_RUNTIME_H

#include "tile/Runtime/Device.h"
#include "tile/Runtime/DiskCache.h"
#include "tile/Runtime/Driver.h"
#include "tile/Runtime/Error.h"
#include "tile/Runtime/Float.h"
#include "tile/Runtime/Graph.h"
#include "tile/Runtime/KernelInfo.h"
#include "tile/Runtime/Launch.h"
#include "tile/Runtime/Nvshmem.h"
#include "tile/Runtime/TensorMap.h"
#include "tile/Runtime/Timer.h"

#endif // TILE_RUNTIME_RUNTIME_H
