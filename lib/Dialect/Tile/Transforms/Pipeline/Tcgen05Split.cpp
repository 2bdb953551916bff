//===- Tcgen05Split.cpp - the sm_100a split of a pipelined gemm loop ------===//
//
// On sm_100a one thread issues a CTA's whole product (tcgen05.mma) and the
// accumulator lives in tensor memory, so a warp-specialised loop becomes
// three roles:
//
// * "producer" (one warp): refills each ring slot once `empty` says the
//   MMAs that read it are complete (as on sm_90a);
// * "mma" (one warp, thread 0 issuing): per tile, waits until the epilogue
//   has drained the tile's accumulator buffer (`acc_empty`), then per
//   k-step waits for the slot (`full`), issues the step's gemm into the
//   buffer (clearing it on the first step) and commits it to the slot's
//   `empty`; after the last step it commits the tile to `acc_full`;
// * "epilogue" (the kernel's original threads): what the tile loop did
//   around the pipelined loop, with the loop replaced by a wait on
//   `acc_full`, a read of the buffer into the gemm's fragment (tcgen05.ld)
//   and a release on `acc_empty`.
//
// In a persistent tile loop the accumulator has two buffers (when their
// columns fit tensor memory), taken by tiles in turn, so one tile's
// epilogue overlaps the next tile's MMAs. Phases: tile j of the CTA uses
// buffer j mod 2, whose barriers complete their phase (j / 2) mod 2 for it.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

static constexpr int64_t kTensorMemoryColumns = 512;

// The body: the producers and their gates, one tcgen05 gemm of two ring
// slots into a fragment only it touches in the loop, and pure ops; the
// fragment cleared to zero right before the loop (the MMA warp clears the
// buffer instead).
LogicalResult LoopPipeliner::checkTcgen05Body(GemmOp &gemm, FillOp &clear) {
  auto isRing = [&](Value v) {
    return llvm::any_of(rings,
                        [&](Ring &r) { return r.original.getResult() == v; });
  };
  for (Operation &op : loop.getBody().front().without_terminator()) {
    if (producerOnly(op) || isPure(&op))
      continue;
    auto g = dyn_cast<GemmOp>(op);
    if (!g || gemm)
      return op.emitOpError(
          "cannot run in a warp-specialised tcgen05 loop, whose body runs in "
          "a single MMA warp: it may hold the pipelined copies and the "
          "waits that gate them, one tile.gemm and side-effect-free ops");
    gemm = g;
  }
  if (!gemm)
    return loop.emitOpError("with a tcgen05 product needs a tile.gemm in its "
                            "body");
  if (!isRing(gemm.getA()) || !isRing(gemm.getB()))
    return gemm.emitOpError("in a warp-specialised tcgen05 loop must read A "
                            "and B from tiles the loop's copies load");
  auto alloc = gemm.getC().getDefiningOp<AllocFragmentOp>();
  if (!alloc || loop->isAncestor(alloc))
    return gemm.emitOpError("in a warp-specialised tcgen05 loop accumulates "
                            "into a fragment allocated outside the loop");
  for (Operation *user : alloc->getUsers())
    if (user != gemm && loop->isAncestor(user))
      return user->emitOpError("uses the accumulator of a tcgen05 gemm inside "
                               "its warp-specialised loop; it lives in tensor "
                               "memory there and is read back after the loop");
  // The last op before the loop that touches C must clear it to zero.
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode()) {
    bool touches = llvm::is_contained(op->getOperands(), gemm.getC()) ||
                   op->walk([&](Operation *inner) {
                       return llvm::is_contained(inner->getOperands(),
                                                 gemm.getC())
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     }).wasInterrupted();
    if (!touches)
      continue;
    auto fill = dyn_cast<FillOp>(op);
    if (fill && fill.getDest() == gemm.getC() &&
        matchPattern(fill.getValue(), m_AnyZeroFloat()))
      clear = fill;
    break;
  }
  if (!clear)
    return gemm.emitOpError(
        "accumulates in tensor memory from zero in a warp-specialised loop: "
        "clear the accumulator with tile.fill %acc, 0.0 right before the "
        "loop");
  return success();
}

