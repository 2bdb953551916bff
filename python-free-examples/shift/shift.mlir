// Each rank (one GPU, one process: an NVSHMEM processing element) puts its
// tile into the next rank's receive buffer with a signal, as TileScale's
// simple shift: rank r sends X to rank (r + 1) mod n, whose Y then holds
// rank r's X. CTA b moves chunk b of the buffer (CHUNK floats); the signal
// word of chunk b on the receiver counts the arrival, and each CTA waits for
// its own chunk's word before the kernel ends, so the kernel returns once
// this rank has sent its chunks and received its neighbour's. A family over
// the chunk (CHUNK floats) and the threads of a CTA, as allgather.mlir.
//
// X and Y and the signal words are symmetric buffers (the runtime's
// symmetric allocator, the same on every rank). The host zeroes the words
// once and passes a larger `epoch` each launch, so a launch waits for that
// launch's data.
tile.kernel @shift(%X: memref<?xf32> {tile.symmetric},
                   %Y: memref<?xf32> {tile.symmetric},
                   %flags: memref<?xi64> {tile.symmetric},
                   %epoch: i64)
    params(CHUNK: index = 1024, THREADS: i32 = 128)
    configs([CHUNK = 256], [CHUNK = 1024], [CHUNK = 4096],
            [CHUNK = 8192], [CHUNK = 8192, THREADS = 512],
            [CHUNK = 16384, THREADS = 512])
    threads(THREADS) {
  %size = tile.param "CHUNK" : index
  %c1 = arith.constant 1 : i32
  %b = gpu.block_id x
  %off = arith.muli %b, %size : index
  %me = tile.rank level world : i32
  %n = tile.num_ranks level world : i32
  %after = arith.addi %me, %c1 : i32
  %next = arith.remui %after, %n : i32
  // Straight from X: a put with a signal returns once issued, so its
  // source must stay until tile.quiet.
  %chunk = memref.subview %X[%off] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  tile.put %chunk to %Y[%off] peer %next scope block level world
      signal %flags[%b] set %epoch
      : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32>, memref<?xi64>
  tile.wait %flags[%b] ge %epoch level world : memref<?xi64>
  tile.quiet level world
}
