//===- ScheduleLoops.cpp - a pipelined loop's schedule, in its body -------===//
//
// tile-schedule-loops, the first step of pipelining: decides what each
// tile.pipelined_for's pipeline will be and writes it into the IR (plain
// loops as stages(1), products left in flight as {async} gemms and their
// waits), so that tile-pipeline-loops only builds what it reads. The rules
// are Pipeline/Schedule.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Pipeline/Pipeliner.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESCHEDULELOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

namespace {
struct TileScheduleLoopsPass
    : public tile::impl::TileScheduleLoopsBase<TileScheduleLoopsPass> {
  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](PipelinedForOp loop) {
      FailureOr<bool> plain = runsPlain(loop);
      if (failed(plain))
        return WalkResult::interrupt();
      if (*plain)
        return WalkResult::advance();
      FailureOr<bool> cpAsync = checkSchedule(loop);
      if (failed(cpAsync))
        return WalkResult::interrupt();
      scheduleProducts(loop, *cpAsync);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
