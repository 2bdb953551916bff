//===- TensorMap.cpp - TMA descriptors ------------------------------------===//
//
// CUDA's constraints on tiled tensor maps are checked up front, so that a
// refused map says which one failed and why.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "tile/Runtime/TensorMap.h"
#include "tile/Target/Swizzle.h"

#include <algorithm>
#include <cstring>

using namespace tile::rt;
using namespace tile::rt::detail;

namespace {
// The element types themselves are the kernel description's
// (KernelInfo.cpp); this is how CUDA names them. Signed and unsigned
// integers share a type: TMA only moves bits.
const struct {
  const char *name;
  CUtensorMapDataType type;
} kDataTypes[] = {
    {"bf16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16},
    {"f16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16},
    {"f32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
    {"tf32", CU_TENSOR_MAP_DATA_TYPE_TFLOAT32},
    {"f64", CU_TENSOR_MAP_DATA_TYPE_FLOAT64},
    {"i8", CU_TENSOR_MAP_DATA_TYPE_UINT8},
    {"u8", CU_TENSOR_MAP_DATA_TYPE_UINT8},
    {"i16", CU_TENSOR_MAP_DATA_TYPE_UINT16},
    {"u16", CU_TENSOR_MAP_DATA_TYPE_UINT16},
    {"i32", CU_TENSOR_MAP_DATA_TYPE_INT32},
    {"u32", CU_TENSOR_MAP_DATA_TYPE_UINT32},
    {"i64", CU_TENSOR_MAP_DATA_TYPE_INT64},
    {"u64", CU_TENSOR_MAP_DATA_TYPE_UINT64},
};

/// The CUDA type of a known element type; null if this table lacks it.
const CUtensorMapDataType *dataType(const ElementTypeInfo &elt) {
  for (const auto &entry : kDataTypes)
    if (std::strcmp(entry.name, elt.name) == 0)
      return &entry.type;
  return nullptr;
}

template <typename T> std::string listToString(const std::vector<T> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}
} // namespace

CUtensorMap tile::rt::encodeTiledTensorMap(const TensorMapSpec &spec,
                                           CUdeviceptr base,
                                           std::vector<uint64_t> dims,
                                           std::vector<uint64_t> stridesBytes) {
  auto fail = [&](const std::string &what) -> Error {
    return Error("encodeTiledTensorMap: " + what + " (dims " +
                 listToString(dims) + ", box " + listToString(spec.box) +
                 ", type " + spec.elementType + ", swizzle " +
                 std::to_string(spec.swizzleBytes) + ")");
  };

  const ElementTypeInfo *elt = findElementType(spec.elementType);
  if (!elt)
    throw fail("unknown element type '" + spec.elementType +
               "' (expected one of " + knownElementTypes() + ")");
  const CUtensorMapDataType *type = dataType(*elt);
  if (!type)
    throw fail("no CUDA tensor map type for '" + spec.elementType + "'");
  size_t rank = dims.size();
  if (rank < 1 || rank > 5)
    throw fail("rank must be 1 to 5, got " + std::to_string(rank));
  if (spec.box.size() != rank)
    throw fail("box has rank " + std::to_string(spec.box.size()) +
               " but the tensor has rank " + std::to_string(rank));
  if (base % 16)
    throw fail("base address is not 16-byte aligned");

  // Accept strides with or without the (implicit) innermost element stride.
  if (stridesBytes.size() == rank) {
    if (stridesBytes.back() != elt->bytes)
      throw fail("innermost stride must be the element size (" +
                 std::to_string(elt->bytes) + " bytes), got " +
                 std::to_string(stridesBytes.back()));
    stridesBytes.pop_back();
  }
  if (stridesBytes.size() != rank - 1)
    throw fail("expected " + std::to_string(rank - 1) + " or " +
               std::to_string(rank) + " strides, got " +
               std::to_string(stridesBytes.size()));

  for (size_t i = 0; i < rank; ++i)
    if (dims[i] == 0 || dims[i] > (uint64_t(1) << 32))
      throw fail("dimension " + std::to_string(i) + " must be 1 to 2^32");
  for (size_t i = 0; i + 1 < rank; ++i) {
    if (stridesBytes[i] % 16)
      throw fail("stride " + std::to_string(i) + " (" +
                 std::to_string(stridesBytes[i]) +
                 " bytes) is not a multiple of 16 bytes");
    if (stridesBytes[i] >= (uint64_t(1) << 40))
      throw fail("stride " + std::to_string(i) + " must be below 2^40 bytes");
  }
  for (size_t i = 0; i < rank; ++i)
    if (spec.box[i] == 0 || spec.box[i] > 256)
      throw fail("box dimension " + std::to_string(i) + " must be 1 to 256");

  uint64_t innerBoxBytes = uint64_t(spec.box.back()) * elt->bytes;
  if (innerBoxBytes % 16)
    throw fail("innermost box extent (" + std::to_string(innerBoxBytes) +
               " bytes) is not a multiple of 16 bytes");

  // Swizzle.h's table numbers tensor-map swizzles as the driver does.
  static_assert(CU_TENSOR_MAP_SWIZZLE_NONE == 0 &&
                    CU_TENSOR_MAP_SWIZZLE_32B == 1 &&
                    CU_TENSOR_MAP_SWIZZLE_64B == 2 &&
                    CU_TENSOR_MAP_SWIZZLE_128B == 3,
                "Swizzle.h's tensorMap column follows CUtensorMapSwizzle");
  std::optional<mlir::tile::SwizzleEncoding> encoding =
      mlir::tile::swizzleEncoding(spec.swizzleBytes);
  if (!encoding)
    throw fail("swizzle must be 0, 32, 64 or 128 bytes");
  auto swizzle = static_cast<CUtensorMapSwizzle>(encoding->tensorMap);
  if (spec.swizzleBytes && innerBoxBytes > spec.swizzleBytes)
    throw fail("innermost box extent (" + std::to_string(innerBoxBytes) +
               " bytes) exceeds the " + std::to_string(spec.swizzleBytes) +
               "-byte swizzle span");
  if (!spec.oobZeroFill && !elt->isFloat)
    throw fail("NaN out-of-bounds fill needs a floating-point element type");

  // CUDA wants the innermost dimension first.
  cuuint64_t globalDim[5], globalStrides[4];
  cuuint32_t boxDim[5], elementStrides[5];
  for (size_t i = 0; i < rank; ++i) {
    globalDim[i] = dims[rank - 1 - i];
    boxDim[i] = spec.box[rank - 1 - i];
    elementStrides[i] = 1;
  }
  for (size_t i = 0; i + 1 < rank; ++i)
    globalStrides[i] = stridesBytes[rank - 2 - i];

  // FILL_NONE makes out-of-bounds elements read as zero.
  CUtensorMapFloatOOBfill oobFill =
      spec.oobZeroFill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
                       : CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  TILE_CU_CTX("(dims " + listToString(dims) + ", box " +
                  listToString(spec.box) + ", type " + spec.elementType + ")",
              cuTensorMapEncodeTiled, &map, *type, cuuint32_t(rank),
              reinterpret_cast<void *>(uintptr_t(base)), globalDim,
              globalStrides, boxDim, elementStrides,
              CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
              CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
              oobFill);
  return map;
}

//===----------------------------------------------------------------------===//
// Kernel arguments with tensor maps
//===----------------------------------------------------------------------===//

namespace tile {
namespace rt {

void appendTensorMaps(const KernelInfo &info,
                      const std::vector<MemRefArg> &memrefsByArgument,
                      ArgPack &args, std::vector<DeviceBuffer> &tensorMaps) {
  std::vector<const TmaInfo *> ordered;
  for (const TmaInfo &tma : info.tmas)
    ordered.push_back(&tma);
  std::sort(ordered.begin(), ordered.end(),
            [](const TmaInfo *a, const TmaInfo *b) { return a->param < b->param; });
  // Encode every map before touching `args`, so that a map the driver
  // refuses leaves the caller's argument pack as it was.
  std::vector<CUtensorMap> maps;
  for (const TmaInfo *tma : ordered) {
    if (tma->arg < 0 || static_cast<size_t>(tma->arg) >= memrefsByArgument.size())
      throw Error("kernel '" + info.name + "': tensor map for argument " +
                  std::to_string(tma->arg) + ", which is not a memref given");
    const MemRefArg &memref = memrefsByArgument[tma->arg];
    unsigned bytes = elementTypeBytes(tma->spec.elementType);
    std::vector<uint64_t> dims(memref.sizes.begin(), memref.sizes.end());
    std::vector<uint64_t> strides;
    for (int64_t stride : memref.strides)
      strides.push_back(static_cast<uint64_t>(stride) * bytes);
    CUtensorMap map =
        encodeTiledTensorMap(tma->spec, memref.base, dims, strides);
    maps.push_back(map);
  }
  for (const CUtensorMap &map : maps) {
    tensorMaps.emplace_back(sizeof(CUtensorMap));
    tensorMaps.back().upload(&map, sizeof(map));
    args.addPointer(tensorMaps.back().ptr());
  }
}

void packMemRefArgs(const KernelInfo &info, const std::vector<MemRefArg> &memrefs,
                    ArgPack &args, std::vector<DeviceBuffer> &tensorMaps) {
  for (const MemRefArg &memref : memrefs)
    args.addMemRef(memref.base, memref.sizes, memref.strides);
  appendTensorMaps(info, memrefs, args, tensorMaps);
}

} // namespace rt
} // namespace tile
