//===- KernelToGPU.cpp - outline tile.kernel into gpu.func ----------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "tile/Target/Chip.h"

using namespace mlir;
using namespace mlir::tile;

static constexpr llvm::StringLiteral kGPUModuleName = "tile_kernels";

LogicalResult mlir::tile::outlineTileKernels(ModuleOp module,
                                          const ChipInfo &chip) {
  auto kernels = llvm::to_vector(module.getOps<KernelOp>());
  if (kernels.empty())
    return success();
  for (KernelOp kernel : kernels)
    if (kernel.getCluster() &&
        failed(requireFeature(kernel, chip, Feature::Clusters, "a cluster")))
      return failure();
  MLIRContext *context = module.getContext();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(context));

  OpBuilder builder(context);
  auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(kGPUModuleName);
  if (!gpuModule) {
    builder.setInsertionPointToEnd(module.getBody());
    // Upstream's passes (gpu-module-to-binary) read the chip from here.
    gpuModule = gpu::GPUModuleOp::create(
        builder, module.getLoc(), kGPUModuleName,
        builder.getArrayAttr({NVVM::NVVMTargetAttr::get(
            context, /*optLevel=*/3, "nvptx64-nvidia-cuda", chip.name,
            chip.ptxFeatures)}));
  }

  for (KernelOp kernel : kernels) {
    builder.setInsertionPointToEnd(gpuModule.getBody());
    auto func = gpu::GPUFuncOp::create(builder, kernel.getLoc(),
                                       kernel.getSymName(),
                                       kernel.getFunctionType());
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
    func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(
        {static_cast<int32_t>(kernel.getThreads()), 1, 1}));
    if (kernel.getCluster()) {
      SmallVector<int32_t, 3> cluster = kernel.getClusterShape();
      func.setKnownClusterSizeAttr(builder.getDenseI32ArrayAttr(cluster));
      func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    builder.getDenseI32ArrayAttr(cluster));
    }
    if (ArrayAttr argAttrs = kernel.getArgAttrsAttr())
      func.setAllArgAttrs(argAttrs);
    // What the kernel description and the launchers say of the kernel: its
    // arguments as written and, for a family's kernel, its configuration.
    SmallVector<Attribute> signature;
    ArrayAttr names = kernel.getArgNamesAttr();
    for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
      std::string name = names ? cast<StringAttr>(names[i]).getValue().str()
                               : "arg" + std::to_string(i);
      signature.push_back(builder.getDictionaryAttr(
          {builder.getNamedAttr("name", builder.getStringAttr(name)),
           builder.getNamedAttr("type", TypeAttr::get(type))}));
    }
    TileDialect::SignatureAttrHelper(context).setAttr(
        func, builder.getArrayAttr(signature));
    for (StringRef attr : {kFamilyAttrName, kConfigAttrName, kGridRuleAttrName,
                           kZeroedArgsAttrName})
      if (Attribute value = kernel->getDiscardableAttr(attr))
        func->setAttr(attr, value);
    // Replace the builder's empty body with the kernel's.
    func.getBody().getBlocks().clear();
    func.getBody().takeBody(kernel.getBody());
    Block &entry = func.getBody().front();
    // Dependent launches: this kernel waits here, before touching memory,
    // until the kernel before it on the stream has finished and its writes
    // are visible; then the next kernel may launch once every CTA of this
    // one has got this far. Without a dependent launch both are no-ops;
    // with one (the runtime's choice, tile::rt::launch) the next kernel's
    // launch and start overlap this one's last CTAs. The trigger follows
    // the wait so that kernels launch at most one ahead: before it, a
    // waiting kernel's CTAs would launch the one after it, and so on down
    // a graph, each holding SMs while it waits.
    if (chip.has(Feature::GridDependency)) {
      builder.setInsertionPointToStart(&entry);
      NVVM::GriddepcontrolOp::create(builder, kernel.getLoc(),
                                     NVVM::GridDepActionKind::wait);
      NVVM::GriddepcontrolOp::create(builder, kernel.getLoc(),
                                     NVVM::GridDepActionKind::launch_dependents);
    }
    Operation *terminator = entry.getTerminator();
    builder.setInsertionPoint(terminator);
    gpu::ReturnOp::create(builder, terminator->getLoc());
    terminator->erase();
    kernel.erase();
  }
  return success();
}
