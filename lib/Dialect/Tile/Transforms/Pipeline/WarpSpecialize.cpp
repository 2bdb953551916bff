//===- WarpSpecialize.cpp - producer/consumer split of a pipelined loop ---===//
//
// The kernel body from the loop on (or from the persistent tile loop that
// holds it) becomes a tile.warp_specialize with two roles: a producer warp
// refills each slot once the consumers release it on an `empty` barrier;
// the consumers (the kernel's original threads, one or two teams) wait on
// `full`, compute and release. Neither side waits for the whole CTA. Both
// count iterations across tiles (`base`), so slots and phases carry on from
// one tile to the next.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

#include "tile/Dialect/Tile/IR/TileTarget.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipeline;

// A cluster-wide barrier_all; this pass runs after tile-select-instructions,
// so it records the mechanism selection would.
static void createClusterBarrier(OpBuilder &b, Location loc) {
  auto barrier = BarrierAllOp::create(b, loc, Level::cluster,
                                      /*mechanism=*/CommMechanismAttr());
  barrier.setMechanism(
      mechanismFor(cast<CommunicationOpInterface>(barrier.getOperation())));
}

LogicalResult LoopPipeliner::emitWarpSpecialized() {
  WarpSplit split;
  if (failed(checkSplitPlacement(split)))
    return failure();
  if (failed(partitionKernelBody(split)) || failed(sliceTileLoop(split)) ||
      failed(checkPingpongSharing(split)))
    return failure();
  allocateSplitBarriers(split);
  split.ws = createRoles(split);
  emitProducer(split);
  outerMapping.clear();
  emitConsumerLoop(split, moveIntoConsumers(split));
  // What followed the loop (or the tile loop) runs in the consumers too.
  Block *consumers = &split.ws.getRoles()[split.consumerRole].front();
  for (Operation *op : split.moved)
    if (op->getBlock() == split.ws->getBlock())
      op->moveBefore(consumers->getTerminator());
  giveTeamsOwnTiles(split);
  // No CTA may leave while a peer can still write its slots or barriers.
  if (multicast) {
    b.setInsertionPointAfter(split.ws);
    createClusterBarrier(b, loop.getLoc());
  }
  split.kernel.setThreads(split.teams * split.consumerThreads +
                          kProducerThreads);
  return success();
}

// Legality: where the loop sits, the kernel's threads, and what ping-pong
// needs (a tile loop, tile-independent k-loop bounds, no multicast).
LogicalResult LoopPipeliner::checkSplitPlacement(WarpSplit &split) {
  split.kernel = loop->getParentOfType<KernelOp>();
  split.top = loop;
  auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (outer && outer->getParentOp() == split.kernel &&
      outer.getNumResults() == 0) {
    split.top = outer;
    split.outer = outer;
  } else if (loop->getParentOp() != split.kernel) {
    return loop.emitOpError(
        "with warp_specialized must sit in the kernel body, or in an scf.for "
        "without results there (a persistent loop over tiles)");
  }
  // With pingpong, the kernel's threads are one team of two.
  split.pingpong = loop.getPingpong();
  split.teams = split.pingpong ? 2 : 1;
  split.consumerThreads = split.kernel.getThreads();
  if (split.consumerThreads % 128 != 0 ||
      split.teams * split.consumerThreads + kProducerThreads > 1024)
    return loop.emitOpError("with warp_specialized needs a kernel of whole "
                            "warpgroups, at most ")
           << (1024 - kProducerThreads) / split.teams / 128 * 128
           << " threads; got " << split.consumerThreads;
  if (!split.pingpong)
    return success();
  if (multicast)
    return loop.emitOpError("with pingpong and a {multicast} copy is not "
                            "supported yet (teams of clustered CTAs)");
  if (!split.outer)
    return loop.emitOpError("with pingpong must sit in a persistent scf.for "
                            "over tiles (the teams take its iterations in "
                            "turn)");
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (split.outer->isAncestor(bound.getParentRegion()->getParentOp()))
      return loop.emitOpError(
          "with pingpong needs bounds that do not depend on the tile (each "
          "team counts the other's iterations to find its ring slots)");
  return success();
}

