// gemm.mlir with thread-block clusters: two CTAs that share B.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
//
// `cluster(2, 1, 1)` launches the CTAs in pairs. The two CTAs of a pair
// always work on vertically adjacent 128 x 256 tiles of C (rows m0 and
// m0 + 128, the same columns n0), so they read the same 256 x 64 tiles of
// B. `{multicast}` on that copy tells the compiler so: each CTA loads half
// of the B tile and TMA multicast writes it into both CTAs' shared memory,
// which halves B's traffic from L2. The compiler releases each pipeline
// slot to both CTAs (their producers write into each other's slots) and
// synchronises the cluster after the barriers are set up and before the
// kernel ends.
//
// The persistent loop walks pairs of tile-rows: both CTAs of a cluster run
// the same iterations, as multicast needs (a CTA whose tile lies below M
// still loads its half of B for its partner; its own loads read zeros and
// its stores are skipped).
tile.kernel @gemm_bf16_cluster(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                               %C: memref<?x?xf32>) threads(256)
    cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %c128 : index
  %pairs_m = arith.ceildivui %tiles_m, %c2 : index
  %tiles_n = arith.ceildivui %N, %c256 : index
  %pairs = arith.muli %pairs_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %c4 : index
  %first = gpu.cluster_id x
  %clusters = gpu.cluster_dim x
  %rank = gpu.cluster_block_id x

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>

  scf.for %p = %first to %pairs step %clusters {
    // Pair p's place: groups of 4 pair-rows (8 tile-rows), as in gemm.mlir.
    %group = arith.divui %p, %per_group : index
    %first_m = arith.muli %group, %c4 : index
    %rows_left = arith.subi %pairs_m, %first_m : index
    %group_m = arith.minui %rows_left, %c4 : index
    %in_group = arith.remui %p, %per_group : index
    %pm_off = arith.remui %in_group, %group_m : index
    %pair_m = arith.addi %first_m, %pm_off : index
    %pn = arith.divui %in_group, %group_m : index
    %pm2 = arith.muli %pair_m, %c2 : index
    %pm = arith.addi %pm2, %rank : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index

    tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) warp_specialized {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%n0, %k0] to %Bs[] {multicast}
          : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<256x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x256xf32>
    }
    tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
  }
}
