//===- Schedule.cpp - what a pipelined loop's schedule may be -------------===//
//
// The rules both pipelining steps share: tile-schedule-loops decides a
// loop's schedule with them and writes it into the body, and
// tile-pipeline-loops checks them again and reads the schedule back
// (productsInFlight), so that either pass can run alone.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

int64_t pipeline::stageOf(Operation *op) {
  auto stage = op->getAttrOfType<IntegerAttr>(
      TileDialect::StageAttrHelper::getNameStr());
  return stage ? stage.getInt() : 0;
}

bool pipeline::hasStages(PipelinedForOp loop) {
  return llvm::any_of(loop.getBody().front(),
                      [](Operation &op) { return stageOf(&op) != 0; });
}

SmallVector<CopyOp> pipeline::producersOf(PipelinedForOp loop) {
  SmallVector<CopyOp> producers;
  for (Operation &op : loop.getBody().front().without_terminator())
    if (auto copy = dyn_cast<CopyOp>(op); copy && isPipelineProducer(copy))
      producers.push_back(copy);
  return producers;
}

bool pipeline::usesTcgen05(PipelinedForOp loop) {
  return loop.getWarpSpecialized() &&
         loop.getBody()
             .walk([](GemmOp gemm) {
               return gemm.getMechanism() == MmaMechanism::tcgen05
                          ? WalkResult::interrupt()
                          : WalkResult::advance();
             })
             .wasInterrupted();
}

FailureOr<bool> pipeline::runsPlain(PipelinedForOp loop) {
  // Stage 0 is every op's without the attribute: an explicit one says
  // nothing, and would not survive the ops' move out of the loop.
  for (Operation &op : loop.getBody().front())
    if (stageOf(&op) == 0)
      op.removeAttr(TileDialect::StageAttrHelper::getNameStr());
  // Nothing to multi-buffer (an empty body, or one that loads nothing from
  // global memory): a plain loop, as stages(1) is. A warp-specialised loop
  // still needs a producer's copies.
  bool plain = loop.getStagesAttr().getInt() <= 1 ||
               (producersOf(loop).empty() && !loop.getWarpSpecialized());
  if (!plain)
    return false;
  for (Operation &op : loop.getBody().front())
    if (stageOf(&op) != 0)
      return op.emitOpError("has stage 1 (tile.stage) in a loop that runs as "
                            "a plain loop (stages(1), or nothing to "
                            "pipeline); stages run in a warp_specialized "
                            "loop's consumers");
  loop.setStages(1);
  return true;
}

// Which pipeline a loop gets follows its producers' mechanism, chosen by
// tile-select-instructions: TMA loads on an mbarrier ring, or cp.async (and
// vector) copies in commit groups. Fails when they disagree or are missing.
static FailureOr<bool> usesCpAsyncGroups(PipelinedForOp loop) {
  std::optional<bool> cpAsync;
  for (CopyOp copy : producersOf(loop)) {
    std::optional<CopyMechanism> mechanism = copy.getMechanism();
    if (!mechanism)
      return copy.emitOpError("has no mechanism: run tile-select-instructions "
                              "before pipelining");
    bool groups = *mechanism != CopyMechanism::tma_load;
    if (cpAsync && *cpAsync != groups)
      return copy.emitOpError("is a ")
             << stringifyCopyMechanism(*mechanism)
             << " copy in a loop whose other producers are not: a pipelined "
                "loop's loads are all TMA or all cp.async";
    cpAsync = groups;
  }
  return cpAsync.value_or(false);
}

