//===- PipelineLoops.cpp - multi-buffer tile.pipelined_for loads ----------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

static bool isProducer(CopyOp copy) {
  return !copy.getBarrier() &&
         getMemorySpace(copy.getSource().getType()) == MemorySpace::Global &&
         getMemorySpace(copy.getDest().getType()) == MemorySpace::Shared;
}

namespace {
struct Ring {
  AllocSharedOp original;
  AllocSharedOp ring;
};

class LoopPipeliner {
public:
  // `cpAsync`: the copies become cp.async in commit groups (chips without
  // TMA) rather than TMA completing on an mbarrier ring.
  LoopPipeliner(PipelinedForOp loop, bool cpAsync)
      : loop(loop), b(loop), cpAsync(cpAsync) {}

  LogicalResult run();

private:
  // memref<shape> view of slot `slot` of `ring`.
  Value slotView(Location loc, AllocSharedOp ring, Value slot);
  // Clones the producers (and the pure ops they need) for iteration `k`
  // into slot `slot`, completing on barrier `slot` of `full`.
  void issueProducers(Value k, Value slot);

  PipelinedForOp loop;
  OpBuilder b;
  SmallVector<CopyOp> producers;
  // The producers and the ops computing their operands, in body order.
  SmallVector<Operation *> producerSlice;
  SmallVector<Ring> rings;
  Value full;
  bool cpAsync;
  // cp.async groups: one per iteration issued (empty ones included), so
  // that `wait_group S - 2` means "iteration i's copies have landed".
  void commitGroup() { NVVM::CpAsyncCommitGroupOp::create(b, loop.getLoc()); }
};
} // namespace

Value LoopPipeliner::slotView(Location loc, AllocSharedOp ring, Value slot) {
  auto type = cast<MemRefType>(ring.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = slot;
  SmallVector<OpFoldResult> sizes{b.getIndexAttr(1)};
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto resultType =
      cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
          type.getShape().drop_front(), type, offsets, sizes, strides));
  return memref::SubViewOp::create(b, loc, resultType, ring, offsets, sizes,
                                   strides);
}

void LoopPipeliner::issueProducers(Value k, Value slot) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), k);
  for (Ring &r : rings)
    mapping.map(r.original.getResult(), slotView(loop.getLoc(), r.ring, slot));
  for (Operation *op : producerSlice) {
    Operation *clone = b.clone(*op, mapping);
    auto async = dyn_cast<CopyOp>(clone);
    if (async && cpAsync) {
      async->setAttr(kCpAsyncGroupAttrName, b.getUnitAttr());
    } else if (async) {
      async.getBarrierMutable().assign(full);
      async.getBarrierIndexMutable().assign(slot);
    }
  }
}

