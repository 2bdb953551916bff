//===- PipelineLoops.cpp - multi-buffer tile.pipelined_for loads ----------===//
//
// tile-pipeline-loops, the second step of pipelining: checks each
// pipelined loop's schedule (Pipeline/Schedule.cpp, as tile-schedule-loops
// left it) and hands it to the LoopPipeliner (Pipeline/): ring building
// (Rings.cpp), then the software-pipelined (SoftwarePipeline.cpp) or
// warp-specialised (WarpSpecialize.cpp, Stages.cpp, Tcgen05Split.cpp)
// rewrite.
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

namespace {
struct TilePipelineLoopsPass
    : public tile::impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  void runOnOperation() override {
    SmallVector<PipelinedForOp> loops;
    WalkResult walk = getOperation().walk([&](PipelinedForOp loop) {
      FailureOr<bool> plain = runsPlain(loop);
      if (failed(plain))
        return WalkResult::interrupt();
      if (!*plain)
        loops.push_back(loop);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (PipelinedForOp loop : loops) {
      FailureOr<bool> cpAsync = checkSchedule(loop);
      if (failed(cpAsync) || failed(LoopPipeliner(loop, *cpAsync).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
