//===- MmaCommon.h - what the matrix-instruction lowerings share -*- C++ -*-===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_MMA_MMACOMMON_H
#define TILE_LIB_CONVERSION_TILETOGPU_MMA_MMACOMMON_H

#include "../Common.h"

namespace mlir::tile::lowering {

/// The swizzles annotateSharedSwizzles recorded for A and B (0 for A in
/// registers); a located error when they are missing.
FailureOr<std::pair<int64_t, int64_t>> recordedSwizzles(GemmOp op);

/// What neither matrix instruction's lowering handles yet, and the barrier
/// a gemm completes on (one arrival per thread).
LogicalResult checkLoweredForms(GemmOp op, bool registersA);

/// A gemm with a barrier (null otherwise) arrives on it once the product
/// is complete.
void arriveOnCompletion(OpBuilder &b, Location loc, Value barrier, Value index);

LogicalResult checkF32Accumulator(GemmOp op, StringRef instruction);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_MMA_MMACOMMON_H
