//===- MmaCommon.h - what the matrix-instruction lowerings share -*- C++ -*-===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_MMA_MMACOMMON_H
#define TILE_LIB_CONVERSION_TILETOGPU_MMA_MMACOMMON_H

#include "../Common.h"

namespace mlir::tile::lowering {

/// The swizzles of A and B, from their types (0 for A in registers).
std::pair<int64_t, int64_t> operandSwizzles(GemmOp op);

/// What neither matrix instruction's lowering handles yet, and the barrier
/// a gemm completes on (one arrival per thread).
LogicalResult checkLoweredForms(GemmOp op, bool registersA);

/// A gemm with a barrier (null otherwise) arrives on it once the product
/// is complete.
void arriveOnCompletion(OpBuilder &b, Location loc, Value barrier, Value index);

LogicalResult checkF32Accumulator(GemmOp op, StringRef instruction);

/// How wgmma and tcgen05.mma read one shared operand (PTX ISA, "Shared
/// Memory Matrix Layout", the canonical layouts both share): K-major tiles
/// have rows of K (32/64/128 bytes, swizzled by their size, or wider rows
/// stored as 128-byte swizzled column blocks); MN-major tiles have rows of
/// M or N stored as 128-byte swizzled column blocks (64 16-bit elements),
/// one block after another.
struct SharedOperand {
  int64_t swizzle;
  int64_t leadingBytes; // MN-major: between 64-element column blocks
  int64_t strideBytes;  // between groups of 8 rows (K-major) or 8 K (MN-major)
  int64_t kStepBytes;   // start advance per instruction (32 bytes of K)
  int64_t mn64Bytes;    // start advance per 64 elements of M or N
  // K-major rows wider than 128 bytes: bytes between their column blocks
  // (0 otherwise).
  int64_t kBlockBytes = 0;

  /// The start's offset for K step `kk`: along the row, and on to the next
  /// column block after every 128 bytes of K when rows are wider.
  int64_t kStepOffset(int64_t kk) const {
    int64_t bytes = kk * kStepBytes;
    return kBlockBytes ? bytes / 128 * kBlockBytes + bytes % 128 : bytes;
  }
};

/// The layout of operand `name` (A or B) of `op` in shared tile `tile`,
/// K-major or not, with the swizzle the tile was given; a located error
/// when the matrix instructions cannot read it.
FailureOr<SharedOperand> describeOperand(GemmOp op, StringRef name,
                                         MemRefType tile, bool kMajor,
                                         int64_t swizzle);

/// Shared-window byte address of a shared tile's first element, as i64.
Value sharedAddress(OpBuilder &b, Location loc, Value memref);

/// A shared-memory matrix descriptor (wgmma's and tcgen05's): `fixed` (the
/// operand's strides, swizzle and format bits) with the start address's
/// bits 4-17 in bits 0-13, for the tile at `address` (an i64 shared-window
/// address).
Value matrixDescriptor(OpBuilder &b, Location loc, Value address,
                       uint64_t fixed);

/// The descriptor of the start `bytes` (a multiple of 16) past the one
/// `base` (from matrixDescriptor with `fixed`) describes: one 32-bit add to
/// its low word, so that the descriptors of a product's K steps and row
/// blocks come from one address rather than each from its own.
Value advanceDescriptor(OpBuilder &b, Location loc, Value base,
                        uint64_t fixed, int64_t bytes);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_MMA_MMACOMMON_H
