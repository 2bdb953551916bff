//===- PipelineLoops.cpp - multi-buffer tile.pipelined_for loads ----------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

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
  // The two schedules run() chooses between, after the rings are built.
  LogicalResult emitSoftwarePipelined();
  LogicalResult emitWarpSpecialized();
  Value cst(int64_t v) {
    return arith::ConstantIndexOp::create(b, loop.getLoc(), v);
  }
  // The original induction value of iteration `it`, and how many
  // iterations the loop runs (built at the insertion point, with the loop's
  // bounds seen through `outerMapping`).
  Value kOf(Value it);
  Value iterationCount();
  Value roundParity(Value it, bool flip);
  // A ring of `stages` mbarriers expecting `arrivals` per phase.
  Value allocRing(int64_t arrivals);
  // The slot before `x`'s: (x + stages - 1) mod stages.
  Value priorSlot(Value x);
  // A copy of tile loop `outer` that also counts k-iterations (iter_arg 0)
  // and the yield that adds `iterations` to the count `base`.
  scf::ForOp countingCopy(scf::ForOp outer);
  void yieldCount(Value base, Value iterations);
  // Clones the body but its producers for induction value `k` reading slot
  // `slot`; whether a gemm was left in flight.
  bool cloneCompute(Value k, Value slot);

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
  // Values of an enclosing loop body as the producer's clone of it sees
  // them (warp specialisation inside a persistent tile loop).
  IRMapping outerMapping;
  bool cpAsync;
  // Some copy is multicast: slots are released to every CTA of the cluster.
  bool multicast = false;
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
  IRMapping mapping = outerMapping;
  mapping.map(loop.getInductionVar(), k);
  for (Ring &r : rings)
    mapping.map(r.original.getResult(), slotView(loop.getLoc(), r.ring, slot));
  for (Operation *op : producerSlice) {
    Operation *clone = b.clone(*op, mapping);
    auto async = dyn_cast<CopyOp>(clone);
    if (async && cpAsync) {
      async.setAsync(true);
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
    // Each slot is a piece TMA writes on its own.
    int64_t tileBytes =
        type.getNumElements() * type.getElementTypeBitWidth() / 8;
    int64_t slotAlignment = tmaPieceAlignment(alloc);
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

  multicast =
      llvm::any_of(producers, [](CopyOp c) { return c.getMulticast(); });
  if (multicast && !loop.getWarpSpecialized())
    return loop.emitOpError(
        "has a {multicast} copy, which needs `warp_specialized` (its slots "
        "are released to every CTA of the cluster)");
  if (failed(loop.getWarpSpecialized() ? emitWarpSpecialized()
                                       : emitSoftwarePipelined()))
    return failure();
  loop.erase();
  for (Ring &r : rings)
    r.original.erase();
  return success();
}

Value LoopPipeliner::kOf(Value it) {
  Location loc = loop.getLoc();
  return arith::AddIOp::create(
      b, loc, outerMapping.lookupOrDefault(loop.getLowerBound()),
      arith::MulIOp::create(b, loc, it,
                            outerMapping.lookupOrDefault(loop.getStep())));
}

Value LoopPipeliner::iterationCount() {
  Location loc = loop.getLoc();
  Value lb = outerMapping.lookupOrDefault(loop.getLowerBound());
  Value ub = outerMapping.lookupOrDefault(loop.getUpperBound());
  Value step = outerMapping.lookupOrDefault(loop.getStep());
  // ceil((ub - lb) / step), 0 when ub <= lb.
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value spanPos = arith::MaxSIOp::create(b, loc, span, cst(0));
  return arith::CeilDivUIOp::create(b, loc, spanPos, step);
}

// Phase parity of round `it / stages` of a ring, plus `flip` (a wait for
// the previous round's phase, which on round 0 passes at once).
Value LoopPipeliner::roundParity(Value it, bool flip) {
  Location loc = loop.getLoc();
  int64_t stages = loop.getStagesAttr().getInt();
  Value round = arith::DivUIOp::create(b, loc, it, cst(stages));
  return arith::CmpIOp::create(
      b, loc, flip ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, round, cst(2)), cst(0));
}

Value LoopPipeliner::allocRing(int64_t arrivals) {
  return AllocBarrierOp::create(
      b, loop.getLoc(),
      BarrierType::get(b.getContext(), loop.getStagesAttr().getInt()),
      b.getI32IntegerAttr(static_cast<int32_t>(arrivals)));
}

