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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// When `value` (through bitcasts) is element k of a 1-D vector of an even
/// number of 16-bit elements (a run loaded 16 bytes at a time), the f32
/// bits of it taken from the vector's 32-bit word k / 2: shifted up for the
/// low half, masked for the high one; null otherwise.
static Value topOfPackedWord(PatternRewriter &rewriter, Location loc,
                             Value value) {
  while (auto cast = value.getDefiningOp<arith::BitcastOp>())
    value = cast.getIn();
  auto extract = value.getDefiningOp<vector::ExtractOp>();
  if (!extract || extract.getStaticPosition().size() != 1 ||
      extract.getStaticPosition()[0] == ShapedType::kDynamic)
    return {};
  auto vector = dyn_cast<VectorType>(extract.getSource().getType());
  if (!vector || vector.getRank() != 1 || vector.isScalable() ||
      vector.getNumElements() % 2 != 0 ||
      vector.getElementTypeBitWidth() != 16)
    return {};
  int64_t k = extract.getStaticPosition()[0];
  Type i32 = rewriter.getI32Type();
  Value words = vector::BitCastOp::create(
      rewriter, loc, VectorType::get({vector.getNumElements() / 2}, i32),
      extract.getSource());
  Value word = vector::ExtractOp::create(rewriter, loc, words, k / 2);
  if (k % 2 == 0)
    return arith::ShLIOp::create(
        rewriter, loc, word,
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(16)));
  return arith::AndIOp::create(
      rewriter, loc, word,
      arith::ConstantOp::create(rewriter, loc,
                                rewriter.getI32IntegerAttr(int32_t(0xffff0000u))));
}

/// arith.extf bf16 -> f32 as what it is, the 16 bits moved to the top of a
/// word: bitcast to i16, extui to i32, shli by 16, bitcast to f32 (exact
/// for every value, NaNs included). Where the bf16 came out of a packed
/// word (a 16-byte load's registers), LLVM then reads each half with one
/// shift or mask of the word, where NVPTX's cvt.f32.bf16 of an extracted
/// half took a byte permute and the conversion.
struct WidenBFloat16 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type in = getElementTypeOrSelf(op.getIn().getType());
    Type out = getElementTypeOrSelf(op.getType());
    if (!in.isBF16() || !out.isF32())
      return rewriter.notifyMatchFailure(op, "not bf16 -> f32");
    Location loc = op.getLoc();
    auto like = [&](Type element) -> Type {
      if (auto vector = dyn_cast<VectorType>(op.getType()))
        return vector.clone(element);
      return element;
    };
    Type i16 = like(rewriter.getI16Type()), i32 = like(rewriter.getI32Type());
    if (Value top = topOfPackedWord(rewriter, loc, op.getIn())) {
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), top);
      return success();
    }
    Value bits = op.getIn();
    if (auto cast = bits.getDefiningOp<arith::BitcastOp>();
        cast && cast.getIn().getType() == i16)
      bits = cast.getIn();
    else
      bits = arith::BitcastOp::create(rewriter, loc, i16, bits);
    Value word = arith::ExtUIOp::create(rewriter, loc, i32, bits);
    TypedAttr shift = rewriter.getI32IntegerAttr(16);
    if (auto vector = dyn_cast<VectorType>(i32))
      shift = DenseElementsAttr::get(vector, ArrayRef<Attribute>{shift});
    Value sixteen = arith::ConstantOp::create(rewriter, loc, shift);
    Value top = arith::ShLIOp::create(rewriter, loc, word, sixteen);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), top);
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
  patterns.add<PackTruncations, WidenBFloat16>(patterns.getContext());
}