LogicalResult LoopPipeliner::run() {
  Location loc = loop.getLoc();
  int64_t stages = loop.getStagesAttr().getInt();
  Block &body = loop.getBody().front();
  for (Operation &op : body.without_terminator())
    if (auto copy = dyn_cast<CopyOp>(op); copy && isProducer(copy))
      producers.push_back(copy);
  if (producers.empty())
    return loop.emitOpError("has no global-to-shared copy to pipeline");

  // Each producer destination becomes a ring of `stages` tiles.
  for (CopyOp copy : producers) {
    auto alloc = copy.getDest().getDefiningOp<AllocSharedOp>();
    if (!alloc || loop->isAncestor(alloc))
      return copy.emitOpError("in a pipelined loop must write a shared tile "
                              "allocated outside the loop");
    for (Operation *user : alloc->getUsers())
      if (!loop->isAncestor(user))
        return user->emitOpError("uses a shared tile that a pipelined loop "
                                 "multi-buffers; use it only inside the loop");
    if (llvm::any_of(rings, [&](Ring &r) { return r.original == alloc; }))
      return copy.emitOpError("writes a shared tile another copy in the loop "
                              "also writes");
    auto type = cast<MemRefType>(alloc.getType());
    // The copy now runs before the body: nothing earlier in the body may
    // touch the tile it writes.
    Operation *producerInBody = body.findAncestorOpInBlock(*copy);
    for (Operation *user : alloc->getUsers()) {
      Operation *inBody = body.findAncestorOpInBlock(*user);
      if (inBody && inBody != producerInBody &&
          inBody->isBeforeInBlock(producerInBody))
        return user->emitOpError("uses a shared tile before the pipelined copy "
                                 "that writes it in the same iteration");
    }
    // Slots start where TMA (128 bytes) and swizzle patterns (1024) need.
    int64_t tileBytes =
        type.getNumElements() * type.getElementTypeBitWidth() / 8;
    int64_t slotAlignment = alloc.getSwizzle().value_or(0) ? 1024 : 128;
    if (tileBytes % slotAlignment != 0)
      return copy.emitOpError("pipelines a shared tile of ")
             << tileBytes << " bytes; ring slots need a multiple of "
             << slotAlignment << " bytes";
    SmallVector<int64_t> shape{stages};
    llvm::append_range(shape, type.getShape());
    b.setInsertionPointAfter(alloc);
    auto ring = AllocSharedOp::create(
        b, alloc.getLoc(),
        MemRefType::get(shape, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace()),
        alloc.getSwizzleAttr());
    rings.push_back({alloc, ring});
  }

  // Producers run iterations ahead, so what they read must be recomputable
  // there: pure ops of the body and values from outside the loop.
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> worklist(producers.begin(), producers.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!slice.insert(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != &body)
        continue;
      if (!isPure(def))
        return def->emitOpError("computes an operand of a pipelined copy but "
                                "has side effects; it cannot run iterations "
                                "ahead of the loop body");
      worklist.push_back(def);
    }
  }
  for (Operation &op : body.without_terminator())
    if (slice.contains(&op))
      producerSlice.push_back(&op);

  b.setInsertionPoint(loop);
  if (!cpAsync)
    full = AllocBarrierOp::create(
        b, loc, BarrierType::get(b.getContext(), stages),
        b.getI32IntegerAttr(static_cast<int32_t>(producers.size())));

  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value lb = loop.getLowerBound(), step = loop.getStep();
  // iterations = ceil((ub - lb) / step), 0 when ub <= lb.
  Value span = arith::SubIOp::create(b, loc, loop.getUpperBound(), lb);
  Value spanPos = arith::MaxSIOp::create(b, loc, span, cst(0));
  Value iterations = arith::CeilDivUIOp::create(b, loc, spanPos, step);
  auto kOf = [&](Value it) -> Value {
    return arith::AddIOp::create(b, loc, lb,
                                 arith::MulIOp::create(b, loc, it, step));
  };
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
    Value round = arith::DivUIOp::create(b, loc, it, cst(stages));
    Value parity = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(b, loc, round, cst(2)), cst(0));
    MBarrierWaitOp::create(b, loc, full, slot, parity);
  }

  IRMapping mapping;
  mapping.map(loop.getInductionVar(), k);
  for (Ring &r : rings)
    mapping.map(r.original.getResult(), slotView(loc, r.ring, slot));
  for (Operation &op : body.without_terminator()) {
    if (llvm::is_contained(producers, dyn_cast<CopyOp>(op)))
      continue;
    Operation *clone = b.clone(op, mapping);
    // A product whose accumulator only gemms touch in the loop may finish
    // one iteration late: its operands' slot is refilled only after the
    // next iteration's gemm has waited for it (below).
    // Decided on the original body, where every user is in place: the
    // accumulator is touched only by gemms, and A and B are ring slots.
    auto gemm = dyn_cast<GemmOp>(op);
    auto isRing = [&](Value v) {
      return llvm::any_of(rings,
                          [&](Ring &r) { return r.original.getResult() == v; });
    };
    if (gemm && isRing(gemm.getA()) && isRing(gemm.getB()) &&
        llvm::all_of(gemm.getC().getUsers(), [&](Operation *user) {
          return !loop->isAncestor(user) || isa<GemmOp>(user);
        }))
      clone->setAttr(kGemmInFlightAttrName, b.getI64IntegerAttr(1));
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

  loop.erase();
  for (Ring &r : rings)
    r.original.erase();
  return success();
}

namespace {
struct TilePipelineLoopsPass
    : public tile::impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    const ChipInfo *target = requireChip(getOperation().getLoc(), chip);
    if (!target)
      return signalPassFailure();
    SmallVector<PipelinedForOp> loops;
    getOperation().walk([&](PipelinedForOp loop) {
      if (loop.getStagesAttr().getInt() > 1)
        loops.push_back(loop);
    });
    for (PipelinedForOp loop : loops) {
      if (!target->hasTma && !target->hasCpAsync) {
        loop.emitOpError("with stages > 1 needs asynchronous copies (TMA or "
                         "cp.async, sm_80 or later); ")
            << target->name << " has neither";
        return signalPassFailure();
      }
      if (failed(LoopPipeliner(loop, /*cpAsync=*/!target->hasTma).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
