// The same GEMM for chips without wgmma (sm_80 and later, including Hopper
// compiled as plain sm_90): C[M, N] = A[M, K] * B[N, K]^T, bf16 in, fp32 out.
//
// 256 threads (8 warps) per 128 x 128 tile of C, K in steps of 32. The
// copies into shared memory use cp.async (zero-filling past the edges);
// tile.gemm becomes mma.sync m16n8k16 with ldmatrix, the 8 warps as a 2 x 4
// grid of 64 x 32 warp tiles. stages(3): on chips without TMA (sm_80, sm_86,
// sm_89) the copies become cp.async in commit groups, two k-steps ahead of
// the math (cp.async.wait_group 1 before each step); on sm_90 TMA moves them.
tile.kernel @gemm_bf16_mma(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                           %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c128 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c32 : index

  %As = tile.alloc_shared : memref<128x32xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<128x32xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
  tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(3) {
    %k0 = arith.muli %kt, %c32 : index
    tile.copy %A[%m0, %k0] to %As[]
        : memref<?x?xbf16>, memref<128x32xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%n0, %k0] to %Bs[]
        : memref<?x?xbf16>, memref<128x32xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b}
        : memref<128x32xbf16, #gpu.address_space<workgroup>>,
          memref<128x32xbf16, #gpu.address_space<workgroup>>,
          !tile.fragment<128x128xf32>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x128xf32>, memref<?x?xf32>
}
