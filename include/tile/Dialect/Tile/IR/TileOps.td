//===- TileOps.td - tile dialect ops -----------------------*- tablegen -*-===//
//
// The op reference: every op carries its summary, a description with an
// example, and the rules its verifier enforces. docs/generated/ is built
// from this file.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OPS
#define TILE_OPS

include "tile/Dialect/Tile/IR/TileOpBase.td"
include "tile/Dialect/Tile/IR/TileMemoryOps.td"
include "tile/Dialect/Tile/IR/TileSyncOps.td"
include "tile/Dialect/Tile/IR/TileComputeOps.td"
include "tile/Dialect/Tile/IR/TileDistributedOps.td"

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    IsolatedFromAbove, FunctionOpInterface, Symbol,
    SingleBlockImplicitTerminator<"YieldOp">, AutomaticAllocationScope,
    RecursiveMemoryEffects]> {
  let summary = "a GPU kernel: its arguments, threads per CTA and cluster shape";
  let description = [{
    Defines a kernel symbol. Arguments are global-memory `memref`s (dynamic
    sizes allowed: they travel as MLIR memref descriptors) and scalars
    (integers, floats, `index`). `threads` is the CTA size, used for launch
    bounds and to distribute tile work; `cluster` is the optional thread-block
    cluster shape (sm_90+). The body uses `gpu.block_id` / `gpu.thread_id` for
    its position in the grid.

    Example:

    ```mlir
    tile.kernel @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>)
        threads(128) {
      %bx = gpu.block_id x
      ...
    }
    ```

    Rules: no results; `threads` in [1, 1024]; cluster dims positive with a
    product of at most 16; arguments are memrefs in global memory or scalars;
    the tensor memory the body allocates fits in 512 columns.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       I32Attr:$threads,
                       OptionalAttr<DenseI32ArrayAttr>:$cluster,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// Cluster shape, 1x1x1 when absent.
    ::llvm::SmallVector<int32_t, 3> getClusterShape();
    /// CTAs per cluster (1 without a cluster).
    int64_t getClusterSize();
  }];
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "ElementwiseOp", "PipelinedForOp",
               "WarpSpecializeOp"]>]> {
  let summary = "terminates a tile region";
  let description = [{
    Ends the body of `tile.kernel`, `tile.pipelined_for` and the regions of
    `tile.warp_specialize` (no operands,
    implicit in the custom form) and yields the per-element results of a
    `tile.elementwise` body.

    Example: `tile.yield %sum : f32`
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

def Tile_PipelinedForOp : Tile_Op<"pipelined_for", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<LoopLikeOpInterface,
        ["getLoopInductionVars", "getLoopLowerBounds",
         "getLoopUpperBounds", "getLoopSteps"]>]> {
  let summary = "a k-loop whose copies overlap its compute";
  let description = [{
    A counted loop (`%iv` from `%lb` to `%ub` by `%step`) whose body loads
    tiles and computes on them. The lowering multi-buffers each shared tile
    the body's copies write into `stages` copies, issues the copies of
    iteration i + stages - 1 before the compute of iteration i, and makes the
    copies complete on a ring of `stages` mbarriers whose phase parities it
    computes. `stages = 1` is an ordinary loop.

    Example:

    ```mlir
    tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) {
      tile.copy %A[%m, %k] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      ...
      tile.gemm %As, %Bs, %acc : ...
    }
    ```

    With `warp_specialized` (sm_90a) the loop is split between warps instead:
    a producer warp issues the copies into the ring as soon as a slot is
    free (an "empty" barrier per slot, on which the consumers release it)
    and the kernel's original warpgroups, the consumers, wait for each slot
    and compute. The lowering adds the producer warpgroup to the kernel
    (`threads` grows by 128) and wraps the kernel body from the loop on in a
    `tile.warp_specialize`; the loop must then sit directly in the kernel
    body, and what precedes it must not be needed by the copies unless it is
    free of side effects.

    With `warp_specialized pingpong` the loop sits in a persistent `scf.for`
    over tiles, and the kernel's threads are one consumer team: the lowering
    runs two teams (`threads` becomes 2 x threads + 128) that take the tile
    loop's iterations in turn (team 0 the even ones, team 1 the odd ones).
    The teams' pipelined loops run one at a time, in tile order (each hands
    the turn to the other once its last product is issued), so what a team
    does after its loop, its epilogue, overlaps the other team's loop
    (CUTLASS's "ping-pong" schedule). The loop's bounds must not depend on
    the tile; shared tiles and barriers other than the loop's own would be
    shared by the teams and are refused; side-effecting ops before the tile
    loop run once per team.

    Rules: `stages` in [1, 16] (at least 2 with `warp_specialized`);
    `pingpong` only with `warp_specialized`; inside a `tile.kernel`.
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$step,
                       I32Attr:$stages, UnitAttr:$warp_specialized,
                       UnitAttr:$pingpong);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody().getArgument(0); }
  }];
}

