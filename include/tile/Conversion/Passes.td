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
    enclosing module becomes a `gpu.container_module`. On chips with grid
    dependency control (sm_90 and later) each kernel starts with
    `nvvm.griddepcontrol launch_dependents` and `nvvm.griddepcontrol wait`:
    the kernel after it on a stream may launch once all its CTAs have
    started, and it waits, before touching memory, for the kernel before
    it to finish and its writes to be visible. Both are no-ops unless the
    runtime starts the kernel as a dependent launch, which the kernel
    description's `launch <name> dependent` record allows.
  }]>;

def ConvertTileMemoryToGPU : TileToGPUPass<"convert-tile-memory-to-gpu",
    "Lowers shared tiles, register fragments and barrier rings", [{
    Needs `tile-allocate-tensor-memory` and `tile-assign-shared-offsets`
    first (an allocation without its offset is an error that names the
    pass to run). Each `tile.alloc_shared` becomes a view of the kernel's
    dynamic shared memory at its offset, in `#gpu.address_space<workgroup>`
    (a `#tile.shared` swizzle stays in the types of the ops that read the
    tile, where their lowerings find it, in whatever order the passes run);
    other dialects' ops on such tiles (views, casts) are rebuilt on the
    lowered types, and ordinary loads and stores of swizzled tiles are
    refused. `tile.alloc_fragment` becomes a per-thread `memref.alloca`
    holding the elements its layout gives the thread (promoted to
    registers later); `tile.alloc_barrier` becomes `nvgpu.mbarrier.create`
    plus an initialisation by thread 0 and a CTA barrier. Fragments need
    layouts (`tile-assign-layouts`).
  }]>;

