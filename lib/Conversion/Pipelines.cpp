//===- Pipelines.cpp - tile's named pass pipelines ------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tile::buildTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  pm.addPass(createTileAttachTarget({options.chip}));
  pm.addPass(createTileSelectInstructions());
  pm.addPass(createTileAssignLayouts());
  pm.addPass(createTilePipelineLoops());
  pm.addPass(createConvertTileToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After canonicalisation: scf.for's patterns are slow on the hundreds of
  // iter_args a promoted accumulator brings.
  pm.addPass(createTilePromoteFragments());
  // gpu-lower-to-nvvm-pipeline's order: nvgpu first, then NVVM's inline-PTX
  // fallbacks, both before gpu-to-nvvm.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Lowers tile kernels to the LLVM and NVVM dialects for a chip",
      buildTileToNVVMPipeline);
}
