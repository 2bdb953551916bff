//===- TileBarrierArrivals.cpp - how each op arrives on an mbarrier -------===//
//
// BarrierArrivalOpInterface: the arrivals one run of each barrier-arriving op
// makes, in one file. tile-check-barriers counts with these rules, the
// pipeliner sizes the rings it allocates with them, and the lowerings
// implement them (named beside each rule).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

// A TMA load: the team's leader arrives with the expected bytes
// (Copy/Tma.cpp).
int64_t CopyOp::arrivalsPerRun(const ArrivingThreads &by) { return by.teams; }

Value CopyOp::getArrivalBarrier() { return getBarrier(); }
Value CopyOp::getArrivalSlot() { return getBarrierIndex(); }
std::optional<int64_t> CopyOp::getArrivals(const ArrivingThreads &by) {
  return arrivalsPerRun(by);
}

// Into tensor memory one thread commits the product (Mma/Tcgen05.cpp); into
// registers every thread arrives once its part is complete (Mma/*.cpp). In
// a role of several teams that lowering asks for one team's threads: not
// modelled.
Value GemmOp::getArrivalBarrier() { return getBarrier(); }
Value GemmOp::getArrivalSlot() { return getBarrierIndex(); }
std::optional<int64_t> GemmOp::getArrivals(const ArrivingThreads &by) {
  if (isa<TmemType>(getC().getType()))
    return by.teams;
  if (by.teams > 1)
    return std::nullopt;
  return by.threads;
}

// tcgen05.commit by one thread of the team (Mma/Tcgen05.cpp).
int64_t CommitGemmsOp::arrivalsPerRun(const ArrivingThreads &by) {
  return by.teams;
}

Value CommitGemmsOp::getArrivalBarrier() { return getBarrier(); }
Value CommitGemmsOp::getArrivalSlot() { return getBarrierIndex(); }
std::optional<int64_t> CommitGemmsOp::getArrivals(const ArrivingThreads &by) {
  return arrivalsPerRun(by);
}

// Thread 0 of the team arrives with the expected bytes (MBarrierToGPU.cpp).
Value MBarrierExpectTxOp::getArrivalBarrier() { return getBarrier(); }
Value MBarrierExpectTxOp::getArrivalSlot() { return getIndex(); }
std::optional<int64_t>
MBarrierExpectTxOp::getArrivals(const ArrivingThreads &by) {
  return by.teams;
}

// `leader`: one thread of the team; plain: every thread; `cluster`: one
// lane of each warp on the barrier of every CTA of the cluster
// (MBarrierToGPU.cpp).
int64_t MBarrierArriveOp::arrivalsPerRun(bool leader, bool cluster,
                                         const ArrivingThreads &by) {
  if (leader)
    return by.teams;
  if (cluster)
    return by.threads * by.teams / 32 * by.clusterSize;
  return by.threads * by.teams;
}

Value MBarrierArriveOp::getArrivalBarrier() { return getBarrier(); }
Value MBarrierArriveOp::getArrivalSlot() { return getIndex(); }
std::optional<int64_t>
MBarrierArriveOp::getArrivals(const ArrivingThreads &by) {
  return arrivalsPerRun(getLeader(), getCluster(), by);
}
