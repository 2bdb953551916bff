// A bf16 GEMM for Hopper, written as a tile program: a kernel family.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
//
// The kernel is persistent: the host launches one CTA per SM and each CTA
// walks the BM x BN tiles of C (tile t, t + #CTAs, ...) in groups of GROUP
// tile-rows. For a tile, it walks K in steps of 64: TMA loads a BM x 64
// tile of A and a BN x 64 tile of B into shared memory, and the tensor
// cores (wgmma) accumulate their product into registers.
//
// `stages(STAGES)` asks the compiler to multi-buffer As and Bs STAGES
// deep, with the loads completing on a ring of mbarriers whose phases it
// computes. `warp_specialized` splits the work between warps: the compiler
// adds a producer warpgroup whose one warp issues the loads as soon as a
// slot is free, and the warpgroups written here wait for each slot,
// multiply, and release it.
//   - PINGPONG = 0: the THREADS = 256 consumers (two warpgroups) share each
//     tile; the producer makes 384 threads.
//   - PINGPONG = 1: the kernel is written for one warpgroup (THREADS = 128)
//     and the compiler runs two such teams on alternate tiles, so that one
//     team's epilogue overlaps the other's main loop.
//   - TMASTORE = 1: the tile leaves through shared memory by asynchronous
//     TMA stores instead of from registers; TMA needs global rows of a
//     multiple of 16 bytes: N % 4 == 0. Not with PINGPONG: the teams would
//     share the staging buffers, which the compiler refuses.
// Edge tiles need no code: out-of-bounds loads read zeros and out-of-bounds
// stores are skipped.
//
// The configurations below are the ones the choice by shape picks from
// (GemmChoice.h): tile-translate compiles them all into one cubin, named
// gemm_bf16__BM<BM>_BN<BN>_GROUP<GROUP>_STAGES<STAGES>_THREADS<THREADS>_
// PINGPONG<0|1>_TMASTORE<0|1>; `--tile-values=NAME=V,...` compiles one
// kernel, @gemm_bf16, at those values and the defaults (128 x 256).

// Tile t's place (pm, pn) among tiles_m x tiles_n tiles, in groups of
// `group` tile-rows (per_group = tiles_n * group tiles), so that CTAs
// running together share rows of A and columns of B in L2 (Triton's
// "grouped ordering").
func.func private @grouped_tile_order(%t: index, %tiles_m: index,
                                      %per_group: index, %group: index)
    -> (index, index) {
  %g = arith.divui %t, %per_group : index
  %first_m = arith.muli %g, %group : index
  %rows_left = arith.subi %tiles_m, %first_m : index
  %group_m = arith.minui %rows_left, %group : index
  %in_group = arith.remui %t, %per_group : index
  %pm_off = arith.remui %in_group, %group_m : index
  %pm = arith.addi %first_m, %pm_off : index
  %pn = arith.divui %in_group, %group_m : index
  func.return %pm, %pn : index, index
}

tile.kernel @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                       %C: memref<?x?xf32>)
    // BN: the TMA epilogue is written for 128 or 256 columns.
    params(BM: index = 128 in [64, 128, 256], BN: index = 256 in [128, 256],
           GROUP: index = 8, STAGES: i32 = 4, THREADS: i32 = 256,
           PINGPONG: i1 = false, TMASTORE: i1 = false)
    configs([BM = 128, BN = 256],
            [BM = 256, BN = 128],
            [BM = 64, BN = 256, GROUP = 16, STAGES = 5, THREADS = 128,
             PINGPONG = true],
            [BM = 128, BN = 128, STAGES = 6, THREADS = 128, PINGPONG = true],
            [TMASTORE = true])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %group = tile.param "GROUP" : index
  %tma_store = tile.param "TMASTORE" : i1
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %bm : index
  %tiles_n = arith.ceildivui %N, %bn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %group : index
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x

  %As = tile.alloc_shared [%bm] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%bn] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
  // TMASTORE's two 128-byte-swizzled buffers of BM x 32 fp32 (unused, and
  // dropped, without it).
  %Cs0 = tile.alloc_shared [%bm] {swizzle = 128} : memref<?x32xf32, #gpu.address_space<workgroup>>
  %Cs1 = tile.alloc_shared [%bm] {swizzle = 128} : memref<?x32xf32, #gpu.address_space<workgroup>>

  scf.for %t = %first to %tiles step %ctas {
    %pm, %pn = func.call @grouped_tile_order(%t, %tiles_m, %per_group, %group)
        : (index, index, index, index) -> (index, index)
    %m0 = arith.muli %pm, %bm : index
    %n0 = arith.muli %pn, %bn : index

    tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(STAGES) warp_specialized pingpong(PINGPONG) {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<?x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%n0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<?x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<?x64xbf16, #gpu.address_space<workgroup>>,
            memref<?x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<?x?xf32>
    }
    scf.if %tma_store {
      // The tile in BN / 32 column chunks, chunk j through buffer j % 2
      // once the store two chunks back has read it (pending(1)); the last
      // stores overlap the next tile's main loop.
      %c96 = arith.constant 96 : index
      %c128 = arith.constant 128 : index
      %c160 = arith.constant 160 : index
      %c192 = arith.constant 192 : index
      %c224 = arith.constant 224 : index
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c0] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
      tile.copy %Cs0[] to %C[%m0, %n0] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c32] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
      %n1 = arith.addi %n0, %c32 : index
      tile.copy %Cs1[] to %C[%m0, %n1] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c64] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
      %n2 = arith.addi %n0, %c64 : index
      tile.copy %Cs0[] to %C[%m0, %n2] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c96] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
      %n3 = arith.addi %n0, %c96 : index
      tile.copy %Cs1[] to %C[%m0, %n3] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
      // Columns 128 .. 255 of a 256-wide tile.
      %wide = arith.cmpi ugt, %bn, %c128 : index
      scf.if %wide {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c128] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
        %n4 = arith.addi %n0, %c128 : index
        tile.copy %Cs0[] to %C[%m0, %n4] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c160] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
        %n5 = arith.addi %n0, %c160 : index
        tile.copy %Cs1[] to %C[%m0, %n5] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c192] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
        %n6 = arith.addi %n0, %c192 : index
        tile.copy %Cs0[] to %C[%m0, %n6] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c224] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
        %n7 = arith.addi %n0, %c224 : index
        tile.copy %Cs1[] to %C[%m0, %n7] {tma, async} : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
      }
    } else {
      tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<?x?xf32>, memref<?x?xf32>
    }
  }
  // No store may still read shared memory when the CTA ends.
  scf.if %tma_store {
    tile.wait_tma_stores pending(0)
  }
}