def ConvertTileCopyToGPU : TileToGPUPass<"convert-tile-copy-to-gpu",
    "Lowers tile.copy by the mechanism tile-select-instructions chose", [{
    One pattern set per `#tile.copy_mechanism`, each in a file of its own
    (lib/Conversion/TileToGPU/Copy/):
    - `vector` (Vector.cpp): 16-byte vector runs spread over the CTA's
      threads in the blocked layout (or the fragment's layout); edge tiles
      are masked (out-of-bounds reads give 0, writes are skipped) and a
      run-time alignment check picks the scalar path for rows that are not
      16-byte aligned; fragment slices and swizzled destinations run by
      run. Copies that write shared memory end with a CTA barrier.
    - `cp_async` (CpAsync.cpp): cp.async runs, committed and waited for
      unless the copy is `{async}`.
    - `tma_load` / `tma_store` (Tma.cpp): bulk tensor copies through the
      kernel's tensor-map parameters (`tile-assign-tma-parameters` first),
      loads completing on
      their mbarrier, multicast slices; `tile.wait_tma_stores`.
    - `tmem_load` / `tmem_store` (Tmem.cpp, sm_100a): `tcgen05.ld/st`
      32x32b between a 128-lane tensor-memory tile and a
      `#tile.tmem_32x32b` fragment, waited for, with tcgen05 fences.
    A copy without a mechanism is a located error.
  }]>;

def ConvertTileElementwiseToGPU : TileToGPUPass<"convert-tile-elementwise-to-gpu",
    "Lowers tile.elementwise and tile.fill to per-thread scalar code", [{
    Each thread runs the body for the elements its layout gives it: fragment
    operands are read from and written to their per-thread storage,
    shared-memory operands at the positions of the blocked layout for the
    kernel's threads. Writes to shared memory end with a CTA barrier.
  }]>;

def ConvertTileReduceToGPU : TileToGPUPass<"convert-tile-reduce-to-gpu",
    "Lowers tile.reduce to in-thread code, shuffles and shared scratch", [{
    Reads the source fragment's layout: each thread combines its runs along
    the reduced dimension, lanes along it exchange partials with butterfly
    shuffles, and where warps spread along it too, one lane per warp
    writes to the shared scratch the allocator placed
    (convert-tile-memory-to-gpu asks for it), a CTA barrier, and every
    thread combines the warps' partials in a fixed order. Every thread then
    holds the results of its rows, in the `#tile.slice` layout.
  }]>;

def ConvertTileGemmToGPU : TileToGPUPass<"convert-tile-gemm-to-gpu",
    "Lowers tile.gemm by the matrix instruction tile-select-instructions chose", [{
    One pattern set per `#tile.mma_mechanism` (lib/Conversion/TileToGPU/Mma/):
    - `wgmma` (Wgmma.cpp, sm_90a): A and B in swizzled shared tiles (either
      major; tf32 K-major only) or A in a register fragment with C's layout,
      C in a `#tile.wgmma` fragment: per warpgroup, `wgmma.fence`, one
      inline-PTX block with one `wgmma.mma_async` m64nNk16 per 32 bytes of K
      (descriptors built from the tiles' shared addresses and swizzles; for
      A in registers four 32-bit registers per K step) and
      `wgmma.commit_group`, then `wgmma.wait_group 0` unless the gemm is
      `{async}`; `tile.wait_gemms pending(N)` is `wgmma.wait_group N`.
    - `mma_sync` (MmaSync.cpp, sm_80+): C in a `#tile.mma` fragment,
      mma.sync m16n8k16 with ldmatrix (.trans for K x M / K x N operands).
    - `tcgen05` (Tcgen05.cpp, sm_100a): C in tensor memory; thread 0 fences,
      issues one `tcgen05.mma` (kind::f16 or kind::tf32) per 32 bytes of K
      from compile-time instruction and shared-memory descriptors, and
      commits them to the gemm's barrier; `tile.commit_gemms` commits to
      another.
    A gemm with C in registers and a barrier waits for its product, then
    every thread arrives on it. Forms not lowered yet (A in registers for mma.sync, i8 and fp8)
    fail with an error naming them; so does a gemm without a mechanism.
  }]>;

def ConvertTileMBarrierToGPU : TileToGPUPass<"convert-tile-mbarrier-to-gpu",
    "Lowers the tile.mbarrier ops to nvgpu mbarrier ops", [{
    `arrive` (every thread, one elected thread with `leader`, or one lane
    per warp on every CTA of the cluster with `cluster`: `mapa` +
    `mbarrier.arrive.shared::cluster`), `expect_tx` (thread 0,
    `mbarrier.arrive.expect_tx`), `wait` (`mbarrier.try_wait.parity`, which
    spins until the phase completes).
  }]>;

def ConvertTileDistributedToGPU : TileToGPUPass<
    "convert-tile-distributed-to-gpu",
    "Lowers put, get, signal, wait, fence, quiet, barrier_all, rank and num_ranks", [{
    Each op by the mechanism tile-select-instructions recorded on it (an op
    without one is an error).
    `dsmem`, `level cluster` (lib/Conversion/TileToGPU/Distributed/Cluster.cpp): the
    CTAs of the kernel's cluster through distributed shared memory: puts
    and gets move the tile's runs over the scope's threads with `mapa` and
    loads/stores to `shared::cluster`; signals are one thread's
    `st.release` / `red.release.add` at cluster scope after the scope's
    synchronisation; waits spin one thread on `ld.acquire.cluster` of the
    local word, then synchronise; fence and quiet are
    `fence.acq_rel.cluster`; barrier_all `fence.mbarrier_init` and
    `barrier.cluster.arrive/wait`; rank and num_ranks `%cluster_ctarank` /
    `%cluster_nctarank`.
    `nvshmem`, `level world` (Distributed/Nvshmem.cpp): calls of NVSHMEM's device
    library, declared as external functions in the gpu.module
    (`nvshmemx_putmem_{block,warp}`, `nvshmemx_putmem_signal_nbi_*`,
    `nvshmemx_getmem_*`, `nvshmemx_signal_op`, `nvshmem_signal_wait_until`
    for a wait given this mechanism by hand, `nvshmem_fence`,
    `nvshmem_quiet`, `nvshmemx_barrier_all_block`, `nvshmem_my_pe`,
    `nvshmem_n_pes`), one call for a tile that is one block on both sides,
    else one per row; the runtime links the library in when it loads the
    kernel.
    `p2p` (puts, gets and waits, Distributed/Nvshmem.cpp): every thread of
    the scope moves its runs through the peer address `nvshmem_ptr` gives,
    between two synchronisations of the scope, a signal after
    `nvshmem_fence`; NVSHMEM's calls where the peer has no such address. A
    wait is one thread's spin on `ld.acquire.sys.global` of its local word,
    a `fence.proxy.async.global` on chips with TMA, then the CTA's (role's)
    barrier: no call.
  }]>;

