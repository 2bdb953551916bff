//===- Chip.h - what each supported NVIDIA chip can do ----------*- C++ -*-===//
//
// Hardware facts live here, once: passes and translations ask the table
// (`chip.has(Feature::Tma)`) instead of comparing chip names. Which chip a
// module is compiled for is IR (`#tile.target`, attached by
// tile-attach-target); getTargetChip (TileDialect.h) reads it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_CHIP_H
#define TILE_TARGET_CHIP_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::tile {

/// What a chip may have. One bit each in ChipInfo::features.
enum class Feature : unsigned {
  CpAsync = 1 << 0,      // cp.async (sm_80+)
  Tma = 1 << 1,          // cp.async.bulk.tensor + mbarrier tx counts (sm_90+)
  Clusters = 1 << 2,     // thread-block clusters, distributed shared memory
  Wgmma = 1 << 3,        // wgmma.mma_async (sm_90a only)
  Setmaxnreg = 1 << 4,   // setmaxnreg (sm_90a, sm_100a)
  Tcgen05 = 1 << 5,      // tcgen05.mma (sm_100a)
  TensorMemory = 1 << 6, // tcgen05.alloc/ld/st (sm_100a)
  GridDependency = 1 << 7, // griddepcontrol: dependent launches (sm_90+)
};

/// How diagnostics name a feature: "wgmma", "TMA", ...
llvm::StringRef stringifyFeature(Feature feature);

/// The chip tile compiles for when none is named (tile-attach-target,
/// tile-translate --chip, TargetOptions): the one place it is written.
inline constexpr char kDefaultChip[] = "sm_90a";

struct ChipInfo {
  llvm::StringLiteral name;  // as ptxas and LLVM spell it: "sm_90a"
  unsigned computeCapability; // 80, 90, 100
  llvm::StringLiteral ptxFeatures; // PTX ISA the NVPTX backend targets
  unsigned minPtxVersion;          // oldest PTX ISA with this target (x10)
  unsigned features;               // Feature bits
  unsigned maxSharedBytes; // shared memory a CTA may opt in to

  bool has(Feature feature) const {
    return features & static_cast<unsigned>(feature);
  }
};

/// Returns the chip named `name`, or null when tile does not know it.
const ChipInfo *lookupChip(llvm::StringRef name);

/// The most shared memory a CTA of any known chip may opt in to: no tile
/// larger than this can be allocated anywhere.
unsigned maxSharedBytesOfAnyChip();

/// Comma-separated names of every known chip, for error messages.
std::string knownChipNames();

/// lookupChip, emitting "unknown chip" with the known names at `loc` when
/// the name is not one.
const ChipInfo *requireChip(mlir::Location loc, llvm::StringRef name);

/// Emits "'<op>' op <what> needs <feature>, which <chip> does not have" at
/// `op` and returns failure when `chip` lacks `feature`.
LogicalResult requireFeature(Operation *op, const ChipInfo &chip,
                             Feature feature, llvm::StringRef what);

} // namespace mlir::tile

#endif // TILE_TARGET_CHIP_H
