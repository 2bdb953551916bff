// Sequence parallelism's two all-to-alls around attention (DeepSpeed-
// Ulysses, TileScale's pre- and post-attention all-to-all), with the
// layout change done by the communication itself. With n ranks, Sl rows of
// the sequence per rank and head groups of 256 floats (H = n head groups):
//
// - @seq_to_heads (before attention): rank r holds its rows of every head,
//   X[sl, p * 256 + c] (Sl x n*256); rank p gets head group p of every
//   rank's rows, Y[q * Sl + sl, c] (n*Sl x 256) = X of rank q at [sl, p *
//   256 + c]. Each CTA reads a ROWS x 256 block of X (rows of X apart) and
//   writes it to ROWS consecutive rows of the peer's Y.
// - @heads_to_seq (after attention): the inverse; rank p holds head group
//   p of the whole sequence, X[q * Sl + sl, c]; rank q gets its rows of
//   every head group, Y[sl, p * 256 + c]. Each CTA reads ROWS consecutive
//   rows of X and writes them rows of Y apart at the peer.
//
// CTA b moves rows ROWS*b .. ROWS*b+ROWS-1 of each shard (ROWS KiB a
// peer), peers in turn from the next one, setting the peer's signal word
// for (this rank, b) to `epoch`; then it waits for every rank's word for b.
// Both kernels are families over ROWS: 32 rows (32 KiB a peer) pay each
// CTA's fixed costs over many bytes, fewer rows give small shards more
// CTAs; the host takes the one that suits the size (Collective.h). With
// SPREAD each warp puts to its own peers (scope warp) rather than the
// whole CTA to each in turn, as allgather.mlir. The
// tiles are strided on one side, which tile-select-instructions gives mechanism p2p:
// each thread stores its 16-byte runs straight into the peer's buffer.
// X, Y and the signal words (ranks x CTAs) are symmetric buffers; the host
// zeroes the words once and passes a larger `epoch` each launch.
tile.kernel @seq_to_heads(%X: memref<?xf32> {tile.symmetric},
                          %Y: memref<?xf32> {tile.symmetric},
                          %flags: memref<?xi64> {tile.symmetric},
                          %epoch: i64)
    params(ROWS: index = 32, SPREAD: i1 = false)
    configs([ROWS = 1], [ROWS = 4], [ROWS = 8], [ROWS = 32],
            [ROWS = 1, SPREAD = true], [ROWS = 4, SPREAD = true],
            [ROWS = 8, SPREAD = true], [ROWS = 32, SPREAD = true])
    threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile_rows = tile.param "ROWS" : index
  %c256 = arith.constant 256 : index
  %b = gpu.block_id x
  %chunks = gpu.grid_dim x
  %me32 = tile.rank level world : i32
  %n32 = tile.num_ranks level world : i32
  %me = arith.index_castui %me32 : i32 to index
  %n = arith.index_castui %n32 : i32 to index
  %rows = arith.muli %chunks, %tile_rows : index
  %width = arith.muli %n, %c256 : index
  %all = arith.muli %n, %rows : index
  %Xr = memref.reinterpret_cast %X to offset: [0], sizes: [%rows, %width], strides: [%width, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %Yr = memref.reinterpret_cast %Y to offset: [0], sizes: [%all, 256], strides: [256, 1] : memref<?xf32> to memref<?x256xf32>
  %row = arith.muli %b, %tile_rows : index
  %mine = arith.muli %me, %rows : index
  %to = arith.addi %mine, %row : index
  %word0 = arith.muli %me, %chunks : index
  %word = arith.addi %word0, %b : index
  // Peers in turn by the whole CTA, or warp w taking every warps-th from
  // the w-th.
  %spread = tile.param "SPREAD" : i1
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x
  %threads = gpu.block_dim x
  %warp = arith.divui %tid, %c32 : index
  %warps = arith.divui %threads, %c32 : index
  %first = arith.select %spread, %warp, %c0 : index
  %step = arith.select %spread, %warps, %c1 : index
  scf.for %i = %first to %n step %step {
    %j = arith.addi %me, %i : index
    %peer = arith.remui %j, %n : index
    %peer32 = arith.index_castui %peer : index to i32
    %col = arith.muli %peer, %c256 : index
    %block = memref.subview %Xr[%row, %col] [%tile_rows, 256] [1, 1] : memref<?x?xf32, strided<[?, 1]>> to memref<?x256xf32, strided<[?, 1], offset: ?>>
    scf.if %spread {
      tile.put %block to %Yr[%to, %c0] peer %peer32 scope warp level world
          signal %flags[%word] set %epoch
          : memref<?x256xf32, strided<[?, 1], offset: ?>>, memref<?x256xf32>, memref<?xi64>
    } else {
      tile.put %block to %Yr[%to, %c0] peer %peer32 scope block level world
          signal %flags[%word] set %epoch
          : memref<?x256xf32, strided<[?, 1], offset: ?>>, memref<?x256xf32>, memref<?xi64>
    }
  }
  scf.for %q = %c0 to %n step %c1 {
    %w = arith.muli %q, %chunks : index
    %at = arith.addi %w, %b : index
    tile.wait %flags[%at] ge %epoch level world : memref<?xi64>
  }
  tile.quiet level world
}