// The steps of the tile-to-GPU conversion that are not pattern sets, one
// pass each. Per-kernel steps are op-agnostic (they work on the kernels
// under the op they run on), so that `tile-opt --<step>` runs them on a
// module and `convert-tile-to-gpu` (lib/Conversion/Pipelines.cpp) nests
// them on each gpu.func, kernels in parallel; steps that erase kernels or
// declare functions run on the gpu.module.
class TileKernelStep<string name, string anchor, string summary_,
                     string description_>
    : Pass<name, anchor> {
  let summary = summary_;
  let description = description_;
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect"
  ];
}

def TileAllocateTensorMemory : TileKernelStep<"tile-allocate-tensor-memory", "",
    "Packs a kernel's tensor-memory tiles into one allocation", [{
    Runs on outlined kernels (`convert-tile-kernel-to-gpu`), before
    `tile-assign-shared-offsets` (the allocation's address lives in a
    shared slot it adds). Every `tile.alloc_tmem` of the kernel gets a
    column range of one tensor-memory allocation (`tcgen05.alloc` by warp 0
    at the start, `tcgen05.dealloc` at the end, at most 512 columns;
    sm_100a) and `tile.dealloc_tmem` goes away. A `tile.alloc_tmem` left
    for `convert-tile-memory-to-gpu` is an error naming this pass.
  }]>;

def TileAssignSharedOffsets : TileKernelStep<"tile-assign-shared-offsets",
    "::mlir::gpu::GPUModuleOp",
    "Places a kernel's shared tiles and scratch in its dynamic shared memory", [{
    Runs on outlined kernels, after `tile-allocate-tensor-memory` and
    before `convert-tile-memory-to-gpu`, which lowers each tile at the
    offset recorded here (`tile.shared_offset`). Every `tile.alloc_shared`
    (and every scratch request of a lowering) gets an offset in the
    kernel's dynamic shared memory, placed by liveness: tiles whose
    lifetimes do not overlap share bytes (1024-byte aligned, for TMA and
    swizzling), with a CTA barrier where bytes change hands; the kernel's
    total is `tile.dynamic_shared_bytes`, which the runtime's kernel
    description carries. Anchored on the gpu.module because it may erase
    kernels: one whose shared memory exceeds the chip's is an error; with
    `skip-oversized-configs`, a family's configuration (a kernel with
    `tile.family`) is instead left out with a warning naming it.
  }]> {
  let options = [
    Option<"skipOversizedConfigs", "skip-oversized-configs", "bool",
           /*default=*/"false",
           "Leave out, with a warning, a family's configuration whose shared "
           "memory exceeds the chip's">
  ];
}

def TileAssignTmaParameters : TileKernelStep<"tile-assign-tma-parameters", "",
    "Gives a kernel one tensor-map parameter per TMA box it copies", [{
    Runs on outlined kernels, before `convert-tile-copy-to-gpu`. Each
    distinct (global argument, box, swizzle) that the kernel's
    `tma_load`/`tma_store` copies use becomes an extra kernel parameter (a
    pointer to the 128-byte CUtensorMap the runtime encodes), recorded in
    `tile.tma` for the kernel description; each copy names its parameter
    in `tile.tma_param`. The swizzle is the shared tile's, from its type.
    Does nothing on chips without TMA. A TMA copy lowered without its
    parameter is an error naming this pass.
  }]>;

def ConvertTileNvshmemToGPU : TileKernelStep<"convert-tile-nvshmem-to-gpu",
    "::mlir::gpu::GPUModuleOp",
    "Lowers world-level communication to NVSHMEM calls", [{
    The world-level ops (`level world` put, get, signal, wait, fence,
    quiet, barrier_all, rank, num_ranks; mechanism `nvshmem`), as
    `convert-tile-distributed-to-gpu` lowers them: calls of NVSHMEM's device
    library, declared in the gpu.module on first use. Anchored on the
    gpu.module because of those declarations, and run before
    `convert-tile-ops-to-gpu`, which then converts each kernel on its own
    (in parallel) and refuses world-level ops left.
  }]> {
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect"
  ];
}

