//===- MechanismPatterns.cpp - every mechanism of copy, gemm, communication ===//
//
// Each mechanism lowers in a file of its own (Copy/*.cpp, Mma/*.cpp,
// Distributed/*.cpp) and matches only ops whose `mechanism` names it; an op
// that reaches the conversion without one was never selected.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
template <typename OpT> struct UnselectedLowering : OpConversionPattern<OpT> {
  UnselectedLowering(TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<OpT>(converter, context, /*benefit=*/0) {}
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getMechanism())
      return rewriter.notifyMatchFailure(op, "selected");
    return op.emitOpError(kUnselected);
  }
  static constexpr const char *kUnselected =
      "has no mechanism: run tile-select-instructions before lowering it";
};

struct UnselectedCommunication
    : OpInterfaceConversionPattern<CommunicationOpInterface> {
  UnselectedCommunication(TypeConverter &converter, MLIRContext *context)
      : OpInterfaceConversionPattern(converter, context, /*benefit=*/0) {}
  LogicalResult
  matchAndRewrite(CommunicationOpInterface op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getMechanism())
      return rewriter.notifyMatchFailure(op, "selected");
    return op->emitOpError(UnselectedLowering<CopyOp>::kUnselected);
  }
};
} // namespace

void mlir::tile::populateTileCopyToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  populateVectorCopyPatterns(converter, patterns, chip);
  populateCpAsyncCopyPatterns(converter, patterns, chip);
  populateTmaCopyPatterns(converter, patterns, chip);
  populateTmemCopyPatterns(converter, patterns, chip);
  patterns.add<UnselectedLowering<CopyOp>>(converter, patterns.getContext());
}

void mlir::tile::populateTileGemmToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  populateWgmmaPatterns(converter, patterns, chip);
  populateMmaSyncPatterns(converter, patterns, chip);
  populateTcgen05Patterns(converter, patterns, chip);
  patterns.add<UnselectedLowering<GemmOp>>(converter, patterns.getContext());
}

void mlir::tile::populateUnselectedCommunicationPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &) {
  patterns.add<UnselectedCommunication>(converter, patterns.getContext());
}
