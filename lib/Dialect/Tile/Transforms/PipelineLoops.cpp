//===- PipelineLoops.cpp - multi-buffer tile.pipelined_for loads ----------===//
//
// tile-pipeline-loops: checks each pipelined loop's producers and hands it
// to the LoopPipeliner (Pipeline/): ring building (Rings.cpp), then the
// software-pipelined (SoftwarePipeline.cpp) or warp-specialised
// (WarpSpecialize.cpp) schedule.
//
//===----------------------------------------------------------------------===//

#include "Pipeline/Pipeliner.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

// Which pipeline a loop gets follows its producers' mechanism, chosen by
// tile-select-instructions: TMA loads on an mbarrier ring, or cp.async (and
// vector) copies in commit groups. Fails when they disagree or are missing.
static FailureOr<bool> usesCpAsyncGroups(PipelinedForOp loop) {
  std::optional<bool> cpAsync;
  for (Operation &op : loop.getBody().front()) {
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy || !isPipelineProducer(copy))
      continue;
    std::optional<CopyMechanism> mechanism = copy.getMechanism();
    if (!mechanism)
      return copy.emitOpError("has no mechanism: run tile-select-instructions "
                              "before tile-pipeline-loops");
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

namespace {
struct TilePipelineLoopsPass
    : public tile::impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  void runOnOperation() override {
    SmallVector<PipelinedForOp> loops;
    WalkResult walk = getOperation().walk([&](PipelinedForOp loop) {
      // Stage 0 is every op's without the attribute: an explicit one says
      // nothing, and would not survive the ops' move out of the loop.
      for (Operation &op : loop.getBody().front())
        if (stageOf(&op) == 0)
          op.removeAttr(TileDialect::StageAttrHelper::getNameStr());
      // Nothing to multi-buffer (an empty body, or one that loads nothing
      // from global memory): a plain loop, as stages(1) is. A
      // warp-specialised loop still needs a producer's copies.
      bool loads = llvm::any_of(loop.getBody().front(), [](Operation &op) {
        auto copy = dyn_cast<CopyOp>(op);
        return copy && isPipelineProducer(copy);
      });
      bool plain = loop.getStagesAttr().getInt() <= 1 ||
                   (!loads && !loop.getWarpSpecialized());
      if (!plain) {
        loops.push_back(loop);
        return WalkResult::advance();
      }
      for (Operation &op : loop.getBody().front())
        if (stageOf(&op) != 0) {
          op.emitOpError("has stage 1 (tile.stage) in a loop that runs as a "
                         "plain loop (stages(1), or nothing to pipeline); "
                         "stages run in a warp_specialized loop's consumers");
          return WalkResult::interrupt();
        }
      loop.setStages(1);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (PipelinedForOp loop : loops) {
      FailureOr<bool> cpAsync = usesCpAsyncGroups(loop);
      if (failed(cpAsync) ||
          (loop.getWarpSpecialized() &&
           failed(checkWarpSpecializable(loop, *cpAsync))) ||
          failed(LoopPipeliner(loop, *cpAsync).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
