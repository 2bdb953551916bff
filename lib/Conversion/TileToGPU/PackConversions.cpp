//===- PackConversions.cpp - packed conversions as one vector conversion --===//
//
// The elementwise lowerings convert fragments element by element
// (arith.truncf f32 -> bf16 per element); where the results are then packed
// into one vector (16-byte stores, the 32-bit A registers of a wgmma),
// converting the vector instead lets NVPTX emit cvt.rn.bf16x2.f32, one
// instruction per pair, where each element took a conversion and a byte
// permute.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPACKCONVERSIONS
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
/// The truncf `element` is the result of, through bitcasts that return to
/// its type (fragments hold 16-bit floats as i16); null otherwise.
arith::TruncFOp truncationOf(Value element) {
  Value value = element;
  while (auto cast = value.getDefiningOp<arith::BitcastOp>())
    value = cast.getIn();
  auto trunc = value.getDefiningOp<arith::TruncFOp>();
  if (!trunc || trunc.getType() != element.getType())
    return {};
  return trunc;
}

/// A vector.from_elements of truncf results (through bitcasts), all from
/// one type and alike in rounding and fastmath, becomes one truncf of the
/// vector of their sources, right where the vector is built: the NVPTX
/// backend keeps a conversion packed only where its vector result is used
/// in the same block. The scalar truncations stay for their other users,
/// if any (an edge path storing element by element).
struct PackTruncations : OpRewritePattern<vector::FromElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::FromElementsOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getType();
    if (type.getNumElements() < 2)
      return rewriter.notifyMatchFailure(op, "fewer than two elements");
    SmallVector<Value> sources;
    arith::TruncFOp first;
    for (Value element : op.getElements()) {
      arith::TruncFOp trunc = truncationOf(element);
      if (!trunc)
        return rewriter.notifyMatchFailure(op, "an element is not a truncf");
      if (!first)
        first = trunc;
      else if (trunc.getIn().getType() != first.getIn().getType() ||
               trunc.getRoundingmodeAttr() != first.getRoundingmodeAttr() ||
               trunc.getFastmathAttr() != first.getFastmathAttr())
        return rewriter.notifyMatchFailure(op, "truncations differ");
      sources.push_back(trunc.getIn());
    }
    Value wide = vector::FromElementsOp::create(
        rewriter, op.getLoc(), type.clone(first.getIn().getType()), sources);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(
        op, type, wide, first.getRoundingmodeAttr(), first.getFastmathAttr());
    return success();
  }
};

struct TilePackConversions
    : tile::impl::TilePackConversionsBase<TilePackConversions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    tile::populatePackConversionsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::tile::populatePackConversionsPatterns(RewritePatternSet &patterns) {
  patterns.add<PackTruncations>(patterns.getContext());
}