def ConvertTileOpsToGPU : TileKernelStep<"convert-tile-ops-to-gpu", "",
    "Lowers every tile op of the outlined kernels in one conversion", [{
    One partial conversion with the patterns of
    `convert-tile-{memory,copy,elementwise,reduce}-to-gpu`,
    `convert-tile-gemm-to-gpu`, `convert-tile-mbarrier-to-gpu`, the
    cluster-level ops of `convert-tile-distributed-to-gpu` and the loop ops.
    Needs what those need (offsets, tensor-map parameters, mechanisms,
    layouts) and world-level communication lowered first
    (`convert-tile-nvshmem-to-gpu`, which declares functions in the
    gpu.module); any tile op left but `tile.warp_specialize` (lowered last,
    once its contents are) is an error naming the op that has no lowering.
    Op-agnostic: `convert-tile-to-gpu` runs it on each gpu.func, kernels in
    parallel.
  }]> {
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def TileEraseRedundantBarriers : TileKernelStep<"tile-erase-redundant-barriers", "",
    "Drops CTA barriers that only side-effect-free ops separate", [{
    Lowered copies each synchronise the CTA on entry and on exit (with an
    async-proxy fence where TMA reads what they wrote), so back-to-back
    copies and waits meet barrier after barrier. A `gpu.barrier` is
    dropped when only side-effect-free ops separate it from the previous
    one, with its fences when that barrier was fenced alike. Runs after the
    tile ops are lowered and before `convert-tile-warp-specialize-to-gpu`
    (which turns CTA barriers into named ones).
  }]>;

def ConvertTileWarpSpecializeToGPU : TileKernelStep<
    "convert-tile-warp-specialize-to-gpu", "",
    "Splits warp-specialised kernels into producer and consumer branches", [{
    Runs after the other tile-to-GPU conversions (it rewrites the thread ids
    and CTA barriers they produced). Each `tile.warp_specialize` becomes a
    chain of `scf.if` on the thread id, one branch per role (its threads,
    padding included): the role sets its register budget
    (`nvvm.setmaxregister decrease` when `registers(R)` is at most what the
    kernel starts with, `increase` otherwise), and its warps (not its
    padding) run its region with thread ids and the block size of the role,
    or of the team with `teams(T)`. CTA barriers become named barriers of
    the role's (team's) threads; the ids are allocated from 1 in role order,
    one per role or team that has a barrier, and more than 15 is an error.
  }]>;

def TilePromoteFragments : Pass<"tile-promote-fragments"> {
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
    "::mlir::ub::UBDialect", "::mlir::vector::VectorDialect"
  ];
}

def TilePackConversions : Pass<"tile-pack-conversions"> {
  let summary = "Converts floats packed into one vector by one vector conversion";
  let description = [{
    Runs after `tile-promote-fragments`. A `vector.from_elements` whose
    elements are each an `arith.truncf` (directly or through bitcasts back
    to its type) from one type, with one rounding mode and fastmath flags,
    becomes one `arith.truncf` of the vector of their sources, placed where
    the vector is built. The scalar truncations stay for their other users
    (an edge path storing element by element, which NVPTX then computes
    in that path's block only) and vanish where they have none. Elementwise lowerings convert element by
    element; where the results are packed (a bf16 fragment stored 16 bytes
    at a time, P's pairs in a wgmma's A registers), NVPTX then converts two
    at a time (`cvt.rn.bf16x2.f32`) instead of one conversion and a byte
    permute per element.

    Example: `vector.from_elements %a, %b : vector<2xbf16>` of
    `%a = arith.truncf %x : f32 to bf16` and `%b = arith.truncf %y`
    becomes `arith.truncf (vector.from_elements %x, %y : vector<2xf32>)`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def TileLowerFastMath : Pass<"tile-lower-fast-math"> {
  let summary = "Lowers f32 math ops marked afn (tanh, exp2) to the GPU's "
                "approximate instructions";
  let description = [{
    `math.tanh %x fastmath<afn> : f32` becomes `llvm.intr.tanh` with `afn`,
    which NVPTX emits as one `tanh.approx.f32` (sm_75 and newer; relative
    error about 2^-11) instead of the call of libdevice's `__nv_tanhf`
    (about 15 instructions) that `convert-gpu-to-nvvm` makes of any
    `math.tanh`. `math.exp2 %x fastmath<afn> : f32` becomes
    `llvm.nvvm.ex2.approx.ftz.f32`: one `MUFU.EX2`, where libdevice's
    `ex2.approx.f32` costs four instructions more (ptxas's handling of
    results below 2^-126, which ftz flushes to zero). Without `afn`, and on
    other types, math ops are left to `convert-gpu-to-nvvm`. Runs in
    `tile-to-nvvm` just before it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TILE_CONVERSION_PASSES
