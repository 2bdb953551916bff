//===- Vector.cpp - tile.copy {mechanism = vector} ------------------------===//
//
// Each thread moves its runs (up to 16 bytes) through registers: global
// accesses as predicated inline PTX, shared and fragment ones as vector
// loads and stores ({atomic_add}: atomic reductions). Fragment slices and
// swizzled destinations go run by run. A copy into shared memory is
// complete for the CTA when it returns (a CTA barrier before and after),
// unless it is {async}.
//
//===----------------------------------------------------------------------===//

#include "RegisterCopy.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
struct VectorCopyLowering : MechanismPattern<CopyOp, CopyMechanism::vector> {
  using MechanismPattern::MechanismPattern;

  LogicalResult lower(CopyOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<RegisterCopy> copy = RegisterCopy::prepare(
        op, adaptor, rewriter, *getTypeConverter<TileToGPUTypeConverter>());
    if (failed(copy))
      return failure();
    // {atomic_add}: f32 reductions, two or four at a time from sm_90.
    if (op.getAtomicAdd())
      copy->to.globalWrite = chip.computeCapability >= 90
                                 ? GlobalWrite::atomicAddVector
                                 : GlobalWrite::atomicAdd;
    copy->emit(rewriter, loc, chip, [&] {
      if (copy->needsRunByRun())
        copy->runByRun(rewriter, loc);
      else
        copy->throughRegisters(rewriter, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateVectorCopyPatterns(TileToGPUTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const ChipInfo &chip) {
  patterns.add<VectorCopyLowering>(converter, patterns.getContext(), chip);
}