// Whether `op` writes memory other than a per-thread fragment (what a
// cluster barrier would publish).
static bool writesMemory(Operation &op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !isMemoryEffectFree(&op);
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::any_of(list, [](const MemoryEffects::EffectInstance &effect) {
    Value value = effect.getValue();
    return isa<MemoryEffects::Write>(effect.getEffect()) &&
           !(value && isa<FragmentType>(value.getType()));
  });
}

// What the consumers alone run: everything after `top`, and before it
// whatever has side effects (shared tiles and barriers aside), reads the
// thread id or block size (which the split renumbers) or uses such a
// result, nested uses included. The rest stays in front, where both roles
// see it, and so does every op up to a cluster-wide barrier_all (below).
LogicalResult LoopPipeliner::partitionKernelBody(WarpSplit &split) {
  llvm::SetVector<Operation *> &moved = split.moved;
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
  // A cluster-wide barrier before the split needs every thread of the CTA,
  // the producer's too (in the consumers alone it would wait for the
  // producer forever): it stays before the split with what precedes it,
  // which every thread then runs before it, as written.
  Block *body = split.top->getBlock();
  Operation *clusterBarrier = nullptr;
  for (Operation &op : *body) {
    if (&op == split.top)
      break;
    if (auto barrier = dyn_cast<BarrierAllOp>(op);
        barrier && barrier.getLevel() == Level::cluster)
      clusterBarrier = &op;
  }
  auto perThread = [](Operation &op) {
    return isa<AllocFragmentOp, AllocTmemOp, gpu::ThreadIdOp, gpu::BlockDimOp,
               gpu::LaneIdOp>(op);
  };
  for (Operation &op : body->without_terminator()) {
    if (&op == split.top)
      continue;
    bool beforeClusterBarrier =
        clusterBarrier &&
        (&op == clusterBarrier || op.isBeforeInBlock(clusterBarrier));
    bool stays = op.isBeforeInBlock(split.top) &&
                 (isa<AllocSharedOp, AllocBarrierOp>(op) ||
                  (!perThread(op) && !usesMoved(op) &&
                   (beforeClusterBarrier || isMemoryEffectFree(&op))));
    // Moved to the consumers, an op before the cluster barrier would run
    // after it: what it writes to memory would not be published.
    if (!stays && beforeClusterBarrier && &op != clusterBarrier &&
        writesMemory(op))
      return op.emitOpError(
          "runs in the consumers of the warp-specialised loop (it reads "
          "per-thread state) but precedes the cluster-wide tile.barrier_all "
          "before the loop, which every thread runs: it would move after the "
          "barrier; write it after the barrier");
    if (!stays)
      moved.insert(&op);
  }
  return success();
}

// In a tile loop, the producer also needs the ops of its body that its
// copies and the k-loop's bounds read: pure ones only. A tile.wait before
// the k-loop gates the tile's data (a peer's chunk of A, say): the producer
// runs it too, before it loads the tile, and so needs its operands; the
// consumers keep theirs, for what they read themselves. So does a wait in
// the kernel body before the split (which then gates every load).
LogicalResult LoopPipeliner::sliceTileLoop(WarpSplit &split) {
  scf::ForOp outer = split.outer;
  SmallVector<Value> needed{loop.getLowerBound(), loop.getUpperBound(),
                            loop.getStep()};
  if (outer)
    needed.append(
        {outer.getLowerBound(), outer.getUpperBound(), outer.getStep()});
  if (failed(collectGates(split, *split.top->getBlock(), split.top)) ||
      (outer && failed(collectGates(split, *outer.getBody(), loop))))
    return failure();
  for (Operation *gate : split.gates)
    llvm::append_range(needed, gate->getOperands());
  // (A gate in the body may be an scf.if: its waits' operands too.)
  for (Operation *op : producerSlice)
    op->walk([&](Operation *inner) {
      llvm::append_range(needed, inner->getOperands());
    });
  while (!needed.empty()) {
    Value v = needed.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (split.moved.contains(def))
      return def->emitOpError(
          "computes an operand of a warp-specialised copy (or of a wait "
          "that gates it) but has side effects or reads the thread id; the "
          "producer warp cannot run it");
    if (!outer || !def || def->getBlock() != outer.getBody())
      continue;
    if (!isMemoryEffectFree(def) || def->getNumRegions())
      return def->emitOpError(
          "computes an operand of a warp-specialised copy (or of a wait "
          "that gates it) in the tile loop but is not a pure op; the "
          "producer warp cannot run it");
    if (split.outerSlice.insert(def))
      llvm::append_range(needed, def->getOperands());
  }
  return success();
}

