//===- MBarrierToGPU.cpp - tile.mbarrier ops to nvgpu -------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "tile/Target/Chip.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// One lane per warp, once the warp's threads are synchronised (their shared
// memory reads ordered before it), arrives on the barrier of every CTA of
// the cluster, through its distributed shared memory address.
static void arriveOnEveryCta(OpBuilder &b, Location loc, Value barriers,
                             Value index) {
  Type i32 = b.getI32Type();
  Value all = arith::ConstantIntOp::create(b, loc, -1, 32);
  NVVM::SyncWarpOp::create(b, loc, all);
  Value lane = NVVM::LaneIdOp::create(b, loc, i32);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                            arith::ConstantIntOp::create(b, loc, 0, 32));
  scf::IfOp::create(b, loc, first, [&](OpBuilder &b, Location l) {
    Value address = nvgpu::MBarrierGetOp::create(b, l, i32, barriers, index);
    auto shared = LLVM::LLVMPointerType::get(
        b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    auto cluster = LLVM::LLVMPointerType::get(
        b.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value local = LLVM::IntToPtrOp::create(b, l, shared, address);
    Value ctas = NVVM::ClusterDim::create(b, l, i32);
    Value zero = arith::ConstantIntOp::create(b, l, 0, 32);
    Value one = arith::ConstantIntOp::create(b, l, 1, 32);
    scf::ForOp::create(
        b, l, zero, ctas, one, ValueRange{},
        [&](OpBuilder &b, Location l, Value rank, ValueRange) {
          Value remote = NVVM::MapaOp::create(b, l, cluster, local, rank);
          NVVM::MBarrierArriveOp::create(b, l, Type(), remote, Value(),
                                         NVVM::MemScopeKind::CTA);
          scf::YieldOp::create(b, l);
        });
    scf::YieldOp::create(b, l);
  });
}

namespace {
struct ArriveLowering : ChipPattern<MBarrierArriveOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(MBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (op.getCluster() &&
        failed(requireFeature(op, chip, Feature::Clusters,
                              "arriving on the cluster's barriers")))
      return failure();
    auto tokenType = nvgpu::MBarrierTokenType::get(getContext());
    auto arrive = [&](OpBuilder &b, Location l) {
      nvgpu::MBarrierArriveOp::create(b, l, tokenType, adaptor.getBarrier(),
                                      adaptor.getIndex());
    };
    if (op.getCluster())
      arriveOnEveryCta(rewriter, loc, adaptor.getBarrier(), adaptor.getIndex());
    else if (op.getLeader())
      scf::IfOp::create(rewriter, loc, isThreadZero(rewriter, loc),
                        [&](OpBuilder &b, Location l) {
                          arrive(b, l);
                          scf::YieldOp::create(b, l);
                        });
    else
      arrive(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ExpectTxLowering : OpConversionPattern<MBarrierExpectTxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierExpectTxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<nvgpu::MBarrierArriveExpectTxOp>(
        op, adaptor.getBarrier(), constIndex(rewriter, loc, op.getBytes()),
        adaptor.getIndex(), isThreadZero(rewriter, loc));
    return success();
  }
};

struct WaitLowering : OpConversionPattern<MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A suspend-time hint for try_wait; the PTX loops until the phase flips.
    Value ticks = constIndex(rewriter, op.getLoc(), 10000000);
    rewriter.replaceOpWithNewOp<nvgpu::MBarrierTryWaitParityOp>(
        op, adaptor.getBarrier(), adaptor.getParity(), ticks,
        adaptor.getIndex());
    return success();
  }
};
} // namespace

void mlir::tile::populateTileMBarrierToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<ExpectTxLowering, WaitLowering>(converter,
                                               patterns.getContext());
  patterns.add<ArriveLowering>(converter, patterns.getContext(), chip);
}
