//===- TileMemoryOps.cpp - allocation, barriers and copies ----------------===//

#include "TileOpsCommon.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

LogicalResult AllocSharedOp::verify() {
  auto type = cast<MemRefType>(getType());
  if (!type.hasStaticShape() || type.getRank() == 0)
    return emitOpError("expects a static shape of rank 1 or more, got ")
           << type;
  // LLVM addresses sub-byte elements a byte each: their tiles would not
  // have the size their shape says.
  if (type.getElementTypeBitWidth() % 8 != 0)
    return emitOpError("expects elements of whole bytes, got ")
           << type.getElementType();
  if (!type.getLayout().isIdentity())
    return emitOpError("expects the identity layout: the lowering picks the "
                       "shared-memory layout");
  if (getMemorySpace(type) != MemorySpace::Shared)
    return emitOpError("expects a memref in #gpu.address_space<workgroup>, got ")
           << type;
  if (std::optional<uint64_t> swizzle = getSwizzle()) {
    int64_t rowBytes = type.getShape().back() * type.getElementTypeBitWidth() / 8;
    if (*swizzle != 0 && *swizzle != 32 && *swizzle != 64 && *swizzle != 128)
      return emitOpError("expects a swizzle of 0, 32, 64 or 128 bytes, got ")
             << *swizzle;
    if (*swizzle != 0 && rowBytes % static_cast<int64_t>(*swizzle) != 0)
      return emitOpError("expects rows of a multiple of ")
             << *swizzle << " bytes for a " << *swizzle
             << "-byte swizzle, got " << rowBytes;
  }
  return verifyInKernel(*this);
}

LogicalResult AllocFragmentOp::verify() {
  if (failed(verifyInKernel(*this)))
    return failure();
  // A layout spreads the tile over a number of threads: the kernel's.
  auto layout =
      dyn_cast_if_present<FragmentLayoutAttrInterface>(getType().getLayout());
  if (!layout)
    return success();
  return layout.verifyShape([&] { return emitOpError(); },
                            getType().getShape(), getKernelThreads(*this));
}

LogicalResult AllocTmemOp::verify() { return verifyInKernel(*this); }

LogicalResult DeallocTmemOp::verify() {
  if (!getTmem().getDefiningOp<AllocTmemOp>())
    return emitOpError("expects a value produced by 'tile.alloc_tmem'");
  return success();
}

static constexpr int64_t kMaxMBarrierCount = (1 << 20) - 1;

LogicalResult AllocBarrierOp::verify() {
  int64_t arrivals = getArrivalsAttr().getInt();
  if (arrivals < 1 || arrivals > kMaxMBarrierCount)
    return emitOpError("expects arrivals in [1, ")
           << kMaxMBarrierCount << "], got " << arrivals;
  return verifyInKernel(*this);
}

LogicalResult MBarrierArriveOp::verify() {
  if (getLeader() && getCluster())
    return emitOpError("takes either `leader` (one thread of the CTA) or "
                       "`cluster` (one lane per warp, to every CTA), not both");
  return verifyBarrierIndex(*this, getBarrier(), getIndex());
}

LogicalResult MBarrierExpectTxOp::verify() {
  int64_t bytes = getBytesAttr().getInt();
  if (bytes < 1 || bytes > kMaxMBarrierCount)
    return emitOpError("expects bytes in [1, ")
           << kMaxMBarrierCount << "], got " << bytes;
  return verifyBarrierIndex(*this, getBarrier(), getIndex());
}

