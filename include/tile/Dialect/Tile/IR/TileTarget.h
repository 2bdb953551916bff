//===- TileTarget.h - the chip a module is compiled for ---------*- C++ -*-===//
//
// The target is IR: `tile.target = #tile.target<"sm_90a">` on the module
// (tile-attach-target), and upstream's #nvvm.target on the gpu.module once
// kernels are outlined. Passes read it here instead of taking an option.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILETARGET_H
#define TILE_DIALECT_TILE_IR_TILETARGET_H

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Target/Chip.h"

namespace mlir::tile {

/// The module attribute holding the #tile.target.
constexpr llvm::StringLiteral kTargetAttrName = "tile.target";

/// The chip named by the nearest `tile.target` on `op` or its ancestors, or
/// by the `#nvvm.target` of an enclosing gpu.module; null when none names
/// one (no diagnostic).
const ChipInfo *findTargetChip(Operation *op);

/// findTargetChip, emitting a located error that says how to attach a
/// target when there is none.
const ChipInfo *getTargetChip(Operation *op);

/// What a mechanism needs of the chip (nothing for vector copies).
std::optional<Feature> requiredFeature(CopyMechanism mechanism);
std::optional<Feature> requiredFeature(MmaMechanism mechanism);

/// Refuses, at `op`, a mechanism the chip cannot do: "'tile.copy' op
/// mechanism tma_load needs TMA, which sm_80 does not have".
LogicalResult requireMechanism(Operation *op, const ChipInfo &chip,
                               CopyMechanism mechanism);
LogicalResult requireMechanism(Operation *op, const ChipInfo &chip,
                               MmaMechanism mechanism);

/// Sets `tile.target` on `module` to `chip`. Fails with a located error when
/// the module already targets another chip or `chip` is unknown.
LogicalResult attachTarget(ModuleOp module, StringRef chip);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILETARGET_H
