// tile-record-grid: a kernel's tile.grid becomes its tile.grid_rule (x, y,
// z over the kernel's arguments; 1 where absent), the op and what only it
// used are erased, and what the body also uses stays. A kernel without a
// tile.grid is unchanged.
// RUN: tile-opt %s --tile-record-grid

tile.kernel @persistent(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %splits: i32)
    threads(128) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %c128 : index
  %tiles_n = arith.ceildivui %N, %c256 : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %sms = tile.num_sms : index
  %ctas = arith.minui %tiles, %sms : index
  %s = arith.index_cast %splits : i32 to index
  tile.grid %ctas, %s
  // The body uses %tiles: it stays.
  %first = gpu.block_id x
  %ctas_now = gpu.grid_dim x
  scf.for %t = %first to %tiles step %ctas_now {
  }
}

tile.kernel @plain(%a: memref<?xf32>) threads(128) {
}
