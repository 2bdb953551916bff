//===- AssignLayouts.cpp - choose fragment layouts and shared swizzles ----===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Target/Chip.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

// The widest run (at most 16 bytes) that divides the innermost dimension and
// spreads evenly over the threads.
static FailureOr<BlockedLayoutAttr> chooseBlocked(FragmentType type,
                                                  int64_t threads) {
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t elements = type.getNumElements();
  for (int64_t vector = std::max<int64_t>(1, 16 / bytes); vector >= 1;
       vector /= 2)
    if (type.getShape().back() % vector == 0 &&
        elements % (threads * vector) == 0)
      return BlockedLayoutAttr::get(type.getContext(), threads, vector);
  return failure();
}

static void setLayout(Value fragment, Attribute layout) {
  auto type = cast<FragmentType>(fragment.getType());
  fragment.setType(FragmentType::get(type.getContext(), type.getShape(),
                                     type.getElementType(), layout));
}

namespace {
struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    const ChipInfo *target = lookupChip(chip);
    if (!target) {
      emitError(getOperation().getLoc(), "unknown chip '")
          << chip << "'; known chips: " << knownChipNames();
      return signalPassFailure();
    }
    if (failed(assignMatrixLayouts(*target)) || failed(assignBlocked()))
      signalPassFailure();
  }

  // gemm accumulators take the matrix instruction's layout; fragments that
  // meet them in an elementwise op take it too, so no shuffle is needed.
  LogicalResult assignMatrixLayouts(const ChipInfo &target) {
    WalkResult result = getOperation().walk([&](GemmOp gemm) {
      for (Value operand : {Value(gemm.getA()), Value(gemm.getB())})
        if (AllocSharedOp alloc = getSharedAllocation(operand))
          if (!alloc.getSwizzle()) {
            auto type = cast<MemRefType>(alloc.getType());
            int64_t rowBytes =
                type.getShape().back() * type.getElementTypeBitWidth() / 8;
            int64_t swizzle =
                llvm::is_contained({32, 64, 128}, rowBytes) ? rowBytes : 0;
            alloc.setSwizzle(swizzle);
          }
      auto c = dyn_cast<FragmentType>(gemm.getC().getType());
      if (!c || c.getLayout())
        return WalkResult::advance();
      if (!target.hasWgmma) {
        gemm.emitOpError("accumulator layouts for ")
            << target.name << " are not implemented yet (only sm_90a's wgmma)";
        return WalkResult::interrupt();
      }
      int64_t threads = getKernelThreads(gemm);
      if (threads % 128 != 0 || c.getShape()[0] != 64 * (threads / 128)) {
        gemm.emitOpError("wgmma needs M = 64 x warpgroups: ")
            << c.getShape()[0] << " rows with " << threads << " threads";
        return WalkResult::interrupt();
      }
      setLayout(gemm.getC(),
                WgmmaLayoutAttr::get(gemm.getContext(), threads / 128));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();

    // Spread matrix layouts to elementwise partners until nothing changes.
    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk([&](ElementwiseOp op) {
        Attribute layout;
        for (Value v : op->getOperands())
          if (auto f = dyn_cast<FragmentType>(v.getType()))
            if (isa_and_present<WgmmaLayoutAttr>(f.getLayout()))
              layout = f.getLayout();
        if (!layout)
          return;
        for (Value v : op->getOperands())
          if (auto f = dyn_cast<FragmentType>(v.getType()))
            if (!f.getLayout()) {
              setLayout(v, layout);
              changed = true;
            }
      });
    }
    return success();
  }

  LogicalResult assignBlocked() {
    WalkResult result = getOperation().walk([&](AllocFragmentOp alloc) {
      FragmentType type = alloc.getType();
      if (type.getLayout())
        return WalkResult::advance();
      int64_t threads = getKernelThreads(alloc);
      if (threads < 1) {
        alloc.emitOpError("has no enclosing kernel with a thread count");
        return WalkResult::interrupt();
      }
      FailureOr<BlockedLayoutAttr> layout = chooseBlocked(type, threads);
      if (failed(layout)) {
        alloc.emitOpError("has no blocked layout: ")
            << type.getNumElements() << " elements do not spread evenly over "
            << threads << " threads";
        return WalkResult::interrupt();
      }
      setLayout(alloc.getResult(), *layout);
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }
};
} // namespace
