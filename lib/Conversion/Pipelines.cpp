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

void mlir::tile::buildTileToGPUPipeline(
    OpPassManager &pm, const TileToGPUPipelineOptions &options) {
  pm.addPass(createConvertTileKernelToGPU());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.nest<gpu::GPUFuncOp>().addPass(createTileAllocateTensorMemory());
  device.addPass(createTileAssignSharedOffsets({options.skipOversizedConfigs}));
  device.nest<gpu::GPUFuncOp>().addPass(createTileAssignTmaParameters());
  device.addPass(createConvertTileNvshmemToGPU());
  OpPassManager &kernels = device.nest<gpu::GPUFuncOp>();
  kernels.addPass(createConvertTileOpsToGPU());
  kernels.addPass(createTileEraseRedundantBarriers());
  kernels.addPass(createConvertTileWarpSpecializeToGPU());
}

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
  pm.addPass(createTileScheduleLoops());
  pm.addPass(createTilePipelineLoops());
  // Again, on the protocols the pipeline derived.
  pm.addPass(createTileCheckBarriers());
  TileToGPUPipelineOptions toGPU;
  toGPU.skipOversizedConfigs = options.skipFailingConfigs;
  buildTileToGPUPipeline(pm, toGPU);
  // Kernel by kernel, in parallel threads (a family's configurations are
  // kernels of one gpu.module): what follows conversion takes most of the
  // pipeline's time.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>().nest<gpu::GPUFuncOp>();
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  // After canonicalisation: scf.for's patterns are slow on the hundreds of
  // iter_args a promoted accumulator brings.
  kernels.addPass(createTilePromoteFragments());
  kernels.addPass(createTilePackConversions());
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
  // Before convert-gpu-to-nvvm, which makes every math.tanh a libdevice call.
  loweredKernels.addPass(createTileLowerFastMath());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createConvertGpuOpsToNVVMOps());
  OpPassManager &llvmKernels = device.nest<LLVM::LLVMFuncOp>();
  llvmKernels.addPass(createCanonicalizerPass());
  llvmKernels.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

// The pipelines' first passes are anchored on builtin.module (they outline
// kernels into gpu.modules and nest under them), so they cannot run nested
// under another op: adding them to a func.func or tile.kernel pass manager
// would abort in OpPassManager::addPass. Refuse with an error instead.
template <typename Options>
static void registerModulePipeline(
    StringRef name, StringRef description,
    void (*build)(OpPassManager &, const Options &)) {
  std::string argument = name.str();
  registerPassPipeline(
      name, description,
      [argument, build](OpPassManager &pm, StringRef optionsText,
                        function_ref<LogicalResult(const Twine &)> error) {
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName())
          return error("the " + argument +
                       " pipeline runs on a builtin.module, not nested "
                       "under '" +
                       anchor + "': write --pass-pipeline='builtin.module(" +
                       argument + ")' or --" + argument);
        Options options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

void mlir::tile::registerTilePipelines() {
  registerModulePipeline<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Lowers tile kernels to the LLVM and NVVM dialects for a chip",
      buildTileToNVVMPipeline);
  registerModulePipeline<TileToGPUPipelineOptions>(
      "convert-tile-to-gpu",
      "Runs the tile-to-GPU conversion's steps in order: "
      "convert-tile-kernel-to-gpu, tile-allocate-tensor-memory, "
      "tile-assign-shared-offsets, tile-assign-tma-parameters, "
      "convert-tile-nvshmem-to-gpu, convert-tile-ops-to-gpu, "
      "tile-erase-redundant-barriers, "
      "convert-tile-warp-specialize-to-gpu",
      buildTileToGPUPipeline);
}
