// All-gather across GPUs with put + signal + wait: every rank (one process
// per GPU, an NVSHMEM processing element) puts its part X (the same size on
// every rank) into slot `me` of every peer's Y, Y[me * part ..], and each
// put sets that peer's signal word for (me, chunk) to `epoch`; its own slot
// it copies through registers, with no signal. Then each rank waits for the
// words of every peer's chunk. CTA b moves chunk b (CHUNK floats) of the
// part, to every peer in turn starting with the next one (so the ranks do
// not all write to rank 0 first).
//
// A family over the chunk a CTA moves and its threads: small chunks give
// small parts many CTAs, large ones pay each CTA's fixed costs (the calls'
// synchronisation, the fence and signal, the waits) over more bytes. The
// host takes the configuration that suits the size (Collective.h). With
// SPREAD each warp puts to its own peers (scope warp: warp w to the peers
// w, w + warps, ... after this rank) rather than the whole CTA to each peer
// in turn, so the puts to different peers overlap: what small parts on
// many GPUs need, where a CTA's latency is its puts one after another.
//
// X, Y and the signal words (ranks x chunks of them) are symmetric buffers.
// The host zeroes the words once and passes a larger `epoch` each launch,
// so a launch waits for that launch's data.
tile.kernel @allgather(%X: memref<?xf32> {tile.symmetric},
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
  // The chunk is put straight from X (puts with a signal return once
  // issued, so their source must stay until tile.quiet).
  %chunk = memref.subview %X[%off] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  // Peers from the next one: in turn by the whole CTA, or warp w taking
  // every warps-th from the w-th.
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
  // The own slot, while the puts are in flight (a put to itself would
  // cost a signal and a wait).
  %own = tile.alloc_fragment [%size] : !tile.fragment<?xf32>
  tile.copy %X[%off] to %own[] : memref<?xf32>, !tile.fragment<?xf32>
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