Value LoopPipeliner::priorSlot(Value x) {
  Location loc = loop.getLoc();
  int64_t stages = loop.getStagesAttr().getInt();
  return arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, x, cst(stages - 1)), cst(stages));
}

scf::ForOp LoopPipeliner::countingCopy(scf::ForOp outer) {
  return scf::ForOp::create(b, outer.getLoc(), outer.getLowerBound(),
                            outer.getUpperBound(), outer.getStep(),
                            ValueRange{cst(0)});
}

void LoopPipeliner::yieldCount(Value base, Value iterations) {
  scf::YieldOp::create(
      b, loop.getLoc(),
      ValueRange{arith::AddIOp::create(b, loop.getLoc(), base, iterations)});
}

bool LoopPipeliner::cloneCompute(Value k, Value slot) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), k);
  for (Ring &r : rings)
    mapping.map(r.original.getResult(), slotView(loop.getLoc(), r.ring, slot));
  bool inFlight = false;
  Block &body = loop.getBody().front();
  for (Operation &op : body.without_terminator()) {
    if (llvm::is_contained(producers, dyn_cast<CopyOp>(op)))
      continue;
    Operation *clone = b.clone(op, mapping);
    // A product whose accumulator only gemms touch in the loop may finish
    // one iteration late: its operands' slot is refilled only after the
    // next iteration's gemm has waited for it.
    // Decided on the original body, where every user is in place: the
    // accumulator is touched only by gemms, and A and B are ring slots.
    auto gemm = dyn_cast<GemmOp>(op);
    auto isRing = [&](Value v) {
      return llvm::any_of(rings,
                          [&](Ring &r) { return r.original.getResult() == v; });
    };
    // (mma.sync is synchronous: only wgmma products are left in flight.)
    if (gemm && gemm.getMechanism() == MmaMechanism::wgmma &&
        !gemm.getBarrier() && isRing(gemm.getA()) &&
        isRing(gemm.getB()) &&
        llvm::all_of(gemm.getC().getUsers(), [&](Operation *user) {
          return !loop->isAncestor(user) || isa<GemmOp>(user);
        })) {
      cast<GemmOp>(clone).setAsync(true);
      WaitGemmsOp::create(b, gemm.getLoc(), b.getI32IntegerAttr(1));
      inFlight = true;
    }
  }
  return inFlight;
}

