//===- Passes.td - tile conversion passes ------------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES
#define TILE_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

class TileToGPUPass<string name, string summary_, string description_>
    : Pass<name, "ModuleOp"> {
  let summary = summary_;
  let description = description_;
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ConvertTileKernelToGPU : TileToGPUPass<"convert-tile-kernel-to-gpu",
    "Outlines tile.kernel ops into a gpu.module of gpu.func kernels", [{
    Moves every `tile.kernel` into `gpu.module @tile_kernels` as a
    `gpu.func ... kernel` with `known_block_size = [threads, 1, 1]` (which
    becomes `nvvm.maxntid`) and, for clusters, `nvvm.cluster_dim`. The
    enclosing module becomes a `gpu.container_module`.
  }]>;

def ConvertTileMemoryToGPU : TileToGPUPass<"convert-tile-memory-to-gpu",
    "Allocates shared tiles, register fragments and barrier rings", [{
    `tile.alloc_shared` becomes a `memref.global` in workgroup memory (aligned
    for TMA and swizzling) read with `memref.get_global`;
    `tile.alloc_fragment` becomes a per-thread `memref.alloca` holding the
    elements its layout gives the thread (promoted to registers by LLVM);
    `tile.alloc_barrier` becomes `nvgpu.mbarrier.create` plus an
    initialisation by thread 0 and a CTA barrier. Fragments need layouts
    (`tile-assign-layouts`).
  }]>;

def ConvertTileCopyToGPU : TileToGPUPass<"convert-tile-copy-to-gpu",
    "Lowers tile.copy to coalesced vector accesses or TMA", [{
    Global <-> fragment and global <-> shared copies become 16-byte vector
    loads and stores spread over the CTA's threads in the blocked layout;
    edge tiles are masked (out-of-bounds reads give 0, writes are skipped),
    and a run-time alignment check picks the scalar path for rows that are
    not 16-byte aligned. Shared <-> fragment copies move the same runs.
    Copies that write shared memory end with a CTA barrier. Copies with a
    barrier (global -> shared) fail until the TMA lowering lands.
  }]>;

def ConvertTileElementwiseToGPU : TileToGPUPass<"convert-tile-elementwise-to-gpu",
    "Lowers tile.elementwise and tile.fill to per-thread scalar code", [{
    Each thread runs the body for the elements its layout gives it: fragment
    operands are read from and written to their per-thread storage,
    shared-memory operands at the positions of the blocked layout for the
    kernel's threads. Writes to shared memory end with a CTA barrier.
  }]>;

def ConvertTileGemmToNVVM : TileToGPUPass<"convert-tile-gemm-to-nvvm",
    "Lowers tile.gemm to the chip's matrix instructions", [{
    sm_90a: A and B in swizzled shared tiles (either major; tf32 K-major
    only) or A in a register fragment with C's layout, C in a `#tile.wgmma`
    fragment: per warpgroup, `wgmma.fence`, one inline-PTX block with one
    `wgmma.mma_async` m64nNk16 per 32 bytes of K (descriptors built from the
    tiles' shared addresses and swizzles; for A in registers four 32-bit
    registers per K step), `wgmma.commit_group` and `wgmma.wait_group` (1 when
    the pipeliner leaves the group in flight, else 0). Other sm_80+ chips,
    and a C in a `#tile.mma` fragment on any chip: mma.sync m16n8k16 with
    ldmatrix (.trans for K x M / K x N operands). A gemm with a barrier waits
    for its product, then every thread arrives on it. Forms not lowered yet
    (tensor memory, A in registers for mma.sync, i8 and fp8) fail with an
    error naming them.
  }]>;

def ConvertTileMBarrierToNVGPU : TileToGPUPass<"convert-tile-mbarrier-to-nvgpu",
    "Lowers the tile.mbarrier ops to nvgpu mbarrier ops", [{
    `arrive` (every thread, one elected thread with `leader`, or one lane
    per warp on every CTA of the cluster with `cluster`: `mapa` +
    `mbarrier.arrive.shared::cluster`), `expect_tx` (thread 0,
    `mbarrier.arrive.expect_tx`), `wait` (`mbarrier.try_wait.parity`, which
    spins until the phase completes), and `tile.barrier_all level cluster`
    (`fence.mbarrier_init` + `barrier.cluster.arrive/wait`).
  }]>;

def ConvertTileWarpSpecializeToNVVM : TileToGPUPass<
    "convert-tile-warp-specialize-to-nvvm",
    "Splits warp-specialised kernels into producer and consumer branches", [{
    Runs after the other tile-to-GPU conversions (it rewrites the thread ids
    and CTA barriers they produced). Each `tile.warp_specialize` becomes an
    `scf.if` on the thread id: the producer warpgroup lowers its register
    budget (`nvvm.setmaxregister decrease`) and its warp 0 runs the producer
    region; the consumers raise theirs, read thread ids less 128 and
    synchronise on named barrier 1 with their own thread count.
  }]>;

def ConvertTileToGPU : TileToGPUPass<"convert-tile-to-gpu",
    "Runs every tile-to-GPU conversion at once", [{
    Kernel outlining followed by one conversion with all patterns of
    `convert-tile-{memory,copy,elementwise}-to-gpu` and
    `convert-tile-mbarrier-to-nvgpu`, then
    `convert-tile-warp-specialize-to-nvvm`. Any tile op left is an error
    naming the op that has no lowering yet.
  }]>;

def TilePromoteFragments : Pass<"tile-promote-fragments", "ModuleOp"> {
  let summary = "Keeps lowered fragments in SSA values instead of allocas";
  let description = [{
    Runs after `convert-tile-to-gpu` (in `tile-to-nvvm`, after the first
    canonicalisation). A per-thread `memref.alloca` whose uses are all
    `memref`/`vector` loads and stores at constant positions, in its own
    block or nested in it through `scf.for` and `scf.if` only, becomes one
    SSA value per element: loads become those values (`vector.from_elements`
    for vector loads), stores replace them, and each loop or branch carries
    the positions it writes as iter_args or results. A gemm's accumulators
    then pass from one matrix instruction to the next, and around the
    k-loop, in registers. Allocas used any other way stay in memory.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::vector::VectorDialect"
  ];
}

#endif // TILE_CONVERSION_PASSES
