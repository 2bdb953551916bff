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

// Named barrier ids: one per role, or per team of a role, whose code has a
// CTA barrier, from 1 upward in role order (a role's teams take consecutive
// ids); 0 for a role without one. Fails beyond the 15 ids besides the CTA's
// barrier 0.
static FailureOr<SmallVector<int32_t>> allocateBarriers(WarpSpecializeOp ws) {
  SmallVector<int32_t> ids;
  SmallVector<std::string> users;
  int64_t next = 1;
  for (unsigned i = 0, e = ws.getNumRoles(); i < e; ++i) {
    bool synchronises =
        ws.getRoles()[i]
            .walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (!synchronises) {
      ids.push_back(0);
      continue;
    }
    WarpSpecializeOp::Role role = ws.getRole(i);
    ids.push_back(static_cast<int32_t>(next));
    next += role.teams;
    users.push_back("'" + role.name + "'" +
                    (role.teams > 1 ? " x" + std::to_string(role.teams) : ""));
  }
  if (next > WarpSpecializeOp::kNamedBarriers)
    return ws.emitOpError("needs ")
           << next - 1 << " named barriers (one per role or team with CTA "
           << "barriers: " << llvm::join(users, ", ") << ") but the hardware "
           << "has " << WarpSpecializeOp::kNamedBarriers - 1
           << " besides the CTA's barrier 0; synchronise fewer roles or teams "
              "by CTA barriers (use mbarriers between them)";
  return ids;
}

// Role `i`'s branch, at `b`'s insertion point, which its threads (padding
// included) reach: its register budget, then its warps run its region.
static void lowerRole(OpBuilder &b, WarpSpecializeOp ws, unsigned i,
                      const WarpSpecializeOp::Placement &placement, Value tid,
                      int32_t barrierId, int64_t threads) {
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
  moveRole(ws.getRoles()[i].front(), *to, placement.begin, barrierId,
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
    if (op != ws && !isa<YieldOp>(op) &&
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
  FailureOr<SmallVector<int32_t>> barriers = allocateBarriers(ws);
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
  SmallVector<WarpSpecializeOp> ops;
  root->walk([&](WarpSpecializeOp op) { ops.push_back(op); });
  for (WarpSpecializeOp ws : ops)
    if (failed(lowerOne(ws)))
      return failure();
  return success();
}
