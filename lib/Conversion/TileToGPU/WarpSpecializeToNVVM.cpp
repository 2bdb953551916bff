//===- WarpSpecializeToNVVM.cpp - split a kernel between warp roles -------===//
//
// Runs after the ops inside a tile.warp_specialize are lowered: their
// thread ids and CTA barriers are rewritten for the threads that run them.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// Moves `from`'s ops but its terminator to the end of `to` (before its
// terminator) as the role of `teams` teams of `threads` threads from thread
// `firstThread`: the thread ids they read (x; also ids read from outside
// the role) count from 0 within the team, the block size they read is
// `threads`, their CTA barriers become named barrier `barrierId` (+ the
// team's index) of `threads` threads, and `from`'s argument, with teams,
// is the team's index.
static void moveRole(Block &from, Block &to, int64_t firstThread,
                     int32_t barrierId, int64_t threads, int64_t teams = 1) {
  Operation *yield = to.getTerminator();
  OpBuilder b(yield);
  Location loc = from.getParentOp()->getLoc();
  Value rawTid = threadId(b, loc);
  Value tid = firstThread ? arith::SubIOp::create(
                                b, loc, rawTid, constIndex(b, loc, firstThread))
                                .getResult()
                          : rawTid;
  Value barrier = arith::ConstantIntOp::create(b, loc, barrierId, 32);
  if (teams > 1) {
    Value team =
        arith::DivUIOp::create(b, loc, tid, constIndex(b, loc, threads));
    tid = arith::RemUIOp::create(b, loc, tid, constIndex(b, loc, threads));
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

LogicalResult mlir::tile::lowerWarpSpecialize(ModuleOp module) {
  SmallVector<WarpSpecializeOp> ops;
  module.walk([&](WarpSpecializeOp op) { ops.push_back(op); });
  for (WarpSpecializeOp ws : ops) {
    Location loc = ws.getLoc();
    int64_t threads = getKernelThreads(ws);
    if (!threads)
      return ws.emitOpError("must be in a kernel with a known thread count");
    // Thread ids and barriers are rewritten as lowered ops produce them.
    WalkResult unlowered = ws.walk([&](Operation *op) {
      if (op != ws && !isa<YieldOp>(op) && isa<TileDialect>(op->getDialect())) {
        op->emitOpError("must be lowered before the tile.warp_specialize "
                        "around it (convert-tile-warp-specialize-to-nvvm "
                        "runs last)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unlowered.wasInterrupted())
      return failure();
    int64_t producerThreads = WarpSpecializeOp::kProducerThreads;
    OpBuilder b(ws);
    Value tid = threadId(b, loc);
    Value isProducer =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                              constIndex(b, loc, producerThreads));
    auto roles = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
    auto setRegisters = [&](OpBuilder &at, std::optional<uint32_t> count,
                            NVVM::SetMaxRegisterAction action) {
      if (count)
        NVVM::SetMaxRegisterOp::create(at, loc, *count, action);
    };

    // Producer warpgroup: all four warps give registers back, warp 0 works.
    b.setInsertionPointToStart(roles.thenBlock());
    setRegisters(b, ws.getProducerRegisters(),
                 NVVM::SetMaxRegisterAction::decrease);
    Value warpZero = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, tid,
        constIndex(b, loc, WarpSpecializeOp::kProducerWarpThreads));
    auto producer = scf::IfOp::create(b, loc, warpZero, /*withElse=*/false);
    moveRole(ws.getProducer().front(), *producer.thenBlock(), 0,
             /*barrierId=*/2, WarpSpecializeOp::kProducerWarpThreads);

    // Consumers: thread ids from 0, barrier 1 for their threads only; with
    // two teams, ids from 0 in each and barriers 3 and 4.
    Block *consumers = roles.elseBlock();
    b.setInsertionPoint(consumers->getTerminator());
    setRegisters(b, ws.getConsumerRegisters(),
                 NVVM::SetMaxRegisterAction::increase);
    int64_t teams = ws.getNumTeams();
    moveRole(ws.getConsumers().front(), *consumers, producerThreads,
             /*barrierId=*/teams > 1 ? 3 : 1,
             (threads - producerThreads) / teams, teams);
    ws.erase();
  }
  return success();
}
