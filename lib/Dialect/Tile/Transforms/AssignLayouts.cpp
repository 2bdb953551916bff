//===- AssignLayouts.cpp - choose fragment layouts ------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

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

namespace {
struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  void runOnOperation() override {
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
      alloc.getResult().setType(FragmentType::get(
          type.getContext(), type.getShape(), type.getElementType(), *layout));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
