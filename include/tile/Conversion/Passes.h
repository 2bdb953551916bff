//===- Passes.h - tile conversion passes and pipelines ----------*- C++ -*-===//

#ifndef TILE_CONVERSION_PASSES_H
#define TILE_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tile {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tile/Conversion/Passes.h.inc"

struct TileToNVVMPipelineOptions
    : public PassPipelineOptions<TileToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target chip: sm_80, sm_90a, sm_100a (default: the "
                     "module's tile.target, else sm_90a)"),
      llvm::cl::init("")};
  PassOptions::ListOption<std::string> values{
      *this, "values",
      llvm::cl::desc("Parameter values NAME=VALUE for the kernel families "
                     "(tile-specialize's values): one kernel per family "
                     "instead of one per configuration")};
  PassOptions::Option<bool> skipFailingConfigs{
      *this, "skip-failing-configs",
      llvm::cl::desc("Leave out, with a warning, a family's configuration "
                     "that fails to specialise or whose shared memory "
                     "exceeds the chip's, instead of failing"),
      llvm::cl::init(false)};
};

struct TileToGPUPipelineOptions
    : public PassPipelineOptions<TileToGPUPipelineOptions> {
  PassOptions::Option<bool> skipOversizedConfigs{
      *this, "skip-oversized-configs",
      llvm::cl::desc("Leave out, with a warning, a family's configuration "
                     "whose shared memory exceeds the chip's"),
      llvm::cl::init(false)};
};

/// `convert-tile-to-gpu`: the tile-to-GPU conversion's steps in their
/// order, each a pass of its own: outlining (on the module), tensor memory
/// and TMA parameters (per kernel), shared offsets and NVSHMEM calls (per
/// gpu.module: they may erase kernels or declare functions), every other
/// tile op's patterns, barrier clean-up and the warp split (per kernel, in
/// parallel).
void buildTileToGPUPipeline(OpPassManager &pm,
                            const TileToGPUPipelineOptions &options);

/// tile -> gpu/nvgpu -> LLVM + NVVM dialects, ready for tile-translate.
void buildTileToNVVMPipeline(OpPassManager &pm,
                             const TileToNVVMPipelineOptions &options);

/// tile-pack-conversions' pattern: packed element conversions as one
/// vector conversion.
void populatePackConversionsPatterns(RewritePatternSet &patterns);

/// tile-lower-fast-math's patterns: f32 math ops marked `afn` to the
/// LLVM intrinsics NVPTX emits as approximate instructions.
void populateLowerFastMathPatterns(RewritePatternSet &patterns);

/// Registers `tile-to-nvvm` and `convert-tile-to-gpu`.
void registerTilePipelines();
} // namespace mlir::tile

#endif // TILE_CONVERSION_PASSES_H
