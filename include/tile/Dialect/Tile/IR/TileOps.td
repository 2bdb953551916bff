//===- TileOps.td - tile dialect ops -----------------------*- tablegen -*-===//
//
// The op reference: every op carries its summary, a description with an
// example, and the rules its verifier enforces. docs/generated/ is built
// from this file.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OPS
#define TILE_OPS

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileAttrs.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"

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

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

def Tile_AllocSharedOp : Tile_Op<"alloc_shared"> {
  let summary = "a statically shaped tile buffer in shared memory";
  let description = [{
    Allocates a tile in the CTA's shared memory for the whole kernel. The
    result is a `memref` in `#gpu.address_space<workgroup>`, so upstream
    memref ops can read it too. The lowering picks the layout (swizzle) that
    TMA writes and the matrix instructions read.

    Example:

    ```mlir
    %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    ```

    `swizzle` (0, 32, 64 or 128 bytes; absent = chosen by
    `tile-assign-layouts`) is the XOR swizzle of 16-byte chunks within rows
    that TMA writes and wgmma reads without bank conflicts.

    Rules: static shape, identity layout, workgroup memory space, and must be
    inside a `tile.kernel`. With a swizzle, the innermost
    dimension spans a multiple of the swizzle's bytes; rows wider than
    the swizzle are stored as blocks of columns, each `swizzle` bytes wide
    and contiguous (the layout TMA boxes and MN-major wgmma operands use).
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$swizzle);
  let results = (outs Res<AnyMemRef, "", [MemAllocAt<0, FullEffect>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_AllocFragmentOp : Tile_Op<"alloc_fragment"> {
  let summary = "a tile held in registers across the CTA";
  let description = [{
    Allocates a register fragment. Its contents are undefined until a
    `tile.fill`, `tile.copy`, `tile.gemm` or `tile.elementwise` writes it.

    Example: `%acc = tile.alloc_fragment : !tile.fragment<128x128xf32>`

    Rules: must be inside a `tile.kernel`.
  }];
  let results = (outs Res<Tile_FragmentType, "",
                          [MemAllocAt<0, FullEffect>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_AllocTmemOp : Tile_Op<"alloc_tmem"> {
  let summary = "allocates a tile of sm_100 tensor memory";
  let description = [{
    Allocates tensor memory for the CTA (`tcgen05.alloc`); the hardware rounds
    the column count up to a power of two of at least 32. All allocations of
    a kernel together must fit in 512 columns. Free it with
    `tile.dealloc_tmem` before the kernel ends.

    Example: `%t = tile.alloc_tmem : !tile.tmem<128x256xf32>`
  }];
  let results = (outs Res<Tile_TmemType, "",
                          [MemAllocAt<0, FullEffect>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_DeallocTmemOp : Tile_Op<"dealloc_tmem"> {
  let summary = "frees tensor memory";
  let description = [{
    Frees a `tile.alloc_tmem` allocation (`tcgen05.dealloc`) and gives up the
    CTA's allocation permit.

    Example: `tile.dealloc_tmem %t : !tile.tmem<128x256xf32>`

    Rules: the operand must come straight from `tile.alloc_tmem`.
  }];
  let arguments = (ins Arg<Tile_TmemType, "", [MemFreeAt<0, FullEffect>]>:$tmem);
  let assemblyFormat = "$tmem attr-dict `:` qualified(type($tmem))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

def Tile_AllocBarrierOp : Tile_Op<"alloc_barrier"> {
  let summary = "allocates and initialises a ring of mbarriers";
  let description = [{
    Allocates `N` mbarriers in shared memory (the `!tile.barrier<N>` result)
    and initialises each with `arrivals` expected arrivals per phase; one
    thread initialises and the CTA synchronises before any use.

    Example: `%full = tile.alloc_barrier arrivals(1) : !tile.barrier<3>`

    Rules: `arrivals` in [1, 2^20 - 1]; inside a `tile.kernel`.
  }];
  let arguments = (ins I32Attr:$arrivals);
  let results = (outs Res<Tile_BarrierType, "", [MemAllocAt<0, FullEffect>,
                          MemWriteAt<0, FullEffect>]>:$result);
  let assemblyFormat = "`arrivals` `(` $arrivals `)` attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

class Tile_MBarrierOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<"mbarrier." # mnemonic, traits> {
  let hasVerifier = 1;
}

// The mbarrier ops read and write their barrier, and also carry a generic
// read+write effect: an arrive releases and a wait acquires the memory that
// the barrier guards (shared tiles that TMA or other threads write), so no
// memory access may move across them.
def Tile_MBarrierArriveOp : Tile_MBarrierOp<"arrive",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives on one barrier of a ring";
  let description = [{
    Every thread of the CTA that reaches this op arrives once on
    barrier `%index` of the ring, unless `leader` is set, in which case only
    one elected thread arrives (the count given to `tile.alloc_barrier` must
    match how many arrive per phase).

    With `cluster` (sm_90+), each warp that reaches the op, all its threads
    together, arrives once (one lane, after the warp has synchronised, so
    its threads' earlier reads of shared memory are ordered before the
    arrival) on barrier `%index` of every CTA of the cluster (`mapa` +
    `mbarrier.arrive.shared::cluster`, with the default release semantics
    at CTA scope: what a consumer read needs no wider release, and a
    cluster-scope release per arrival was measured to cost more than a
    GEMM k-step): the count is then warps x CTAs per phase. This is how a
    slot that TMA multicast fills is released to every CTA that writes it.

    Examples:
    `tile.mbarrier.arrive %bar[%i] leader : !tile.barrier<3>`
    `tile.mbarrier.arrive %bar[%i] cluster : !tile.barrier<3>`

    Rules: not both `leader` and `cluster`.
  }];
  let arguments = (ins Arg<Tile_BarrierType, "", [MemRead, MemWrite]>:$barrier,
                       Index:$index, UnitAttr:$leader, UnitAttr:$cluster);
  let assemblyFormat = [{
    $barrier `[` $index `]` (`leader` $leader^)? (`cluster` $cluster^)? attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def Tile_MBarrierExpectTxOp : Tile_MBarrierOp<"expect_tx",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "announces bytes that asynchronous copies will deliver";
  let description = [{
    One elected thread arrives on barrier `%index` and raises its expected
    transaction count by `bytes` (`mbarrier.arrive.expect_tx`): the phase
    completes when the TMA copies have delivered that many bytes.
    `tile.copy` with a barrier does this itself; this op is for hand-written
    protocols.

    Example: `tile.mbarrier.expect_tx %bar[%i], 16384 : !tile.barrier<3>`

    Rules: `bytes` in [1, 2^20 - 1].
  }];
  let arguments = (ins Arg<Tile_BarrierType, "", [MemRead, MemWrite]>:$barrier,
                       Index:$index, I64Attr:$bytes);
  let assemblyFormat = "$barrier `[` $index `]` `,` $bytes attr-dict `:` qualified(type($barrier))";
}

def Tile_MBarrierWaitOp : Tile_MBarrierOp<"wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for a barrier's phase of the given parity to complete";
  let description = [{
    Spins (`mbarrier.try_wait.parity`) until the phase of barrier `%index`
    with parity `%parity` has completed.

    Example: `tile.mbarrier.wait %bar[%i], %phase : !tile.barrier<3>`
  }];
  let arguments = (ins Arg<Tile_BarrierType, "", [MemRead, MemWrite]>:$barrier,
                       Index:$index, I1:$parity);
  let assemblyFormat = "$barrier `[` $index `]` `,` $parity attr-dict `:` qualified(type($barrier))";
}

//===----------------------------------------------------------------------===//
// Data movement and compute
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "copies a tile between global, shared, register and tensor memory";
  let description = [{
    Copies a tile. When one side is global memory, the other side's static
    shape is the tile and `[offsets]` on the global side give the element
    position of the tile's first element (one offset per dimension).
    Out-of-bounds reads give 0 and out-of-bounds writes are skipped, so edge
    tiles need no special code. When neither side is global, the two shapes
    are equal and no offsets are given, except that a fragment -> shared
    copy may take constant `[offsets]` on the fragment: it copies the slice
    of the fragment, of the shared tile's shape, that starts there (part of
    an accumulator staged through shared memory; with a matrix layout the
    slice spans whole rows and multiples of 8 columns).

    Legal directions: global -> shared / fragment, shared / fragment ->
    global, shared <-> fragment, shared -> tmem (`tcgen05.cp`), tmem <->
    fragment (`tcgen05.ld/st`).

    Without a barrier the copy is complete for the whole CTA when the op
    returns. With `barrier %b[%i]` (global -> shared only) the copy is
    asynchronous: it is issued as TMA on sm_90+ and completes on that
    barrier, whose expected byte count the op raises; wait on it with
    `tile.mbarrier.wait`.

    `{tma}` on a shared -> global copy asks for a TMA store (sm_90+): the
    CTA's writes to the tile are fenced, one thread issues the bulk tensor
    store and waits for it, and the op returns when it is complete. The
    caller asserts what TMA needs of the global memref: a kernel argument
    whose rows are a multiple of 16 bytes (the runtime refuses others when
    it builds the tensor map).
    With `{tma, async}` the thread that issued the store does not wait:
    the op returns once the store is issued. The CTA may write the shared
    tile again only after `tile.wait_tma_stores` says the store has read
    it, and must wait for all its asynchronous stores before it ends.

    `{multicast}` on a global -> shared copy in a kernel with a cluster of
    more than one CTA: every CTA of the cluster copies the same tile (the
    program asserts that the offsets agree), so each CTA loads only its
    slice of the tile's rows (the outermost dimension, split by CTA rank)
    and TMA multicast writes it into the tile of every CTA. Each CTA's
    barrier still expects the whole tile's bytes. Every CTA of the cluster
    must issue the same multicast copies (or the others wait forever). In
    a `warp_specialized` `tile.pipelined_for` the compiler releases slots to
    every CTA of the cluster and synchronises the cluster around the loop;
    the software-pipelined schedule refuses multicast copies, and outside a
    pipeline the copy must complete on a barrier, with the program owning
    the protocol (`tile.mbarrier.arrive ... cluster`, `tile.barrier_all
    level cluster` after the barriers' initialisation and before the end).

    Rules for `{multicast}`: global -> shared, a tile of rank 2 or more
    whose rows divide evenly between the cluster's CTAs, in slices of a
    multiple of 128 bytes (1024 for a swizzled tile).

    `{async}` on a global -> shared copy without a barrier issues it and
    returns (no CTA barrier before or after, no cp.async group committed):
    the program commits and waits for the cp.async groups and synchronises
    the CTA itself, as the cp.async pipeline `tile-pipeline-loops` writes
    does (`nvvm.cp.async.commit.group`, `nvvm.cp.async.wait.group`,
    `gpu.barrier`).

    `mechanism` records how the copy is lowered (`tile-select-instructions`
    chooses it from the target chip, the operands and the flags above;
    `#tile.copy_mechanism`); the lowering refuses a copy without one.

    Example:

    ```mlir
    tile.copy %A[%m, %k] to %As[] barrier %full[%s]
        : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<3>
    tile.copy %acc[] to %C[%m, %n] : !tile.fragment<128x128xf32>, memref<?x?xf32>
    ```
  }];
  let arguments = (ins Arg<Tile_AnyTile, "", [MemRead]>:$source, Variadic<Index>:$sourceOffsets,
                       Arg<Tile_AnyTile, "", [MemWrite]>:$dest, Variadic<Index>:$destOffsets,
                       Arg<Optional<Tile_BarrierType>, "", [MemRead, MemWrite]>:$barrier,
                       Optional<Index>:$barrierIndex, UnitAttr:$tma,
                       UnitAttr:$async, UnitAttr:$multicast,
                       OptionalAttr<Tile_CopyMechanismAttr>:$mechanism);
  let assemblyFormat = [{
    $source `[` $sourceOffsets `]` `to` $dest `[` $destOffsets `]`
    (`barrier` $barrier^ `[` $barrierIndex `]`)?
    attr-dict `:` type($source) `,` type($dest) (`,` type($barrier)^)?
  }];
  let hasVerifier = 1;
}

def Tile_WaitTmaStoresOp : Tile_Op<"wait_tma_stores",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until asynchronous TMA stores have read their tiles";
  let description = [{
    Waits until at most `pending` of the CTA's asynchronous TMA stores
    (`tile.copy ... {tma, async}`, in issue order) are still reading their
    shared tiles (`cp.async.bulk.wait_group.read` by the issuing thread),
    then synchronises the CTA: every thread may then write the tiles of the
    older stores again. `pending(0)` before the kernel ends makes sure no
    store still reads shared memory. The stores and their waits must run in
    the same threads (in a `tile.warp_specialize`, the same region): the
    thread that issues a store is the one that can wait for it.

    Example: `tile.wait_tma_stores pending(1)`

    Rules: `pending` in [0, 7]; inside a `tile.kernel`.
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "`pending` `(` $pending `)` attr-dict";
  let hasVerifier = 1;
}

def Tile_GemmOp : Tile_Op<"gemm", [AttrSizedOperandSegments]> {
  let summary = "C (+)= op(A) * op(B) on tiles";
  let description = [{
    Multiplies tiles on the tensor cores: `C = op(A) op(B) + (clear_accum ? 0 : C)`
    where `op` transposes when `transpose_a` / `transpose_b` is set. A is
    M x K (K x M transposed), B is K x N (N x K transposed), C is M x N.

    A is a shared-memory tile, a register fragment (sm_80, sm_90a) or a
    tensor-memory tile (sm_100a); B is a shared-memory tile; C is a register
    fragment (mma.sync, wgmma) or a tensor-memory tile (tcgen05.mma).
    Legal element types (A/B -> C): bf16 -> f32, f16 -> f16 or f32,
    f32 -> f32 (tf32 math), i8 -> i32, f8E4M3FN / f8E5M2 -> f32.

    Without a barrier the product is complete when the op returns. With
    `barrier %b[%i]` its completion is signalled on that barrier: with C in
    registers (mma.sync, wgmma) every thread arrives once its part of the
    product is complete, so the barrier must count one arrival per thread of
    the kernel (on sm_90a the warpgroup waits for its wgmma group first:
    Hopper cannot tie a group to an mbarrier); with C in tensor memory
    (`tcgen05.commit` on sm_100a, not lowered yet) the product will arrive
    once, asynchronously.

    `{async}` (no barrier): the product may still be in flight when the op
    returns (wgmma: its group is committed, not waited for); the program
    waits with `tile.wait_gemms` before it reads C or changes A, B or C.
    `tile-pipeline-loops` writes this for gemms whose operands stay in
    their ring slots until the next iteration's wait.

    `mechanism` records the matrix instruction (`tile-select-instructions`
    chooses it from the target chip and C's layout;
    `#tile.mma_mechanism`); the lowering refuses a gemm without one.

    Example:

    ```mlir
    tile.gemm %As, %Bs, %acc {transpose_b}
        : memref<128x64xbf16, #gpu.address_space<workgroup>>,
          memref<256x64xbf16, #gpu.address_space<workgroup>>,
          !tile.fragment<128x256xf32>
    ```
  }];
  let arguments = (ins Arg<Tile_AnyTile, "", [MemRead]>:$a, Arg<AnyMemRef, "", [MemRead]>:$b, Arg<Tile_AnyTile, "", [MemRead, MemWrite]>:$c,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b,
                       UnitAttr:$clear_accum,
                       Arg<Optional<Tile_BarrierType>, "", [MemRead, MemWrite]>:$barrier,
                       Optional<Index>:$barrierIndex, UnitAttr:$async,
                       OptionalAttr<Tile_MmaMechanismAttr>:$mechanism);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`barrier` $barrier^ `[` $barrierIndex `]`)?
    attr-dict `:` type($a) `,` type($b) `,` type($c) (`,` type($barrier)^)?
  }];
  let hasVerifier = 1;
}

def Tile_WaitGemmsOp : Tile_Op<"wait_gemms",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until at most N asynchronous gemms are in flight";
  let description = [{
    Waits until at most `pending` of this thread's `tile.gemm {async}`
    products (in issue order) are still in flight; their accumulators may
    then be read and their operands changed. With wgmma this is
    `wgmma.wait_group pending`; mma.sync products are never in flight, so
    where no gemm takes wgmma it waits for nothing.

    Example: `tile.wait_gemms pending(1)`

    Rules: `pending` in [0, 7]; inside a `tile.kernel`.
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "`pending` `(` $pending `)` attr-dict";
  let hasVerifier = 1;
}

def Tile_FillOp : Tile_Op<"fill"> {
  let summary = "sets every element of a tile to a value";
  let description = [{
    Writes `%value` into every element of a register fragment or a
    shared-memory tile.

    Example: `tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32`

    Rules: the value's type is the tile's element type.
  }];
  let arguments = (ins Arg<Tile_AnyTile, "", [MemWriteAt<0, FullEffect>]>:$dest,
                       AnyType:$value);
  let assemblyFormat = "$dest `,` $value attr-dict `:` type($dest) `,` type($value)";
  let hasVerifier = 1;
}

def Tile_ElementwiseOp : Tile_Op<"elementwise", [
    AttrSizedOperandSegments, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "applies scalar code to every element of equally shaped tiles";
  let description = [{
    Runs the body once per element position: its block arguments are the
    elements of the `ins` tiles at that position, and the values it yields
    are stored to the `outs` tiles there. Values defined outside the body
    (scalars such as a scale factor) may be used inside it. This is the
    epilogue and element-wise kernel building block; the lowering spreads
    elements over the CTA's threads with 16-byte vectors per thread.

    Example:

    ```mlir
    tile.elementwise ins(%x, %y : !tile.fragment<1024xf32>, !tile.fragment<1024xf32>)
                     outs(%z : !tile.fragment<1024xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.yield %s : f32
    }
    ```

    Rules: `ins` and `outs` are register fragments or shared-memory tiles of
    one shape; at least one output; the body takes one argument per input,
    of its element type, and yields one value per output, of its element type.
  }];
  let arguments = (ins Arg<Variadic<Tile_AnyTile>, "", [MemRead]>:$inputs,
                       Arg<Variadic<Tile_AnyTile>, "", [MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)` $body attr-dict
  }];
  let hasRegionVerifier = 1;
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
  let summary = "splits the kernel's warps into named roles";
  let description = [{
    Each `role` region runs on its own range of the kernel's warps. Roles
    are laid out in order from warp 0: a role whose warp count is a multiple
    of 4 (`warpgroups(N)` is `warps(4 N)`) or that sets `registers` starts
    on a warpgroup boundary (wgmma and setmaxnreg act per warpgroup), and a
    role that sets `registers` is padded to whole warpgroups; warps left
    between roles by that alignment run nothing (but the padding warps of a
    role with `registers` hand over their registers). The roles' warps,
    padding included, must be exactly the kernel's `threads`.

    Inside a role, thread ids count from 0, and layouts, elected threads
    and CTA barriers are those of a kernel of the role's threads (a barrier
    becomes a named barrier of the role's threads only). With `teams(T)`
    the role's warps are T teams that each see a kernel of warps x 32 / T
    threads, with their own thread ids and barriers; the region then takes
    the team's index as its argument (`teams(2) as %team`). The compiler
    allocates the named barriers (ids 1 to 15; 0 is the CTA's), one per
    role or team whose code synchronises, in role order.

    `registers(R)` sets the role's register budget with setmaxnreg at its
    start (`.dec` when R is at most what the kernel starts with, `.inc`
    otherwise); without it the role keeps what ptxas gives the kernel.
    Roles communicate through shared memory and mbarriers allocated before
    this op.

    `tile.pipelined_for ... warp_specialized` produces this op (roles
    "producer" and "consumers"); it can also be written by hand.

    Example:

    ```mlir
    tile.warp_specialize {
      role "producer" warps(1) registers(40) {
        scf.for %i = %c0 to %n step %c1 {
          tile.mbarrier.wait %empty[%slot], %phase : !tile.barrier<4>
          tile.copy %A[%m, %k] to %As[] barrier %full[%slot] : ...
        }
      }
      role "consumers" warpgroups(2) registers(232) teams(2) as %team {
        ...
      }
    }
    ```

    Rules: directly in a `tile.kernel` body; at least one role; role names
    unique; warp counts positive; `teams` at least 1 and dividing the role's
    warps; a region takes the team's index (index) with teams, nothing
    otherwise; register budgets multiples of 8 in [24, 256], and the
    registers asked for (each role's threads, padding included, times its
    budget or what the kernel starts with: R = 65536 / threads rounded down
    to a multiple of 8, at most 248) at most threads x R; a role with
    asynchronous TMA stores (`tile.copy {tma, async}`) also waits for them
    (`tile.wait_tma_stores`).
  }];
  let arguments = (ins StrArrayAttr:$roleNames, DenseI32ArrayAttr:$roleWarps,
                       DenseI32ArrayAttr:$roleRegisters,
                       DenseI32ArrayAttr:$roleTeams);
  let regions = (region VariadicRegion<SizedRegion<1>>:$roles);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// One role as written: its warps, register budget (none: keeps the
    /// kernel's) and teams.
    struct Role {
      ::std::string name;
      int64_t warps = 1;
      ::std::optional<int64_t> registers;
      int64_t teams = 1;
    };
    /// Where a role's threads lie: [begin, active) run it; threads up to
    /// `end` (the next role's begin, or the end of the last role's
    /// warpgroups) are its padding or the alignment gap after it, which
    /// run nothing but take the role's setmaxnreg.
    struct Placement {
      int64_t begin, active, end;
    };
    /// A warp_specialize with `roles` (empty regions; with teams, the
    /// region's block takes the team's index).
    static WarpSpecializeOp createWithRoles(::mlir::OpBuilder &b,
                                            ::mlir::Location loc,
                                            ::llvm::ArrayRef<Role> roles);

    static constexpr int64_t kWarpThreads = 32;
    static constexpr int64_t kWarpgroupThreads = 128;
    /// Named barrier ids the hardware has (0 is the CTA's own).
    static constexpr int64_t kNamedBarriers = 16;

    unsigned getNumRoles() { return getRoles().size(); }
    ::llvm::StringRef getRoleName(unsigned role) {
      return ::llvm::cast<::mlir::StringAttr>(getRoleNames()[role]).getValue();
    }
    Role getRole(unsigned role);
    /// Threads of one team of `role` (all its threads without teams).
    int64_t getTeamThreads(unsigned role) {
      return int64_t(getRoleWarps()[role]) * kWarpThreads /
             getRoleTeams()[role];
    }
    /// Where each role's threads lie (see the placement rule above).
    ::llvm::SmallVector<Placement> getPlacement();
    /// Whether some role sets a register budget (setmaxnreg).
    bool setsRegisters() {
      return ::llvm::any_of(getRoleRegisters(),
                            [](int32_t r) { return r != 0; });
    }
    /// Transitional name of setsRegisters() for tile-select-instructions.
    std::optional<uint32_t> getProducerRegisters() {
      for (int32_t r : getRoleRegisters())
        if (r)
          return uint32_t(r);
      return std::nullopt;
    }

    /// Registers per thread a kernel of `threads` threads starts with (what
    /// ptxas gives it, a multiple of 8): setmaxnreg moves registers between
    /// warpgroups of the CTA, so the CTA's total, threads times this, bounds
    /// what the roles ask for.
    static int64_t entryRegisters(int64_t threads) {
      return std::min<int64_t>(65536 / threads / 8 * 8, 248);
    }
    /// The most each of the other threads of a kernel of `threads` threads
    /// can have once `lowered` threads are down to `loweredRegisters`.
    static int64_t raisedRegisters(int64_t threads, int64_t lowered,
                                   int64_t loweredRegisters) {
      int64_t entry = entryRegisters(threads);
      int64_t freed = lowered * (entry - loweredRegisters);
      return std::min<int64_t>(
          entry + freed / (threads - lowered) / 8 * 8, 256);
    }
    /// The region of `op`'s ancestors directly under a warp_specialize, if
    /// any, and that op.
    static WarpSpecializeOp getEnclosing(::mlir::Operation *op,
                                         ::mlir::Region **region = nullptr);
  }];
}

//===----------------------------------------------------------------------===//
// Communication between CTAs of a cluster and between GPUs
//===----------------------------------------------------------------------===//

def Tile_PutOp : Tile_Op<"put", [AttrSizedOperandSegments]> {
  let summary = "copies a local tile into a peer's symmetric buffer";
  let description = [{
    Copies tile `%source` into `%dest` at `[offsets]` on peer `%peer`: another
    CTA of the cluster (`level cluster`, distributed shared memory; `%dest`
    is in shared memory) or another process of the job (`level world`,
    NVSHMEM; `%dest` is a symmetric global buffer). `scope` names the threads
    that issue it together. With `signal %sig[%i] <set|add> %v` the peer's
    signal word is updated after the data has arrived.

    Example:

    ```mlir
    tile.put %buf to %recv[%off] peer %next scope block level world
        signal %flags[%me] set %one
        : memref<1024xf32>, memref<?xf32>, memref<?xi64>
    ```

    Rules: element types agree; `%dest` rank equals the tile's rank and one
    offset per dimension is given; world-level buffers are in global memory,
    cluster-level destinations in shared memory; signal words are i64.
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Variadic<Index>:$destOffsets, I32:$peer,
                       Tile_ScopeAttr:$scope, Tile_LevelAttr:$level,
                       Arg<Optional<AnyMemRef>, "", [MemRead, MemWrite]>:$signal,
                       Optional<Index>:$signalIndex,
                       OptionalAttr<Tile_SignalKindAttr>:$signalKind,
                       Optional<I64>:$signalValue);
  let assemblyFormat = [{
    $source `to` $dest `[` $destOffsets `]` `peer` $peer
    `scope` `` $scope `level` `` $level
    (`signal` $signal^ `[` $signalIndex `]` `` $signalKind $signalValue)?
    attr-dict `:` type($source) `,` type($dest) (`,` type($signal)^)?
  }];
  let hasVerifier = 1;
}

def Tile_GetOp : Tile_Op<"get"> {
  let summary = "copies a tile out of a peer's symmetric buffer";
  let description = [{
    Copies the tile at `[offsets]` of `%source` on peer `%peer` into the local
    tile `%dest` (shape of `%dest`). Levels and scopes as for `tile.put`; the
    data is in `%dest` when the op returns.

    Example:

    ```mlir
    tile.get %src[%off] peer %p scope block level world to %buf
        : memref<?xf32>, memref<1024xf32>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Variadic<Index>:$sourceOffsets,
                       I32:$peer, Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Tile_ScopeAttr:$scope, Tile_LevelAttr:$level);
  let assemblyFormat = [{
    $source `[` $sourceOffsets `]` `peer` $peer `scope` `` $scope
    `level` `` $level `to` $dest attr-dict `:` type($source) `,` type($dest)
  }];
  let hasVerifier = 1;
}

// signal releases (it is ordered after earlier puts) and wait acquires, so
// both also carry a generic read+write effect: no memory access moves across.
def Tile_SignalOp : Tile_Op<"signal", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "sets or adds to a peer's signal word";
  let description = [{
    Updates word `%index` of the symmetric i64 buffer `%signal` on peer
    `%peer`: `set` stores `%value`, `add` adds it atomically. Ordered after
    the issuing threads' earlier puts to that peer.

    Example: `tile.signal %flags[%i] add %one peer %p level world : memref<?xi64>`
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead, MemWrite]>:$signal,
                       Index:$index, Tile_SignalKindAttr:$kind,
                       I64:$value, I32:$peer, Tile_LevelAttr:$level);
  let assemblyFormat = [{
    $signal `[` $index `]` `` $kind $value `peer` $peer `level` `` $level
    attr-dict `:` type($signal)
  }];
  let hasVerifier = 1;
}

def Tile_WaitOp : Tile_Op<"wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until a local signal word satisfies a comparison";
  let description = [{
    Spins with acquire loads until word `%index` of the local signal buffer
    compares true against `%value`.

    Example: `tile.wait %flags[%i] ge %expected : memref<?xi64>`
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$signal, Index:$index,
                       Tile_CmpAttr:$cmp, I64:$value);
  let assemblyFormat = "$signal `[` $index `]` `` $cmp $value attr-dict `:` type($signal)";
  let hasVerifier = 1;
}

def Tile_FenceOp : Tile_Op<"fence", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders earlier puts before later ones to the same peer";
  let description = [{
    Orders the calling thread's earlier puts and signals before its later
    ones (`nvshmem_fence` at world level, `fence.acq_rel.cluster` at cluster
    level).

    Example: `tile.fence level world`
  }];
  let arguments = (ins Tile_LevelAttr:$level);
  let assemblyFormat = "`level` `` $level attr-dict";
}

def Tile_BarrierAllOp : Tile_Op<"barrier_all",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronises all peers and completes their outstanding puts";
  let description = [{
    Every CTA of the cluster (`level cluster`: `barrier.cluster`) or every
    process of the job (`level world`: `nvshmemx_barrier_all_block`) waits
    for all others, and all earlier puts are complete and visible afterwards.

    Example: `tile.barrier_all level cluster`
  }];
  let arguments = (ins Tile_LevelAttr:$level);
  let assemblyFormat = "`level` `` $level attr-dict";
}

def Tile_RankOp : Tile_Op<"rank", [Pure]> {
  let summary = "this CTA's rank in its cluster, or this process's in the job";
  let description = [{
    Example: `%me = tile.rank level world : i32`
  }];
  let arguments = (ins Tile_LevelAttr:$level);
  let results = (outs I32:$result);
  let assemblyFormat = "`level` `` $level attr-dict `:` type($result)";
}

def Tile_NumRanksOp : Tile_Op<"num_ranks", [Pure]> {
  let summary = "number of CTAs in the cluster, or of processes in the job";
  let description = [{
    Example: `%n = tile.num_ranks level cluster : i32`
  }];
  let arguments = (ins Tile_LevelAttr:$level);
  let results = (outs I32:$result);
  let assemblyFormat = "`level` `` $level attr-dict `:` type($result)";
}

#endif // TILE_OPS
