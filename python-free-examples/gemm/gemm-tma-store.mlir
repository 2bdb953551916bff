// gemm.mlir with its epilogue staged through shared memory and stored by
// TMA, asynchronously: the fp32 tile leaves in eight 128 x 32 column chunks
// through two 128-byte-swizzled 16 KiB buffers. For each chunk the
// consumers wait until the store two chunks back has read its buffer
// (`tile.wait_tma_stores pending(1)`), write their part of the accumulator
// slice into it (`tile.copy %acc[0, 32 j]`, a slice of the fragment), and one
// thread issues the TMA store (`{tma, async}`) without waiting for it: the
// last chunks are still being stored while the next tile's main loop runs.
// Shared memory: 4 x 48 KiB of ring + 32 KiB of buffers + 1 KiB alignment.
//
// TMA stores need global rows of a multiple of 16 bytes: N % 4 == 0.
// gemm.mlir (stores from registers) takes any N.
tile.kernel @gemm_bf16_tma_store(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                                 %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %c160 = arith.constant 160 : index
  %c192 = arith.constant 192 : index
  %c224 = arith.constant 224 : index
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %c128 : index
  %tiles_n = arith.ceildivui %N, %c256 : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %c8 : index
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  %Cs0 = tile.alloc_shared {swizzle = 128} : memref<128x32xf32, #gpu.address_space<workgroup>>
  %Cs1 = tile.alloc_shared {swizzle = 128} : memref<128x32xf32, #gpu.address_space<workgroup>>

  scf.for %t = %first to %tiles step %ctas {
    // Tile t's place in C. Walk the tiles in groups of 8 tile-rows, so that
    // CTAs running together share rows of A and columns of B in L2
    // (Triton's "grouped ordering").
    %group = arith.divui %t, %per_group : index
    %first_m = arith.muli %group, %c8 : index
    %rows_left = arith.subi %tiles_m, %first_m : index
    %group_m = arith.minui %rows_left, %c8 : index
    %in_group = arith.remui %t, %per_group : index
    %pm_off = arith.remui %in_group, %group_m : index
    %pm = arith.addi %first_m, %pm_off : index
    %pn = arith.divui %in_group, %group_m : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index

    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) warp_specialized {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%n0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<256x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x256xf32>
    }

    // Chunk j (columns 32 j ..): buffer j % 2, free once at most one store
    // (chunk j - 1's) is still reading.
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c0] to %Cs0[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    tile.copy %Cs0[] to %C[%m0, %n0] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c32] to %Cs1[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    %n1 = arith.addi %n0, %c32 : index
    tile.copy %Cs1[] to %C[%m0, %n1] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c64] to %Cs0[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    %n2 = arith.addi %n0, %c64 : index
    tile.copy %Cs0[] to %C[%m0, %n2] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c96] to %Cs1[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    %n3 = arith.addi %n0, %c96 : index
    tile.copy %Cs1[] to %C[%m0, %n3] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c128] to %Cs0[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    %n4 = arith.addi %n0, %c128 : index
    tile.copy %Cs0[] to %C[%m0, %n4] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c160] to %Cs1[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    %n5 = arith.addi %n0, %c160 : index
    tile.copy %Cs1[] to %C[%m0, %n5] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c192] to %Cs0[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    %n6 = arith.addi %n0, %c192 : index
    tile.copy %Cs0[] to %C[%m0, %n6] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c224] to %Cs1[] : !tile.fragment<128x256xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    %n7 = arith.addi %n0, %c224 : index
    tile.copy %Cs1[] to %C[%m0, %n7] {tma, async} : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>

  }
  // No store may still read shared memory when the CTA ends.
  tile.wait_tma_stores pending(0)
}