// The tile.waits of `block` before `end`, which gate the producer's loads:
// the producer reads each word earlier than the consumers, so only a
// comparison that stays true once true (ge, gt on words that grow) is
// safe; a wait nested in a region there gates loads the split cannot tell.
LogicalResult LoopPipeliner::collectGates(WarpSplit &split, Block &block,
                                          Operation *end) {
  for (Operation &op : block.without_terminator()) {
    if (&op == end)
      break;
    if (auto wait = dyn_cast<WaitOp>(op)) {
      if (wait.getCmp() != Cmp::ge && wait.getCmp() != Cmp::gt)
        return wait.emitOpError(
                   "before a warp_specialized loop gates the producer's "
                   "loads, and the producer reads the word before the "
                   "consumers do: compare with `ge` or `gt` on a word that "
                   "only grows (an epoch), not `")
               << stringifyCmp(wait.getCmp()) << "`";
      split.gates.insert(&op);
      continue;
    }
    if (!op.getNumRegions())
      continue;
    WalkResult nested = op.walk([](WaitOp wait) {
      wait.emitOpError("inside a region before a warp_specialized loop: "
                       "which of the producer's loads it gates is unclear; "
                       "write it directly in the tile loop (or the kernel "
                       "body) before the loop");
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return failure();
  }
  return success();
}

// With ping-pong, the shared tiles the consumers use besides the rings
// (an epilogue's staging buffers, say) are the teams' own: each becomes a
// pair, one per team (giveTeamsOwnTiles). A barrier of the kernel's would
// still be shared, and is refused; so is a tile something outside the
// teams' code uses.
LogicalResult LoopPipeliner::checkPingpongSharing(WarpSplit &split) {
  if (!split.pingpong)
    return success();
  Block *front = split.top->getBlock();
  // Ops only the teams run: not those the producer runs too (its copies
  // and what they read, the gates), nor peers' communication, which
  // addresses the tile by its one place.
  auto teamsOnly = [&](Operation *user) {
    Operation *inFront = front->findAncestorOpInBlock(*user);
    return inFront && (inFront == split.top || split.moved.contains(inFront)) &&
           !split.gates.contains(user) && !split.outerSlice.contains(user) &&
           !llvm::is_contained(producerSlice, user) &&
           !isa<CommunicationOpInterface>(user);
  };
  WalkResult shared = split.kernel.walk([&](Operation *op) {
    if (!isa<AllocSharedOp, AllocBarrierOp>(op) || op->use_empty() ||
        llvm::any_of(rings,
                     [&](Ring &r) { return r.original == op || r.ring == op; }))
      return WalkResult::advance();
    auto tile = dyn_cast<AllocSharedOp>(op);
    if (!tile) {
      op->emitOpError("would be shared by both pingpong teams; per-team "
                      "barriers are not supported yet");
      return WalkResult::interrupt();
    }
    for (Operation *user : tile->getUsers()) {
      if (!teamsOnly(user)) {
        user->emitOpError("uses a shared tile that each pingpong team gets "
                          "its own of, outside the teams' own code; use the "
                          "tile only after the split (in or after the loop), "
                          "in neither the producer's copies nor "
                          "communication");
        return WalkResult::interrupt();
      }
      // The teams see the tile through a view of their slot (a strided
      // type), which tile ops take; other dialects' views would keep the
      // tile's type.
      if (!isa<TileDialect>(user->getDialect())) {
        user->emitOpError("uses a shared tile that each pingpong team gets "
                          "its own of, through a view of its slot; use it "
                          "with tile ops only");
        return WalkResult::interrupt();
      }
    }
    auto type = cast<MemRefType>(tile.getType());
    if (!isSlotSized(type)) {
      tile.emitOpError("is each pingpong team's own, so it needs a static "
                       "size of a multiple of ")
          << tmaPieceAlignment(type) << " bytes";
      return WalkResult::interrupt();
    }
    split.teamTiles.push_back(tile);
    return WalkResult::advance();
  });
  return failure(shared.wasInterrupted());
}

// Each team tile becomes a pair where it was allocated (in front of the
// split, or in the teams' code, where everything after the loop has moved
// by now), and every use a view of the team's own (made where the team's
// index is known).
void LoopPipeliner::giveTeamsOwnTiles(WarpSplit &split) {
  Region &consumers = split.ws.getRoles()[split.consumerRole];
  for (AllocSharedOp tile : split.teamTiles) {
    AllocSharedOp pair = allocSlots(tile, split.teams);
    if (!consumers.isAncestor(pair->getParentRegion()))
      b.setInsertionPointToStart(&consumers.front());
    tile.replaceAllUsesWith(slotView(tile.getLoc(), pair, split.team));
    tile.erase();
  }
}

// The rings' barriers in front of the split: `full` (one arrival per
// producer copy), `empty` (every consumer thread, or with multicast every
// consumer warp of every CTA, releases a slot), the cluster's sync after
// their initialisation, and with ping-pong the teams' turns.
void LoopPipeliner::allocateSplitBarriers(WarpSplit &split) {
  b.setInsertionPoint(split.top);
  full = allocRing(producers.size() * CopyOp::arrivalsPerRun({}));
  split.empty = allocRing(MBarrierArriveOp::arrivalsPerRun(
      /*leader=*/false, /*cluster=*/multicast,
      {split.consumerThreads, 1, split.kernel.getClusterSize()}));
  // Peers arrive on this CTA's barriers and write its slots only once they
  // are initialised.
  if (multicast)
    createClusterBarrier(b, loop.getLoc());
  // turn[c]: team c may run its loop (every thread of the other team
  // arrives once that team's last product is issued).
  if (split.pingpong)
    split.turn = AllocBarrierOp::create(
        b, loop.getLoc(), BarrierType::get(b.getContext(), 2),
        b.getI32IntegerAttr(static_cast<int32_t>(
            MBarrierArriveOp::arrivalsPerRun(/*leader=*/false,
                                             /*cluster=*/false,
                                             {split.consumerThreads}))));
}

// Role "producer" (one warp, its warpgroup padding it) and role
// "consumers" (the teams); registers move from the producer to the
// consumers where the chip has setmaxnreg.
WarpSpecializeOp LoopPipeliner::createRoles(WarpSplit &split) {
  int64_t consumerThreads = split.teams * split.consumerThreads;
  WarpSpecializeOp::Role producer{"producer", 1, std::nullopt, 1};
  WarpSpecializeOp::Role consumers{"consumers", consumerThreads / 32,
                                   std::nullopt, split.teams};
  if (const ChipInfo *chip = findTargetChip(loop);
      chip && chip->has(Feature::Setmaxnreg)) {
    producer.registers = kProducerRegisters;
    consumers.registers = WarpSpecializeOp::raisedRegisters(
        consumerThreads + kProducerThreads, kProducerThreads,
        kProducerRegisters);
  }
  return WarpSpecializeOp::createWithRoles(b, loop.getLoc(),
                                           {producer, consumers});
}

// Producer: wait until the slot of iteration g is free, then refill it; in
// a tile loop, in a copy of it that recomputes what the copies read.
void LoopPipeliner::emitProducer(WarpSplit &split) {
  Location loc = loop.getLoc();
  b.setInsertionPointToStart(&split.ws.getRoles()[0].front());
  // The kernel body's gates (the consumers run theirs where they moved).
  for (Operation *gate : split.gates)
    if (gate->getBlock() == split.top->getBlock())
      b.clone(*gate);
  Value base;
  if (split.outer) {
    scf::ForOp producerOuter = countingCopy(split.outer);
    b.setInsertionPointToStart(producerOuter.getBody());
    outerMapping.map(split.outer.getInductionVar(),
                     producerOuter.getInductionVar());
    for (Operation &op : split.outer.getBody()->without_terminator())
      if (split.outerSlice.contains(&op) || split.gates.contains(&op))
        b.clone(op, outerMapping);
    base = producerOuter.getRegionIterArg(0);
  }
  Value iterations = iterationCount();
  auto producerLoop = scf::ForOp::create(b, loc, cst(0), iterations, cst(1));
  if (split.outer)
    yieldCount(base, iterations);
  b.setInsertionPointToStart(producerLoop.getBody());
  Value it = producerLoop.getInductionVar();
  Value g = globalIteration(base, it);
  Value slot = arith::RemUIOp::create(b, loc, g, cst(stages()));
  MBarrierWaitOp::create(b, loc, split.empty, slot, roundParity(g, true));
  issueProducers(kOf(it), slot);
}

// Consumers: what preceded `top` and had to move, then `top` (the tile
// loop becomes a copy that counts iterations; with ping-pong, team c takes
// tiles c, c + 2, ..., its j-th starting at iteration (2 j + c) n). Returns
// the count of iterations before the current tile (none without a tile
// loop).
Value LoopPipeliner::moveIntoConsumers(WarpSplit &split) {
  Location loc = loop.getLoc();
  Block *consumers = &split.ws.getRoles()[split.consumerRole].front();
  b.setInsertionPointToStart(consumers);
  scf::ForOp outer = split.outer;
  Value perTile;
  if (split.pingpong) {
    split.team = consumers->getArgument(0);
    perTile = iterationCount();
    split.lbTeam = arith::AddIOp::create(
        b, loc, outer.getLowerBound(),
        arith::MulIOp::create(b, loc, split.team, outer.getStep()));
    split.stepTeam = arith::MulIOp::create(b, loc, outer.getStep(), cst(2));
  }
  for (Operation *op : split.moved)
    if (op->isBeforeInBlock(split.ws))
      op->moveBefore(consumers->getTerminator());
  if (!outer) {
    loop->moveBefore(consumers->getTerminator());
    return {};
  }
  auto consumerOuter =
      split.pingpong
          ? scf::ForOp::create(
                b, outer.getLoc(), split.lbTeam, outer.getUpperBound(),
                split.stepTeam,
                ValueRange{arith::MulIOp::create(b, loc, split.team, perTile)})
          : countingCopy(outer);
  Block *body = consumerOuter.getBody();
  body->getOperations().splice(body->end(), outer.getBody()->getOperations());
  outer.getInductionVar().replaceAllUsesWith(consumerOuter.getInductionVar());
  body->getTerminator()->erase();
  outer.erase();
  return consumerOuter.getRegionIterArg(0);
}

// The consumers' k-loop in place of the original one, with the turn taken
// and passed on around it (ping-pong) and the tile loop's count yielded.
void LoopPipeliner::emitConsumerLoop(WarpSplit &split, Value base) {
  Location loc = loop.getLoc();
  b.setInsertionPoint(loop);
  Value iterations = iterationCount();
  if (hasStages(loop)) {
    emitStagedConsumerLoop(split, base, iterations);
  } else {
    Value otherTeam;
    if (split.pingpong)
      otherTeam = emitTurnWait(split);
    auto consumerLoop =
        scf::ForOp::create(b, loc, cst(0), iterations, cst(1));
    emitConsumerIteration(split, consumerLoop, base, iterations);
    if (split.pingpong)
      emitTurnHandOver(split, consumerLoop, iterations, otherTeam);
  }
  if (split.outer) {
    b.setInsertionPointToEnd(loop->getBlock());
    yieldCount(base, split.pingpong
                         ? arith::MulIOp::create(b, loc, iterations, cst(2))
                               .getResult()
                         : iterations);
  }
}

// One consumer iteration: wait for the slot, compute, release a slot once
// nothing reads it (with the gemm in flight, slot g - 1 after iteration g's
// wait, and the last one after the loop's).
void LoopPipeliner::emitConsumerIteration(WarpSplit &split,
                                          scf::ForOp consumerLoop, Value base,
                                          Value iterations) {
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(consumerLoop.getBody());
  Value it = consumerLoop.getInductionVar();
  Value g = globalIteration(base, it);
  Value slot = arith::RemUIOp::create(b, loc, g, cst(stages()));
  MBarrierWaitOp::create(b, loc, full, slot, roundParity(g, false));
  cloneCompute(kOf(it), slot);
  if (!inFlight) {
    MBarrierArriveOp::create(b, loc, split.empty, slot, /*leader=*/false,
                             multicast);
    return;
  }
  Value started =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, it, cst(0));
  auto ifOp = scf::IfOp::create(b, loc, started, /*withElse=*/false);
  b.setInsertionPointToStart(ifOp.thenBlock());
  MBarrierArriveOp::create(b, loc, split.empty, priorSlot(slot),
                           /*leader=*/false, multicast);
  b.setInsertionPointAfter(consumerLoop);
  WaitGemmsOp::create(b, loc, b.getI32IntegerAttr(0));
  Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                    iterations, cst(0));
  auto lastIf = scf::IfOp::create(b, loc, ran, /*withElse=*/false);
  b.setInsertionPointToStart(lastIf.thenBlock());
  MBarrierArriveOp::create(b, loc, split.empty,
                           priorSlot(globalIteration(base, iterations)),
                           /*leader=*/false, multicast);
}

