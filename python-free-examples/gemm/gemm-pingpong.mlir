// gemm.mlir with ping-pong consumers: each warpgroup works on its own tile.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
//
// The kernel below is written for one warpgroup (128 threads) and one
// 64 x 256 tile of C at a time. `warp_specialized pingpong` has the compiler
// run two such warpgroups, "teams", next to the producer warp (384 threads):
// team 0 takes the even iterations of the persistent tile loop, team 1 the
// odd ones. Their k-loops take turns, in tile order, on the shared ring of
// stages (one team's loop starts once the other's last product is issued),
// so while one team stores its tile the other keeps the tensor cores busy:
// the epilogue is hidden instead of stalling the whole CTA (CUTLASS's
// "ping-pong" kernel schedule).
tile.kernel @gemm_bf16_pingpong(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                                %C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %c64 : index
  %tiles_n = arith.ceildivui %N, %c256 : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %c16 : index
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x

  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x256xf32>

  scf.for %t = %first to %tiles step %ctas {
    // Tile t's place in C: groups of 16 tile-rows (1024 rows of C, as in
    // gemm.mlir), so that tiles running together share A and B in L2.
    %group = arith.divui %t, %per_group : index
    %first_m = arith.muli %group, %c16 : index
    %rows_left = arith.subi %tiles_m, %first_m : index
    %group_m = arith.minui %rows_left, %c16 : index
    %in_group = arith.remui %t, %per_group : index
    %pm_off = arith.remui %in_group, %group_m : index
    %pm = arith.addi %first_m, %pm_off : index
    %pn = arith.divui %in_group, %group_m : index
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c256 : index

    tile.fill %acc, %zero : !tile.fragment<64x256xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(5) warp_specialized pingpong {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%n0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<64x64xbf16, #gpu.address_space<workgroup>>,
            memref<256x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<64x256xf32>
    }
    tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<64x256xf32>, memref<?x?xf32>
  }
}
