//===- TileOpsCommon.h - rules the op verifiers share -----------*- C++ -*-===//
//
// Private to lib/Dialect/Tile/IR: the dialect, types and attributes
// (TileDialect.cpp), the fragment layouts (TileLayouts.cpp) and the op
// definitions, split by group
// (TileOps.cpp: kernel, loops and warp roles; TileMemoryOps.cpp,
// TileSyncOps.cpp, TileComputeOps.cpp, TileDistributedOps.cpp, as the
// .td files), and these checks serve all.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_IR_TILEOPSCOMMON_H
#define TILE_LIB_DIALECT_TILE_IR_TILEOPSCOMMON_H

#include "tile/Dialect/Tile/IR/TileOps.h"

#include <string>

namespace mlir::tile::detail {
/// The op is inside a tile.kernel (or, once outlined, a gpu.func).
LogicalResult verifyInKernel(Operation *op);
/// "global", "shared", "fragment", ... for diagnostics.
std::string describe(Type type);
/// A constant index into a barrier ring must name one of its barriers.
LogicalResult verifyBarrierIndex(Operation *op, Value barrier, Value index);
/// One offset per dimension of the side a copy addresses into.
LogicalResult verifyOffsets(Operation *op, StringRef side, Type type,
                            ValueRange offsets);

/// The kernel's params(...) and configs(...) clauses (TileFamily.cpp).
ParseResult parseKernelParams(OpAsmParser &parser, ArrayAttr &params);
void printKernelParams(OpAsmPrinter &p, ArrayAttr params);
ParseResult parseKernelConfigs(OpAsmParser &parser, ArrayAttr params,
                               ArrayAttr &configs);
void printKernelConfigs(OpAsmPrinter &p, ArrayAttr params, ArrayAttr configs);
/// Unique parameter names, configurations of declared parameters and
/// allowed values, threads(NAME) naming a parameter.
LogicalResult verifyKernelFamily(KernelOp kernel);
/// The type a verifier checks `type` as: a kernel family's element-type
/// parameter (!tile.type_param) as the type it stands for, any other type
/// as itself. tile-specialize's verification then checks the real one.
Type verifiedAs(Type type);
/// `clause(NAME)` on `op` (threads, a cluster dimension, stages, pingpong)
/// names a parameter of `kernel` of the right kind: a flag (i1) where
/// `flag`, an integer otherwise.
LogicalResult verifyClauseParam(Operation *op, KernelOp kernel,
                                StringRef clause, StringRef name, bool flag);
} // namespace mlir::tile::detail

#endif // TILE_LIB_DIALECT_TILE_IR_TILEOPSCOMMON_H