LogicalResult MBarrierWaitOp::verify() {
  return verifyBarrierIndex(*this, getBarrier(), getIndex());
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

static bool isLegalCopyDirection(MemorySpace src, MemorySpace dst) {
  using M = MemorySpace;
  switch (src) {
  case M::Global:
    return dst == M::Shared || dst == M::Fragment;
  case M::Shared:
    return dst == M::Global || dst == M::Fragment || dst == M::Tmem;
  case M::Fragment:
    return dst == M::Global || dst == M::Shared || dst == M::Tmem;
  case M::Tmem:
    return dst == M::Fragment;
  case M::Other:
    return false;
  }
  return false;
}

// A recorded mechanism must fit the copy's direction and flags (a
// hand-written one too): the lowering of each mechanism relies on it.
static LogicalResult verifyMechanism(CopyOp op, MemorySpace src,
                                     MemorySpace dst) {
  std::optional<CopyMechanism> mechanism = op.getMechanism();
  if (!mechanism)
    return success();
  bool globalToShared = src == MemorySpace::Global && dst == MemorySpace::Shared;
  switch (*mechanism) {
  case CopyMechanism::vector:
    if (op.getBarrier() || op.getTma())
      return op.emitOpError("is a TMA copy (barrier or {tma}); its mechanism "
                            "must be tma_load or tma_store, not vector");
    return success();
  case CopyMechanism::cp_async:
    if (!globalToShared || op.getBarrier())
      return op.emitOpError("takes mechanism cp_async only for a global to "
                            "shared copy without a barrier");
    return success();
  case CopyMechanism::tma_load:
    // Producers of a pipelined loop get their barrier from the pipeliner.
    if (!globalToShared ||
        (!op.getBarrier() && !isa<PipelinedForOp>(op->getParentOp())))
      return op.emitOpError("takes mechanism tma_load only for a global to "
                            "shared copy with a barrier (or a producer of a "
                            "tile.pipelined_for)");
    return success();
  case CopyMechanism::tma_store:
    if (!op.getTma())
      return op.emitOpError("takes mechanism tma_store only with {tma}");
    return success();
  }
  return success();
}

int64_t mlir::tile::getMaxRunElements(ShapedType type) {
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t vector = std::max<int64_t>(1, 16 / bytes);
  while (vector > 1 && type.getShape().back() % vector != 0)
    vector /= 2;
  return vector;
}

LogicalResult CopyOp::verify() {
  Type srcType = getSource().getType(), dstType = getDest().getType();
  MemorySpace src = getMemorySpace(srcType), dst = getMemorySpace(dstType);
  if (src == MemorySpace::Other || dst == MemorySpace::Other)
    return emitOpError("expects memrefs in global or workgroup memory, "
                       "fragments or tensor memory");
  if (!isLegalCopyDirection(src, dst))
    return emitOpError("cannot copy from ")
           << describe(srcType) << " memory to " << describe(dstType)
           << " memory";
  auto srcShaped = cast<ShapedType>(srcType);
  auto dstShaped = cast<ShapedType>(dstType);
  if (srcShaped.getElementType() != dstShaped.getElementType())
    return emitOpError("expects equal element types, got ")
           << srcShaped.getElementType() << " and "
           << dstShaped.getElementType();

  // The on-chip side is the tile; the global side is addressed by offsets.
  ShapedType tile = src == MemorySpace::Global ? dstShaped : srcShaped;
  if (!tile.hasStaticShape() || tile.getRank() == 0)
    return emitOpError("expects the tile side to have a static shape of rank "
                       "1 or more, got ")
           << tile;
  if (src == MemorySpace::Global || dst == MemorySpace::Global) {
    bool srcIsGlobal = src == MemorySpace::Global;
    ShapedType global = srcIsGlobal ? srcShaped : dstShaped;
    if (global.getRank() != tile.getRank())
      return emitOpError("expects the global operand's rank (")
             << global.getRank() << ") to equal the tile's rank ("
             << tile.getRank() << ")";
    if (failed(verifyOffsets(*this, "global",
                             global, srcIsGlobal ? getSourceOffsets()
                                                 : getDestOffsets())))
      return failure();
    if (!(srcIsGlobal ? getDestOffsets() : getSourceOffsets()).empty())
      return emitOpError("expects no offsets on the tile side");
  } else if (!getSourceOffsets().empty() && src == MemorySpace::Fragment &&
             dst == MemorySpace::Shared) {
    // A slice of the fragment, of the shared tile's shape.
    if (!getDestOffsets().empty())
      return emitOpError("expects offsets only on the fragment");
    if (!dstShaped.hasStaticShape())
      return emitOpError("expects a shared tile of static shape for a slice "
                         "of a fragment");
    if (static_cast<int64_t>(getSourceOffsets().size()) != srcShaped.getRank() ||
        dstShaped.getRank() != srcShaped.getRank())
      return emitOpError("expects one offset per fragment dimension and a "
                         "shared tile of the fragment's rank");
    for (auto [i, offset] : llvm::enumerate(getSourceOffsets())) {
      std::optional<int64_t> value = getConstantIntValue(offset);
      if (!value)
        return emitOpError("expects constant offsets into a fragment");
      if (*value < 0 ||
          *value + dstShaped.getDimSize(i) > srcShaped.getDimSize(i))
        return emitOpError("copies a slice of ")
               << dstShaped.getDimSize(i) << " at offset " << *value
               << " of a fragment dimension of " << srcShaped.getDimSize(i);
    }
  } else {
    if (!getSourceOffsets().empty() || !getDestOffsets().empty())
      return emitOpError("expects no offsets when neither side is global "
                         "memory (a fragment -> shared copy may take "
                         "offsets on the fragment)");
    if (srcShaped.getShape() != dstShaped.getShape())
      return emitOpError("expects equal shapes, got ")
             << srcType << " and " << dstType;
  }

  if (getTma() && (src != MemorySpace::Shared || dst != MemorySpace::Global ||
                   getBarrier()))
    return emitOpError("takes {tma} only for shared to global copies (loads "
                       "use TMA when they complete on a barrier)");
  if (getAsync() && !getTma() &&
      !(src == MemorySpace::Global && dst == MemorySpace::Shared &&
        !getBarrier()))
    return emitOpError("takes {async} only with {tma} (an asynchronous TMA "
                       "store) or on a global to shared copy without a "
                       "barrier (cp.async groups the program waits for)");
  if (getBarrier()) {
    if (src != MemorySpace::Global || dst != MemorySpace::Shared)
      return emitOpError("takes a barrier only for global to shared copies, "
                         "which complete on it asynchronously");
    if (!getBarrierIndex())
      return emitOpError("expects an index into the barrier ring");
  }
  if (getMulticast()) {
    if (src != MemorySpace::Global || dst != MemorySpace::Shared)
      return emitOpError("takes {multicast} only for global to shared copies");
    auto tile = cast<MemRefType>(getDest().getType());
    if (tile.getRank() < 2)
      return emitOpError("multicasts rows of a tile, so it takes a tile of "
                         "rank 2 or more");
    if (auto kernel = (*this)->getParentOfType<KernelOp>()) {
      int64_t ctas = kernel.getClusterSize();
      if (ctas < 2)
        return emitOpError("takes {multicast} only in a kernel whose cluster "
                           "has more than one CTA");
      if (tile.getShape().front() % ctas != 0)
        return emitOpError("multicasts a tile of ")
               << tile.getShape().front() << " rows, which its cluster's "
               << ctas << " CTAs cannot load in equal slices";
      // Each CTA's slice is a piece TMA writes on its own.
      int64_t sliceBytes = tile.getNumElements() / ctas *
                           tile.getElementTypeBitWidth() / 8;
      int64_t alignment = tmaPieceAlignment(getSharedAllocation(getDest()));
      if (sliceBytes % alignment != 0)
        return emitOpError("multicasts slices of ")
               << sliceBytes << " bytes per CTA; they must be a multiple of "
               << alignment << " bytes";
    }
  }
  if (failed(verifyMechanism(*this, src, dst)))
    return failure();
  return verifyBarrierIndex(*this, getBarrier(), getBarrierIndex());
}

LogicalResult WaitTmaStoresOp::verify() {
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0 || pending > 7)
    return emitOpError("expects pending in [0, 7], got ") << pending;
  return verifyInKernel(*this);
}
