//===- SoftwarePipeline.cpp - one-role pipelined schedule -----------------===//
//
// The loop's body once per iteration, with the copies S - 1 iterations
// ahead: a prologue issues the first S - 1 iterations' loads, and each
// iteration refills the slot the previous one read once every thread is
// done with it (a CTA barrier; with cp.async, commit groups).
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

void LoopPipeliner::cloneCompute(Value k, Value slot) {
  IRMapping mapping = iterationMapping(k, slot);
  for (Operation &op : loop.getBody().front().without_terminator())
    if (!producerOnly(op))
      b.clone(op, mapping);
}

LogicalResult LoopPipeliner::emitSoftwarePipelined() {
  Location loc = loop.getLoc();
  int64_t stages = loop.getStagesAttr().getInt();
  b.setInsertionPoint(loop);
  if (!cpAsync)
    full = allocRing(producers.size() * CopyOp::arrivalsPerRun({}));
  Value iterations = iterationCount();
  auto ifIteration = [&](Value it, function_ref<void()> fn) {
    Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, it,
                                         iterations);
    auto ifOp = scf::IfOp::create(b, loc, exists, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    fn();
  };

  // Prologue: the first stages - 1 iterations' loads.
  for (int64_t i = 0; i + 1 < stages; ++i) {
    ifIteration(cst(i), [&] { issueProducers(kOf(cst(i)), cst(i)); });
    if (cpAsync)
      commitGroup();
  }

  auto newLoop = scf::ForOp::create(b, loc, cst(0), iterations, cst(1));
  b.setInsertionPointToStart(newLoop.getBody());
  Value it = newLoop.getInductionVar();
  Value k = kOf(it);
  Value slot = arith::RemUIOp::create(b, loc, it, cst(stages));
  if (cpAsync) {
    // This thread's copies of iteration it have landed once at most S - 2
    // newer groups are pending; the barrier makes everyone's visible.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(stages - 2));
    gpu::BarrierOp::create(b, loc);
  } else {
    MBarrierWaitOp::create(b, loc, full, slot, roundParity(it, false));
  }
  cloneCompute(k, slot);
  if (inFlight) {
    // The last product is waited for once the loop is done.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(newLoop);
    WaitGemmsOp::create(b, loc, b.getI32IntegerAttr(0));
  }

  // Every thread is done with iteration it - 1, whose slot is refilled now.
  // (With cp.async the barrier at the top of this iteration proved it.)
  if (!cpAsync)
    gpu::BarrierOp::create(b, loc);
  Value next = arith::AddIOp::create(b, loc, it, cst(stages - 1));
  ifIteration(next, [&] {
    issueProducers(kOf(next),
                   arith::RemUIOp::create(b, loc, next, cst(stages)));
  });
  if (cpAsync)
    commitGroup();
  return success();
}
