// Variants of gemm.mlir (sm_90a), checked by gemm-check:
//   @gemm_tf32      C (fp32) = A (fp32) B (fp32)^T in tf32 on the tensor cores:
//                   K steps of 32 (128-byte rows), wgmma m64n256k8.
//   @gemm_majors    a family over the operand majors (TA: A is K x M, else
//                   M x K; TB: B is N x K, else K x N) and, at gemm.mlir's
//                   majors, each product completing on a barrier (BAR):
//                     gemm_majors__TA0_TB0_BAR0  A: M x K, B: K x N (nn)
//                     gemm_majors__TA1_TB1_BAR0  A: K x M, B: N x K (tn)
//                     gemm_majors__TA1_TB0_BAR0  A: K x M, B: K x N (tt)
//                     gemm_majors__TA0_TB1_BAR1  A: M x K, B: N x K, barrier
//   @gemm_rs        A from registers (wgmma's register-A form).
//   @gemm_mma       a family: mma.sync asked for by the accumulator's layout,
//                   over the operand majors as above:
//                     gemm_mma__TA0_TB1  A: M x K, B: N x K
//                     gemm_mma__TA1_TB0  A: K x M, B: K x N (ldmatrix.trans)
// A family's kernels are named <family>__<NAME><value>_... over every
// parameter, flags as 0/1. @gemm_tf32 stays a kernel: its K step (32) and
// pipeline differ from gemm.mlir's. A bf16 C (and a bias, GELU or
// residual epilogue) is a configuration of gemm.mlir's family (OUT = bf16).
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

tile.kernel @gemm_majors(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                         %C: memref<?x?xf32>)
    params(TA: i1 = false, TB: i1 = true, BAR: i1 = false)
    configs([TA = false, TB = false], [TA = true, TB = true],
            [TA = true, TB = false], [BAR = true])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %ta = tile.param "TA" : i1
  %tb = tile.param "TB" : i1
  %bar = tile.param "BAR" : i1
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %k_dim = arith.select %ta, %c0, %c1 : index
  %K = memref.dim %A, %k_dim : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  // The tiles as stored: 128 x 64 or 64 x 128 (A), 256 x 64 or 64 x 256 (B).
  %a_rows = arith.select %ta, %c64, %c128 : index
  %a_cols = arith.select %ta, %c128, %c64 : index
  %b_rows = arith.select %tb, %c256, %c64 : index
  %b_cols = arith.select %tb, %c64, %c256 : index
  %As = tile.alloc_shared [%a_rows, %a_cols] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%b_rows, %b_cols] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  // Allocated in both branches: one outside the scf.if would stay, unused,
  // without BAR (tile-specialize folds only what a parameter reaches); the
  // branch that is not taken goes when the if folds.
  %done = scf.if %bar -> !tile.barrier<1> {
    %b = tile.alloc_barrier arrivals(256) : !tile.barrier<1>
    scf.yield %b : !tile.barrier<1>
  } else {
    %b = tile.alloc_barrier arrivals(256) : !tile.barrier<1>
    scf.yield %b : !tile.barrier<1>
  }
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) {
    %k0 = arith.muli %kt, %c64 : index
    %a_row = arith.select %ta, %k0, %m0 : index
    %a_col = arith.select %ta, %m0, %k0 : index
    %b_row = arith.select %tb, %n0, %k0 : index
    %b_col = arith.select %tb, %k0, %n0 : index
    tile.copy %A[%a_row, %a_col] to %As[]
        : memref<?x?xbf16>, memref<?x?xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%b_row, %b_col] to %Bs[]
        : memref<?x?xbf16>, memref<?x?xbf16, #gpu.address_space<workgroup>>
    scf.if %bar {
      tile.gemm %As, %Bs, %acc barrier %done[%c0] {transpose_b}
          : memref<?x?xbf16, #gpu.address_space<workgroup>>,
            memref<?x?xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x256xf32>, !tile.barrier<1>
      %odd = arith.remui %kt, %c2 : index
      %parity = arith.cmpi ne, %odd, %c0 : index
      tile.mbarrier.wait %done[%c0], %parity : !tile.barrier<1>
    } else {
      scf.if %ta {
        scf.if %tb {
          tile.gemm %As, %Bs, %acc {transpose_a, transpose_b}
              : memref<?x?xbf16, #gpu.address_space<workgroup>>,
                memref<?x?xbf16, #gpu.address_space<workgroup>>,
                !tile.fragment<128x256xf32>
        } else {
          tile.gemm %As, %Bs, %acc {transpose_a}
              : memref<?x?xbf16, #gpu.address_space<workgroup>>,
                memref<?x?xbf16, #gpu.address_space<workgroup>>,
                !tile.fragment<128x256xf32>
        }
      } else {
        scf.if %tb {
          tile.gemm %As, %Bs, %acc {transpose_b}
              : memref<?x?xbf16, #gpu.address_space<workgroup>>,
                memref<?x?xbf16, #gpu.address_space<workgroup>>,
                !tile.fragment<128x256xf32>
        } else {
          tile.gemm %As, %Bs, %acc
              : memref<?x?xbf16, #gpu.address_space<workgroup>>,
                memref<?x?xbf16, #gpu.address_space<workgroup>>,
                !tile.fragment<128x256xf32>
        }
      }
    }
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

