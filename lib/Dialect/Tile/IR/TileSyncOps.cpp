//===- TileSyncOps.cpp - mbarriers ----------------------------------------===//

#include "TileOpsCommon.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

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
