// A bf16 GEMM for Blackwell (sm_100a) in the explicit style kernel authors
// know from TileLang's SM100 examples: the program allocates the
// accumulator in tensor memory and a barrier, each tile.gemm (tcgen05.mma,
// issued by one thread) completes on that barrier, and the program waits on
// it with the parity it tracks itself.
//
//   C[M, N] = A[M, K] * B[N, K]^T     (bf16 inputs, fp32 accumulation)
//
// One CTA of 256 threads per 128 x 256 tile of C (two warpgroups, each
// reading half of the accumulator's columns back); K in steps of 64, each
// loaded by TMA on the `loaded` barrier. No pipelining: the loads of step
// k + 1 wait for the product of step k (gemm.mlir, built for sm_100a,
// overlaps them).
tile.kernel @gemm_explicit(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                           %C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %bm = gpu.block_id x
  %bn = gpu.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c256 : index

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  // Two copies complete on it, each arriving once.
  %loaded = tile.alloc_barrier arrivals(2) : !tile.barrier<1>
  %done = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %acc = tile.alloc_tmem : !tile.tmem<128x256xf32>

  scf.for %kt = %c0 to %ktiles step %c1 {
    %k0 = arith.muli %kt, %c64 : index
    // Step kt completes phase kt of both barriers.
    %round = arith.remui %kt, %c2 : index
    %parity = arith.cmpi ne, %round, %c0 : index
    tile.copy %A[%m0, %k0] to %As[] barrier %loaded[%c0]
        : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
    tile.copy %B[%n0, %k0] to %Bs[] barrier %loaded[%c0]
        : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
    tile.mbarrier.wait %loaded[%c0], %parity : !tile.barrier<1>
    %first = arith.cmpi eq, %kt, %c0 : index
    scf.if %first {
      tile.gemm %As, %Bs, %acc barrier %done[%c0] {transpose_b, clear_accum}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<256x64xbf16, #gpu.address_space<workgroup>>,
            !tile.tmem<128x256xf32>, !tile.barrier<1>
    } else {
      tile.gemm %As, %Bs, %acc barrier %done[%c0] {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<256x64xbf16, #gpu.address_space<workgroup>>,
            !tile.tmem<128x256xf32>, !tile.barrier<1>
    }
    // The product has read As and Bs (and written acc) once this passes.
    tile.mbarrier.wait %done[%c0], %parity : !tile.barrier<1>
  }

  // The epilogue: tcgen05.ld into one row per thread, then to C.
  %out = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.copy %acc[] to %out[] : !tile.tmem<128x256xf32>, !tile.fragment<128x256xf32>
  tile.copy %out[] to %C[%m0, %n0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
  tile.dealloc_tmem %acc : !tile.tmem<128x256xf32>
}
