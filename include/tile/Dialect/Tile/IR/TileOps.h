//===- TileOps.h - tile dialect ops -----------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_H
#define TILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {
/// The widest run of at most 16 bytes that divides the innermost dimension
/// of `type`, in elements: what one thread moves at a time in a plain copy.
int64_t getMaxRunElements(ShapedType type);

/// A global -> shared copy without a barrier directly in the body of a
/// tile.pipelined_for with stages > 1: the copy tile-pipeline-loops
/// multi-buffers and makes asynchronous.
bool isPipelineProducer(CopyOp copy);

/// Whether `buffer` is (a view of) a kernel argument marked
/// `{tile.symmetric}`: the same buffer on every rank of the job.
bool isSymmetricBuffer(Value buffer);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