Value LoopPipeliner::tileOrdinal(WarpSplit &split) {
  if (!split.outer)
    return cst(0);
  // The role's copy of the tile loop, whose body the builder is in.
  auto outer = cast<scf::ForOp>(b.getInsertionBlock()->getParentOp());
  Location loc = loop.getLoc();
  return arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, outer.getInductionVar(),
                            outer.getLowerBound()),
      outer.getStep());
}

// `body(buffer)` for the accumulator buffer of tile `ordinal`: one branch
// per buffer, since tensor-memory tiles are values the program cannot pick
// between at run time.
static void forBuffer(OpBuilder &b, Location loc, Value ordinal,
                      ArrayRef<Value> accumulators,
                      function_ref<void(Value)> body) {
  if (accumulators.size() == 1)
    return body(accumulators.front());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value first = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, ordinal,
                             arith::ConstantIndexOp::create(b, loc, 2)),
      zero);
  auto branch = scf::IfOp::create(b, loc, first, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  body(accumulators[0]);
  b.setInsertionPointToStart(branch.elseBlock());
  body(accumulators[1]);
}

// Which buffer tile `ordinal` uses, and the parity its barriers complete
// for it (flipped: the phase before, which passes at once on round 0).
static std::pair<Value, Value> bufferPhase(OpBuilder &b, Location loc,
                                           Value ordinal, int64_t buffers,
                                           bool flip) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value buffer = arith::RemUIOp::create(b, loc, ordinal, cst(buffers));
  Value round = arith::DivUIOp::create(b, loc, ordinal, cst(buffers));
  Value parity = arith::CmpIOp::create(
      b, loc, flip ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, round, cst(2)), cst(0));
  return {buffer, parity};
}

void LoopPipeliner::emitMmaRole(WarpSplit &split, GemmOp gemm,
                                ArrayRef<Value> accumulators, Value accFull,
                                Value accEmpty) {
  Location loc = loop.getLoc();
  b.setInsertionPointToStart(&split.ws.getRoles()[1].front());
  Value base;
  if (split.outer) {
    scf::ForOp mmaOuter = countingCopy(split.outer);
    b.setInsertionPointToStart(mmaOuter.getBody());
    outerMapping.map(split.outer.getInductionVar(),
                     mmaOuter.getInductionVar());
    for (Operation &op : split.outer.getBody()->without_terminator())
      if (split.outerSlice.contains(&op))
        b.clone(op, outerMapping);
    base = mmaOuter.getRegionIterArg(0);
  }
  Value iterations = iterationCount();
  Value ordinal = tileOrdinal(split);
  auto [buffer, free] =
      bufferPhase(b, loc, ordinal, accumulators.size(), /*flip=*/true);
  // The epilogue has read the buffer's previous tile.
  MBarrierWaitOp::create(b, loc, accEmpty, buffer, free);
  auto mmaLoop = scf::ForOp::create(b, loc, cst(0), iterations, cst(1));
  CommitGemmsOp::create(b, loc, accFull, buffer);
  if (split.outer)
    yieldCount(base, iterations);

  b.setInsertionPointToStart(mmaLoop.getBody());
  Value it = mmaLoop.getInductionVar();
  Value g = globalIteration(base, it);
  Value slot = arith::RemUIOp::create(b, loc, g, cst(stages()));
  MBarrierWaitOp::create(b, loc, full, slot, roundParity(g, false));
  IRMapping mapping = outerMapping;
  mapping.map(loop.getInductionVar(), kOf(it));
  for (Ring &r : rings)
    mapping.map(r.original.getResult(), slotView(loc, r.ring, slot));
  for (Operation &op : loop.getBody().front().without_terminator())
    if (isPure(&op))
      b.clone(op, mapping);
  // The step's product into the tile's buffer (cleared on the first step),
  // committed to the slot's release.
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, it, cst(0));
  forBuffer(b, loc, ordinal, accumulators, [&](Value acc) {
    auto branch = scf::IfOp::create(b, loc, first, /*withElse=*/true);
    for (bool clear : {true, false}) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(clear ? branch.thenBlock()
                                       : branch.elseBlock());
      IRMapping step = mapping;
      step.map(gemm.getC(), acc);
      auto clone = cast<GemmOp>(b.clone(*gemm, step));
      clone.getBarrierMutable().assign(split.empty);
      clone.getBarrierIndexMutable().assign(slot);
      if (clear)
        clone.setClearAccum(true);
    }
  });
}