// A warp-specialised loop fills its slots by TMA only and releases them
// after wgmma waits or on tcgen05 commits.
static LogicalResult checkWarpSpecializable(PipelinedForOp loop,
                                            bool cpAsync) {
  if (cpAsync)
    return loop.emitOpError("with warp_specialized needs TMA loads (its "
                            "producers take cp.async or vector copies on "
                            "this chip)");
  WalkResult result = loop.walk([&](GemmOp gemm) {
    if (gemm.getMechanism() == MmaMechanism::wgmma ||
        gemm.getMechanism() == MmaMechanism::tcgen05)
      return WalkResult::advance();
    gemm.emitOpError("in a warp_specialized loop must take wgmma or tcgen05 "
                     "(its slots are released after wgmma waits or on "
                     "tcgen05 commits); it takes ")
        << (gemm.getMechanism()
                ? stringifyMmaMechanism(*gemm.getMechanism())
                : StringRef("no mechanism"));
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

static LogicalResult checkStages(PipelinedForOp loop) {
  if (!hasStages(loop))
    return success();
  if (!loop.getWarpSpecialized() || loop.getPingpong() || usesTcgen05(loop))
    return loop.emitOpError(
        "has ops of stage 1 (tile.stage), which need `warp_specialized` "
        "consumers on wgmma without `pingpong` (only their loop runs stages)");
  Block &body = loop.getBody().front();
  for (CopyOp copy : producersOf(loop))
    if (stageOf(copy) != 0)
      return copy.emitOpError("is a pipelined copy, which the producer "
                              "issues ahead of every stage; leave it in "
                              "stage 0");
  // A stage-1 op recomputes the pure ops of stage 0 it needs for its own
  // iteration; a value with side effects behind it would be the next
  // iteration's. Stage 0 cannot read stage 1's values at all.
  for (Operation &op : body.without_terminator()) {
    int64_t stage = stageOf(&op);
    WalkResult bad = op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def || def->getBlock() != &body)
          continue;
        int64_t defStage = stageOf(def);
        if (stage == 0 && defStage == 1) {
          inner->emitOpError("of stage 0 reads a value of stage 1, which is "
                             "computed one iteration late");
          return WalkResult::interrupt();
        }
        if (stage == 1 && defStage == 0 && !isPure(def)) {
          inner->emitOpError("of stage 1 reads a value that an op of stage 0 "
                             "with side effects computes; give that op "
                             "stage 1 too, or compute the value without "
                             "effects");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (bad.wasInterrupted())
      return failure();
  }
  return success();
}

FailureOr<bool> pipeline::checkSchedule(PipelinedForOp loop) {
  FailureOr<bool> cpAsync = usesCpAsyncGroups(loop);
  if (failed(cpAsync) ||
      (loop.getWarpSpecialized() &&
       failed(checkWarpSpecializable(loop, *cpAsync))))
    return failure();
  if (!loop.getWarpSpecialized())
    for (CopyOp copy : producersOf(loop))
      if (copy.getMulticast())
        return loop.emitOpError(
            "has a {multicast} copy, which needs `warp_specialized` (its "
            "slots are released to every CTA of the cluster)");
  if (failed(checkStages(loop)))
    return failure();
  return *cpAsync;
}

void pipeline::scheduleProducts(PipelinedForOp loop, bool cpAsync) {
  // With stages, the kernel author wrote where products are waited for;
  // cp.async refills cannot wait for other warpgroups' products.
  if (hasStages(loop) || cpAsync)
    return;
  SmallVector<CopyOp> producers = producersOf(loop);
  auto isLoaded = [&](Value tile) {
    return llvm::any_of(producers,
                        [&](CopyOp copy) { return copy.getDest() == tile; });
  };
  // A product whose accumulator only gemms touch in the loop may finish one
  // iteration late: its operands' slot is refilled or released only after
  // the next iteration's gemm has waited for it. (mma.sync is synchronous,
  // and a gemm that arrives on a barrier waits for itself.)
  for (Operation &op : loop.getBody().front().without_terminator()) {
    auto gemm = dyn_cast<GemmOp>(op);
    if (!gemm || gemm.getAsync() ||
        gemm.getMechanism() != MmaMechanism::wgmma || gemm.getBarrier() ||
        !isLoaded(gemm.getA()) || !isLoaded(gemm.getB()) ||
        !llvm::all_of(gemm.getC().getUsers(), [&](Operation *user) {
          return !loop->isAncestor(user) || isa<GemmOp>(user);
        }))
      continue;
    gemm.setAsync(true);
    OpBuilder b(gemm);
    b.setInsertionPointAfter(gemm);
    WaitGemmsOp::create(b, gemm.getLoc(), b.getI32IntegerAttr(1));
  }
}

FailureOr<bool> pipeline::productsInFlight(PipelinedForOp loop,
                                           bool cpAsync) {
  // Products issued and not yet counted out by a wait, in body order; a
  // wait inside a region may not run, so only the body's own waits count.
  // A body with products starts with the previous iteration's last one
  // still pending (at most one, as this check makes sure).
  Block &body = loop.getBody().front();
  bool products = body.walk([](GemmOp gemm) {
                        return gemm.getAsync() ? WalkResult::interrupt()
                                               : WalkResult::advance();
                      }).wasInterrupted();
  int64_t pending = products ? 1 : 0;
  for (Operation &op : body.without_terminator()) {
    op.walk([&](Operation *inner) {
      if (auto gemm = dyn_cast<GemmOp>(inner); gemm && gemm.getAsync())
        ++pending;
    });
    if (auto wait = dyn_cast<WaitGemmsOp>(op))
      pending = std::min<int64_t>(pending, wait.getPending());
  }
  if (pending > 1)
    return loop.emitOpError("leaves ")
           << pending
           << " products in flight at the end of an iteration; a slot is "
              "released one iteration late, so wait until at most one is "
              "pending (tile.wait_gemms pending(1))";
  // cp.async groups refill a slot after this thread's own wait, with no
  // CTA barrier for the other warpgroups' products.
  if (pending == 1 && cpAsync)
    return loop.emitOpError("leaves a product in flight at the end of an "
                            "iteration, but its loads are cp.async copies, "
                            "whose refill does not wait for the other "
                            "warpgroups' products; wait for all of them "
                            "(tile.wait_gemms pending(0))");
  return pending == 1;
}
