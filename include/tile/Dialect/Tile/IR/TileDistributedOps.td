//===- TileDistributedOps.td - put, get, signal, wait ------*- tablegen -*-===//

#ifndef TILE_DISTRIBUTED_OPS
#define TILE_DISTRIBUTED_OPS

include "tile/Dialect/Tile/IR/TileOpBase.td"

//===----------------------------------------------------------------------===//
// Communication between CTAs of a cluster and between GPUs
//===----------------------------------------------------------------------===//

// Every communication op states its `level` and carries the `mechanism`
// tile-select-instructions records (#tile.comm_mechanism: `dsmem` at
// cluster level; at world level `nvshmem`, or `p2p` for waits and for puts
// and gets of tiles that are not one contiguous block on both sides).
class Tile_CommOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat(traits, [Tile_CommunicationOpInterface])>;

def Tile_PutOp : Tile_CommOp<"put", [AttrSizedOperandSegments]> {
  let summary = "copies a local tile into a peer's symmetric buffer";
  let description = [{
    Copies tile `%source` into the same-named buffer `%dest` of rank
    `%peer`, at `[offsets]` (in elements of the tile's type; one per
    dimension, the tile must lie inside `%dest`).

    Ranks and buffers by `level`:
    - `cluster`: the ranks are the CTAs of the kernel's thread-block
      cluster (`tile.rank level cluster` is `%cluster_ctarank`); `%dest` is
      a shared tile, and the peer's tile of that name is written through
      distributed shared memory (`mapa`, stores to `shared::cluster`). The
      kernel must have a cluster. The put is complete when it returns: the
      data is written, and visible to the peer after a `tile.fence`, a
      signal or `tile.barrier_all level cluster`.
    - `world`: the ranks are processes, one per GPU (NVSHMEM processing
      elements); `%dest` is a symmetric buffer, a kernel argument marked
      `{tile.symmetric}` (allocated with the runtime's symmetric allocator,
      the same on every rank). tile-select-instructions records how it
      moves: `nvshmem` when the tile is one contiguous block on both
      sides, one call of NVSHMEM's device library
      (`nvshmemx_putmem_{block,warp}`, with a signal
      `nvshmemx_putmem_signal_nbi_{block,warp}`); `p2p` otherwise, each
      thread storing its 16-byte runs through the peer's address
      (`nvshmem_ptr`; NVSHMEM's calls row by row where the peer has
      none), then a fence and the signal. Without a signal the source may
      be reused when it returns (delivery is ensured by `tile.quiet` or a
      barrier); with one, the put returns once issued.

    `scope` names the threads that issue it together, each with its part:
    `block` (every thread of the CTA, or of its warp-specialised role) or
    `warp` (each warp that runs it moves the whole tile on its own); every
    thread of the scope gives the same `%peer`, offsets and signal. At
    world level, scope `block` calls NVSHMEM's `_block` routines, which
    synchronise every thread of the CTA: inside a `tile.warp_specialize`
    role write scope `warp`.

    With `signal %sig[%i] set|add %v`, word `%i` of the peer's signal
    buffer (i64 words: a shared tile at cluster level, a symmetric buffer at
    world level) is set to or increased by `%v` once the data has landed
    (put-with-signal), so the peer can `tile.wait` for it.

    Example:

    ```mlir
    tile.put %buf to %recv[%off] peer %next scope block level world
        signal %flags[%me] set %one
        : memref<1024xf32>, memref<?xf32>, memref<?xi64>
    ```

    Rules: element types agree; `%dest`'s rank equals the tile's rank and
    one offset per dimension is given; the source is a shared tile (or at
    world level a global or shared one) of static shape; world-level
    buffers and signals are `{tile.symmetric}` kernel arguments,
    cluster-level ones shared tiles; signal words are i64; scope `block` or
    `warp`.
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Variadic<Index>:$destOffsets, I32:$peer,
                       Tile_ScopeAttr:$scope, Tile_LevelAttr:$level,
                       Arg<Optional<AnyMemRef>, "", [MemRead, MemWrite]>:$signal,
                       Optional<Index>:$signalIndex,
                       OptionalAttr<Tile_SignalKindAttr>:$signalKind,
                       Optional<I64>:$signalValue,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let assemblyFormat = [{
    $source `to` $dest `[` $destOffsets `]` `peer` $peer
    `scope` `` $scope `level` `` $level
    (`signal` $signal^ `[` $signalIndex `]` `` $signalKind $signalValue)?
    attr-dict `:` type($source) `,` type($dest) (`,` type($signal)^)?
  }];
  let hasVerifier = 1;
  // Takes the static type behind a memref.cast (a family's tile, sized by
  // parameters, once tile-specialize folds its sizes).
  let hasFolder = 1;
}

def Tile_GetOp : Tile_CommOp<"get"> {
  let summary = "copies a tile out of a peer's symmetric buffer";
  let description = [{
    Copies the tile at `[offsets]` of the same-named buffer `%source` of
    rank `%peer` into the local tile `%dest` (of `%dest`'s shape). Levels,
    buffers, scopes and mechanisms as for `tile.put` (`ld.shared::cluster`
    through `mapa` at cluster level; at world level
    `nvshmemx_getmem_{block,warp}`, or loads through `nvshmem_ptr` for
    `p2p`);
    the data is in `%dest`, for all the threads of the scope, when the op
    returns. The program makes sure the peer wrote it first (a signal and a
    `tile.wait`, or a barrier).

    Example:

    ```mlir
    tile.get %src[%off] peer %p scope block level world to %buf
        : memref<?xf32>, memref<1024xf32>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$source,
                       Variadic<Index>:$sourceOffsets,
                       I32:$peer, Arg<AnyMemRef, "", [MemWrite]>:$dest,
                       Tile_ScopeAttr:$scope, Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let assemblyFormat = [{
    $source `[` $sourceOffsets `]` `peer` $peer `scope` `` $scope
    `level` `` $level `to` $dest attr-dict `:` type($source) `,` type($dest)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

// signal releases (it is ordered after earlier puts) and wait acquires, so
// both also carry a generic read+write effect: no memory access moves across.
def Tile_SignalOp : Tile_CommOp<"signal", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "sets or adds to a peer's signal word";
  let description = [{
    Updates word `%index` of the i64 signal buffer `%signal` on rank
    `%peer`: `set` stores `%value`, `add` adds it atomically. The CTA (or
    its role) runs it together and the update happens once, after every
    put the CTA issued before it to that peer has landed (a release at
    cluster scope; `nvshmemx_signal_op` after `nvshmem_fence` at world
    level).

    Example: `tile.signal %flags[%i] add %one peer %p level world : memref<?xi64>`
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead, MemWrite]>:$signal,
                       Index:$index, Tile_SignalKindAttr:$kind,
                       I64:$value, I32:$peer, Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let assemblyFormat = [{
    $signal `[` $index `]` `` $kind $value `peer` $peer `level` `` $level
    attr-dict `:` type($signal)
  }];
  let hasVerifier = 1;
}

def Tile_WaitOp : Tile_CommOp<"wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until a local signal word satisfies a comparison";
  let description = [{
    Blocks until word `%index` of this rank's signal buffer compares true
    against `%value` (`eq`, `ne`, `gt`, `ge`, `lt`, `le`, unsigned), with
    acquire semantics: what the peers put before signalling is then
    visible to every thread of the CTA (or its role), which run the op
    together. At `level cluster` the buffer is a shared tile that peer CTAs
    of the cluster signal (an acquire spin at cluster scope; the kernel has
    a cluster); at `level world` a symmetric buffer that peer processes
    signal, by any means (their puts, NVSHMEM's puts on a stream through
    the copy engine): mechanism `p2p`, an acquire spin at system scope
    with no call, then, on chips with TMA, a fence of the async proxy so
    that TMA loads after the wait see the data.

    In a warp-specialised persistent GEMM, a wait in the tile loop before
    the `tile.pipelined_for` gates the tile's loads: tile-pipeline-loops
    gives it to the producer too, which waits before it loads the tile
    (all-gather + GEMM waits there for the peer's part of A, Cannon's GEMM
    for a step's blocks). A wait in the pipelined loop's own body gates
    that iteration's loads the same way (see `tile.pipelined_for`).

    Example: `tile.wait %flags[%i] ge %expected level world : memref<?xi64>`
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemRead]>:$signal, Index:$index,
                       Tile_CmpAttr:$cmp, I64:$value, Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let assemblyFormat = [{
    $signal `[` $index `]` `` $cmp $value `level` `` $level attr-dict
    `:` type($signal)
  }];
  let hasVerifier = 1;
}

def Tile_FenceOp : Tile_CommOp<"fence", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders earlier puts before later ones to the same peer";
  let description = [{
    Orders the calling threads' earlier puts and signals before their later
    ones to the same peer (`nvshmem_fence` at world level,
    `fence.acq_rel.cluster` at cluster level); it does not wait for
    delivery (`tile.quiet` does).

    Example: `tile.fence level world`
  }];
  let arguments = (ins Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let assemblyFormat = "`level` `` $level attr-dict";
}

def Tile_QuietOp : Tile_CommOp<"quiet", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until this rank's puts and signals are delivered";
  let description = [{
    Returns when every put and signal the calling threads issued before it
    is complete at its peer (`nvshmem_quiet` at world level;
    `fence.acq_rel.cluster` at cluster level, where puts are stores that
    complete as they are issued).

    Example: `tile.quiet level world`
  }];
  let arguments = (ins Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let assemblyFormat = "`level` `` $level attr-dict";
}

def Tile_BarrierAllOp : Tile_CommOp<"barrier_all",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronises all peers and completes their outstanding puts";
  let description = [{
    Every CTA of the cluster (`level cluster`: `barrier.cluster`) or every
    process of the job (`level world`: `nvshmemx_barrier_all_block`) waits
    for all others, and all earlier puts are complete and visible afterwards.
    At world level every thread of the CTA calls NVSHMEM's block routine,
    so it cannot be in a `tile.warp_specialize` role.

    Example: `tile.barrier_all level cluster`
  }];
  let arguments = (ins Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let assemblyFormat = "`level` `` $level attr-dict";
  let hasVerifier = 1;
}

def Tile_RankOp : Tile_CommOp<"rank", [Pure]> {
  let summary = "this CTA's rank in its cluster, or this process's in the job";
  let description = [{
    `level cluster`: `%cluster_ctarank`; `level world`: `nvshmem_my_pe()`.

    Example: `%me = tile.rank level world : i32`
  }];
  let arguments = (ins Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let results = (outs I32:$result);
  let assemblyFormat = "`level` `` $level attr-dict `:` type($result)";
}

def Tile_NumRanksOp : Tile_CommOp<"num_ranks", [Pure]> {
  let summary = "number of CTAs in the cluster, or of processes in the job";
  let description = [{
    `level cluster`: `%cluster_nctarank`; `level world`: `nvshmem_n_pes()`.

    Example: `%n = tile.num_ranks level cluster : i32`
  }];
  let arguments = (ins Tile_LevelAttr:$level,
                       OptionalAttr<Tile_CommMechanismAttr>:$mechanism);
  let results = (outs I32:$result);
  let assemblyFormat = "`level` `` $level attr-dict `:` type($result)";
}


#endif // TILE_DISTRIBUTED_OPS
