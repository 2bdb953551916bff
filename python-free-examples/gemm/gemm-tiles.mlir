// bf16 GEMMs for Hopper with one CTA per tile of C: gemm.mlir's main loop
// (read it first), not persistent, not warp-specialised, written once as a
// family over the tile's width and the pipeline's depth.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
//
// Against gemm.mlir's 128 x 256 tiles, narrower tiles make more CTAs:
//   BN = 128, 5 stages: twice the CTAs, for sizes where 128 x 256 tiles
//     leave SMs idle (1024^3, 3072^3);
//   BN = 64, 6 stages: four times the CTAs, for products of few tiles
//     (M = 128, GPT-2's layers at batch 1) that 128 x 128 tiles leave at
//     half the SMs;
//   BN = 192, 5 stages: sizes whose 128 x 256 tiles leave a last wave
//     mostly empty (3072^3: 2.2 waves on 132 SMs) fill it better (2.9
//     waves); wgmma m64n192k16, 96 accumulators a thread.
// The kernels are gemm_bf16_tile__BM128_BN<BN>_STAGES<STAGES>.

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

tile.kernel @gemm_bf16_tile(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                            %C: memref<?x?xf32>)
    params(BM: index = 128, BN: index = 128 in [64, 128, 192],
           STAGES: i32 = 5)
    configs([BN = 128], [BN = 64, STAGES = 6], [BN = 192])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %zero = arith.constant 0.0 : f32

  // This CTA's tile of C: the host launches a 2-D grid of tiles, which is
  // walked in groups of 8 tile-rows.
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %nx = gpu.grid_dim x
  %ny = gpu.grid_dim y
  %row = arith.muli %by, %nx : index
  %pid = arith.addi %row, %bx : index
  %per_group = arith.muli %nx, %c8 : index
  %pm, %pn = func.call @grouped_tile_order(%pid, %ny, %per_group, %c8)
      : (index, index, index, index) -> (index, index)
  %m0 = arith.muli %pm, %bm : index
  %n0 = arith.muli %pn, %bn : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index

  %As = tile.alloc_shared [%bm] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%bn] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
  tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32

  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(STAGES) {
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

  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<?x?xf32>, memref<?x?xf32>
}
