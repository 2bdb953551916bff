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
// terminator) as the role of `threads` threads from thread `firstThread`:
// the thread ids they read (x; also ids read from outside the role) count
// from 0, the block size they read is `threads`, and their CTA barriers
// become named barrier `barrierId` of `threads` threads.
static void moveRole(Block &from, Block &to, int64_t firstThread,
                     int32_t barrierId, int64_t threads) {
  Operation *yield = to.getTerminator();
  OpBuilder b(yield);
  Location loc = from.getParentOp()->getLoc();
  Value rawTid = threadId(b, loc);
  Value tid = firstThread ? arith::SubIOp::create(
                                b, loc, rawTid, constIndex(b, loc, firstThread))
                                .getResult()
                          : rawTid;
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
    if (auto barrier = dyn_cast<gpu::BarrierOp>(op)) {
      OpBuilder at(barrier);
      auto i32 = [&](int64_t v) -> Value {
        return arith::ConstantIntOp::create(at, barrier.getLoc(), v, 32);
      };
      NVVM::BarrierOp::create(at, barrier.getLoc(), TypeRange{}, i32(barrierId),
                              i32(threads), {}, Value{});
      dead.push_back(barrier);
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

    // Consumers: thread ids from 0, barrier 1 for their threads only.
    Block *consumers = roles.elseBlock();
    b.setInsertionPoint(consumers->getTerminator());
    setRegisters(b, ws.getConsumerRegisters(),
                 NVVM::SetMaxRegisterAction::increase);
    moveRole(ws.getConsumers().front(), *consumers, producerThreads,
             /*barrierId=*/1, threads - producerThreads);
    ws.erase();
  }
  return success();
}
