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

//===----------------------------------------------------------------------===//
// Warpgroups taking turns
//===----------------------------------------------------------------------===//

// Turns pass between whole warpgroups, so the threads running the op (the
// kernel's, or after the warp split the consumers' team) must be two or
// more of them; unknown (a parameter) until specialisation.
static LogicalResult verifyTurn(Operation *op) {
  if (failed(verifyInKernel(op)))
    return failure();
  int64_t threads = getThreadsRunning(op);
  if (threads && (threads % 128 != 0 || threads < 256))
    return op->emitOpError("passes turns between warpgroups, but the ")
           << threads
           << " threads that run it are not two or more whole warpgroups; "
              "give the kernel (or the role) a multiple of 128 threads, at "
              "least 256";
  return success();
}

LogicalResult TakeTurnOp::verify() { return verifyTurn(*this); }
LogicalResult PassTurnOp::verify() { return verifyTurn(*this); }
