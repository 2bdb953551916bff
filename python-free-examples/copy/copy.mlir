// A tiled 2-D copy through TMA: each CTA moves one 64 x 128 tile of fp32
// (32 KiB) from `src` to `dst`, any M x N.
//
// The load is asynchronous: `tile.copy ... barrier` issues a bulk tensor
// copy (TMA) into shared memory that arrives on the mbarrier with its byte
// count; the CTA waits for phase 0 of that barrier, then writes the tile out
// with 16-byte coalesced stores. Out-of-bounds reads give 0 (the tensor map
// clips the box) and out-of-bounds writes are skipped, so sizes that are not
// multiples of the tile need no code.
tile.kernel @copy_f32(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) threads(256) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c0 = arith.constant 0 : index
  %phase0 = arith.constant false
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c64 : index
  %n0 = arith.muli %bx, %c128 : index

  %tile = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  tile.copy %src[%m0, %n0] to %tile[] barrier %full[%c0]
      : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  tile.mbarrier.wait %full[%c0], %phase0 : !tile.barrier<1>
  tile.copy %tile[] to %dst[%m0, %n0]
      : memref<64x128xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// The same copy with a synchronous load: on sm_80+ aligned rows go through
// cp.async (zero-filling past the edge), unaligned ones through registers.
tile.kernel @copy_f32_cp_async(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) threads(256) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c64 : index
  %n0 = arith.muli %bx, %c128 : index
  %tile = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  tile.copy %src[%m0, %n0] to %tile[]
      : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>
  tile.copy %tile[] to %dst[%m0, %n0]
      : memref<64x128xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// TMA both ways: the store is a bulk tensor copy too ({tma}: this kernel's
// callers promise rows of a multiple of 16 bytes, as TMA needs).
tile.kernel @copy_f32_tma_store(%src: memref<?x?xf32>, %dst: memref<?x?xf32>) threads(256) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c0 = arith.constant 0 : index
  %phase0 = arith.constant false
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c64 : index
  %n0 = arith.muli %bx, %c128 : index
  %tile = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  tile.copy %src[%m0, %n0] to %tile[] barrier %full[%c0]
      : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  tile.mbarrier.wait %full[%c0], %phase0 : !tile.barrier<1>
  tile.copy %tile[] to %dst[%m0, %n0] {tma}
      : memref<64x128xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}
