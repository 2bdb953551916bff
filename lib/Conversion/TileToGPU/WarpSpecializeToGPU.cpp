//===- WarpSpecializeToGPU.cpp - split a kernel between warp roles -------===//
//
// Runs after the ops inside a tile.warp_specialize are lowered: their
// thread ids and CTA barriers are rewritten for the threads that run them.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// Moves `from`'s ops but its terminator to the end of `to` (before its
// terminator) as the role of `teams` teams of `threads` threads from thread
// `firstThread`: the thread ids they read (x; also ids read from outside
// the role) count from 0 within the team, the block size they read is
// `threads`, their CTA barriers become named barrier `barrierId` (+ the
// team's index; 0: the role has none) of `threads` threads, and `from`'s
// argument, with teams, is the team's index.
static void moveRole(Block &from, Block &to, int64_t firstThread,
                     int32_t barrierId, int64_t threads, int64_t teams) {
  Operation *yield = to.getTerminator();
  OpBuilder b(yield);
  Location loc = from.getParentOp()->getLoc();
  Value rawTid = threadId(b, loc);
  Value tid = firstThread ? arith::SubIOp::create(
                                b, loc, rawTid, constIndex(b, loc, firstThread))
                                .getResult()
                          : rawTid;
  Value barrier;
  if (barrierId)
    barrier = arith::ConstantIntOp::create(b, loc, barrierId, 32);
  if (teams > 1) {
    Value team =
        arith::DivUIOp::create(b, loc, tid, constIndex(b, loc, threads));
    tid = arith::RemUIOp::create(b, loc, tid, constIndex(b, loc, threads));
    if (barrier)
      barrier = arith::AddIOp::create(
          b, loc, barrier,
          arith::IndexCastUIOp::create(b, loc, b.getI32Type(), team));
    from.getArgument(0).replaceAllUsesWith(team);
  }
  Value blockSize = constIndex(b, loc, threads);
  Operation *terminator = from.getTerminator();
  while (&from.front() != terminator)
    from.front().moveBefore(yield);
  SmallVector<Operation *> dead;
  to.walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      auto id = use.get().getDefiningOp<gpu::ThreadIdOp>();
      if (id && id != rawTid.getDefiningOp() &&
          id.getDimension() == gpu::Dimension::x)
        use.set(tid);
      auto dim = use.get().getDefiningOp<gpu::BlockDimOp>();
      if (dim && dim.getDimension() == gpu::Dimension::x)
        use.set(blockSize);
    }
    if (auto gpuBarrier = dyn_cast<gpu::BarrierOp>(op)) {
      OpBuilder at(gpuBarrier);
      NVVM::BarrierOp::create(
          at, gpuBarrier.getLoc(), TypeRange{}, barrier,
          arith::ConstantIntOp::create(at, gpuBarrier.getLoc(), threads, 32),
          {}, Value{});
      dead.push_back(gpuBarrier);
    }
  });
  for (Operation *op : dead)
    op->erase();
}

// A role's turns (tile.take_turn / tile.pass_turn), in program order.
static SmallVector<Operation *> turnsOf(Region &role) {
  SmallVector<Operation *> turns;
  role.walk([&](Operation *op) {
    if (isa<TakeTurnOp, PassTurnOp>(op))
      turns.push_back(op);
  });
  return turns;
}

// The named barriers of a role: `cta` for its CTA barriers (per team; 0:
// none), and from `turns` one per warpgroup when its warpgroups take turns
// (0: they do not).
struct RoleBarriers {
  int32_t cta = 0;
  int32_t turns = 0;
};

