// Variants of gemm.mlir (sm_90a), checked by gemm-check:
//   @gemm_tf32      C (fp32) = A (fp32) B (fp32)^T in tf32 on the tensor cores:
//                   K steps of 32 (128-byte rows), wgmma m64n256k8.
//   @gemm_bf16_out  bf16 in, bf16 out: the epilogue converts the fp32
//                   accumulators in registers (tile.elementwise) and stores
//                   bf16.
//   @gemm_nn, @gemm_tn, @gemm_tt  the other operand majors (see below).
//   @gemm_rs        A from registers (wgmma's register-A form).
//   @gemm_bar       each product completing on a barrier.
//   @gemm_mma_explicit  mma.sync asked for by the accumulator's layout.
//   @gemm_mma_tt    the same with A: K x M and B: K x N (ldmatrix.trans).
tile.kernel @gemm_tf32(%A: memref<?x?xf32>, %B: memref<?x?xf32>,
                       %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c1 : memref<?x?xf32>
  %ktiles = arith.ceildivui %K, %c32 : index
  %As = tile.alloc_shared : memref<128x32xf32, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x32xf32, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(3) {
    %k0 = arith.muli %kt, %c32 : index
    tile.copy %A[%m0, %k0] to %As[]
        : memref<?x?xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
    tile.copy %B[%n0, %k0] to %Bs[]
        : memref<?x?xf32>, memref<256x32xf32, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b}
        : memref<128x32xf32, #gpu.address_space<workgroup>>,
          memref<256x32xf32, #gpu.address_space<workgroup>>,
          !tile.fragment<128x256xf32>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
}

tile.kernel @gemm_bf16_out(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                           %C: memref<?x?xbf16>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) {
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
  %out = tile.alloc_fragment : !tile.fragment<128x256xbf16>
  tile.elementwise ins(%acc : !tile.fragment<128x256xf32>)
                   outs(%out : !tile.fragment<128x256xbf16>) {
  ^bb0(%x: f32):
    %y = arith.truncf %x : f32 to bf16
    tile.yield %y : bf16
  }
  tile.copy %out[] to %C[%m0, %n0] : !tile.fragment<128x256xbf16>, memref<?x?xbf16>
}

// C = op(A) op(B) with A: M x K, B: K x N (nn): the M- or N-major tiles are
// loaded as 128-byte column blocks and read by wgmma transposed.
tile.kernel @gemm_nn(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x256xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%k0, %n0] to %Bs[] : memref<?x?xbf16>, memref<64x256xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc  : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
}

// C = op(A) op(B) with A: K x M, B: N x K (tn): the M- or N-major tiles are
// loaded as 128-byte column blocks and read by wgmma transposed.
tile.kernel @gemm_tn(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c0 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %As = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%k0, %m0] to %As[] : memref<?x?xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%n0, %k0] to %Bs[] : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_a, transpose_b} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
}

// C = op(A) op(B) with A: K x M, B: K x N (tt): the M- or N-major tiles are
// loaded as 128-byte column blocks and read by wgmma transposed.
tile.kernel @gemm_tt(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c0 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %As = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x256xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%k0, %m0] to %As[] : memref<?x?xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%k0, %n0] to %Bs[] : memref<?x?xbf16>, memref<64x256xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_a} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<64x256xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
}

// C = A B^T with A from registers: each k-step's 128 x 64 slice of A is
// loaded from global memory into a fragment, which tile-assign-layouts gives
// the accumulator's #tile.wgmma layout (a warpgroup's 64 x 16 slice of it is
// wgmma's four A registers per thread); B comes through TMA as in gemm.mlir.
// This is the form attention's second product (P V, P computed in
// registers) takes.
tile.kernel @gemm_rs(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                     %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %Ar = tile.alloc_fragment : !tile.fragment<128x64xbf16>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(3) {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %B[%n0, %k0] to %Bs[] : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %A[%m0, %k0] to %Ar[] : memref<?x?xbf16>, !tile.fragment<128x64xbf16>
    tile.gemm %Ar, %Bs, %acc {transpose_b} : !tile.fragment<128x64xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
}

// C = A B^T with each k-step's product completing on a barrier: every
// thread arrives on %done once its part is complete, and the loop waits for
// that phase (parity k mod 2) before going on. On sm_90a the warpgroup waits
// for its wgmma group before arriving (Hopper cannot tie a group to an
// mbarrier), so this checks the arrival protocol rather than overlap.
tile.kernel @gemm_bar(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  %done = tile.alloc_barrier arrivals(256) : !tile.barrier<1>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%n0, %k0] to %Bs[] : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc barrier %done[%c0] {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>, !tile.barrier<1>
    %odd = arith.remui %kt, %c2 : index
    %parity = arith.cmpi ne, %odd, %c0 : index
    tile.mbarrier.wait %done[%c0], %parity : !tile.barrier<1>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
}

// C = A B^T on mma.sync although the chip has wgmma: the accumulator's
// #tile.mma layout, given by hand, asks for the fallback path (ldmatrix from
// plain shared tiles, mma.sync m16n8k16, the 8 warps as a 2 x 4 grid of
// 64 x 64 warp tiles); the loads still come through TMA.
tile.kernel @gemm_mma_explicit(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                               %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c32 : index
  %As = tile.alloc_shared : memref<128x32xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x32xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(3) {
    %k0 = arith.muli %kt, %c32 : index
    tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x32xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%n0, %k0] to %Bs[] : memref<?x?xbf16>, memref<256x32xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x32xbf16, #gpu.address_space<workgroup>>, memref<256x32xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>, memref<?x?xf32>
}

// The mma.sync path with both operands stored the other way (A: K x M,
// B: K x N): ldmatrix.trans reads them, handing out the registers mma.sync
// wants, from plain shared tiles.
tile.kernel @gemm_mma_tt(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                         %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %K = memref.dim %A, %c0 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c32 : index
  %As = tile.alloc_shared : memref<32x128xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<32x256xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(3) {
    %k0 = arith.muli %kt, %c32 : index
    tile.copy %A[%k0, %m0] to %As[] : memref<?x?xbf16>, memref<32x128xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%k0, %n0] to %Bs[] : memref<?x?xbf16>, memref<32x256xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_a} : memref<32x128xbf16, #gpu.address_space<workgroup>>, memref<32x256xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>, memref<?x?xf32>
}
