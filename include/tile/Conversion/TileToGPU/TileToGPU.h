//===- TileToGPU.h - tile to gpu/nvgpu/memref/vector ------------*- C++ -*-===//

#ifndef TILE_CONVERSION_TILETOGPU_TILETOGPU_H
#define TILE_CONVERSION_TILETOGPU_TILETOGPU_H

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
class ModuleOp;
namespace tile {
class ReduceOp;
} // namespace tile
namespace tile {
struct ChipInfo;

/// Register fragments become their per-thread storage (a memref of the
/// elements the layout gives one thread); barrier rings become nvgpu
/// mbarrier groups; shared tiles in #tile.shared become plain workgroup
/// memrefs (their swizzle stays in the original op's types); everything
/// else is left alone.
class TileToGPUTypeConverter : public TypeConverter {
public:
  explicit TileToGPUTypeConverter(MLIRContext *context);

  /// Finds the tile.copy ops under `root` whose global box upstream's
  /// value-bounds analysis proves inside its memref (their lowering then
  /// tests no bounds). Called before the conversion starts: the analysis
  /// walks the IR a copy's offsets are computed from, which a conversion
  /// in progress may have detached (a loop's converted body).
  void proveCopyBoxes(Operation *root);
  bool isCopyBoxProved(Operation *copy) const {
    return provedCopies.contains(copy);
  }

private:
  llvm::DenseSet<Operation *> provedCopies;
};

/// Moves every tile.kernel into a gpu.module as a gpu.func kernel.
LogicalResult outlineTileKernels(ModuleOp module, const ChipInfo &chip);

/// Places every tile.alloc_shared of each outlined kernel, and the scratch
/// its ops asked for, in its dynamic shared memory (tiles 1024-byte
/// aligned); pieces whose lifetimes (in top-level ops of the kernel body)
/// do not overlap share bytes, with a CTA barrier where bytes change hands.
/// Records the offsets and the kernel's total; fails with a located error
/// when the total exceeds what `chip` allows a CTA, or with
/// `skipOversizedConfigs` erases such a kernel made from a family (a
/// configuration; tile.family) with a warning naming it. See
/// lib/Conversion/TileToGPU/SharedMemoryAllocation.{h,cpp}.
LogicalResult assignSharedOffsets(Operation *root, const ChipInfo &chip,
                                  bool skipOversizedConfigs = false);

/// Gives each kernel one tensor-map parameter per distinct (global argument,
/// box, swizzle) its asynchronous copies use, and records them for the
/// runtime. Copies learn their parameter through an attribute.
LogicalResult assignTmaParameters(Operation *root);

/// Packs every tile.alloc_tmem of each outlined kernel into one tensor-memory
/// allocation (columns rounded up to a power of two of at least 32, checked
/// against 512): warp 0 allocates it at the kernel's start into a shared
/// slot and gives up the right to allocate again, every thread reads its
/// address, and warp 0 frees it at the kernel's end. Replaces the allocs by
/// their column addresses and erases tile.dealloc_tmem. Runs before
/// assignSharedOffsets (the slot is a shared tile). See
/// lib/Conversion/TileToGPU/TensorMemoryAllocation.cpp.
LogicalResult allocateTensorMemory(Operation *root);

/// Whether `op` is another dialect's op with an operand or result in
/// #tile.shared (which the lowering makes #gpu.address_space<workgroup>):
/// such ops are illegal where the memory patterns run, which rebuild them.
bool needsSharedTypeLowering(Operation *op);
/// Shared tiles, fragments and barrier rings, and other dialects' ops on
/// #tile.shared memrefs (rebuilt on the lowered types; loads and stores of
/// swizzled tiles refused).
void populateTileMemoryToGPUPatterns(TileToGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const ChipInfo &chip);
/// Every copy mechanism's patterns (Copy/*.cpp), and a located error for
/// copies without a mechanism (tile-select-instructions gives them one).
void populateTileCopyToGPUPatterns(TileToGPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const ChipInfo &chip);
/// One mechanism each: tile.copy {mechanism = vector | cp_async |
/// tma_load / tma_store} (the last with tile.wait_tma_stores).
void populateVectorCopyPatterns(TileToGPUTypeConverter &converter,
                                RewritePatternSet &patterns,
                                const ChipInfo &chip);
void populateCpAsyncCopyPatterns(TileToGPUTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const ChipInfo &chip);
void populateTmaCopyPatterns(TileToGPUTypeConverter &converter,
                             RewritePatternSet &patterns,
                             const ChipInfo &chip);
/// tile.copy {mechanism = tmem_load | tmem_store}: tcgen05.ld/st 32x32b.
void populateTmemCopyPatterns(TileToGPUTypeConverter &converter,
                              RewritePatternSet &patterns,
                              const ChipInfo &chip);
void populateTileElementwiseToGPUPatterns(TileToGPUTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const ChipInfo &chip);
/// tile.reduce: in-thread, butterfly shuffles, shared scratch across warps.
void populateTileReduceToGPUPatterns(TileToGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const ChipInfo &chip);
/// Bytes of shared scratch a tile.reduce needs for its cross-warp step (0
/// when its rows stay within warps); failure, reported, when its layout
/// cannot be reduced.
FailureOr<int64_t> reduceScratchBytes(ReduceOp op);
/// Every matrix instruction's patterns (Mma/*.cpp), and a located error for
/// gemms without a mechanism.
void populateTileGemmToGPUPatterns(TileToGPUTypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const ChipInfo &chip);
/// tile.gemm {mechanism = wgmma} and tile.wait_gemms; {mechanism =
/// mma_sync}.
void populateWgmmaPatterns(TileToGPUTypeConverter &converter,
                           RewritePatternSet &patterns, const ChipInfo &chip);
void populateMmaSyncPatterns(TileToGPUTypeConverter &converter,
                             RewritePatternSet &patterns,
                             const ChipInfo &chip);
/// tile.gemm {mechanism = tcgen05}: tcgen05.mma into tensor memory,
/// committed to the gemm's barrier.
void populateTcgen05Patterns(TileToGPUTypeConverter &converter,
                             RewritePatternSet &patterns,
                             const ChipInfo &chip);
void populateTileLoopToSCFPatterns(TileToGPUTypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   const ChipInfo &chip);
void populateTileMBarrierToGPUPatterns(TileToGPUTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const ChipInfo &chip);
/// Every communication op (put, get, signal, wait, fence, quiet,
/// barrier_all, rank, num_ranks) by its recorded mechanism: `dsmem`, the
/// cluster's CTAs through distributed shared memory
/// (Distributed/Cluster.cpp), `nvshmem` and `p2p`, the job's GPUs through
/// NVSHMEM's calls or the threads' own accesses to the address
/// `nvshmem_ptr` gives (Distributed/Nvshmem.cpp); one without a mechanism
/// is an error.
void populateTileDistributedToGPUPatterns(TileToGPUTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const ChipInfo &chip);
void populateClusterCommunicationPatterns(TileToGPUTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const ChipInfo &chip);
/// Whether `op` is lowered to NVSHMEM calls (a world-level communication
/// op): the lowering declares the functions in the gpu.module.
bool lowersThroughNvshmem(Operation *op);
void populateNvshmemCommunicationPatterns(TileToGPUTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const ChipInfo &chip);
/// A communication op without a mechanism: the error that asks for
/// tile-select-instructions (MechanismPatterns.cpp).
void populateUnselectedCommunicationPatterns(TileToGPUTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             const ChipInfo &chip);

/// Replaces each tile.warp_specialize, once the ops inside are lowered, by a
/// chain of branches on the thread id, one per role placed by
/// WarpSpecializeOp::getPlacement: the role's register budget
/// (setmaxnreg), then its warps run its region with thread ids counted
/// from the role's (team's) first thread and CTA barriers turned into the
/// named barriers allocated for it.
LogicalResult lowerWarpSpecialize(Operation *root);
/// Drops each gpu.barrier that only side-effect-free ops separate from the
/// previous one (and its async-proxy fences, when that barrier was fenced
/// alike). See lib/Conversion/TileToGPU/RedundantBarriers.cpp.
void eraseRedundantBarriers(Operation *root);
} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETOGPU_TILETOGPU_H
