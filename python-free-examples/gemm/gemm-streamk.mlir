// gemm.mlir with stream-K for the last tiles: no SM idles in a ragged last
// wave, and a shape with fewer tiles than SMs still fills the GPU.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
//
// The kernel is persistent (P CTAs, one per SM) over T tiles of C, each a
// K loop of KT steps of 64. Whole waves of tiles run as in gemm.mlir (tile
// c, c + P, ... for CTA c, stored plainly): the data-parallel part. The
// last tiles, between one and two waves' worth (none when P divides T),
// are shared out by K steps instead: their S x KT iterations (tile, K
// step), laid end to end, give CTA c the run [c S KT / P, (c + 1) S KT / P),
// which covers the tail of one tile's K loop, whole K loops, and the head
// of another's. For each tile it touches, the CTA multiplies its part of
// the K loop and adds the partial sum into C with reductions, so the CTAs
// that share a tile need no workspace and no order: the partial tile is
// staged in shared memory in 128 x 32 chunks and each chunk added by one
// TMA bulk reduction (`{tma, async, atomic_add}`), which needs C's rows to
// be a multiple of 16 bytes (N % 4 == 0). A tile one CTA covers whole is
// stored plainly from registers.
//
// In the grouped order (8 tile-rows at a time, gemm.mlir) the last tiles
// are the bottom rows of C: the caller zeroes C from the first row of the
// group that holds the first stream-K tile (a TileGemm set up with
// setStreamK works that out in bind() and zeroes them in launch()).
//
// One family: 128 x 256 tiles (gemm.mlir's), and 128 x 128 tiles (5
// stages), for products of few tiles where the partial tiles' additions
// should be small: gemm_bf16_streamk__BN256_STAGES4 and
// gemm_bf16_streamk__BN128_STAGES5.
tile.kernel @gemm_bf16_streamk(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                               %C: memref<?x?xf32>)
    // BN: the partial tile leaves in BN / 32 chunks, written for 128 or 256.
    params(BN: index = 256 in [128, 256], STAGES: i32 = 4)
    configs([BN = 256], [BN = 128, STAGES = 5])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bn = tile.param "BN" : index
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
  %tiles_n = arith.ceildivui %N, %bn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %c8 : index
  %cta = gpu.block_id x
  %ctas = gpu.grid_dim x

  // The stream-K tiles: T mod P + P of them (at most T), none when P
  // divides T; the data-parallel ones before them, DP waves of P.
  %ragged = arith.remui %tiles, %ctas : index
  %ragged_plus = arith.addi %ragged, %ctas : index
  %up_to_all = arith.minui %ragged_plus, %tiles : index
  %even = arith.cmpi eq, %ragged, %c0 : index
  %sk_tiles = arith.select %even, %c0, %up_to_all : index
  %dp_tiles = arith.subi %tiles, %sk_tiles : index
  %dp_waves = arith.divui %dp_tiles, %ctas : index
  // This CTA's run of stream-K iterations, [start, end), and its tiles.
  %sk_iters = arith.muli %sk_tiles, %ktiles : index
  %cta_next = arith.addi %cta, %c1 : index
  %start_x = arith.muli %cta, %sk_iters : index
  %start = arith.divui %start_x, %ctas : index
  %end_x = arith.muli %cta_next, %sk_iters : index
  %end = arith.divui %end_x, %ctas : index
  // (K = 0 leaves no iterations: divide by at least 1.)
  %ktiles_div = arith.maxui %ktiles, %c1 : index
  %sk_first = arith.divui %start, %ktiles_div : index
  %sk_last = arith.ceildivui %end, %ktiles_div : index
  %sk_count = arith.subi %sk_last, %sk_first : index
  %work = arith.addi %dp_waves, %sk_count : index

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%bn] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment [%bn] : !tile.fragment<128x?xf32>
  %Cs0 = tile.alloc_shared : memref<128x32xf32, #tile.shared<swizzle = 128>>
  %Cs1 = tile.alloc_shared : memref<128x32xf32, #tile.shared<swizzle = 128>>

  scf.for %j = %c0 to %work step %c1 {
    // Work item j: data-parallel tile cta + j P (the whole K loop), or
    // stream-K tile j - DP of this CTA's run (steps [kb, ke) of its loop).
    %is_dp = arith.cmpi ult, %j, %dp_waves : index
    %dp_step = arith.muli %j, %ctas : index
    %dp_t = arith.addi %cta, %dp_step : index
    %sk_j = arith.subi %j, %dp_waves : index
    %sk_i = arith.addi %sk_first, %sk_j : index
    %sk_t = arith.addi %dp_tiles, %sk_i : index
    %t = arith.select %is_dp, %dp_t, %sk_t : index
    %tile_start = arith.muli %sk_i, %ktiles : index
    %from = arith.maxui %start, %tile_start : index
    %sk_kb = arith.subi %from, %tile_start : index
    %to_end = arith.subi %end, %tile_start : index
    %sk_ke = arith.minui %to_end, %ktiles : index
    %kb = arith.select %is_dp, %c0, %sk_kb : index
    %ke = arith.select %is_dp, %ktiles, %sk_ke : index
    %kb_zero = arith.cmpi eq, %kb, %c0 : index
    %ke_all = arith.cmpi eq, %ke, %ktiles : index
    %whole = arith.andi %kb_zero, %ke_all : i1

    // Tile t's place in C, in groups of 8 tile-rows (gemm.mlir).
    %group = arith.divui %t, %per_group : index
    %first_m = arith.muli %group, %c8 : index
    %rows_left = arith.subi %tiles_m, %first_m : index
    %group_m = arith.minui %rows_left, %c8 : index
    %in_group = arith.remui %t, %per_group : index
    %pm_off = arith.remui %in_group, %group_m : index
    %pm = arith.addi %first_m, %pm_off : index
    %pn = arith.divui %in_group, %group_m : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %bn : index

    tile.fill %acc, %zero : !tile.fragment<128x?xf32>, f32
    tile.pipelined_for %kt = %kb to %ke step %c1 stages(STAGES) warp_specialized {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%n0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<?x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<?x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x?xf32>
    }
    scf.if %whole {
      tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x?xf32>, memref<?x?xf32>
    } else {
      // The partial tile leaves in BN / 32 column chunks of 128 x 32 through
      // two 16 KiB buffers, each added into C by one bulk TMA reduction
      // (cp.reduce.async.bulk.tensor .add) while the next chunk is staged.
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c0] to %Cs0[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
      tile.copy %Cs0[] to %C[%m0, %n0] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c32] to %Cs1[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
      %nc1 = arith.addi %n0, %c32 : index
      tile.copy %Cs1[] to %C[%m0, %nc1] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c64] to %Cs0[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
      %nc2 = arith.addi %n0, %c64 : index
      tile.copy %Cs0[] to %C[%m0, %nc2] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c96] to %Cs1[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
      %nc3 = arith.addi %n0, %c96 : index
      tile.copy %Cs1[] to %C[%m0, %nc3] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
      // Columns 128 .. 255 of a 256-wide tile.
      %wide = arith.cmpi ugt, %bn, %c128 : index
      scf.if %wide {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c128] to %Cs0[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
        %nc4 = arith.addi %n0, %c128 : index
        tile.copy %Cs0[] to %C[%m0, %nc4] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c160] to %Cs1[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
        %nc5 = arith.addi %n0, %c160 : index
        tile.copy %Cs1[] to %C[%m0, %nc5] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c192] to %Cs0[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
        %nc6 = arith.addi %n0, %c192 : index
        tile.copy %Cs0[] to %C[%m0, %nc6] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %c224] to %Cs1[] : !tile.fragment<128x?xf32>, memref<128x32xf32, #tile.shared<swizzle = 128>>
        %nc7 = arith.addi %n0, %c224 : index
        tile.copy %Cs1[] to %C[%m0, %nc7] {tma, async, atomic_add} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
      }
    }
  }
  // No reduction may still read shared memory when the CTA ends.
  tile.wait_tma_stores pending(0)
}