void LoopPipeliner::emitEpilogueWait(WarpSplit &split, GemmOp gemm,
                                     ArrayRef<Value> accumulators,
                                     Value accFull, Value accEmpty) {
  Location loc = loop.getLoc();
  b.setInsertionPoint(loop);
  Value iterations = iterationCount();
  Value ordinal = tileOrdinal(split);
  auto [buffer, ready] =
      bufferPhase(b, loc, ordinal, accumulators.size(), /*flip=*/false);
  MBarrierWaitOp::create(b, loc, accFull, buffer, ready);
  // Without iterations nothing was multiplied: C keeps its zeros.
  Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                    iterations, cst(0));
  auto read = scf::IfOp::create(b, loc, ran, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(read.thenBlock());
    forBuffer(b, loc, ordinal, accumulators, [&](Value acc) {
      CopyOp::create(b, loc, acc, ValueRange{}, gemm.getC(), ValueRange{},
                     /*barrier=*/Value(), /*barrierIndex=*/Value(),
                     /*tma=*/false, /*async=*/false, /*multicast=*/false,
                     /*atomic_add=*/false,
                     CopyMechanismAttr::get(b.getContext(),
                                            CopyMechanism::tmem_load));
    });
  }
  MBarrierArriveOp::create(b, loc, accEmpty, buffer, /*leader=*/false,
                           /*cluster=*/false);
  if (split.outer) {
    b.setInsertionPointToEnd(loop->getBlock());
    Value base = cast<scf::ForOp>(loop->getParentOp()).getRegionIterArg(0);
    yieldCount(base, iterations);
  }
}

LogicalResult LoopPipeliner::emitTcgen05Split() {
  WarpSplit split;
  split.consumerRole = 2;
  if (failed(checkSplitPlacement(split)))
    return failure();
  if (split.pingpong || multicast)
    return loop.emitOpError("with a tcgen05 product takes neither pingpong "
                            "nor {multicast} copies yet");
  GemmOp gemm;
  FillOp clear;
  if (failed(checkTcgen05Body(gemm, clear)))
    return failure();
  if (failed(partitionKernelBody(split)) || failed(sliceTileLoop(split)))
    return failure();

  Location loc = loop.getLoc();
  b.setInsertionPoint(split.top);
  // Slots fill on TMA bytes and empty on one commit of the MMA thread.
  full = allocRing(producers.size() * CopyOp::arrivalsPerRun({}));
  split.empty = allocRing(CommitGemmsOp::arrivalsPerRun({}));
  auto c = cast<FragmentType>(gemm.getC().getType());
  auto tmemType = TmemType::get(b.getContext(), c.getShape(),
                                c.getElementType(), Attribute());
  int64_t buffers =
      split.outer && 2 * tmemType.getAllocatedColumns() <= kTensorMemoryColumns
          ? 2
          : 1;
  auto ring = [&](int64_t arrivals) -> Value {
    return AllocBarrierOp::create(
        b, loc, BarrierType::get(b.getContext(), buffers),
        b.getI32IntegerAttr(static_cast<int32_t>(arrivals)));
  };
  // The MMA thread commits each accumulator; every epilogue thread frees it.
  Value accFull = ring(CommitGemmsOp::arrivalsPerRun({}));
  Value accEmpty = ring(MBarrierArriveOp::arrivalsPerRun(
      /*leader=*/false, /*cluster=*/false, {split.consumerThreads}));
  SmallVector<Value> accumulators;
  for (int64_t i = 0; i < buffers; ++i)
    accumulators.push_back(AllocTmemOp::create(b, loc, tmemType));
  split.ws = WarpSpecializeOp::createWithRoles(
      b, loc,
      {{"producer", 1, std::nullopt, 1},
       {"mma", 1, std::nullopt, 1},
       {"epilogue", split.consumerThreads / 32, std::nullopt, 1}});

  emitProducer(split);
  outerMapping.clear();
  emitMmaRole(split, gemm, accumulators, accFull, accEmpty);
  outerMapping.clear();
  moveIntoConsumers(split);
  emitEpilogueWait(split, gemm, accumulators, accFull, accEmpty);
  Block *epilogue = &split.ws.getRoles()[split.consumerRole].front();
  for (Operation *op : split.moved)
    if (op->getBlock() == split.ws->getBlock())
      op->moveBefore(epilogue->getTerminator());
  split.kernel.setThreads(split.consumerThreads + kProducerThreads);
  return success();
}
