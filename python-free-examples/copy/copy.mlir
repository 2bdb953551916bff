// A tiled 2-D copy: each CTA moves one 64 x 128 tile of fp32 (32 KiB)
// from `src` to `dst`, any M x N, through shared memory. One family over
// how the tile travels:
//
// - LOADTMA (default): the load is asynchronous: `tile.copy ... barrier`
//   issues a bulk tensor copy (TMA) into shared memory that arrives on the
//   mbarrier with its byte count; the CTA waits for phase 0 of that
//   barrier. Without it the load is synchronous: on sm_80+ aligned rows go
//   through cp.async (zero-filling past the edge), unaligned ones through
//   registers.
// - STORETMA: the store is a bulk tensor copy too ({tma}: its callers
//   promise rows of a multiple of 16 bytes, as TMA needs); without it, 16-
//   byte coalesced stores.
//
// Out-of-bounds reads give 0 (the tensor map clips the box) and out-of-
// bounds writes are skipped, so sizes that are not multiples of the tile
// need no code. The configurations: copy_f32__LOADTMA1_STORETMA0 (TMA
// load), copy_f32__LOADTMA0_STORETMA0 (synchronous load) and
// copy_f32__LOADTMA1_STORETMA1 (TMA both ways).
tile.kernel @copy_f32(%src: memref<?x?xf32>, %dst: memref<?x?xf32>)
    params(LOADTMA: i1 = true, STORETMA: i1 = false)
    configs([LOADTMA = true], [LOADTMA = false], [STORETMA = true])
    threads(256) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c0 = arith.constant 0 : index
  %phase0 = arith.constant false
  %load_tma = tile.param "LOADTMA" : i1
  %store_tma = tile.param "STORETMA" : i1
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c64 : index
  %n0 = arith.muli %bx, %c128 : index

  %tile = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  scf.if %load_tma {
    %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    tile.copy %src[%m0, %n0] to %tile[] barrier %full[%c0]
        : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    tile.mbarrier.wait %full[%c0], %phase0 : !tile.barrier<1>
  } else {
    tile.copy %src[%m0, %n0] to %tile[]
        : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>
  }
  scf.if %store_tma {
    tile.copy %tile[] to %dst[%m0, %n0] {tma}
        : memref<64x128xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  } else {
    tile.copy %tile[] to %dst[%m0, %n0]
        : memref<64x128xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  }
}
