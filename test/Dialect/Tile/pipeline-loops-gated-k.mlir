// tile.wait in a pipelined loop's body gates that iteration's loads (a
// peer's chunk of K arriving with a signal, as in Cannon's GEMM): the
// producer runs it, with the pure ops its operands need, before it issues
// the iteration's copies; the compute, which reads only what those copies
// brought, runs no wait. Warp-specialised: in the producer warp's loop,
// before the slot's copies (the consumers have no tile.wait). Software-
// pipelined: in the prologue and in each refill, iterations ahead of the
// compute, never in the compute itself.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --tile-pipeline-loops --canonicalize

tile.kernel @gated_k_ws(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %kt: index, %per_chunk: index, %tiles: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  scf.for %t = %first to %tiles step %ctas {
    %m0 = arith.muli %t, %c128 : index
    tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32
    tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
      %chunk = arith.divui %k, %per_chunk : index
      tile.wait %flags[%chunk] ge %epoch level world : memref<?xi64>
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
    }
    tile.copy %acc[] to %C[%m0, %c0] : !tile.fragment<128x64xf32>, memref<?x?xf32>
  }
}

// -----

tile.kernel @gated_k_software(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) {
    tile.wait %flags[%k] gt %epoch level world : memref<?xi64>
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32>
  }
}

// -----

tile.kernel @gated_chunk_start(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %kt: index, %per_chunk: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    %chunk = arith.divui %k, %per_chunk : index
    %piece = arith.remui %k, %per_chunk : index
    %starts = arith.cmpi eq, %piece, %c0 : index
    scf.if %starts {
      tile.wait %flags[%chunk] ge %epoch level world : memref<?xi64>
    }
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32>
  }
}
