//===- Pipelines.cpp - tile's named pass pipelines ------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::buildTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  pm.addPass(createTileAttachTarget({options.chip}));
  // Families become ordinary kernels: every pass below sees static IR.
  TileSpecializeOptions specialize;
  specialize.values = llvm::to_vector(options.values);
  specialize.skipInvalid = options.skipFailingConfigs;
  pm.addPass(createTileSpecialize(specialize));
  pm.addPass(createTileRecordGrid());
  pm.addPass(createTileCheckBarriers());
  pm.addPass(createTileSelectInstructions());
  pm.addPass(createTileAssignLayouts());
  pm.addPass(createTilePipelineLoops());
  pm.addPass(createConvertTileToGPU({options.skipFailingConfigs}));
  // Kernel by kernel, in parallel threads (a family's configurations are
  // kernels of one gpu.module): what follows conversion takes most of the
  // pipeline's time.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>();
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  // After canonicalisation: scf.for's patterns are slow on the hundreds of
  // iter_args a promoted accumulator brings.
  kernels.addPass(createTilePromoteFragments());
  // gpu-lower-to-nvvm-pipeline's order: nvgpu first, then NVVM's inline-PTX
  // fallbacks, both before gpu-to-nvvm.
  // (Not kernel by kernel: mbarrier rings become globals of the gpu.module.)
  pm.addPass(createConvertNVGPUToNVVMPass());
  OpPassManager &loweredKernels =
      pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>();
  loweredKernels.addPass(createSCFToControlFlowPass());
  loweredKernels.addPass(createConvertNVVMToLLVMPass());
  loweredKernels.addPass(memref::createExpandStridedMetadataPass());
  loweredKernels.addPass(createLowerAffinePass());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createConvertGpuOpsToNVVMOps());
  OpPassManager &llvmKernels = device.nest<LLVM::LLVMFuncOp>();
  llvmKernels.addPass(createCanonicalizerPass());
  llvmKernels.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

// The pipeline's passes are anchored on builtin.module (they outline
// kernels into gpu.modules and nest under them), so it cannot run nested
// under another op: adding them to a func.func or tile.kernel pass manager
// would abort in OpPassManager::addPass. Refuse with an error instead.
static LogicalResult
addTileToNVVMPipeline(OpPassManager &pm, StringRef optionsText,
                      function_ref<LogicalResult(const Twine &)> errorHandler) {
  StringRef anchor = pm.getOpAnchorName();
  if (anchor != ModuleOp::getOperationName())
    return errorHandler(
        "the tile-to-nvvm pipeline runs on a builtin.module, not nested "
        "under '" +
        anchor +
        "': write --pass-pipeline='builtin.module(tile-to-nvvm)' or "
        "--tile-to-nvvm");
  TileToNVVMPipelineOptions options;
  if (failed(options.parseFromString(optionsText)))
    return failure();
  buildTileToNVVMPipeline(pm, options);
  return success();
}

void mlir::tile::registerTilePipelines() {
  registerPassPipeline(
      "tile-to-nvvm",
      "Lowers tile kernels to the LLVM and NVVM dialects for a chip",
      addTileToNVVMPipeline,
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(TileToNVVMPipelineOptions());
      });
}