// Named barrier ids, from 1 upward in role order: one per role, or per team
// of a role, whose code has a CTA barrier (a role's teams take consecutive
// ids), then one per warpgroup of a role whose warpgroups take turns. Fails
// beyond the 15 ids besides the CTA's barrier 0.
static FailureOr<SmallVector<RoleBarriers>>
allocateBarriers(WarpSpecializeOp ws) {
  SmallVector<RoleBarriers> ids;
  SmallVector<std::string> users;
  int64_t next = 1;
  for (unsigned i = 0, e = ws.getNumRoles(); i < e; ++i) {
    WarpSpecializeOp::Role role = ws.getRole(i);
    RoleBarriers &own = ids.emplace_back();
    bool synchronises =
        ws.getRoles()[i]
            .walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (synchronises) {
      own.cta = static_cast<int32_t>(next);
      next += role.teams;
      users.push_back("'" + role.name + "'" +
                      (role.teams > 1 ? " x" + std::to_string(role.teams)
                                      : ""));
    }
    if (!turnsOf(ws.getRoles()[i]).empty()) {
      int64_t warpgroups = ws.getTeamThreads(i) / 128;
      own.turns = static_cast<int32_t>(next);
      next += warpgroups;
      users.push_back("'" + role.name + "' turns x" +
                      std::to_string(warpgroups));
    }
  }
  if (next > WarpSpecializeOp::kNamedBarriers)
    return ws.emitOpError("needs ")
           << next - 1 << " named barriers (one per role or team with CTA "
           << "barriers, one per warpgroup taking turns: "
           << llvm::join(users, ", ") << ") but the hardware "
           << "has " << WarpSpecializeOp::kNamedBarriers - 1
           << " besides the CTA's barrier 0; synchronise fewer roles or teams "
              "by CTA barriers (use mbarriers between them)";
  return ids;
}

// Whether role `i`'s turns can be lowered: one team of whole warpgroups;
// turns alternating from a take to a pass, and in pairs within every loop
// or condition around some (whichever way a warpgroup goes, it leaves the
// turn as it found it; that every warpgroup goes the same way is the author's
// rule, and the pipeliner's own conditions keep it); no CTA barrier between
// the first take and the last pass (a warpgroup waiting for its turn would
// never reach it, and the holder would wait there).
static LogicalResult checkTurns(WarpSpecializeOp ws, unsigned i) {
  Region &region = ws.getRoles()[i];
  SmallVector<Operation *> turns = turnsOf(region);
  if (turns.empty())
    return success();
  WarpSpecializeOp::Role role = ws.getRole(i);
  int64_t threads = ws.getTeamThreads(i);
  if (role.teams != 1 || threads % 128 != 0 || threads < 256)
    return turns.front()->emitOpError("needs one team of two or more whole "
                                      "warpgroups to take turns; role '")
           << role.name << "' has " << role.teams << " team(s) of "
           << threads << " threads";
  // The first and last turn inside each op around some.
  llvm::MapVector<Operation *, std::pair<Operation *, Operation *>> around;
  for (auto [n, turn] : llvm::enumerate(turns)) {
    bool take = n % 2 == 0;
    if (isa<TakeTurnOp>(turn) != take)
      return turn->emitOpError("is out of order: a role's turns alternate, "
                               "tile.take_turn then tile.pass_turn, from a "
                               "take to a pass (the ")
             << (take ? "take" : "pass") << " expected here)";
    if (take && n + 1 == turns.size())
      return turn->emitOpError("is never passed on: the other warpgroups "
                               "would wait for the turn for ever; end the "
                               "role's turns with a tile.pass_turn");
    for (Operation *parent = turn->getParentOp(); parent != ws;
         parent = parent->getParentOp()) {
      if (!isa<scf::ForOp, scf::IfOp>(parent))
        return turn->emitOpError("must not be inside '")
               << parent->getName()
               << "': turns may sit in the role's code, its scf.for loops "
                  "and its scf.if conditions";
      auto [it, inserted] = around.try_emplace(parent, turn, turn);
      it->second.second = turn;
    }
  }
  for (auto &[parent, ends] : around)
    if (isa<TakeTurnOp>(ends.first) == isa<TakeTurnOp>(ends.second))
      return ends.second->emitOpError("leaves the turns unbalanced in its '")
             << parent->getName()
             << "': turns inside a loop or a condition come in pairs (a "
                "take then a pass, or a pass then a take), so that every "
                "path leaves the turn as it found it";
  Block &body = region.front();
  Operation *first = body.findAncestorOpInBlock(*turns.front());
  Operation *last = body.findAncestorOpInBlock(*turns.back());
  for (Operation *op = first; op != last->getNextNode();
       op = op->getNextNode()) {
    WalkResult barrier = op->walk([](gpu::BarrierOp cta) {
      cta.emitOpError("synchronises the CTA (or the role) between "
                      "warpgroups' turns (tile.take_turn ... tile.pass_turn): "
                      "a warpgroup waiting for its turn would never reach it; "
                      "move the op that needs it out of the turns");
      return WalkResult::interrupt();
    });
    if (barrier.wasInterrupted())
      return failure();
  }
  return success();
}

