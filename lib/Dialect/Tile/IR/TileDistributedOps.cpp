//===- TileDistributedOps.cpp - put, get, signal, wait --------------------===//

#include "TileOpsCommon.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

#include "tile/Dialect/Tile/IR/TileOpInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Distributed ops
//===----------------------------------------------------------------------===//

bool mlir::tile::isSymmetricBuffer(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CastOp, memref::ReinterpretCastOp>(
            def))
      return false;
    buffer = def->getOperand(0);
  }
  auto arg = cast<BlockArgument>(buffer);
  auto function =
      dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  return function && arg.getOwner()->isEntryBlock() &&
         function.getArgAttr(arg.getArgNumber(),
                             TileDialect::SymmetricAttrHelper::getNameStr());
}

// World-level buffers are symmetric global memory; cluster-level remote
// buffers are shared memory of a peer CTA.
static LogicalResult verifyPeerBuffer(Operation *op, StringRef name,
                                      Value buffer, Level level) {
  Type type = buffer.getType();
  MemorySpace space = getMemorySpace(type);
  MemorySpace expected =
      level == Level::world ? MemorySpace::Global : MemorySpace::Shared;
  if (space != expected)
    return op->emitOpError("expects ")
           << name << " in " << stringifyMemorySpace(expected)
           << " memory at level '" << stringifyLevel(level) << "', got "
           << stringifyMemorySpace(space) << " memory";
  return success();
}

// The level a mechanism reaches peers at (the inverse of mechanismFor).
static Level levelOf(CommMechanism mechanism) {
  return mechanism == CommMechanism::dsmem ? Level::cluster : Level::world;
}

CommMechanism mlir::tile::mechanismFor(CommunicationOpInterface op) {
  if (op.getLevel() == Level::cluster)
    return CommMechanism::dsmem;
  auto moved = [](Value tile, Value remote) {
    return movesAsOneBlock(cast<MemRefType>(tile.getType()),
                           cast<MemRefType>(remote.getType()))
               ? CommMechanism::nvshmem
               : CommMechanism::p2p;
  };
  if (auto put = dyn_cast<PutOp>(op.getOperation()))
    return moved(put.getSource(), put.getDest());
  if (auto get = dyn_cast<GetOp>(op.getOperation()))
    return moved(get.getDest(), get.getSource());
  // A wait reads a local word: a spin of loads, with no NVSHMEM call (a
  // call would make ptxas serialise the wgmmas of a GEMM the wait gates).
  if (isa<WaitOp>(op.getOperation()))
    return CommMechanism::p2p;
  return CommMechanism::nvshmem;
}

bool mlir::tile::movesAsOneBlock(MemRefType tile, MemRefType remote) {
  if (!tile.hasStaticShape() || tile.getRank() != remote.getRank() ||
      !tile.isLastDimUnitStride())
    return false;
  SmallVector<int64_t> tileStrides, remoteStrides;
  int64_t offset;
  if (failed(tile.getStridesAndOffset(tileStrides, offset)) ||
      failed(remote.getStridesAndOffset(remoteStrides, offset)))
    return false;
  // Row-major strides of the tile's own shape on both sides (a dimension of
  // one element may have any stride).
  int64_t dense = 1;
  for (int64_t d = tile.getRank() - 1; d >= 0; --d) {
    if (tile.getDimSize(d) != 1 &&
        (tileStrides[d] != dense || remoteStrides[d] != dense))
      return false;
    dense *= tile.getDimSize(d);
  }
  return true;
}

LogicalResult mlir::tile::detail::verifyCommunicationOp(Operation *op) {
  auto comm = cast<CommunicationOpInterface>(op);
  std::optional<CommMechanism> mechanism = comm.getMechanism();
  if (mechanism == CommMechanism::p2p && !isa<PutOp, GetOp, WaitOp>(op))
    return op->emitOpError("cannot use mechanism 'p2p', which moves tiles "
                           "(tile.put and tile.get) or waits on a local word "
                           "(tile.wait); drop the mechanism and let "
                           "tile-select-instructions record it");
  if (!mechanism || levelOf(*mechanism) == comm.getLevel())
    return success();
  return op->emitOpError("at level '")
         << stringifyLevel(comm.getLevel()) << "' cannot use mechanism '"
         << stringifyCommMechanism(*mechanism)
         << "' (it reaches peers at level '"
         << stringifyLevel(levelOf(*mechanism))
         << "'); drop the mechanism and let tile-select-instructions record "
            "it";
}

