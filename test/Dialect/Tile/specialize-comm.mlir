// tile-specialize on a family whose puts and gets move tiles sized by a
// parameter (memref.subview with `?` sizes, as the collective examples'
// chunks): the folded sizes give the subviews static types, the puts and
// gets take them (their folders look through the memref.cast), and
// tile-select-instructions then records the mechanism from the static
// shapes: `nvshmem` for the contiguous chunk, `p2p` for the strided rows.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-specialize --tile-select-instructions

tile.kernel @chunks(%X: memref<?xf32> {tile.symmetric},
                    %Y: memref<?x?xf32> {tile.symmetric},
                    %flags: memref<?xi64> {tile.symmetric}, %epoch: i64)
    params(CHUNK: index = 1024, ROWS: index = 4)
    configs([CHUNK = 256, ROWS = 1], [CHUNK = 8192, ROWS = 32])
    threads(128) {
  %c0 = arith.constant 0 : index
  %size = tile.param "CHUNK" : index
  %rows = tile.param "ROWS" : index
  %b = gpu.block_id x
  %off = arith.muli %b, %size : index
  %me = tile.rank level world : i32
  %chunk = memref.subview %X[%off] [%size] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  tile.put %chunk to %X[%off] peer %me scope block level world
      signal %flags[%c0] set %epoch
      : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32>, memref<?xi64>
  %block = memref.subview %Y[%off, 0] [%rows, 256] [1, 1] : memref<?x?xf32> to memref<?x256xf32, strided<[?, 1], offset: ?>>
  tile.get %Y[%c0, %c0] peer %me scope warp level world to %block
      : memref<?x?xf32>, memref<?x256xf32, strided<[?, 1], offset: ?>>
}