// C = op(A) op(B) on mma.sync although the chip has wgmma: the accumulator's
// #tile.mma layout, given by hand, asks for the fallback path (ldmatrix from
// plain shared tiles, mma.sync m16n8k16, the 8 warps as a 2 x 4 grid of
// 64 x 64 warp tiles); the loads still come through TMA. Operands stored
// the other way (A: K x M, B: K x N) are read by ldmatrix.trans, which hands
// out the registers mma.sync wants. Not part of @gemm_majors: the layout is
// in the accumulator's type, which no parameter sets.
tile.kernel @gemm_mma(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xf32>)
    params(TA: i1 = false, TB: i1 = true)
    configs([TA = false, TB = true], [TA = true, TB = false])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %ta = tile.param "TA" : i1
  %tb = tile.param "TB" : i1
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m0 = arith.muli %by, %c128 : index
  %n0 = arith.muli %bx, %c256 : index
  %k_dim = arith.select %ta, %c0, %c1 : index
  %K = memref.dim %A, %k_dim : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c32 : index
  // The tiles as stored: 128 x 32 or 32 x 128 (A), 256 x 32 or 32 x 256 (B).
  %a_rows = arith.select %ta, %c32, %c128 : index
  %a_cols = arith.select %ta, %c128, %c32 : index
  %b_rows = arith.select %tb, %c256, %c32 : index
  %b_cols = arith.select %tb, %c32, %c256 : index
  %As = tile.alloc_shared [%a_rows, %a_cols] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%b_rows, %b_cols] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(3) {
    %k0 = arith.muli %kt, %c32 : index
    %a_row = arith.select %ta, %k0, %m0 : index
    %a_col = arith.select %ta, %m0, %k0 : index
    %b_row = arith.select %tb, %n0, %k0 : index
    %b_col = arith.select %tb, %k0, %n0 : index
    tile.copy %A[%a_row, %a_col] to %As[]
        : memref<?x?xbf16>, memref<?x?xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%b_row, %b_col] to %Bs[]
        : memref<?x?xbf16>, memref<?x?xbf16, #gpu.address_space<workgroup>>
    // One form of the product per pair of majors (unit attributes).
    scf.if %ta {
      scf.if %tb {
        tile.gemm %As, %Bs, %acc {transpose_a, transpose_b}
            : memref<?x?xbf16, #gpu.address_space<workgroup>>,
              memref<?x?xbf16, #gpu.address_space<workgroup>>,
              !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
      } else {
        tile.gemm %As, %Bs, %acc {transpose_a}
            : memref<?x?xbf16, #gpu.address_space<workgroup>>,
              memref<?x?xbf16, #gpu.address_space<workgroup>>,
              !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
      }
    } else {
      scf.if %tb {
        tile.gemm %As, %Bs, %acc {transpose_b}
            : memref<?x?xbf16, #gpu.address_space<workgroup>>,
              memref<?x?xbf16, #gpu.address_space<workgroup>>,
              !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
      } else {
        tile.gemm %As, %Bs, %acc
            : memref<?x?xbf16, #gpu.address_space<workgroup>>,
              memref<?x?xbf16, #gpu.address_space<workgroup>>,
              !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>
      }
    }
  }
  tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x256xf32, #tile.mma<warps_m = 2, warps_n = 4>>, memref<?x?xf32>
}
