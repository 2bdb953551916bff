//===- SharedMemoryAllocation.h - shared tiles and scratch ------*- C++ -*-===//
//
// assignSharedOffsets (declared in TileToGPU.h) places the shared tiles of
// each kernel, and the scratch its lowerings ask for, in the kernel's dynamic
// shared memory; pieces whose lifetimes do not overlap share bytes.
//
// Scratch: a lowering that needs shared memory for the duration of one op
// (a cross-warp reduction, say) asks for it *before* assignSharedOffsets
// runs, with requestScratch on that op (or by adding the op to
// collectScratchRequests in SharedMemoryAllocation.cpp). The allocator
// packs the request with the tiles, live only over the op's top-level op of
// the kernel, and records where it went; the op's lowering then reads the
// place with getScratchOffset or gets a view of it with createScratchView.
// For tests, `tile.test_scratch_bytes = N : i64` on any op inside a kernel
// asks for N bytes, 16-byte aligned.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_SHAREDMEMORYALLOCATION_H
#define TILE_LIB_CONVERSION_TILETOGPU_SHAREDMEMORYALLOCATION_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::tile {

/// Every byte offset the allocator hands out is from the kernel's dynamic
/// shared memory realigned at run time to this (128-byte swizzles and TMA
/// need 1024); tiles start at multiples of it.
constexpr int64_t kSharedAlignment = 1024;

/// Where assignSharedOffsets put a tile.alloc_shared (an index attribute on
/// it; bytes from the realigned base), read by the alloc's lowering.
constexpr llvm::StringLiteral kSharedOffsetAttrName =
    TileDialect::SharedOffsetAttrHelper::getNameStr();

/// Asks for `bytes` of shared scratch at a multiple of `align` (a power of
/// two, at most kSharedAlignment) for the duration of `op`, which must be in
/// a kernel that assignSharedOffsets has not placed yet. A second request on
/// the same op keeps the larger size and alignment.
void requestScratch(Operation *op, int64_t bytes, int64_t align);

/// Where assignSharedOffsets put `op`'s scratch: bytes from the realigned
/// base of the kernel's dynamic shared memory. None without a request.
std::optional<int64_t> getScratchOffset(Operation *op);

/// A view of type `type` (static shape, identity layout, workgroup memory)
/// of the dynamic shared memory `offset` bytes after its realigned base.
Value createSharedView(OpBuilder &b, Location loc, MemRefType type,
                       int64_t offset);

/// createSharedView of `op`'s scratch; null when `op` has none or it is
/// smaller than `type`.
Value createScratchView(OpBuilder &b, Location loc, Operation *op,
                        MemRefType type);

} // namespace mlir::tile

#endif // TILE_LIB_CONVERSION_TILETOGPU_SHAREDMEMORYALLOCATION_H
