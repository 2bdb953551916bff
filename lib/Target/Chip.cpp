//===- Chip.cpp - the chip table -----------------------------------------===//

#include "tile/Target/Chip.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
constexpr unsigned bits(std::initializer_list<Feature> features) {
  unsigned mask = 0;
  for (Feature f : features)
    mask |= static_cast<unsigned>(f);
  return mask;
}
using F = Feature;
} // namespace

// PTX 8.8 (CUDA 12.9) is the newest ISA both LLVM 22 and CUDA 13's ptxas
// accept for all three families. Shared: the per-CTA opt-in maximum (CUDA
// C++ Programming Guide).
static const ChipInfo kChips[] = {
    {"sm_80", 80, "+ptx88", 70, bits({F::CpAsync}), 163 * 1024},
    {"sm_86", 86, "+ptx88", 71, bits({F::CpAsync}), 99 * 1024},
    {"sm_89", 89, "+ptx88", 78, bits({F::CpAsync}), 99 * 1024},
    {"sm_90", 90, "+ptx88", 78,
     bits({F::CpAsync, F::Tma, F::Clusters, F::GridDependency}), 227 * 1024},
    {"sm_90a", 90, "+ptx88", 80,
     bits({F::CpAsync, F::Tma, F::Clusters, F::Wgmma, F::Setmaxnreg,
           F::GridDependency}),
     227 * 1024},
    {"sm_100a", 100, "+ptx88", 86,
     bits({F::CpAsync, F::Tma, F::Clusters, F::Setmaxnreg, F::Tcgen05,
           F::TensorMemory, F::GridDependency}),
     227 * 1024},
};

StringRef mlir::tile::stringifyFeature(Feature feature) {
  switch (feature) {
  case Feature::CpAsync:
    return "cp.async";
  case Feature::Tma:
    return "TMA";
  case Feature::Clusters:
    return "thread-block clusters";
  case Feature::Wgmma:
    return "wgmma";
  case Feature::Setmaxnreg:
    return "setmaxnreg";
  case Feature::Tcgen05:
    return "tcgen05";
  case Feature::TensorMemory:
    return "tensor memory";
  case Feature::GridDependency:
    return "grid dependency control";
  }
  llvm_unreachable("unknown feature");
}

const ChipInfo *mlir::tile::lookupChip(StringRef name) {
  for (const ChipInfo &chip : kChips)
    if (chip.name == name)
      return &chip;
  return nullptr;
}

unsigned mlir::tile::maxSharedBytesOfAnyChip() {
  unsigned most = 0;
  for (const ChipInfo &chip : kChips)
    most = std::max(most, chip.maxSharedBytes);
  return most;
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

const ChipInfo *mlir::tile::requireChip(Location loc, StringRef name) {
  const ChipInfo *chip = lookupChip(name);
  if (!chip)
    emitError(loc) << "unknown chip '" << name
                   << "'; known chips: " << knownChipNames();
  return chip;
}

LogicalResult mlir::tile::requireFeature(Operation *op, const ChipInfo &chip,
                                         Feature feature, StringRef what) {
  if (chip.has(feature))
    return success();
  InFlightDiagnostic diag = op->emitOpError();
  if (!what.empty())
    diag << what << " ";
  return diag << "needs " << stringifyFeature(feature) << ", which "
              << chip.name << " does not have";
}
