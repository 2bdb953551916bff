// gemm-pingpong.mlir with 128 x 128 team tiles: each of the two
// ping-pong teams (one warpgroup) holds a 128 x 128 accumulator, two blocks
// of 64 rows (#tile.wgmma<warpgroups = 1, blocks = 2>), and issues two
// m64n128 wgmmas per K step. Against 64 x 256 team tiles, a K step loads
// 256 rows into shared memory instead of 320 for the same products (the
// wgmmas read B once per block: 384 rows against 320). Read
// gemm-pingpong.mlir first.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
tile.kernel @gemm_bf16_pingpong_128(%A: memref<?x?xbf16>,
                                    %B: memref<?x?xbf16>,
                                    %C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %c128 : index
  %tiles_n = arith.ceildivui %N, %c128 : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %c8 : index
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>

  scf.for %t = %first to %tiles step %ctas {
    // Tile t's place in C: groups of 8 tile-rows (1024 rows of C, as in
    // gemm.mlir), so that tiles running together share A and B in L2.
    %group = arith.divui %t, %per_group : index
    %first_m = arith.muli %group, %c8 : index
    %rows_left = arith.subi %tiles_m, %first_m : index
    %group_m = arith.minui %rows_left, %c8 : index
    %in_group = arith.remui %t, %per_group : index
    %pm_off = arith.remui %in_group, %group_m : index
    %pm = arith.addi %first_m, %pm_off : index
    %pn = arith.divui %in_group, %group_m : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index

    tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(6) warp_specialized pingpong {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%n0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<128x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x128xf32>
    }
    tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x128xf32>, memref<?x?xf32>
  }
}
