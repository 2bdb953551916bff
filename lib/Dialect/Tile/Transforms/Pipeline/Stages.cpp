//===- Stages.cpp - the kernel author's stages in the consumers' loop -----===//
//
// Ops of a warp-specialised loop's body that the kernel author gives
// `tile.stage = 1` run one iteration late: the consumers' step `it` runs, in
// body order, stage 0 of iteration it and stage 1 of iteration it - 1. A
// first step runs stage 0 of the first iteration and a last one stage 1 of
// the last; there every tile.wait_gemms waits for all products (the newer
// ones it counted on are not issued in those steps). Slot it - 1 is
// released after step it, once its stage-1 ops are done with it.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

// Clones `op` through `mapping`, after the body ops it reads (nested uses
// included) that `mapping` does not hold yet: pure ops of stage 0 that a
// stage-1 op recomputes for its own iteration.
Operation *LoopPipeliner::cloneWithOperands(Operation &op,
                                            IRMapping &mapping) {
  Block &body = loop.getBody().front();
  op.walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == &body && !mapping.contains(v))
        cloneWithOperands(*def, mapping);
  });
  Operation *clone = b.clone(op, mapping);
  clone->removeAttr(TileDialect::StageAttrHelper::getNameStr());
  return clone;
}

void LoopPipeliner::cloneStages(Value k0, Value slot0, Value k1, Value slot1) {
  IRMapping stage0, stage1;
  if (k0)
    stage0 = iterationMapping(k0, slot0);
  if (k1)
    stage1 = iterationMapping(k1, slot1);
  bool drain = !k0 || !k1;
  for (Operation &op : loop.getBody().front().without_terminator()) {
    if (producerOnly(op))
      continue;
    bool late = stageOf(&op) == 1;
    if (late ? !k1 : !k0)
      continue;
    Operation *clone = cloneWithOperands(op, late ? stage1 : stage0);
    if (drain)
      clone->walk([&](WaitGemmsOp wait) {
        wait.setPendingAttr(b.getI32IntegerAttr(0));
      });
  }
}

void LoopPipeliner::emitStagedConsumerLoop(WarpSplit &split, Value base,
                                           Value iterations) {
  Location loc = loop.getLoc();
  auto slotOf = [&](Value g) {
    return arith::RemUIOp::create(b, loc, g, cst(stages())).getResult();
  };
  auto ifAny = [&](function_ref<void()> fn) {
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                      iterations, cst(0));
    auto ifOp = scf::IfOp::create(b, loc, any, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    fn();
  };
  // The first step: stage 0 of iteration 0.
  ifAny([&] {
    Value g = globalIteration(base, cst(0));
    Value slot = slotOf(g);
    MBarrierWaitOp::create(b, loc, full, slot, roundParity(g, false));
    cloneStages(kOf(cst(0)), slot, {}, {});
  });
  // Step it: stage 0 of it, stage 1 of it - 1, then slot it - 1 is free.
  auto steps = scf::ForOp::create(b, loc, cst(1), iterations, cst(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(steps.getBody());
    Value it = steps.getInductionVar();
    Value g = globalIteration(base, it);
    Value slot = slotOf(g);
    Value prior = priorSlot(slot);
    MBarrierWaitOp::create(b, loc, full, slot, roundParity(g, false));
    cloneStages(kOf(it), slot,
                kOf(arith::SubIOp::create(b, loc, it, cst(1))), prior);
    MBarrierArriveOp::create(b, loc, split.empty, prior, /*leader=*/false,
                             multicast);
  }
  // The last step: stage 1 of the last iteration, and its slot released.
  ifAny([&] {
    Value last = arith::SubIOp::create(b, loc, iterations, cst(1));
    Value slot = slotOf(globalIteration(base, last));
    cloneStages({}, {}, kOf(last), slot);
    MBarrierArriveOp::create(b, loc, split.empty, slot, /*leader=*/false,
                             multicast);
  });
}
