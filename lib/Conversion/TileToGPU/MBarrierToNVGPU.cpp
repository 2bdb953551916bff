//===- MBarrierToNVGPU.cpp - tile.mbarrier ops to nvgpu -------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
struct ArriveLowering : OpConversionPattern<MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tokenType = nvgpu::MBarrierTokenType::get(getContext());
    auto arrive = [&](OpBuilder &b, Location l) {
      nvgpu::MBarrierArriveOp::create(b, l, tokenType, adaptor.getBarrier(),
                                      adaptor.getIndex());
    };
    if (op.getLeader())
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

void mlir::tile::populateTileMBarrierToNVGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<ArriveLowering, ExpectTxLowering, WaitLowering>(
      converter, patterns.getContext());
}
