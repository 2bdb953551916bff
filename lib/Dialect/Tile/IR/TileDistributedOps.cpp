//===- TileDistributedOps.cpp - put, get, signal, wait --------------------===//

#include "TileOpsCommon.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

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

// Scopes the lowering moves a tile with: the CTA (or role) or one warp.
static LogicalResult verifyScope(Operation *op, Scope scope) {
  if (scope == Scope::block || scope == Scope::warp)
    return success();
  return op->emitOpError("moves a tile at scope 'block' or 'warp', not '")
         << stringifyScope(scope) << "'";
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

static LogicalResult verifyLocalTile(Operation *op, StringRef name, Type type) {
  MemorySpace space = getMemorySpace(type);
  if (space != MemorySpace::Global && space != MemorySpace::Shared)
    return op->emitOpError("expects ")
           << name << " in global or shared memory, got "
           << stringifyMemorySpace(space) << " memory";
  if (!cast<MemRefType>(type).hasStaticShape())
    return op->emitOpError("expects ") << name << " to have a static shape";
  return success();
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
  if (failed(verifyOffsets(op, "remote", remote, offsets)))
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
      failed(verifyScope(*this, getScope())) ||
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
      failed(verifyScope(*this, getScope())))
    return failure();
  if (failed(verifyTransfer(*this, getDest().getType(), getSource().getType(),
                            getSourceOffsets())))
    return failure();
  return verifySymmetric(*this, "the source", getSource(), getLevel());
}

LogicalResult SignalOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())))
    return failure();
  if (failed(verifyPeerBuffer(*this, "the signal", getSignal(), getLevel())))
    return failure();
  return verifySymmetric(*this, "the signal", getSignal(), getLevel());
}

LogicalResult WaitOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())))
    return failure();
  MemorySpace space = getMemorySpace(getSignal().getType());
  if (space != MemorySpace::Global && space != MemorySpace::Shared)
    return emitOpError("expects the signal in global or shared memory");
  if (space == MemorySpace::Global && !isSymmetricBuffer(getSignal()))
    return emitOpError("waits on a signal in global memory, which must be a "
                       "symmetric buffer (a kernel argument marked "
                       "{tile.symmetric}) that peers signal");
  return success();
}
