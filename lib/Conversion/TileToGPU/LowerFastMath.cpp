//===- LowerFastMath.cpp - afn math to the GPU's approximate instructions -===//
//
// convert-gpu-to-nvvm turns math.tanh into a call of libdevice's
// __nv_tanhf (about 15 instructions, exact to 2 ulp) whatever its fastmath
// flags. A GELU epilogue computes one per output element; with `afn` the
// author accepts an approximation, and the GPU has one instruction for it:
// llvm.tanh with `afn`, which NVPTX emits as tanh.approx.f32 (sm_75 and
// newer; relative error about 2^-11, below bf16's 2^-8 rounding).
// math.exp2 becomes libdevice's __nv_exp2f, ex2.approx.f32 without ftz, for
// which ptxas brackets each MUFU.EX2 with a test for results below 2^-126
// and two predicated multiplies (four instructions more per element of a
// softmax); with `afn`, ex2.approx.ftz.f32 alone (denormal results flush
// to zero, far below what a softmax sum of at least 1 can hold).
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOWERFASTMATH
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
/// Whether the author accepts an approximation of `op` (`afn`) and the GPU
/// has one (f32).
template <typename MathOp>
bool approximable(MathOp op) {
  return op.getType().isF32() &&
         arith::bitEnumContainsAll(op.getFastmath(),
                                   arith::FastMathFlags::afn);
}

/// f32 math.tanh with `afn` to llvm.intr.tanh with `afn`.
struct ApproximateTanh : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!approximable(op))
      return rewriter.notifyMatchFailure(op, "not an f32 tanh marked afn");
    rewriter.replaceOpWithNewOp<LLVM::TanhOp>(
        op, op.getType(), op.getOperand(),
        LLVM::FastmathFlagsAttr::get(getContext(),
                                     LLVM::FastmathFlags::afn));
    return success();
  }
};

/// f32 math.exp2 with `afn` to NVVM's ex2.approx.ftz.f32.
struct ApproximateExp2 : OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!approximable(op))
      return rewriter.notifyMatchFailure(op, "not an f32 exp2 marked afn");
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, op.getType(),
        rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
        ValueRange{op.getOperand()});
    return success();
  }
};

struct TileLowerFastMath
    : tile::impl::TileLowerFastMathBase<TileLowerFastMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    tile::populateLowerFastMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::tile::populateLowerFastMathPatterns(RewritePatternSet &patterns) {
  patterns.add<ApproximateTanh, ApproximateExp2>(patterns.getContext());
}
