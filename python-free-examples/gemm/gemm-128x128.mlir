// A bf16 GEMM for Hopper with 128 x 128 tiles of C: gemm.mlir's kernel (read
// it first) with a narrower tile and one more stage: twice the CTAs, for
// sizes where 128 x 256 tiles leave SMs idle (1024^3, 3072^3). Below it the
// same with 128 x 64 tiles and six stages, four times gemm.mlir's CTAs:
// products of few tiles (M = 128, GPT-2's layers at batch 1) that
// 128 x 128 tiles leave at half the SMs.
tile.kernel @gemm_bf16_128x128(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                       %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c128n = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32

  // This CTA's tile of C. CTAs run in launch order, so walk the tiles in
  // groups of 8 tile-rows: CTAs running together share rows of A and
  // columns of B in L2 (Triton's "grouped ordering").
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %nx = gpu.grid_dim x
  %ny = gpu.grid_dim y
  %c8 = arith.constant 8 : index
  %row = arith.muli %by, %nx : index
  %pid = arith.addi %row, %bx : index
  %per_group = arith.muli %nx, %c8 : index
  %group = arith.divui %pid, %per_group : index
  %first_m = arith.muli %group, %c8 : index
  %rows_left = arith.subi %ny, %first_m : index
  %group_m = arith.minui %rows_left, %c8 : index
  %in_group = arith.remui %pid, %per_group : index
  %pm_off = arith.remui %in_group, %group_m : index
  %pm = arith.addi %first_m, %pm_off : index
  %pn = arith.divui %in_group, %group_m : index
  %m0 = arith.muli %pm, %c128 : index
  %n0 = arith.muli %pn, %c128n : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
  tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32

  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(5) {
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

tile.kernel @gemm_bf16_128x64(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                       %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c64n = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32

  // This CTA's tile of C. CTAs run in launch order, so walk the tiles in
  // groups of 8 tile-rows: CTAs running together share rows of A and
  // columns of B in L2 (Triton's "grouped ordering").
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %nx = gpu.grid_dim x
  %ny = gpu.grid_dim y
  %c8 = arith.constant 8 : index
  %row = arith.muli %by, %nx : index
  %pid = arith.addi %row, %bx : index
  %per_group = arith.muli %nx, %c8 : index
  %group = arith.divui %pid, %per_group : index
  %first_m = arith.muli %group, %c8 : index
  %rows_left = arith.subi %ny, %first_m : index
  %group_m = arith.minui %rows_left, %c8 : index
  %in_group = arith.remui %pid, %per_group : index
  %pm_off = arith.remui %in_group, %group_m : index
  %pm = arith.addi %first_m, %pm_off : index
  %pn = arith.divui %in_group, %group_m : index
  %m0 = arith.muli %pm, %c128 : index
  %n0 = arith.muli %pn, %c64n : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32

  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(6) {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%m0, %k0] to %As[]
        : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%n0, %k0] to %Bs[]
        : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b}
        : memref<128x64xbf16, #gpu.address_space<workgroup>>,
          memref<64x64xbf16, #gpu.address_space<workgroup>>,
          !tile.fragment<128x64xf32>
  }

  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x64xf32>, memref<?x?xf32>
}
