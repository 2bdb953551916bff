//===- LoopToSCF.cpp - tile.pipelined_for to scf.for ----------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct PipelinedForLowering : OpConversionPattern<PipelinedForOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PipelinedForOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Multi-buffering changes the schedule, not the meaning, but a user who
    // asked for stages must not silently get none.
    if (op.getStages() > 1)
      return op.emitOpError("with stages > 1 is not lowered yet; use "
                            "stages(1) for a plain loop");
    auto loop = scf::ForOp::create(rewriter, op.getLoc(), adaptor.getLowerBound(),
                                   adaptor.getUpperBound(), adaptor.getStep());
    Block *body = loop.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.mergeBlocks(&op.getBody().front(), body, loop.getInductionVar());
    Operation *yield = body->getTerminator();
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateTileLoopToSCFPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<PipelinedForLowering>(converter, patterns.getContext());
}
