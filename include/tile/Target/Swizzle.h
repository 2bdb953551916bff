//===- Swizzle.h - the encodings of a shared tile's swizzle ----*- C++ -*-===//
//
// A shared tile's swizzle (the XOR of 16-byte chunks within 32-, 64- or
// 128-byte spans of a row; 0 for none) is written in its type,
// #tile.shared<swizzle = N>. Four consumers encode it in their own way:
// TMA tensor maps (CUtensorMapSwizzle, which nvgpu's TensorMapSwizzleKind
// copies), wgmma matrix descriptors and tcgen05 shared-memory descriptors.
// This table is the one place that maps a swizzle to each of them. It is
// header-only so that the runtime (which encodes tensor maps) and the
// compiler read the same table.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_SWIZZLE_H
#define TILE_TARGET_SWIZZLE_H

#include <cstdint>
#include <optional>

namespace mlir::tile {

struct SwizzleEncoding {
  /// The span the chunks are permuted over: 0, 32, 64 or 128 bytes.
  int64_t bytes;
  /// CUtensorMapSwizzle (CU_TENSOR_MAP_SWIZZLE_NONE, _32B, _64B, _128B)
  /// and nvgpu::TensorMapSwizzleKind, which numbers them alike.
  unsigned tensorMap;
  /// The layout type of a wgmma matrix descriptor (bits 62-63); none is
  /// the interleaved layout, which tile does not use.
  unsigned wgmma;
  /// The swizzle mode of a tcgen05 shared-memory descriptor (bits 61-63).
  unsigned tcgen05;
};

/// The encodings of a `bytes`-byte swizzle; nullopt for a width no
/// hardware swizzles by.
inline std::optional<SwizzleEncoding> swizzleEncoding(int64_t bytes) {
  static constexpr SwizzleEncoding table[] = {
      {0, 0, 0, 0}, {32, 1, 3, 6}, {64, 2, 2, 4}, {128, 3, 1, 2}};
  for (const SwizzleEncoding &entry : table)
    if (entry.bytes == bytes)
      return entry;
  return std::nullopt;
}

} // namespace mlir::tile

#endif // TILE_TARGET_SWIZZLE_H
