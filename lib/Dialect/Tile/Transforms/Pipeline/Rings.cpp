//===- Rings.cpp - ring allocation and slot/phase arithmetic --------------===//
//
// Each producer's destination becomes a ring of `stages` tiles; iteration g
// uses slot g mod S, whose mbarrier completes its phase (g / S) mod 2.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

LogicalResult LoopPipeliner::run() {
  if (failed(collectProducers()) || failed(collectGates()) ||
      failed(sliceProducers()))
    return failure();
  multicast =
      llvm::any_of(producers, [](CopyOp c) { return c.getMulticast(); });
  bool tcgen05 = usesTcgen05(loop);
  if (!hasStages(loop)) {
    FailureOr<bool> pending = productsInFlight(loop, cpAsync);
    if (failed(pending))
      return failure();
    inFlight = *pending;
  }
  if (failed(tcgen05                    ? emitTcgen05Split()
             : loop.getWarpSpecialized() ? emitWarpSpecialized()
                                         : emitSoftwarePipelined()))
    return failure();
  loop.erase();
  for (Ring &r : rings)
    r.original.erase();
  return success();
}

LogicalResult LoopPipeliner::collectProducers() {
  producers = producersOf(loop);
  if (producers.empty())
    return loop.emitOpError("has no global-to-shared copy to pipeline");
  for (CopyOp copy : producers)
    if (failed(buildRing(copy)))
      return failure();
  return success();
}

// `copy`'s destination becomes a ring of `stages` tiles.
LogicalResult LoopPipeliner::buildRing(CopyOp copy) {
  Block &body = loop.getBody().front();
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
  if (!isSlotSized(type))
    return copy.emitOpError("pipelines a shared tile of ")
           << type.getNumElements() * type.getElementTypeBitWidth() / 8
           << " bytes; ring slots need a multiple of "
           << tmaPieceAlignment(type) << " bytes";
  rings.push_back({alloc, allocSlots(alloc, stages())});
  return success();
}

AllocSharedOp LoopPipeliner::allocSlots(AllocSharedOp tile, int64_t count) {
  auto type = cast<MemRefType>(tile.getType());
  SmallVector<int64_t> shape{count};
  llvm::append_range(shape, type.getShape());
  b.setInsertionPointAfter(tile);
  return AllocSharedOp::create(
      b, tile.getLoc(),
      MemRefType::get(shape, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace()),
      ValueRange());
}

// A tile.wait in the body gates the loads of its iteration; so does an
// scf.if without results that holds only waits and ops without memory
// effects (a wait where a chunk starts). The producer reads each word
// iterations ahead of the compute, so only a comparison that stays true
// once true (ge, gt on a word that only grows) is safe; a wait nested
// anywhere else gates loads the pipeliner cannot tell.
static LogicalResult checkGateWait(WaitOp wait) {
  if (wait.getCmp() == Cmp::ge || wait.getCmp() == Cmp::gt)
    return success();
  return wait.emitOpError("in a pipelined loop gates the iteration's loads, "
                          "which run iterations ahead of the rest of the "
                          "body: compare with `ge` or `gt` on a word that "
                          "only grows (an epoch), not `")
         << stringifyCmp(wait.getCmp()) << "`";
}

static bool holdsOnlyWaits(scf::IfOp branch) {
  if (branch.getNumResults())
    return false;
  return !branch
              ->walk([&](Operation *inner) {
                if (inner == branch.getOperation() || isa<WaitOp>(inner) ||
                    isa<scf::YieldOp>(inner) ||
                    (isMemoryEffectFree(inner) && !inner->getNumRegions()))
                  return WalkResult::advance();
                return WalkResult::interrupt();
              })
              .wasInterrupted();
}

LogicalResult LoopPipeliner::collectGates() {
  for (Operation &op : loop.getBody().front().without_terminator()) {
    SmallVector<WaitOp> waits;
    op.walk([&](WaitOp wait) { waits.push_back(wait); });
    if (waits.empty())
      continue;
    auto branch = dyn_cast<scf::IfOp>(op);
    if (!isa<WaitOp>(op) && !(branch && holdsOnlyWaits(branch)))
      return waits.front().emitOpError(
          "inside a region of a pipelined loop's body: which of the "
          "iteration's loads it gates is unclear; write it directly in the "
          "body, or in an scf.if that holds only waits");
    for (WaitOp wait : waits)
      if (failed(checkGateWait(wait)))
        return failure();
    gates.push_back(&op);
  }
  return success();
}

// Producers run iterations ahead, so what they and their gates read must be
// recomputable there: ops of the body without memory effects and values
// from outside the loop. (Ahead, not speculatively: only iterations that
// run are issued, so a division, which is not speculatable, may be one.)
LogicalResult LoopPipeliner::sliceProducers() {
  Block &body = loop.getBody().front();
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> worklist(producers.begin(), producers.end());
  worklist.append(gates.begin(), gates.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!slice.insert(op))
      continue;
    // A gate's nested waits read body values too.
    WalkResult impure = op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != &body)
          continue;
        if (!isMemoryEffectFree(def) || def->getNumRegions()) {
          def->emitOpError("computes an operand of a pipelined copy (or of a "
                           "wait that gates it) but has side effects; it "
                           "cannot run iterations ahead of the loop body");
          return WalkResult::interrupt();
        }
        worklist.push_back(def);
      }
      return WalkResult::advance();
    });
    if (impure.wasInterrupted())
      return failure();
  }
  for (Operation &op : body.without_terminator())
    if (slice.contains(&op))
      producerSlice.push_back(&op);
  return success();
}

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

IRMapping LoopPipeliner::iterationMapping(Value k, Value slot) {
  IRMapping mapping = outerMapping;
  mapping.map(loop.getInductionVar(), k);
  for (Ring &r : rings)
    mapping.map(r.original.getResult(), slotView(loop.getLoc(), r.ring, slot));
  return mapping;
}

void LoopPipeliner::issueProducers(Value k, Value slot) {
  IRMapping mapping = iterationMapping(k, slot);
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
  Value round = arith::DivUIOp::create(b, loc, it, cst(stages()));
  return arith::CmpIOp::create(
      b, loc, flip ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, round, cst(2)), cst(0));
}

Value LoopPipeliner::allocRing(int64_t arrivals) {
  return AllocBarrierOp::create(
      b, loop.getLoc(), BarrierType::get(b.getContext(), stages()),
      b.getI32IntegerAttr(static_cast<int32_t>(arrivals)));
}

Value LoopPipeliner::priorSlot(Value x) {
  Location loc = loop.getLoc();
  return arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, x, cst(stages() - 1)),
      cst(stages()));
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

Value LoopPipeliner::globalIteration(Value base, Value it) {
  return base ? arith::AddIOp::create(b, loop.getLoc(), base, it).getResult()
              : it;
}
