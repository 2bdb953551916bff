//===- TensorMap.h - TMA descriptors ----------------------------*- C++ -*-===//
//
// Tensor maps (CUtensorMap) built with cuTensorMapEncodeTiled, either from an
// explicit TensorMapSpec or from the tma records of a kernel description.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TENSORMAP_H
#define TILE_RUNTIME_TENSORMAP_H

#include "tile/Runtime/Device.h"
#include "tile/Runtime/KernelInfo.h"
#include "tile/Runtime/Launch.h"

#include <cuda.h>

#include <cstdint>
#include <vector>

namespace tile {
namespace rt {

/// Encodes a tiled TMA descriptor for the tensor at `base`. `dims` lists the
/// global shape outermost first. `stridesBytes` lists byte strides outermost
/// first, either for all but the innermost dimension (rank - 1 entries) or
/// for all dimensions with the innermost equal to the element size. Checks
/// CUDA's constraints up front so failures say what is wrong.
CUtensorMap encodeTiledTensorMap(const TensorMapSpec &spec, CUdeviceptr base,
                                 std::vector<uint64_t> dims,
                                 std::vector<uint64_t> stridesBytes);

/// A global-memory kernel argument as tile kernels see it: a memref.
struct MemRefArg {
  CUdeviceptr base = 0;
  std::vector<int64_t> sizes;   // outermost first
  std::vector<int64_t> strides; // in elements, outermost first
};

/// Packs a kernel's arguments: `memrefs` and then, for each TMA entry of
/// `info` in parameter order, a device pointer to the tensor map built from
/// the memref it names (encoded with cuTensorMapEncodeTiled and uploaded
/// into `tensorMaps`, which must outlive the launch). Kernels whose
/// arguments mix scalars and memrefs build their ArgPack by hand and call
/// appendTensorMaps.
void packMemRefArgs(const KernelInfo &info, const std::vector<MemRefArg> &memrefs,
                    ArgPack &args, std::vector<DeviceBuffer> &tensorMaps);
void appendTensorMaps(const KernelInfo &info,
                      const std::vector<MemRefArg> &memrefsByArgument,
                      ArgPack &args, std::vector<DeviceBuffer> &tensorMaps);

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_TENSORMAP_H
