//===- TileDistributedOps.td - put, get, signal, wait ------*- tablegen -*-===//

#ifndef TILE_DISTRIBUTED_OPS
#define TILE_DISTRIBUTED_OPS

include "tile/Dialect/Tile/IR/TileOpBase.td"

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


#endif // TILE_DISTRIBUTED_OPS