// NVSHMEM's `_block` routines synchronise every thread of the CTA with
// their own barriers, which a warp_specialize role's lowering cannot
// renumber: called from one role they hang or race.
static LogicalResult verifyBlockCallOutsideRoles(Operation *op, Level level,
                                                 StringRef instead) {
  if (level != Level::world || !WarpSpecializeOp::getEnclosing(op))
    return success();
  return op->emitOpError("at level world calls an NVSHMEM block routine, "
                         "which every thread of the CTA must call; inside a "
                         "tile.warp_specialize role ")
         << instead;
}

// Scopes the lowering moves a tile with: the CTA (or role) or one warp.
static LogicalResult verifyScope(Operation *op, Scope scope, Level level) {
  if (scope != Scope::block && scope != Scope::warp)
    return op->emitOpError("moves a tile at scope 'block' or 'warp', not '")
           << stringifyScope(scope) << "'";
  if (scope == Scope::block)
    return verifyBlockCallOutsideRoles(
        op, level,
        "write scope warp (each warp of the role moves the whole tile), or "
        "move the op out of the tile.warp_specialize");
  return success();
}

// Checked last, once the buffer is known to be global memory at world level.
static LogicalResult verifySymmetric(Operation *op, StringRef name,
                                     Value buffer, Level level) {
  if (level != Level::world || isSymmetricBuffer(buffer))
    return success();
  return op->emitOpError("expects ")
         << name
         << " to be a symmetric buffer at level 'world' (the same buffer on "
            "every rank): a kernel argument marked {tile.symmetric}, "
            "allocated with the runtime's symmetric allocator";
}

// Both sides of a put or get: elements of whole power-of-two bytes, rows
// contiguous (unit innermost stride), no swizzle (the moves address tiles
// plainly).
static LogicalResult verifyMovedMemRef(Operation *op, StringRef name,
                                       Type type) {
  auto memref = cast<MemRefType>(type);
  unsigned bits = memref.getElementTypeBitWidth();
  if (bits < 8 || !llvm::isPowerOf2_32(bits) || bits > 128)
    return op->emitOpError("moves elements of whole bytes (1, 2, 4, 8 or 16); ")
           << name << " has " << memref.getElementType();
  if (!memref.isLastDimUnitStride())
    return op->emitOpError("expects ")
           << name << " to have unit stride in its innermost dimension, got "
           << type;
  if (int64_t swizzle = getSharedSwizzle(type).value_or(0))
    return refuseSwizzledAccess(op, swizzle);
  return success();
}

static LogicalResult verifyLocalTile(Operation *op, StringRef name, Type type) {
  MemorySpace space = getMemorySpace(type);
  if (space != MemorySpace::Global && space != MemorySpace::Shared)
    return op->emitOpError("expects ")
           << name << " in global or shared memory, got "
           << stringifyMemorySpace(space) << " memory";
  // In a family the tile may be sized by parameters (a memref.subview with
  // `?` sizes): tile-specialize folds them and verifies again. (The params
  // attribute, not isFamily(), which walks the whole kernel per op.)
  auto kernel = op->getParentOfType<KernelOp>();
  bool inFamily =
      kernel && kernel.getParamsAttr() && !kernel.getParamsAttr().empty();
  if (!cast<MemRefType>(type).hasStaticShape() && !inFamily)
    return op->emitOpError("expects ")
           << name
           << " to have a static shape (in a kernel family, size it with "
              "parameters)";
  return verifyMovedMemRef(op, name, type);
}

