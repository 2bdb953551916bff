//===- AttachTarget.cpp - record the target chip on the module ------------===//

#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Target/Chip.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEATTACHTARGET
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct TileAttachTargetPass
    : tile::impl::TileAttachTargetBase<TileAttachTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef name = chip;
    // No chip asked for: keep the module's, else the default.
    if (name.empty()) {
      if (module->hasAttr(kTargetAttrName))
        return;
      name = kDefaultChip;
    }
    if (failed(attachTarget(module, name)))
      signalPassFailure();
  }
};
} // namespace