def Tile_WarpSpecializeOp : Tile_Op<"warp_specialize", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "splits the kernel into a producer warp and consumer warpgroups";
  let description = [{
    The kernel's first warpgroup (threads 0-127) is the producer: its warp 0
    runs the `producer` region, and its other three warps only hand their
    registers to the consumers. The remaining warpgroups run the `consumers`
    region, where thread ids are renumbered from 0: layouts, elected threads
    and CTA barriers there are those of a kernel of `threads - 128` threads
    (a barrier becomes a named barrier of the consumers only). The regions
    communicate through shared memory and mbarriers allocated before this op.

    With `teams(2)` the consumers are two teams of (threads - 128) / 2
    threads: the consumers region takes the team's index (0 or 1) as its
    block argument, thread ids are renumbered from 0 within each team, and
    each team's CTA barriers are named barriers of its threads only.

    `registers(P, C)` moves registers from the producer warpgroup to the
    consumers (`setmaxnreg`: the producer drops to P per thread, each
    consumer rises to C); without it both keep what ptxas gives the kernel.

    `tile.pipelined_for ... warp_specialized` produces this op; it can also
    be written by hand.

    Example:

    ```mlir
    tile.warp_specialize registers(40, 232) producer {
      scf.for %i = %c0 to %n step %c1 {
        tile.mbarrier.wait %empty[%slot], %phase : !tile.barrier<4>
        tile.copy %A[%m, %k] to %As[] barrier %full[%slot] : ...
      }
    } consumers {
      ...
    }
    ```

    Rules: directly in a `tile.kernel` body whose `threads` is a multiple of
    128 and at least 256 (with teams, 128 + a multiple of 128 x teams);
    `teams` 1 or 2, and the consumers region's block takes one index
    argument with teams(2), none otherwise; a region with asynchronous TMA stores
    (`tile.copy {tma, async}`) also waits for them (`tile.wait_tma_stores`); both register counts or
    none, multiples of 8 in [24, 256], P at most and C at least the count
    the kernel starts with (R = 65536 / threads rounded down to a multiple
    of 8, at most 248), and 128 * P + (threads - 128) * C at most
    threads * R (the registers the CTA holds).
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$producerRegisters,
                       OptionalAttr<I32Attr>:$consumerRegisters,
                       OptionalAttr<I32Attr>:$teams);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumers);
  let assemblyFormat = [{
    (`teams` `(` $teams^ `)`)?
    (`registers` `(` $producerRegisters^ `,` $consumerRegisters `)`)?
    `producer` $producer `consumers` $consumers attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Threads of the producer warpgroup.
    static constexpr int64_t kProducerThreads = 128;
    /// Consumer teams (1 without `teams`).
    int64_t getNumTeams() { return getTeams().value_or(1); }
    /// Threads that run the producer region (its warpgroup's warp 0).
    static constexpr int64_t kProducerWarpThreads = 32;
    /// Registers per thread a kernel of `threads` threads starts with (what
    /// ptxas gives it, a multiple of 8): setmaxnreg moves registers between
    /// warpgroups of the CTA, so the CTA's total, threads times this, bounds
    /// 128 * P + (threads - 128) * C.
    static int64_t entryRegisters(int64_t threads) {
      return std::min<int64_t>(65536 / threads / 8 * 8, 248);
    }
    /// The most each consumer can have once the producer is down to
    /// `producerRegisters`.
    static int64_t consumerRegistersFor(int64_t threads,
                                        int64_t producerRegisters) {
      int64_t entry = entryRegisters(threads);
      int64_t freed = kProducerThreads * (entry - producerRegisters);
      return std::min<int64_t>(
          entry + freed / (threads - kProducerThreads) / 8 * 8, 256);
    }
    /// The region of `op`'s ancestors directly under a warp_specialize, if
    /// any, and that op.
    static WarpSpecializeOp getEnclosing(::mlir::Operation *op,
                                         ::mlir::Region **region = nullptr);
  }];
}

#endif // TILE_OPS