tile.kernel @heads_to_seq(%X: memref<?xf32> {tile.symmetric},
                          %Y: memref<?xf32> {tile.symmetric},
                          %flags: memref<?xi64> {tile.symmetric},
                          %epoch: i64)
    params(ROWS: index = 32, SPREAD: i1 = false)
    configs([ROWS = 1], [ROWS = 4], [ROWS = 8], [ROWS = 32],
            [ROWS = 1, SPREAD = true], [ROWS = 4, SPREAD = true],
            [ROWS = 8, SPREAD = true], [ROWS = 32, SPREAD = true])
    threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile_rows = tile.param "ROWS" : index
  %c256 = arith.constant 256 : index
  %b = gpu.block_id x
  %chunks = gpu.grid_dim x
  %me32 = tile.rank level world : i32
  %n32 = tile.num_ranks level world : i32
  %me = arith.index_castui %me32 : i32 to index
  %n = arith.index_castui %n32 : i32 to index
  %rows = arith.muli %chunks, %tile_rows : index
  %width = arith.muli %n, %c256 : index
  %all = arith.muli %n, %rows : index
  %Xr = memref.reinterpret_cast %X to offset: [0], sizes: [%all, 256], strides: [256, 1] : memref<?xf32> to memref<?x256xf32>
  %Yr = memref.reinterpret_cast %Y to offset: [0], sizes: [%rows, %width], strides: [%width, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %row = arith.muli %b, %tile_rows : index
  %col = arith.muli %me, %c256 : index
  %word0 = arith.muli %me, %chunks : index
  %word = arith.addi %word0, %b : index
  // Peers in turn by the whole CTA, or warp w taking every warps-th from
  // the w-th.
  %spread = tile.param "SPREAD" : i1
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x
  %threads = gpu.block_dim x
  %warp = arith.divui %tid, %c32 : index
  %warps = arith.divui %threads, %c32 : index
  %first = arith.select %spread, %warp, %c0 : index
  %step = arith.select %spread, %warps, %c1 : index
  scf.for %i = %first to %n step %step {
    %j = arith.addi %me, %i : index
    %peer = arith.remui %j, %n : index
    %peer32 = arith.index_castui %peer : index to i32
    %theirs = arith.muli %peer, %rows : index
    %from = arith.addi %theirs, %row : index
    %block = memref.subview %Xr[%from, 0] [%tile_rows, 256] [1, 1] : memref<?x256xf32> to memref<?x256xf32, strided<[256, 1], offset: ?>>
    scf.if %spread {
      tile.put %block to %Yr[%row, %col] peer %peer32 scope warp level world
          signal %flags[%word] set %epoch
          : memref<?x256xf32, strided<[256, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1]>>, memref<?xi64>
    } else {
      tile.put %block to %Yr[%row, %col] peer %peer32 scope block level world
          signal %flags[%word] set %epoch
          : memref<?x256xf32, strided<[256, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1]>>, memref<?xi64>
    }
  }
  scf.for %q = %c0 to %n step %c1 {
    %w = arith.muli %q, %chunks : index
    %at = arith.addi %w, %b : index
    tile.wait %flags[%at] ge %epoch level world : memref<?xi64>
  }
  tile.quiet level world
}
