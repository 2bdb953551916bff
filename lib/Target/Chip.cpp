//===- Chip.cpp - the chip table -----------------------------------------===//

#include "tile/Target/Chip.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir::tile;

// PTX 8.8 (CUDA 12.9) is the newest ISA both LLVM 22 and CUDA 13's ptxas
// accept for all three families.
static const ChipInfo kChips[] = {
    // name     cc   ptx      min  cp.async tma    cluster wgmma  tcgen05 shared
    // (shared: the per-CTA opt-in maximum, CUDA C++ Programming Guide)
    {"sm_80", 80, "+ptx88", 70, true, false, false, false, false, 163 * 1024},
    {"sm_86", 86, "+ptx88", 71, true, false, false, false, false, 99 * 1024},
    {"sm_89", 89, "+ptx88", 78, true, false, false, false, false, 99 * 1024},
    {"sm_90", 90, "+ptx88", 78, true, true, true, false, false, 227 * 1024},
    {"sm_90a", 90, "+ptx88", 80, true, true, true, true, false, 227 * 1024},
    {"sm_100a", 100, "+ptx88", 86, true, true, true, false, true, 227 * 1024},
};

const ChipInfo *mlir::tile::lookupChip(llvm::StringRef name) {
  for (const ChipInfo &chip : kChips)
    if (chip.name == name)
      return &chip;
  return nullptr;
}

std::string mlir::tile::knownChipNames() {
  std::string names;
  for (const ChipInfo &chip : kChips) {
    if (!names.empty())
      names += ", ";
    names += chip.name.str();
  }
  return names;
}

const ChipInfo *mlir::tile::requireChip(mlir::Location loc,
                                        llvm::StringRef name) {
  const ChipInfo *chip = lookupChip(name);
  if (!chip)
    mlir::emitError(loc) << "unknown chip '" << name
                         << "'; known chips: " << knownChipNames();
  return chip;
}