// The turns of a role whose warpgroups take them, on named barriers
// `base` + warpgroup of 256 threads (the waiting warpgroup's 128 and the
// passing one's): take is `bar.sync` on the own barrier, pass `bar.arrive`
// on the next warpgroup's, and warpgroup 0 arrives on its own once at the
// start to hold the first turn. Runs before the role's ops move, so the
// thread id read here is renumbered with theirs.
static void lowerTurns(Region &region, int32_t base, int64_t threads) {
  SmallVector<Operation *> turns = turnsOf(region);
  if (turns.empty())
    return;
  Block &body = region.front();
  Location loc = turns.front()->getLoc();
  OpBuilder b(&body, body.begin());
  Value warpgroup = arith::IndexCastUIOp::create(
      b, loc, b.getI32Type(),
      arith::DivUIOp::create(b, loc, threadId(b, loc),
                             constIndex(b, loc, 128)));
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
  };
  Value count = i32(256), first = i32(base);
  Value own = arith::AddIOp::create(b, loc, first, warpgroup);
  Value next = arith::AddIOp::create(
      b, loc, first,
      arith::RemUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, warpgroup, i32(1)),
          i32(threads / 128)));
  Value leads = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      warpgroup, i32(0));
  auto prime = scf::IfOp::create(b, loc, leads, /*withElse=*/false);
  OpBuilder primeAt(prime.thenBlock(), prime.thenBlock()->begin());
  NVVM::BarrierArriveOp::create(primeAt, loc, first, count);
  for (Operation *turn : turns) {
    OpBuilder at(turn);
    if (isa<TakeTurnOp>(turn))
      NVVM::BarrierOp::create(at, turn->getLoc(), TypeRange{}, own, count, {},
                              Value{});
    else
      NVVM::BarrierArriveOp::create(at, turn->getLoc(), next, count);
    turn->erase();
  }
}

// Role `i`'s branch, at `b`'s insertion point, which its threads (padding
// included) reach: its register budget, then its warps run its region.
static void lowerRole(OpBuilder &b, WarpSpecializeOp ws, unsigned i,
                      const WarpSpecializeOp::Placement &placement, Value tid,
                      RoleBarriers barriers, int64_t threads) {
  Location loc = ws.getLoc();
  WarpSpecializeOp::Role role = ws.getRole(i);
  if (role.registers) {
    bool lower =
        *role.registers <= WarpSpecializeOp::entryRegisters(threads);
    NVVM::SetMaxRegisterOp::create(
        b, loc, *role.registers,
        lower ? NVVM::SetMaxRegisterAction::decrease
              : NVVM::SetMaxRegisterAction::increase);
  }
  Block *to = b.getInsertionBlock();
  if (placement.active < placement.end) {
    // Padding warps only hand over registers.
    Value working =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                              constIndex(b, loc, placement.active));
    to = scf::IfOp::create(b, loc, working, /*withElse=*/false).thenBlock();
  }
  lowerTurns(ws.getRoles()[i], barriers.turns, ws.getTeamThreads(i));
  moveRole(ws.getRoles()[i].front(), *to, placement.begin, barriers.cta,
           ws.getTeamThreads(i), role.teams);
}

