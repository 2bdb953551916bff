//===- SharedSwizzles.cpp - record shared tiles' swizzles on their users --===//
//
// Shared tiles lose their tile.alloc_shared (and its swizzle) when memory is
// lowered; gemms and fragment -> shared copies, lowered in the same or a
// later pass, need it for descriptors and addresses, so it is recorded on
// them first (tile.swizzle_a / tile.swizzle_b / tile.swizzle_dest). Plain
// accesses of swizzled tiles are refused here.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::annotateSharedSwizzles(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    // gemm records its operands' swizzles for the descriptors.
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      Builder b(gemm.getContext());
      for (auto [operand, attr] : {std::pair{Value(gemm.getA()), kSwizzleAAttrName},
                                   {Value(gemm.getB()), kSwizzleBAttrName}}) {
        if (getMemorySpace(operand.getType()) != MemorySpace::Shared)
          continue;
        // Unknown once memory is lowered: the gemm lowering then refuses.
        if (std::optional<int64_t> swizzle = sharedSwizzle(operand))
          gemm->setAttr(attr, b.getI64IntegerAttr(*swizzle));
      }
      return WalkResult::advance();
    }
    // Ordinary loads and stores would ignore a swizzle: refuse rather than
    // move the wrong bytes.
    bool plainAccess = isa<FillOp, ElementwiseOp>(op);
    if (auto copy = dyn_cast<CopyOp>(op)) {
      plainAccess = !copy.getBarrier() && !copy.getTma();
      // Fragment -> shared copies swizzle their addresses themselves: they
      // learn the swizzle here (0 included) and refuse to lower without it.
      if (getMemorySpace(copy.getSource().getType()) == MemorySpace::Fragment &&
          getMemorySpace(copy.getDest().getType()) == MemorySpace::Shared) {
        plainAccess = false;
        std::optional<int64_t> swizzle = sharedSwizzle(copy.getDest());
        if (!swizzle)
          return WalkResult::advance();
        // The pattern follows absolute address bits: through a view the
        // tile-relative coordinates would not give them.
        if (*swizzle && !copy.getDest().getDefiningOp<AllocSharedOp>()) {
          copy.emitOpError("writes a swizzled shared tile through a view, "
                           "which is not lowered yet");
          return WalkResult::interrupt();
        }
        copy->setAttr(kSwizzleDestAttrName,
                      Builder(op->getContext()).getI64IntegerAttr(*swizzle));
      }
    }
    if (!plainAccess)
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      if (getMemorySpace(operand.getType()) != MemorySpace::Shared)
        continue;
      std::optional<int64_t> swizzle = sharedSwizzle(operand);
      if (swizzle && *swizzle != 0) {
        op->emitOpError("accesses a ")
            << *swizzle
            << "-byte swizzled shared tile with ordinary loads and stores, "
               "which is not lowered yet (TMA, wgmma and copies from fragments "
               "handle swizzled tiles)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

