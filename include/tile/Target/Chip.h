//===- Chip.h - what each supported NVIDIA chip can do ----------*- C++ -*-===//
//
// Hardware facts live here, once: passes and translations ask the table
// instead of comparing chip names.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_CHIP_H
#define TILE_TARGET_CHIP_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlir::tile {

struct ChipInfo {
  llvm::StringLiteral name;  // as ptxas and LLVM spell it: "sm_90a"
  unsigned computeCapability; // 80, 90, 100
  llvm::StringLiteral ptxFeatures; // PTX ISA the NVPTX backend targets
  unsigned minPtxVersion;          // oldest PTX ISA with this target (x10)
  bool hasCpAsync;  // cp.async (sm_80+)
  bool hasTma;      // cp.async.bulk.tensor + mbarrier tx counts (sm_90+)
  bool hasClusters; // thread-block clusters, distributed shared memory
  bool hasWgmma;    // wgmma.mma_async (sm_90a only)
  bool hasTcgen05;  // tcgen05.* and tensor memory (sm_100a)
  unsigned maxSharedBytes; // shared memory a CTA may opt in to
};

/// Returns the chip named `name`, or null when tile does not know it.
const ChipInfo *lookupChip(llvm::StringRef name);

/// Comma-separated names of every known chip, for error messages.
std::string knownChipNames();

/// lookupChip, emitting "unknown chip" with the known names at `loc` when
/// the name is not one.
const ChipInfo *requireChip(mlir::Location loc, llvm::StringRef name);

} // namespace mlir::tile

#endif // TILE_TARGET_CHIP_H