// The team's j-th tile: team 1 waits for phase j of turn[1], team 0 for
// phase j - 1 of turn[0] (the first passes at once). Returns the other
// team's index.
Value LoopPipeliner::emitTurnWait(WarpSplit &split) {
  Location loc = loop.getLoc();
  auto consumerOuter = cast<scf::ForOp>(loop->getParentOp());
  Value j = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, consumerOuter.getInductionVar(),
                            split.lbTeam),
      split.stepTeam);
  Value sum = arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, j, split.team), cst(1));
  Value parity = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, sum, cst(2)), cst(0));
  MBarrierWaitOp::create(b, loc, split.turn, split.team, parity);
  return arith::SubIOp::create(b, loc, cst(1), split.team);
}

// The other team's loop may start once this team's last product is issued
// (it may still run), or at once when the loop has no iterations.
void LoopPipeliner::emitTurnHandOver(WarpSplit &split, scf::ForOp consumerLoop,
                                     Value iterations, Value otherTeam) {
  Location loc = loop.getLoc();
  b.setInsertionPoint(consumerLoop.getBody()->getTerminator());
  Value last = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, consumerLoop.getInductionVar(),
      arith::SubIOp::create(b, loc, iterations, cst(1)));
  auto lastIf = scf::IfOp::create(b, loc, last, /*withElse=*/false);
  b.setInsertionPointToStart(lastIf.thenBlock());
  MBarrierArriveOp::create(b, loc, split.turn, otherTeam);
  b.setInsertionPoint(loop);
  Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     iterations, cst(0));
  auto noneIf = scf::IfOp::create(b, loc, none, /*withElse=*/false);
  b.setInsertionPointToStart(noneIf.thenBlock());
  MBarrierArriveOp::create(b, loc, split.turn, otherTeam);
}
