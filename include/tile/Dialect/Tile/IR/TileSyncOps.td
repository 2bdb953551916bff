//===- TileSyncOps.td - mbarriers --------------------------*- tablegen -*-===//

#ifndef TILE_SYNC_OPS
#define TILE_SYNC_OPS

include "tile/Dialect/Tile/IR/TileOpBase.td"

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
    [MemoryEffects<[MemRead, MemWrite]>, DeclareOpInterfaceMethods<Tile_BarrierArrivalOpInterface>]> {
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
  let extraClassDeclaration = [{
    /// Arrivals one run makes, by its form (`leader`, `cluster`).
    static int64_t arrivalsPerRun(bool leader, bool cluster,
                                  const ::mlir::tile::ArrivingThreads &by);
  }];
}

def Tile_MBarrierExpectTxOp : Tile_MBarrierOp<"expect_tx",
    [MemoryEffects<[MemRead, MemWrite]>, DeclareOpInterfaceMethods<Tile_BarrierArrivalOpInterface>]> {
  let summary = "announces bytes that asynchronous copies will deliver";
  let description = [{
    One elected thread arrives on barrier `%index` and raises its expected
    transaction count by `bytes` (`mbarrier.arrive.expect_tx`): the phase
    completes when the TMA copies have delivered that many bytes.
    `tile.copy` with a barrier does this itself, for its own bytes, and no
    other tile op delivers bytes to a barrier: on a barrier whose users are
    all tile arrivals and waits this op can only add bytes that never
    arrive, and `tile-check-barriers` reports it there.

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
// Warpgroups taking turns
//===----------------------------------------------------------------------===//

// Both carry a generic read+write effect: no memory access (a product's
// issue above all) may move across a turn's edges.
def Tile_TakeTurnOp : Tile_Op<"take_turn",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until this warpgroup holds the turn";
  let description = [{
    The warpgroups of the threads that run this op (a warp-specialised
    loop's consumers: the kernel's own threads, two or more whole
    warpgroups) take turns, in warpgroup order, at the code between
    `tile.take_turn` and `tile.pass_turn`: one warpgroup at a time runs it,
    the others run what lies outside it. Warpgroup 0 holds the first turn.
    This is the ping-pong schedule of FlashAttention-3: one warpgroup issues
    its products while the other computes its softmax, so that the tensor
    cores do not wait for either.

    Example, in the body of a `tile.pipelined_for ... warp_specialized`
    (python-free-examples/gpt/attention.mlir): each warpgroup issues
    `Q K^T` of this iteration and `P V` of the previous one (stage 1) in
    its turn, then computes its softmax while the other issues.

    ```mlir
    tile.take_turn
    tile.gemm %Qs, %Ks, %S {transpose_b, clear_accum, async} : ...
    tile.gemm %P, %Vs, %O {async, tile.stage = 1} : ...
    tile.pass_turn
    tile.wait_gemms pending(1)
    // ... the softmax of S ...
    tile.wait_gemms pending(0) {tile.stage = 1}
    // ... P from S, O rescaled ...
    ```

    Lowered, with the warp split, to one named barrier per warpgroup
    (`bar.sync` here, `bar.arrive` on the next warpgroup's in
    `tile.pass_turn`).

    Rules: inside a `tile.kernel`; every warpgroup runs the same sequence
    of turns; after tile-pipeline-loops, inside the consumers of a
    warp-specialised loop (one team of two or more whole warpgroups), in
    their code, `scf.for` loops and `scf.if` conditions, alternating from a
    take to a pass and in pairs inside each loop or condition; no CTA barrier
    between the first `tile.take_turn` and the last `tile.pass_turn` (a
    warpgroup waiting for its turn would never reach it).
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_PassTurnOp : Tile_Op<"pass_turn",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "hands the turn to the next warpgroup";
  let description = [{
    Ends this warpgroup's turn (see `tile.take_turn`): the next warpgroup,
    in warpgroup order and round again from the last, may take it. Products
    issued `{async}` before it may still be running: the next warpgroup's
    products queue behind them.

    Example: `tile.pass_turn`

    Rules: those of `tile.take_turn`.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}


#endif // TILE_SYNC_OPS