static LogicalResult verifyTransfer(Operation *op, Type tileType,
                                    Type remoteType, ValueRange offsets) {
  auto tile = cast<MemRefType>(tileType);
  auto remote = cast<MemRefType>(remoteType);
  if (tile.getElementType() != remote.getElementType())
    return op->emitOpError("expects equal element types, got ")
           << tile.getElementType() << " and " << remote.getElementType();
  if (tile.getRank() != remote.getRank())
    return op->emitOpError("expects the remote buffer's rank (")
           << remote.getRank() << ") to equal the tile's rank ("
           << tile.getRank() << ")";
  if (failed(verifyOffsets(op, "remote", remote, offsets)) ||
      failed(verifyMovedMemRef(op, "the remote buffer", remote)))
    return failure();
  // Where the remote buffer's extent is known (a peer's shared tile), the
  // tile must fit in it at a constant offset: nothing guards the accesses.
  for (auto [d, offset] : llvm::enumerate(offsets)) {
    if (remote.isDynamicDim(d) || tile.isDynamicDim(d))
      continue;
    int64_t room = remote.getDimSize(d), extent = tile.getDimSize(d);
    std::optional<int64_t> at = getConstantIntValue(offset);
    int64_t first = at.value_or(0);
    // Against the room left after the offset: offset + extent may wrap.
    if (first < 0 || first > room || extent > room - first)
      return op->emitOpError("moves a tile of ")
             << extent << " along dim " << d << " at offset " << first
             << " of a remote buffer of " << room
             << ", past its end; use a tile of at most " << room
             << " there and an offset of at most "
             << std::max<int64_t>(0, room - extent);
  }
  return success();
}

static LogicalResult verifySignalWord(Operation *op, Type type) {
  auto memref = cast<MemRefType>(type);
  if (memref.getRank() != 1 || !memref.getElementType().isInteger(64))
    return op->emitOpError("expects signal words in a 1-D memref of i64, got ")
           << type;
  return success();
}

LogicalResult PutOp::verify() {
  if (failed(verifyLocalTile(*this, "the source", getSource().getType())) ||
      failed(verifyPeerBuffer(*this, "the destination", getDest(),
                              getLevel())) ||
      failed(verifyScope(*this, getScope(), getLevel())) ||
      failed(verifyTransfer(*this, getSource().getType(), getDest().getType(),
                            getDestOffsets())))
    return failure();
  bool anySignal = getSignal() || getSignalIndex() || getSignalKind() ||
                   getSignalValue();
  bool allSignal = getSignal() && getSignalIndex() && getSignalKind() &&
                   getSignalValue();
  if (anySignal && !allSignal)
    return emitOpError("expects a signal buffer, index, kind and value "
                       "together");
  if (getSignal()) {
    if (failed(verifySignalWord(*this, getSignal().getType())) ||
        failed(verifyPeerBuffer(*this, "the signal", getSignal(),
                                getLevel())) ||
        failed(verifySymmetric(*this, "the signal", getSignal(), getLevel())))
      return failure();
  }
  return verifySymmetric(*this, "the destination", getDest(), getLevel());
}

LogicalResult GetOp::verify() {
  if (failed(verifyLocalTile(*this, "the destination", getDest().getType())) ||
      failed(verifyPeerBuffer(*this, "the source", getSource(),
                              getLevel())) ||
      failed(verifyScope(*this, getScope(), getLevel())))
    return failure();
  if (failed(verifyTransfer(*this, getDest().getType(), getSource().getType(),
                            getSourceOffsets())))
    return failure();
  return verifySymmetric(*this, "the source", getSource(), getLevel());
}

LogicalResult PutOp::fold(FoldAdaptor, SmallVectorImpl<OpFoldResult> &) {
  return memref::foldMemRefCast(*this);
}

LogicalResult GetOp::fold(FoldAdaptor, SmallVectorImpl<OpFoldResult> &) {
  return memref::foldMemRefCast(*this);
}

LogicalResult SignalOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())))
    return failure();
  if (failed(verifyPeerBuffer(*this, "the signal", getSignal(), getLevel())))
    return failure();
  return verifySymmetric(*this, "the signal", getSignal(), getLevel());
}

LogicalResult WaitOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())) ||
      failed(verifyPeerBuffer(*this, "the signal", getSignal(), getLevel())))
    return failure();
  return verifySymmetric(*this, "the signal", getSignal(), getLevel());
}

LogicalResult BarrierAllOp::verify() {
  return verifyBlockCallOutsideRoles(
      *this, getLevel(),
      "it cannot be: put it before or after the tile.warp_specialize");
}