LogicalResult LoopPipeliner::emitSoftwarePipelined() {
  Location loc = loop.getLoc();
  int64_t stages = loop.getStagesAttr().getInt();
  b.setInsertionPoint(loop);
  if (!cpAsync)
    full = allocRing(producers.size());
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
  if (cloneCompute(k, slot)) {
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

// The kernel body from the loop on (or from the persistent tile loop that
// holds it) becomes a tile.warp_specialize: a producer warp refills each
// slot once the consumers release it on an `empty` barrier; the consumers
// (the kernel's original threads) wait on `full`, compute and release.
// Neither side waits for the whole CTA. Both count iterations across tiles
// (`base`), so slots and phases carry on from one tile to the next.
LogicalResult LoopPipeliner::emitWarpSpecialized() {
  Location loc = loop.getLoc();
  int64_t stages = loop.getStagesAttr().getInt();
  auto kernel = loop->getParentOfType<KernelOp>();
  Operation *top = loop;
  auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (outer && outer->getParentOp() == kernel && outer.getNumResults() == 0)
    top = outer;
  else if (loop->getParentOp() != kernel)
    return loop.emitOpError(
        "with warp_specialized must sit in the kernel body, or in an scf.for "
        "without results there (a persistent loop over tiles)");
  else
    outer = {};
  // With pingpong, the kernel's threads are one team of two.
  bool pingpong = loop.getPingpong();
  int64_t teams = pingpong ? 2 : 1;
  int64_t consumerThreads = kernel.getThreads();
  if (consumerThreads % 128 != 0 ||
      teams * consumerThreads + WarpSpecializeOp::kProducerThreads > 1024)
    return loop.emitOpError("with warp_specialized needs a kernel of whole "
                            "warpgroups, at most ")
           << (1024 - WarpSpecializeOp::kProducerThreads) / teams / 128 * 128
           << " threads; got " << consumerThreads;
  if (pingpong && multicast)
    return loop.emitOpError("with pingpong and a {multicast} copy is not "
                            "supported yet (teams of clustered CTAs)");
  if (pingpong && !outer)
    return loop.emitOpError("with pingpong must sit in a persistent scf.for "
                            "over tiles (the teams take its iterations in "
                            "turn)");
  if (pingpong)
    for (Value bound :
         {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (outer->isAncestor(bound.getParentRegion()->getParentOp()))
        return loop.emitOpError(
            "with pingpong needs bounds that do not depend on the tile (each "
            "team counts the other's iterations to find its ring slots)");

  // What the consumers alone run: everything after `top`, and before it
  // whatever has side effects (shared tiles and barriers aside), reads the
  // thread id or block size (which the split renumbers) or uses such a
  // result, nested uses included. The rest stays in front, where both
  // sides see it.
  Block &kernelBody = *top->getBlock();
  llvm::SetVector<Operation *> moved;
  auto usesMoved = [&](Operation &op) {
    return op
        .walk([&](Operation *inner) {
          for (Value v : inner->getOperands())
            if (moved.contains(v.getDefiningOp()))
              return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  };
  for (Operation &op : kernelBody.without_terminator()) {
    if (&op == top)
      continue;
    bool stays = op.isBeforeInBlock(top) &&
                 (isa<AllocSharedOp, AllocBarrierOp>(op) ||
                  (isMemoryEffectFree(&op) &&
                   !isa<AllocFragmentOp, AllocTmemOp, gpu::ThreadIdOp,
                        gpu::BlockDimOp, gpu::LaneIdOp>(op) &&
                   !usesMoved(op)));
    if (!stays)
      moved.insert(&op);
  }
  // In a tile loop, the producer also needs the ops of its body that its
  // copies and the k-loop's bounds read: pure ones only.
  llvm::SetVector<Operation *> outerSlice;
  SmallVector<Value> needed{loop.getLowerBound(), loop.getUpperBound(),
                            loop.getStep()};
  if (outer)
    needed.append(
        {outer.getLowerBound(), outer.getUpperBound(), outer.getStep()});
  for (Operation *op : producerSlice)
    llvm::append_range(needed, op->getOperands());
  while (!needed.empty()) {
    Value v = needed.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (moved.contains(def))
      return def->emitOpError(
          "computes an operand of a warp-specialised copy but has side "
          "effects or reads the thread id; the producer warp cannot run it");
    if (!outer || !def || def->getBlock() != outer.getBody())
      continue;
    if (!isMemoryEffectFree(def) || def->getNumRegions())
      return def->emitOpError(
          "computes an operand of a warp-specialised copy in the tile loop "
          "but is not a pure op; the producer warp cannot run it");
    if (outerSlice.insert(def))
      llvm::append_range(needed, def->getOperands());
  }

  // Both teams would use one shared tile or barrier (one offset each);
  // only the rings, built here for them, may be shared.
  if (pingpong) {
    WalkResult shared = kernel.walk([&](Operation *op) {
      if (!isa<AllocSharedOp, AllocBarrierOp>(op) || op->use_empty() ||
          llvm::any_of(
              rings, [&](Ring &r) { return r.original == op || r.ring == op; }))
        return WalkResult::advance();
      op->emitOpError("would be shared by both pingpong teams; per-team "
                      "shared tiles and barriers are not supported yet");
      return WalkResult::interrupt();
    });
    if (shared.wasInterrupted())
      return failure();
  }

  b.setInsertionPoint(top);
  full = allocRing(producers.size());
  // Every consumer thread releases a slot it has finished reading; with
  // multicast, every consumer warp, to each CTA whose copies fill it.
  int64_t clusterSize = kernel.getClusterSize();
  Value empty = allocRing(multicast ? consumerThreads / 32 * clusterSize
                                    : consumerThreads);
  // Peers arrive on this CTA's barriers and write its slots only once they
  // are initialised.
  if (multicast)
    BarrierAllOp::create(b, loc, Level::cluster);
  constexpr int32_t kProducerRegisters = 40;
  // turn[c]: team c may run its loop (every thread of the other team
  // arrives once that team's last product is issued).
  Value turn;
  if (pingpong)
    turn = AllocBarrierOp::create(
        b, loc, BarrierType::get(b.getContext(), 2),
        b.getI32IntegerAttr(static_cast<int32_t>(consumerThreads)));
  // Registers move from the producer to the consumers where the chip has
  // setmaxnreg.
  IntegerAttr producerRegisters, consumerRegisters;
  if (const ChipInfo *chip = findTargetChip(loop);
      chip && chip->has(Feature::Setmaxnreg)) {
    producerRegisters = b.getI32IntegerAttr(kProducerRegisters);
    consumerRegisters =
        b.getI32IntegerAttr(static_cast<int32_t>(
            WarpSpecializeOp::consumerRegistersFor(
                teams * consumerThreads + WarpSpecializeOp::kProducerThreads,
                kProducerRegisters)));
  }
  auto ws = WarpSpecializeOp::create(
      b, loc, producerRegisters, consumerRegisters,
      pingpong ? b.getI32IntegerAttr(2) : IntegerAttr());
  auto globalIteration = [&](Value base, Value it) {
    return base ? arith::AddIOp::create(b, loc, base, it).getResult() : it;
  };

  // Producer: wait until the slot of iteration g is free, then refill it.
  Block *producer = b.createBlock(&ws.getProducer());
  Value base;
  scf::ForOp producerOuter;
  if (outer) {
    producerOuter = countingCopy(outer);
    b.setInsertionPointToStart(producerOuter.getBody());
    outerMapping.map(outer.getInductionVar(), producerOuter.getInductionVar());
    for (Operation &op : outer.getBody()->without_terminator())
      if (outerSlice.contains(&op))
        b.clone(op, outerMapping);
    base = producerOuter.getRegionIterArg(0);
  }
  {
    Value iterations = iterationCount();
    auto producerLoop = scf::ForOp::create(b, loc, cst(0), iterations, cst(1));
    if (outer)
      yieldCount(base, iterations);
    b.setInsertionPointToStart(producerLoop.getBody());
    Value it = producerLoop.getInductionVar();
    Value g = globalIteration(base, it);
    Value slot = arith::RemUIOp::create(b, loc, g, cst(stages));
    MBarrierWaitOp::create(b, loc, empty, slot, roundParity(g, true));
    issueProducers(kOf(it), slot);
    b.setInsertionPointToEnd(producer);
    YieldOp::create(b, loc);
  }
  outerMapping.clear();

  // Consumers: what preceded `top` and had to move, `top`, the rest.
  Block *consumers = b.createBlock(&ws.getConsumers());
  Value team, perTile, lbTeam, stepTeam;
  if (pingpong) {
    team = consumers->addArgument(b.getIndexType(), loc);
    // Team c runs tiles c, c + 2, ...; tile j's iterations start at j n.
    perTile = iterationCount();
    lbTeam = arith::AddIOp::create(
        b, loc, outer.getLowerBound(),
        arith::MulIOp::create(b, loc, team, outer.getStep()));
    stepTeam = arith::MulIOp::create(b, loc, outer.getStep(), cst(2));
  }
  for (Operation *op : moved)
    if (op->isBeforeInBlock(ws))
      op->moveBefore(consumers, consumers->end());
  base = {};
  if (outer) {
    // The same tile loop, counting iterations too.
    auto consumerOuter =
        pingpong
            ? scf::ForOp::create(
                  b, outer.getLoc(), lbTeam, outer.getUpperBound(), stepTeam,
                  ValueRange{arith::MulIOp::create(b, loc, team, perTile)})
            : countingCopy(outer);
    Block *body = consumerOuter.getBody();
    body->getOperations().splice(body->end(), outer.getBody()->getOperations());
    outer.getInductionVar().replaceAllUsesWith(consumerOuter.getInductionVar());
    body->getTerminator()->erase();
    outer.erase();
    base = consumerOuter.getRegionIterArg(0);
  } else {
    loop->moveBefore(consumers, consumers->end());
  }
  b.setInsertionPoint(loop);
  Value iterations = iterationCount();
  Value otherTeam;
  if (pingpong) {
    // The team's j-th tile: team 1 waits for phase j of turn[1], team 0 for
    // phase j - 1 of turn[0] (the first passes at once).
    auto consumerOuter = cast<scf::ForOp>(loop->getParentOp());
    Value j = arith::DivUIOp::create(
        b, loc,
        arith::SubIOp::create(b, loc, consumerOuter.getInductionVar(), lbTeam),
        stepTeam);
    Value sum = arith::AddIOp::create(
        b, loc, arith::AddIOp::create(b, loc, j, team), cst(1));
    Value parity = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(b, loc, sum, cst(2)), cst(0));
    MBarrierWaitOp::create(b, loc, turn, team, parity);
    otherTeam = arith::SubIOp::create(b, loc, cst(1), team);
  }
  auto consumerLoop = scf::ForOp::create(b, loc, cst(0), iterations, cst(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(consumerLoop.getBody());
    Value it = consumerLoop.getInductionVar();
    Value g = globalIteration(base, it);
    Value slot = arith::RemUIOp::create(b, loc, g, cst(stages));
    MBarrierWaitOp::create(b, loc, full, slot, roundParity(g, false));
    if (cloneCompute(kOf(it), slot)) {
      // The product of iteration g - 1 has finished reading its slot (the
      // last one's, after the loop, where its group is waited for).
      Value started =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, it, cst(0));
      auto ifOp = scf::IfOp::create(b, loc, started, /*withElse=*/false);
      b.setInsertionPointToStart(ifOp.thenBlock());
      MBarrierArriveOp::create(b, loc, empty, priorSlot(slot),
                               /*leader=*/false, multicast);
      b.setInsertionPointAfter(consumerLoop);
      WaitGemmsOp::create(b, loc, b.getI32IntegerAttr(0));
      Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                        iterations, cst(0));
      auto lastIf = scf::IfOp::create(b, loc, ran, /*withElse=*/false);
      b.setInsertionPointToStart(lastIf.thenBlock());
      MBarrierArriveOp::create(b, loc, empty,
                               priorSlot(globalIteration(base, iterations)),
                               /*leader=*/false, multicast);
    } else {
      MBarrierArriveOp::create(b, loc, empty, slot, /*leader=*/false,
                               multicast);
    }
    if (pingpong) {
      // The last product is issued (and may still run): the other team's
      // loop may start.
      b.setInsertionPoint(consumerLoop.getBody()->getTerminator());
      Value last = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, it,
          arith::SubIOp::create(b, loc, iterations, cst(1)));
      auto lastIf = scf::IfOp::create(b, loc, last, /*withElse=*/false);
      b.setInsertionPointToStart(lastIf.thenBlock());
      MBarrierArriveOp::create(b, loc, turn, otherTeam);
    }
  }
  if (pingpong) {
    // Without iterations the turn passes on all the same.
    b.setInsertionPoint(loop);
    Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       iterations, cst(0));
    auto noneIf = scf::IfOp::create(b, loc, none, /*withElse=*/false);
    b.setInsertionPointToStart(noneIf.thenBlock());
    MBarrierArriveOp::create(b, loc, turn, otherTeam);
  }
  if (outer) {
    b.setInsertionPointToEnd(consumerLoop->getBlock());
    yieldCount(
        base,
        pingpong ? arith::MulIOp::create(b, loc, iterations, cst(2)).getResult()
                 : iterations);
  }
  for (Operation *op : moved)
    if (op->getBlock() == &kernelBody)
      op->moveBefore(consumers, consumers->end());
  b.setInsertionPointToEnd(consumers);
  YieldOp::create(b, loc);
  // No CTA may leave while a peer can still write its slots or barriers.
  if (multicast) {
    b.setInsertionPointAfter(ws);
    BarrierAllOp::create(b, loc, Level::cluster);
  }

  kernel.setThreads(teams * consumerThreads +
                    WarpSpecializeOp::kProducerThreads);
  return success();
}

// Which pipeline a loop gets follows its producers' mechanism, chosen by
// tile-select-instructions: TMA loads on an mbarrier ring, or cp.async (and
// vector) copies in commit groups. Fails when they disagree or are missing.
static FailureOr<bool> usesCpAsyncGroups(PipelinedForOp loop) {
  std::optional<bool> cpAsync;
  for (Operation &op : loop.getBody().front()) {
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy || !isProducer(copy))
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

// A warp-specialised loop releases slots after wgmma waits and fills them
// by TMA only.
static LogicalResult checkWarpSpecializable(PipelinedForOp loop,
                                            bool cpAsync) {
  if (cpAsync)
    return loop.emitOpError("with warp_specialized needs TMA loads (its "
                            "producers take cp.async or vector copies on "
                            "this chip)");
  WalkResult result = loop.walk([&](GemmOp gemm) {
    if (gemm.getMechanism() == MmaMechanism::wgmma)
      return WalkResult::advance();
    gemm.emitOpError("in a warp_specialized loop must take wgmma (its slots "
                     "are released after wgmma waits); it takes ")
        << (gemm.getMechanism()
                ? stringifyMmaMechanism(*gemm.getMechanism())
                : StringRef("no mechanism"))
        << " (tcgen05 is not lowered yet)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct TilePipelineLoopsPass
    : public tile::impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  void runOnOperation() override {
    SmallVector<PipelinedForOp> loops;
    getOperation().walk([&](PipelinedForOp loop) {
      if (loop.getStagesAttr().getInt() > 1)
        loops.push_back(loop);
    });
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
