// All-to-all across GPUs with put + signal + wait: X on rank r holds one
// part for every rank (part p at X[p * part ..]); rank r puts part p into
// slot r of peer p's Y, Y[r * part ..], setting p's signal word for
// (r, chunk) to `epoch`, copies its own part r into its own slot through
// registers, then waits for every peer's word for its chunks. CTA b moves
// chunk b (CHUNK floats) of each part, peers in turn from the next one. A family over the chunk and the threads of a CTA and SPREAD
// (each warp puts to its own peers), as allgather.mlir.
//
// X, Y and the signal words (ranks x chunks) are symmetric buffers; the
// host zeroes the words once and passes a larger `epoch` each launch.
tile.kernel @all_to_all(%X: memref<?xf32> {tile.symmetric},
                        %Y: memref<?xf32> {tile.symmetric},
                        %flags: memref<?xi64> {tile.symmetric},
                        %epoch: i64)
    params(CHUNK: index = 1024, THREADS: i32 = 128, SPREAD: i1 = false)
    configs([CHUNK = 256], [CHUNK = 1024], [CHUNK = 4096],
            [CHUNK = 8192], [CHUNK = 8192, THREADS = 512],
            [CHUNK = 16384, THREADS = 512],
            [CHUNK = 256, SPREAD = true], [CHUNK = 1024, SPREAD = true],
            [CHUNK = 4096, SPREAD = true], [CHUNK = 8192, SPREAD = true])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = tile.param "CHUNK" : index
  %b = gpu.block_id x
  %chunks = gpu.grid_dim x
  %off = arith.muli %b, %size : index
  %me32 = tile.rank level world : i32
  %n32 = tile.num_ranks level world : i32
  %me = arith.index_castui %me32 : i32 to index
  %n = arith.index_castui %n32 : i32 to index
  %part = arith.muli %chunks, %size : index
  %mine = arith.muli %me, %part : index
  %to = arith.addi %mine, %off : index
  %word = arith.muli %me, %chunks : index
  %myword = arith.addi %word, %b : index
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
  %peers = arith.subi %n, %c1 : index
  scf.for %i = %first to %peers step %step {
    %j0 = arith.addi %me, %i : index
    %j = arith.addi %j0, %c1 : index
    %peer = arith.remui %j, %n : index
    %peer32 = arith.index_castui %peer : index to i32
    %from0 = arith.muli %peer, %part : index
    %from = arith.addi %from0, %off : index
    // Straight from X: puts with a signal return once issued, so their
    // source must stay until tile.quiet.
    %chunk = memref.subview %X[%from] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    scf.if %spread {
      tile.put %chunk to %Y[%to] peer %peer32 scope warp level world
          signal %flags[%myword] set %epoch
          : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32>, memref<?xi64>
    } else {
      tile.put %chunk to %Y[%to] peer %peer32 scope block level world
          signal %flags[%myword] set %epoch
          : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32>, memref<?xi64>
    }
  }
  // The own block, while the puts are in flight (a put to itself would
  // cost a signal and a wait).
  %own_from = arith.addi %mine, %off : index
  %own = tile.alloc_fragment [%size] : !tile.fragment<?xf32>
  tile.copy %X[%own_from] to %own[] : memref<?xf32>, !tile.fragment<?xf32>
  tile.copy %own[] to %Y[%to] : !tile.fragment<?xf32>, memref<?xf32>
  scf.for %i = %c1 to %n step %c1 {
    %q0 = arith.addi %me, %i : index
    %q = arith.remui %q0, %n : index
    %w = arith.muli %q, %chunks : index
    %at = arith.addi %w, %b : index
    tile.wait %flags[%at] ge %epoch level world : memref<?xi64>
  }
  // This rank's puts have read X before the kernel ends.
  tile.quiet level world
}
