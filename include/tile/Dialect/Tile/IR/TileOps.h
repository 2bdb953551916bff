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

namespace mlir::tile {
/// Who runs an op that arrives on a barrier: the threads of one team, the
/// teams of its warp_specialize role that run it, and the CTAs of the
/// cluster (0 where unknown).
struct ArrivingThreads {
  int64_t threads = 0;
  int64_t teams = 1;
  int64_t clusterSize = 1;
};
} // namespace mlir::tile

namespace mlir::tile::detail {
/// CommunicationOpInterface's verifier: a recorded mechanism belongs to the
/// op's level.
LogicalResult verifyCommunicationOp(Operation *op);
} // namespace mlir::tile::detail

#include "tile/Dialect/Tile/IR/TileOpInterfaces.h.inc"

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

/// Whether a put or get of `tile` moves one contiguous block on both sides:
/// the tile is dense row-major and its rows follow each other in `remote`
/// (static strides), so one NVSHMEM call moves it.
bool movesAsOneBlock(MemRefType tile, MemRefType remote);

/// The mechanism communication op `op` moves by, from its level and what
/// it moves: `dsmem` within the cluster; across the job `nvshmem`, or
/// `p2p` for a put or get of a tile that is not one block on both sides
/// (NVSHMEM would move it row by row). The one statement of the rule:
/// tile-select-instructions records it, passes that create communication
/// ops after selection set it.
CommMechanism mechanismFor(CommunicationOpInterface op);

/// Whether `buffer` is (a view of) a kernel argument marked
/// `{tile.symmetric}`: the same buffer on every rank of the job.
bool isSymmetricBuffer(Value buffer);

/// A kernel parameter's value as an integer (an i1 flag as 0 or 1), and
/// back: `value` as an attribute of the parameter's integer type.
int64_t paramValue(IntegerAttr value);
IntegerAttr paramValueAttr(Type type, int64_t value);

/// A parameter's value written as text (an integer, true or false, or a
/// type) as the attribute a configuration holds for `decl`; null when the
/// text is none of those.
Attribute paramValueFromText(ParamAttr decl, StringRef text);

/// Sets `kernel`'s configuration list to `configs` (each NAME=VALUE text
/// pairs), or with `append` adds them after the listed ones, leaving out a
/// configuration that gives every parameter the same value as one already
/// there (defaults counted). A name that is not a parameter, a value it
/// cannot take or a parameter left without a value is an error on the
/// kernel that names `origin` (a file and line, say).
LogicalResult
setKernelConfigs(KernelOp kernel,
                 ArrayRef<std::vector<std::pair<std::string, std::string>>>
                     configs,
                 bool append, function_ref<std::string(size_t)> origin);

/// Whether `type` holds a kernel family's element-type parameter
/// (!tile.type_param), which tile-specialize replaces.
bool containsTypeParam(Type type);

/// Whether `type` is a shared tile or fragment with a dimension sized by a
/// kernel parameter (`?`): a kernel family's, before tile-specialize.
bool hasParameterizedShape(Type type);
/// The same, for an operand of `op` inside a tile.kernel (where
/// tile-specialize will make it static); elsewhere a `?` is an error.
bool hasParameterizedShape(Operation *op, Type type);

/// `value` (an operand of a tile.grid) as a grid expression of the kernel
/// description (rt::GridRule): built from the enclosing kernel's integer
/// arguments, memref.dim of its memref arguments, constants, tile.num_sms
/// and integer arithmetic; with `allowParams`, also arith.select by a
/// condition of parameters and constants alone (tile-specialize folds it;
/// the expression written is the true arm's). On failure `unsupported` is
/// the op (null for a block argument that is not the kernel's) the host
/// cannot evaluate, or a tile.param (`allowParams`: a family's value before
/// tile-specialize, written as 1) and `why` says what is wrong.
FailureOr<std::string> buildGridExpression(Value value, bool allowParams,
                                           Operation *&unsupported,
                                           std::string &why);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
