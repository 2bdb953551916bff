//===- TileTarget.cpp - #tile.target and the target queries ---------------===//

#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip) {
  if (!lookupChip(chip))
    return emitError() << "unknown chip '" << chip
                       << "'; known chips: " << knownChipNames();
  return success();
}

// The declared discardable attributes and the kind of value each takes.
template <typename AttrT, typename HelperT>
static LogicalResult verifyDeclared(Operation *op, NamedAttribute attribute,
                                    StringRef what) {
  if (attribute.getName() != HelperT::getNameStr() ||
      isa<AttrT>(attribute.getValue()))
    return success();
  return op->emitError() << "expects '" << HelperT::getNameStr() << "' to be "
                         << what << ", got " << attribute.getValue();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  using D = TileDialect;
  constexpr StringLiteral integer = "an integer";
  if (failed(verifyDeclared<IntegerAttr, D::DynamicSharedBytesAttrHelper>(
          op, attribute, integer)) ||
      failed(verifyDeclared<ArrayAttr, D::TmaAttrHelper>(op, attribute,
                                                         "an array")) ||
      failed(verifyDeclared<IntegerAttr, D::TmaParamAttrHelper>(op, attribute,
                                                                integer)) ||
      failed(verifyDeclared<IntegerAttr, D::SharedOffsetAttrHelper>(
          op, attribute, integer)) ||
      failed(verifyDeclared<DenseI64ArrayAttr, D::ScratchRequestAttrHelper>(
          op, attribute, "an array<i64: bytes, alignment>")) ||
      failed(verifyDeclared<IntegerAttr, D::ScratchOffsetAttrHelper>(
          op, attribute, integer)) ||
      failed(verifyDeclared<IntegerAttr, D::TestScratchBytesAttrHelper>(
          op, attribute, integer)))
    return failure();
  // A scratch request is [bytes > 0, alignment: a power of two <= 1024].
  if (attribute.getName() == D::ScratchRequestAttrHelper::getNameStr()) {
    ArrayRef<int64_t> request =
        cast<DenseI64ArrayAttr>(attribute.getValue()).asArrayRef();
    if (request.size() != 2 || request[0] <= 0 || request[1] <= 0 ||
        !llvm::isPowerOf2_64(request[1]) || request[1] > 1024)
      return op->emitError()
             << "expects '" << attribute.getName().getValue()
             << "' to be [bytes, alignment] with bytes > 0 and the alignment "
                "a power of two of at most 1024, got "
             << attribute.getValue();
  }
  // A stage is 0 or 1, on an op of a pipelined loop's body.
  if (attribute.getName() == D::StageAttrHelper::getNameStr()) {
    auto stage = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!stage || (stage.getInt() != 0 && stage.getInt() != 1))
      return op->emitError()
             << "expects '" << attribute.getName().getValue()
             << "' to be 0 or 1 (the stage of a pipelined loop's op: 1 runs "
                "it one iteration late), got "
             << attribute.getValue();
    if (!isa_and_present<PipelinedForOp>(op->getParentOp()))
      return op->emitError()
             << "expects '" << attribute.getName().getValue()
             << "' only on an op directly in a tile.pipelined_for's body";
  }
  if (attribute.getName() == D::SymmetricAttrHelper::getNameStr())
    return op->emitError() << "expects '" << attribute.getName().getValue()
                           << "' on a kernel argument, not on an op";
  if (attribute.getName() != kTargetAttrName)
    return success();
  if (!isa<TargetAttr>(attribute.getValue()))
    return op->emitError() << "expects '" << kTargetAttrName
                           << "' to be a #tile.target<\"chip\">, got "
                           << attribute.getValue();
  if (!isa<ModuleOp>(op))
    return op->emitError() << "expects '" << kTargetAttrName
                           << "' on a builtin.module";
  return success();
}

const ChipInfo *mlir::tile::findTargetChip(Operation *op) {
  for (; op; op = op->getParentOp()) {
    if (auto target = op->getAttrOfType<TargetAttr>(kTargetAttrName))
      return lookupChip(target.getChip());
    if (auto module = dyn_cast<gpu::GPUModuleOp>(op))
      if (ArrayAttr targets = module.getTargetsAttr())
        for (Attribute attr : targets)
          if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr))
            return lookupChip(nvvm.getChip());
  }
  return nullptr;
}

