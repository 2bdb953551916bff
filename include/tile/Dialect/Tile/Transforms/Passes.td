//===- Passes.td - tile dialect transformations ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "Chooses the per-thread layout of every register fragment";
  let description = [{
    Accumulator fragments of `tile.gemm` get the layout of the chip's matrix
    instruction (`#tile.wgmma` on sm_90a), and so do fragments that share a
    `tile.elementwise` with one. Shared tiles read by `tile.gemm` get the
    swizzle that TMA writes and the matrix instruction reads (128 bytes for
    rows of 128 bytes, and so on).

    Every other `!tile.fragment` without a layout gets the `#tile.blocked` layout
    for its kernel's thread count: runs of up to 16 bytes per thread, as
    long as the run divides the innermost dimension and the runs divide
    evenly over the threads. Fragment types are rewritten on the allocation
    and every use. Fails with a located error where no such layout exists
    (fewer elements than threads, say).

    Example: in a kernel with `threads(128)`,
    `!tile.fragment<1024xf32>` becomes
    `!tile.fragment<1024xf32, #tile.blocked<threads = 128, vector = 4>>`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target chip: picks the matrix-instruction layouts">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "ModuleOp"> {
  let summary = "Multi-buffers the loads of tile.pipelined_for loops (TMA + mbarriers, or cp.async groups)";
  let description = [{
    Rewrites each `tile.pipelined_for` with `stages(S)`, S > 1, whose body
    copies global tiles into shared tiles (the producers), into an `scf.for`
    over an explicit pipeline:

    - each shared tile a producer writes becomes a ring of S tiles
      (`tile.alloc_shared` of `S x shape`, read through `memref.subview`);
    - one `!tile.barrier<S>` ring, each barrier expecting one arrival per
      producer copy; the copies become asynchronous (`tile.copy ... barrier`,
      TMA), each arriving with its byte count;
    - a prologue issues the copies of the first S - 1 iterations;
    - iteration i waits for barrier `i mod S` with parity `(i / S) mod 2`,
      runs the rest of the body on slot `i mod S`, synchronises the CTA
      (everyone is done with the slot iteration i - 1 used) and issues the
      copies of iteration i + S - 1 into it, so the loads of stages
      i + 1 .. i + S - 1 overlap the math of stage i.

    On chips without TMA (sm_80, sm_86, sm_89) the copies become cp.async
    instead (marked `tile.cp_async_group`, so that their lowering neither
    commits nor synchronises): every issue point commits one group (empty
    when the iteration does not exist), and iteration i starts with
    `cp.async.wait_group S - 2` and a CTA barrier in place of the mbarrier
    wait (which also makes the barrier before the refill unnecessary).

    Loops with `stages(1)` are left alone. Producers must write shared tiles
    allocated outside the loop and used only inside it.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target chip: TMA (sm_90+) or cp.async (sm_80+) pipelines">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES
