//===- TileComputeOps.td - copy, gemm, fill, elementwise ---*- tablegen -*-===//

#ifndef TILE_COMPUTE_OPS
#define TILE_COMPUTE_OPS

include "tile/Dialect/Tile/IR/TileOpBase.td"

//===----------------------------------------------------------------------===//
// Data movement and compute
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments, DeclareOpInterfaceMethods<Tile_BarrierArrivalOpInterface>]> {
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
    an accumulator staged through shared memory; the slice's columns start
    and end on whole runs of the fragment's layout).

    Legal directions: global -> shared / fragment, shared / fragment ->
    global, shared <-> fragment, shared -> tmem (`tcgen05.cp`), tmem <->
    fragment (`tcgen05.ld/st`).

    Both sides have one element type, except that a copy from a fragment
    to global or shared memory may round f32 to bf16 or f16 (to nearest
    even): an f32 accumulator is
    stored as bf16 without a second fragment, e.g.
    `tile.copy %acc[] to %C[%m, %n] : !tile.fragment<128x128xf32>, memref<?x?xbf16>`.

    Without a barrier the copy is complete for the whole CTA when the op
    returns. With `barrier %b[%i]` (global -> shared only) the copy is
    asynchronous: it is issued as TMA on sm_90+ and completes on that
    barrier: one thread arrives on it once and raises its expected byte
    count by the tile's bytes (`mbarrier.arrive.expect_tx`), so a barrier
    that N copies complete on counts N arrivals per phase; wait on it with
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

    In a family whose cluster shape is a parameter (`cluster(CLUSTER, 1,
    1)`), `{multicast}` is checked per configuration, and tile-specialize
    makes it a plain load in a configuration of one CTA per cluster, so
    that one body serves both.

    Rules for `{multicast}`: global -> shared, a tile of rank 2 or more
    whose rows divide evenly between the cluster's CTAs, in slices of a
    multiple of 128 bytes (1024 for a swizzled tile); a cluster of more
    than one CTA (unless the cluster shape is a family parameter).

    `{async}` on a global -> shared copy without a barrier issues it and
    returns (no CTA barrier before or after, no cp.async group committed):
    the program commits and waits for the cp.async groups and synchronises
    the CTA itself, as the cp.async pipeline `tile-pipeline-loops` writes
    does (`nvvm.cp.async.commit.group`, `nvvm.cp.async.wait.group`,
    `gpu.barrier`).

    `{atomic_add}` on a fragment -> global copy of f32 adds the tile into
    the destination instead of overwriting it, with atomic reductions
    (`red.global.add`, two or four elements at a time on sm_90+): CTAs that hold
    partial sums of one output tile (split-K, stream-K) combine them without
    a workspace or an order. The program zeroes the destination first (the
    runtime's GEMM host does). Out-of-bounds elements are skipped as for a
    store. On an f32 shared tile copied `{tma}` (sm_90+), `{atomic_add}`
    adds the whole tile by one bulk tensor reduction per TMA box
    (`cp.reduce.async.bulk.tensor ... .add`): the staged epilogue of a
    partial tile, with `{async}` and `tile.wait_tma_stores` as for a TMA
    store; TMA needs rows of a multiple of 16 bytes in global memory.

    `mechanism` records how the copy is lowered (`tile-select-instructions`
    chooses it from the target chip, the operands and the flags above;
    `#tile.copy_mechanism`); the lowering refuses a copy without one.

    Example:

    ```mlir
    tile.copy %A[%m, %k] to %As[] barrier %full[%s]
        : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<3>
    tile.copy %acc[] to %C[%m, %n] : !tile.fragment<128x128xf32>, memref<?x?xf32>
    tile.copy %acc[] to %C[%m, %n] {atomic_add} : !tile.fragment<128x128xf32>, memref<?x?xf32>
    tile.copy %Cs[] to %C[%m, %n] {tma, async, atomic_add} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    ```
  }];
  let arguments = (ins Arg<Tile_AnyTile, "", [MemRead]>:$source, Variadic<Index>:$sourceOffsets,
                       Arg<Tile_AnyTile, "", [MemWrite]>:$dest, Variadic<Index>:$destOffsets,
                       Arg<Optional<Tile_BarrierType>, "", [MemRead, MemWrite]>:$barrier,
                       Optional<Index>:$barrierIndex, UnitAttr:$tma,
                       UnitAttr:$async, UnitAttr:$multicast,
                       UnitAttr:$atomic_add,
                       OptionalAttr<Tile_CopyMechanismAttr>:$mechanism);
  let assemblyFormat = [{
    $source `[` $sourceOffsets `]` `to` $dest `[` $destOffsets `]`
    (`barrier` $barrier^ `[` $barrierIndex `]`)?
    attr-dict `:` type($source) `,` type($dest) (`,` type($barrier)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Arrivals one run makes on its barrier (one per team: the leader's
    /// expect-tx): TileBarrierArrivals.cpp.
    static int64_t arrivalsPerRun(const ::mlir::tile::ArrivingThreads &by);
  }];
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

def Tile_GemmOp : Tile_Op<"gemm", [AttrSizedOperandSegments, DeclareOpInterfaceMethods<Tile_BarrierArrivalOpInterface>]> {
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
    (sm_100a) one thread issues the product (`tcgen05.mma`) and commits it
    to the barrier (`tcgen05.commit`): it arrives once, asynchronously, when
    the product is complete, so the barrier expects one arrival. A gemm
    into tensor memory must have a barrier, and C, A and B are the
    program's again only once its phase completes.

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

def Tile_CommitGemmsOp : Tile_Op<"commit_gemms", [DeclareOpInterfaceMethods<Tile_BarrierArrivalOpInterface>]> {
  let summary = "arrives on a barrier once this thread's tensor-memory products are complete";
  let description = [{
    Makes barrier `%b[%i]` track every `tile.gemm` into tensor memory
    (tcgen05.mma) that the threads running this op have issued so far: the
    barrier gets one arrival once they are all complete (`tcgen05.commit`,
    by the thread that issues them). A gemm with a barrier commits to it
    already; this op is for a second barrier, such as the one that tells an
    epilogue that a whole tile's accumulation is done while each step's
    gemm releases its operands' ring slot. The barrier must expect one
    arrival per commit.

    Example: `tile.commit_gemms barrier %acc_full[%b] : !tile.barrier<2>`

    Rules: inside a `tile.kernel`; sm_100a (tcgen05).
  }];
  let arguments = (ins Arg<Tile_BarrierType, "", [MemRead, MemWrite]>:$barrier,
                       Index:$barrierIndex);
  let assemblyFormat = [{
    `barrier` $barrier `[` $barrierIndex `]` attr-dict `:` type($barrier)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Arrivals one run makes (one commit per team).
    static int64_t arrivalsPerRun(const ::mlir::tile::ArrivingThreads &by);
  }];
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

    **Broadcast.** An input may have extent 1 where the outputs have more
    (a row or a column of values, or a single value): its element is reused
    along those dimensions, as in NumPy with equal ranks. A fragment
    broadcast this way gets the `#tile.slice` layout of the outputs' layout,
    so each thread reads the value from its own registers.

    ```mlir
    // y = (x - mean) * rstd, per row: mean and rstd are 4x1.
    tile.elementwise ins(%x, %mean, %rstd : !tile.fragment<4x1024xf32>,
                         !tile.fragment<4x1xf32>, !tile.fragment<4x1xf32>)
                     outs(%y : !tile.fragment<4x1024xf32>) {
    ^bb0(%v: f32, %m: f32, %r: f32):
      %d = arith.subf %v, %m : f32
      %n = arith.mulf %d, %r : f32
      tile.yield %n : f32
    }
    ```

    **Coordinates.** After the element arguments the body may take one
    `index` argument per dimension: the element's coordinates in the tile
    (add the tile's offset for a position in a larger tensor), for causal
    masks, positions and ragged edges.

    ```mlir
    ^bb0(%v: f32, %row: index, %col: index):
      %in = arith.cmpi ult, %col, %n : index
      %z = arith.select %in, %v, %zero : f32
    ```

    Rules: `ins` and `outs` are register fragments or shared-memory tiles of
    one rank; outputs have one shape and inputs that shape or 1 along some
    dimensions (shared-memory inputs are not broadcast); at least one
    output; the body takes one argument per input, of its element type,
    then optionally one `index` per dimension, and yields one value per
    output, of its element type.
    The body runs once per element in every thread, so it holds only
    side-effect-free scalar code (arith, math, scf, ...): no tile ops, copies,
    gemms, barriers or memory accesses.
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


def Tile_ReduceOp : Tile_Op<"reduce"> {
  let summary = "sums, maxima or minima along one dimension of a fragment";
  let description = [{
    Combines the elements of fragment `%source` along dimension `dim` with
    `kind` (`sum`, `max` or `min`) and writes the results to `%dest`, which
    has the source's shape with 1 at `dim` (a column of row sums, say).
    Every thread holding part of a row takes part: it combines its own
    elements, then the lanes of its warp along `dim` exchange partial
    results with butterfly shuffles (`shfl.sync.bfly`), and where warps
    spread along `dim` too they meet in shared scratch (two CTA barriers).
    Afterwards every thread that held part of a row holds the result (the
    `#tile.slice` layout), ready to be broadcast back into a
    `tile.elementwise` on the source's shape. The order of combination is
    fixed, so every thread gets the same value.

    bf16 and f16 sources may be reduced into f32 (each element is extended
    first: fp32 accumulation); otherwise the element types agree. Floats
    combine with `arith.addf` / `arith.maximumf` / `arith.minimumf`
    (maxima and minima propagate NaN); integers with `addi` / `maxsi` /
    `minsi`.

    Example:

    ```mlir
    tile.reduce sum %x into %rows dim 1
        : !tile.fragment<4x1024xbf16>, !tile.fragment<4x1xf32>
    ```

    Rules: both are fragments of one rank; `dim` is a dimension of it;
    dest's shape is the source's with 1 at `dim`; inside a `tile.kernel`,
    run by all of the kernel's (or team's) threads. Where warps spread
    along `dim`, not inside a `tile.warp_specialize` (its teams cannot use
    the CTA barrier): choose a tile whose rows a warp holds. Where both
    have layouts, dest's holds its elements as the source's layout sliced
    along `dim` does (`layoutsHoldAlike`: the same element in the same
    register slot of the same thread), e.g. the row sums of a 128x64 wgmma
    tile may go into the slice of a 128x128 one.
  }];
  let extraClassDeclaration = [{
    /// The source's layout sliced along `dim`, what tile-assign-layouts
    /// gives the destination; null while the source has no layout.
    ::mlir::tile::SliceLayoutAttr getSourceSlice();
    /// Whether a destination laid out by `layout` holds its elements as
    /// getSourceSlice() does (false while the source has no layout): the
    /// test the verifier, the lowering and tile-assign-layouts share.
    bool acceptsDestLayout(::mlir::Attribute layout);
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind,
                       Arg<Tile_FragmentType, "", [MemRead]>:$source,
                       Arg<Tile_FragmentType, "", [MemWrite]>:$dest,
                       I64Attr:$dim);
  let assemblyFormat = [{
    `` $kind $source `into` $dest `dim` $dim attr-dict `:` qualified(type($source)) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

#endif // TILE_COMPUTE_OPS
