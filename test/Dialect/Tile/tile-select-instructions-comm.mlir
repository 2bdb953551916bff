// tile-select-instructions on communication ops: each records its mechanism,
// `dsmem` at cluster level (distributed shared memory, the kernel has a
// cluster) and `nvshmem` at world level, but `p2p` for waits (a spin on the
// local word, no call) and for puts and gets of tiles NVSHMEM would move row
// by row (not one contiguous block on both sides); one written by hand is
// kept.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions

tile.kernel @cluster() threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %me = tile.rank level cluster : i32
  %n = tile.num_ranks level cluster : i32
  %src = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  %dst = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  %flags = tile.alloc_shared : memref<2xi64, #gpu.address_space<workgroup>>
  tile.put %src to %dst[%c0] peer %n scope block level cluster : memref<128xf32, #gpu.address_space<workgroup>>, memref<128xf32, #gpu.address_space<workgroup>>
  tile.get %dst[%c0] peer %me scope warp level cluster to %src : memref<128xf32, #gpu.address_space<workgroup>>, memref<128xf32, #gpu.address_space<workgroup>>
  tile.signal %flags[%c0] add %one peer %n level cluster : memref<2xi64, #gpu.address_space<workgroup>>
  tile.wait %flags[%c0] ge %one level cluster : memref<2xi64, #gpu.address_space<workgroup>>
  tile.fence level cluster
  tile.quiet level cluster
  tile.barrier_all level cluster
}

tile.kernel @world(%recv: memref<?xf32> {tile.symmetric}, %flags: memref<?xi64> {tile.symmetric}) threads(128) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %me = tile.rank level world : i32
  %n = tile.num_ranks level world {mechanism = #tile.comm_mechanism<nvshmem>} : i32
  %t = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  tile.put %t to %recv[%c0] peer %n scope block level world signal %flags[%c0] add %one : memref<128xf32, #gpu.address_space<workgroup>>, memref<?xf32>, memref<?xi64>
  tile.get %recv[%c0] peer %me scope warp level world to %t : memref<?xf32>, memref<128xf32, #gpu.address_space<workgroup>>
  tile.signal %flags[%c0] set %one peer %n level world : memref<?xi64>
  tile.wait %flags[%c0] ge %one level world : memref<?xi64>
  tile.fence level world
  tile.quiet level world
  tile.barrier_all level world
}

// One block on both sides (nvshmem): a 1-D tile; a 2-D tile into rows of
// exactly its width. Row by row (p2p): rows of a remote buffer of unknown
// width; a strided source. Written by hand: kept.
tile.kernel @world_tiles(%Y: memref<?x256xf32> {tile.symmetric}, %W: memref<?x?xf32> {tile.symmetric}, %X: memref<?x512xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %p = tile.rank level world : i32
  %t = tile.alloc_shared : memref<4x256xf32, #gpu.address_space<workgroup>>
  tile.put %t to %Y[%c0, %c0] peer %p scope block level world : memref<4x256xf32, #gpu.address_space<workgroup>>, memref<?x256xf32>
  tile.put %t to %W[%c0, %c0] peer %p scope block level world : memref<4x256xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  tile.get %W[%c0, %c0] peer %p scope warp level world to %t : memref<?x?xf32>, memref<4x256xf32, #gpu.address_space<workgroup>>
  %rows = memref.subview %X[0, 0] [4, 256] [1, 1] : memref<?x512xf32> to memref<4x256xf32, strided<[512, 1]>>
  tile.put %rows to %Y[%c0, %c0] peer %p scope block level world : memref<4x256xf32, strided<[512, 1]>>, memref<?x256xf32>
  tile.put %t to %W[%c0, %c0] peer %p scope block level world {mechanism = #tile.comm_mechanism<nvshmem>} : memref<4x256xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}