// The roles become a chain of scf.if on the thread id: role i's branch
// takes the threads below the next role's first one.
static LogicalResult lowerOne(WarpSpecializeOp ws) {
  Location loc = ws.getLoc();
  int64_t threads = getThreadsRunning(ws);
  if (!threads)
    return ws.emitOpError("must be in a kernel with a known thread count");
  // Thread ids and barriers are rewritten as lowered ops produce them:
  // gpu.thread_id, gpu.block_dim and gpu.barrier. The same things spelled
  // in NVVM (or in inline PTX) would escape the rewrite and count or wait
  // for the whole CTA, so they are refused: the convention every lowering
  // follows is checked here, where it is relied on.
  WalkResult unlowered = ws.walk([&](Operation *op) {
    if (op != ws && !isa<YieldOp, TakeTurnOp, PassTurnOp>(op) &&
        isa_and_present<TileDialect>(op->getDialect())) {
      op->emitOpError("must be lowered before the tile.warp_specialize "
                      "around it (convert-tile-warp-specialize-to-gpu "
                      "runs last)");
      return WalkResult::interrupt();
    }
    auto ptx = dyn_cast<LLVM::InlineAsmOp>(op);
    StringRef text = ptx ? ptx.getAsmString() : StringRef();
    if (isa<NVVM::ThreadIdXOp, NVVM::BlockDimXOp, NVVM::Barrier0Op,
            NVVM::BarrierOp>(op) ||
        text.contains("bar.sync") || text.contains("barrier.sync") ||
        text.contains("%tid") || text.contains("%ntid")) {
      op->emitOpError("reads the thread id or synchronises the CTA other "
                      "than through gpu.thread_id, gpu.block_dim or "
                      "gpu.barrier, which the warp split cannot rewrite for "
                      "its role; lowerings inside a tile.warp_specialize "
                      "must use those");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unlowered.wasInterrupted())
    return failure();
  for (unsigned i = 0, e = ws.getNumRoles(); i < e; ++i)
    if (failed(checkTurns(ws, i)))
      return failure();
  FailureOr<SmallVector<RoleBarriers>> barriers = allocateBarriers(ws);
  if (failed(barriers))
    return failure();
  SmallVector<WarpSpecializeOp::Placement> placement = ws.getPlacement();
  OpBuilder b(ws);
  Value tid = threadId(b, loc);
  for (unsigned i = 0, e = ws.getNumRoles(); i < e; ++i) {
    if (i + 1 == e) {
      // A single role still gets a block of its own, so that its ops stay
      // where the split was and only they are renumbered.
      if (e == 1) {
        auto own = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
        b.setInsertionPointToStart(&own.getRegion().emplaceBlock());
        b.setInsertionPoint(scf::YieldOp::create(b, loc));
      }
      lowerRole(b, ws, i, placement[i], tid, (*barriers)[i], threads);
      break;
    }
    Value inRole =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                              constIndex(b, loc, placement[i].end));
    auto branch = scf::IfOp::create(b, loc, inRole, /*withElse=*/true);
    b.setInsertionPointToStart(branch.thenBlock());
    lowerRole(b, ws, i, placement[i], tid, (*barriers)[i], threads);
    b.setInsertionPointToStart(branch.elseBlock());
  }
  ws.erase();
  return success();
}

LogicalResult mlir::tile::lowerWarpSpecialize(Operation *root) {
  // Turns are named barriers of a role's warpgroups, allocated with the
  // role's: outside a split there is none to take them on.
  WalkResult stray = root->walk([](Operation *op) {
    if (!isa<TakeTurnOp, PassTurnOp>(op) ||
        op->getParentOfType<WarpSpecializeOp>())
      return WalkResult::advance();
    op->emitOpError("must be inside the consumers of a warp_specialized "
                    "tile.pipelined_for (warpgroups take turns only there; a "
                    "software-pipelined loop synchronises the whole CTA "
                    "every iteration)");
    return WalkResult::interrupt();
  });
  if (stray.wasInterrupted())
    return failure();
  SmallVector<WarpSpecializeOp> ops;
  root->walk([&](WarpSpecializeOp op) { ops.push_back(op); });
  for (WarpSpecializeOp ws : ops)
    if (failed(lowerOne(ws)))
      return failure();
  return success();
}
