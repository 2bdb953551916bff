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

// Moves `from`'s ops but its terminator to the end of `to`, renumbering the
// thread ids they read by `-firstThread` and making their CTA barriers
// named barrier `barrierId` of `threads` threads.
static void moveRole(Block &from, Block &to, int64_t firstThread,
                     int32_t barrierId, int64_t threads) {
  OpBuilder b(&to, to.end());
  Location loc = from.getParentOp()->getLoc();
  Value tid;
  if (firstThread)
    tid = arith::SubIOp::create(b, loc, threadId(b, loc),
                                constIndex(b, loc, firstThread));
  Operation *terminator = from.getTerminator();
  while (&from.front() != terminator)
    from.front().moveBefore(&to, to.end());
  to.walk([&](Operation *op) {
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op);
        id && tid && id.getDimension() == gpu::Dimension::x &&
        id.getResult() != tid.getDefiningOp()->getOperand(0)) {
      id.replaceAllUsesWith(tid);
      id.erase();
    } else if (auto barrier = dyn_cast<gpu::BarrierOp>(op)) {
      OpBuilder at(barrier);
      auto i32 = [&](int64_t v) -> Value {
        return arith::ConstantIntOp::create(at, barrier.getLoc(), v, 32);
      };
      NVVM::BarrierOp::create(at, barrier.getLoc(), TypeRange{}, i32(barrierId),
                              i32(threads), {}, Value{});
      barrier.erase();
    }
  });
}

LogicalResult mlir::tile::lowerWarpSpecialize(ModuleOp module) {
  SmallVector<WarpSpecializeOp> ops;
  module.walk([&](WarpSpecializeOp op) { ops.push_back(op); });
  for (WarpSpecializeOp ws : ops) {
    Location loc = ws.getLoc();
    int64_t threads = getKernelThreads(ws);
    if (!threads)
      return ws.emitOpError("must be in a kernel with a known thread count");
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
    Value warpZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           tid, constIndex(b, loc, 32));
    auto producer = scf::IfOp::create(b, loc, warpZero, /*withElse=*/false);
    // moveRole appends after the if's terminator: put it back last.
    Operation *producerYield = producer.thenBlock()->getTerminator();
    moveRole(ws.getProducer().front(), *producer.thenBlock(), 0,
             /*barrierId=*/2, /*threads=*/32);
    producerYield->moveBefore(producer.thenBlock(),
                              producer.thenBlock()->end());

    // Consumers: thread ids from 0, barrier 1 for their threads only.
    Block *consumers = roles.elseBlock();
    Operation *yield = consumers->getTerminator();
    b.setInsertionPoint(yield);
    setRegisters(b, ws.getConsumerRegisters(),
                 NVVM::SetMaxRegisterAction::increase);
    moveRole(ws.getConsumers().front(), *consumers, producerThreads,
             /*barrierId=*/1, threads - producerThreads);
    yield->moveBefore(consumers, consumers->end());
    ws.erase();
  }
  return success();
}