const ChipInfo *mlir::tile::getTargetChip(Operation *op) {
  if (const ChipInfo *chip = findTargetChip(op))
    return chip;
  op->emitError() << "has no target chip: run --tile-attach-target=chip=<chip> "
                     "first (tile-to-nvvm does); known chips: "
                  << knownChipNames();
  return nullptr;
}

LogicalResult mlir::tile::attachTarget(ModuleOp module, StringRef chip) {
  if (!requireChip(module.getLoc(), chip))
    return failure();
  if (auto existing = module->getAttrOfType<TargetAttr>(kTargetAttrName)) {
    if (existing.getChip() == chip)
      return success();
    return module.emitError() << "targets " << existing.getChip()
                              << " already; compiling it for " << chip
                              << " would mix two chips (drop the module's "
                              << kTargetAttrName << " or ask for "
                              << existing.getChip() << ")";
  }
  module->setAttr(kTargetAttrName,
                  TargetAttr::get(module.getContext(), chip));
  return success();
}

std::optional<Feature> mlir::tile::requiredFeature(CopyMechanism mechanism) {
  switch (mechanism) {
  case CopyMechanism::vector:
    return std::nullopt;
  case CopyMechanism::cp_async:
    return Feature::CpAsync;
  case CopyMechanism::tma_load:
  case CopyMechanism::tma_store:
    return Feature::Tma;
  case CopyMechanism::tmem_load:
  case CopyMechanism::tmem_store:
    return Feature::TensorMemory;
  }
  llvm_unreachable("unknown copy mechanism");
}

std::optional<Feature> mlir::tile::requiredFeature(MmaMechanism mechanism) {
  switch (mechanism) {
  case MmaMechanism::mma_sync:
    return std::nullopt; // every chip in the table is sm_80+
  case MmaMechanism::wgmma:
    return Feature::Wgmma;
  case MmaMechanism::tcgen05:
    return Feature::Tcgen05;
  }
  llvm_unreachable("unknown mma mechanism");
}

template <typename MechanismT>
static LogicalResult requireMechanismImpl(Operation *op, const ChipInfo &chip,
                                          MechanismT mechanism,
                                          StringRef name) {
  std::optional<Feature> feature = requiredFeature(mechanism);
  if (!feature)
    return success();
  return requireFeature(op, chip, *feature, ("mechanism " + name).str());
}

LogicalResult mlir::tile::requireMechanism(Operation *op, const ChipInfo &chip,
                                           CopyMechanism mechanism) {
  return requireMechanismImpl(op, chip, mechanism,
                              stringifyCopyMechanism(mechanism));
}

LogicalResult mlir::tile::requireMechanism(Operation *op, const ChipInfo &chip,
                                           MmaMechanism mechanism) {
  return requireMechanismImpl(op, chip, mechanism,
                              stringifyMmaMechanism(mechanism));
}

// No tile attribute belongs on a result: tile.kernel returns nothing, and a
// symmetric buffer is an argument the host allocated.
LogicalResult TileDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned region,
                                                       unsigned resultIndex,
                                                       NamedAttribute attribute) {
  if (attribute.getName() == SymmetricAttrHelper::getNameStr())
    return op->emitError() << "expects '" << attribute.getName().getValue()
                           << "' on a tile.kernel argument, not on result "
                           << resultIndex
                           << ": mark the global memref argument the host "
                              "allocated with the symmetric allocator";
  return op->emitError() << "unknown tile result attribute '"
                         << attribute.getName().getValue() << "'";
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned region,
                                                    unsigned argIndex,
                                                    NamedAttribute attribute) {
  if (attribute.getName() != SymmetricAttrHelper::getNameStr())
    return op->emitError() << "unknown tile argument attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<UnitAttr>(attribute.getValue()))
    return op->emitError() << "expects '" << attribute.getName().getValue()
                           << "' to be a unit attribute";
  if (!isa<KernelOp, gpu::GPUFuncOp>(op))
    return op->emitError() << "expects '" << attribute.getName().getValue()
                           << "' on a tile.kernel argument";
  Type type = op->getRegion(region).getArgument(argIndex).getType();
  if (!isa<MemRefType>(type) || getMemorySpace(type) != MemorySpace::Global)
    return op->emitError() << "expects '" << attribute.getName().getValue()
                           << "' on a global memref argument (a symmetric "
                              "buffer), got argument "
                           << argIndex << " of type " << type;
  return success();
}
