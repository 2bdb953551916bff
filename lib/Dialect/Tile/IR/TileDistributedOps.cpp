//===- TileDistributedOps.cpp - put, get, signal, wait --------------------===//

#include "TileOpsCommon.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// Distributed ops
//===----------------------------------------------------------------------===//

// World-level buffers are symmetric global memory; cluster-level remote
// buffers are shared memory of a peer CTA.
static LogicalResult verifyPeerBuffer(Operation *op, StringRef name, Type type,
                                      Level level) {
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
  return verifyOffsets(op, "remote", remote, offsets);
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
      failed(verifyPeerBuffer(*this, "the destination", getDest().getType(),
                              getLevel())) ||
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
        failed(verifyPeerBuffer(*this, "the signal", getSignal().getType(),
                                getLevel())))
      return failure();
  }
  return success();
}

LogicalResult GetOp::verify() {
  if (failed(verifyLocalTile(*this, "the destination", getDest().getType())) ||
      failed(verifyPeerBuffer(*this, "the source", getSource().getType(),
                              getLevel())))
    return failure();
  return verifyTransfer(*this, getDest().getType(), getSource().getType(),
                        getSourceOffsets());
}

LogicalResult SignalOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())))
    return failure();
  return verifyPeerBuffer(*this, "the signal", getSignal().getType(),
                          getLevel());
}

LogicalResult WaitOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())))
    return failure();
  MemorySpace space = getMemorySpace(getSignal().getType());
  if (space != MemorySpace::Global && space != MemorySpace::Shared)
    return emitOpError("expects the signal in global or shared memory");
  return success();
}
