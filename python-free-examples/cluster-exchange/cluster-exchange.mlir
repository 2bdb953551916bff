// The CTAs of a thread-block cluster exchange tiles through distributed
// shared memory with put / get / signal / wait, and reduce them.
//
// CTA g of the grid (rank r of its cluster of R CTAs) owns tile g of X
// (1024 floats). It puts its tile into the `recv` tile of the next CTA of
// its cluster, rank (r + 1) mod R, with a signal that adds 1 to that CTA's
// flag; it waits for its own flag (the previous CTA's tile has landed) and
// writes Y[g] = X[g] + X[previous]. Then, after a cluster barrier (every
// CTA's `mine` is loaded and not yet overwritten), it gets the next CTA's
// tile and writes Z[g] = X[next] - X[g]. A last cluster barrier keeps each
// CTA's shared memory alive until its peers have read it.
tile.kernel @cluster_exchange(%X: memref<?xf32>, %Y: memref<?xf32>,
                              %Z: memref<?xf32>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %one = arith.constant 1 : i64
  %c1 = arith.constant 1 : i32
  %g = gpu.block_id x
  %base = arith.muli %g, %c1024 : index
  %me = tile.rank level cluster : i32
  %ranks = tile.num_ranks level cluster : i32
  %after = arith.addi %me, %c1 : i32
  %next = arith.remui %after, %ranks : i32

  %mine = tile.alloc_shared : memref<1024xf32, #gpu.address_space<workgroup>>
  %recv = tile.alloc_shared : memref<1024xf32, #gpu.address_space<workgroup>>
  %other = tile.alloc_shared : memref<1024xf32, #gpu.address_space<workgroup>>
  %flags = tile.alloc_shared : memref<1xi64, #gpu.address_space<workgroup>>

  // The flag starts at 0 in every CTA before any peer may signal it.
  %zero = arith.constant 0 : i64
  tile.fill %flags, %zero : memref<1xi64, #gpu.address_space<workgroup>>, i64
  tile.copy %X[%base] to %mine[] : memref<?xf32>, memref<1024xf32, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster

  // Y = mine + the previous CTA's tile, which it puts here.
  tile.put %mine to %recv[%c0] peer %next scope block level cluster
      signal %flags[%c0] add %one
      : memref<1024xf32, #gpu.address_space<workgroup>>,
        memref<1024xf32, #gpu.address_space<workgroup>>,
        memref<1xi64, #gpu.address_space<workgroup>>
  tile.wait %flags[%c0] ge %one level cluster : memref<1xi64, #gpu.address_space<workgroup>>
  tile.elementwise ins(%mine, %recv : memref<1024xf32, #gpu.address_space<workgroup>>, memref<1024xf32, #gpu.address_space<workgroup>>)
                   outs(%recv : memref<1024xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.copy %recv[] to %Y[%base] : memref<1024xf32, #gpu.address_space<workgroup>>, memref<?xf32>

  // Z = the next CTA's tile (read from its shared memory) - mine.
  tile.get %mine[%c0] peer %next scope block level cluster to %other
      : memref<1024xf32, #gpu.address_space<workgroup>>,
        memref<1024xf32, #gpu.address_space<workgroup>>
  tile.elementwise ins(%other, %mine : memref<1024xf32, #gpu.address_space<workgroup>>, memref<1024xf32, #gpu.address_space<workgroup>>)
                   outs(%other : memref<1024xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    tile.yield %d : f32
  }
  tile.copy %other[] to %Z[%base] : memref<1024xf32, #gpu.address_space<workgroup>>, memref<?xf32>
  tile.barrier_all level cluster
}
