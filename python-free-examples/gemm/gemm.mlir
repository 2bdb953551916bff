// A bf16 GEMM for Hopper, written as a tile program.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
//
// The kernel is persistent: the host launches one CTA per SM and each CTA
// walks the 128 x 256 tiles of C (tile t, t + #CTAs, ...). For a tile, it
// walks K in steps of 64: TMA loads a 128 x 64 tile of A and a 256 x 64 tile
// of B into shared memory, and the tensor cores (wgmma) accumulate their
// product into registers, then the tile is stored.
//
// `stages(4)` asks the compiler to multi-buffer As and Bs four deep, with
// the loads completing on a ring of mbarriers whose phases it computes.
// `warp_specialized` splits the work between warps: the compiler adds a
// producer warpgroup (the kernel's 256 threads become 384) whose one warp
// issues the loads as soon as a slot is free, and the two warpgroups written
// here wait for each slot, multiply, and release it. The producer does not
// wait for the epilogue: while one tile is stored, the next tile's first
// loads are already in flight.
//
// Edge tiles need no code: out-of-bounds loads read zeros and out-of-bounds
// stores are skipped.
tile.kernel @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                       %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
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
    tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
  }
}
