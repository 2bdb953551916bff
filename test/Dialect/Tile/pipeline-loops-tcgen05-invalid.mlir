// What the sm_100a (tcgen05) split of a warp_specialized loop refuses,
// each with a located error saying what to write.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_100a --tile-select-instructions --tile-assign-layouts --tile-pipeline-loops --verify-diagnostics -o /dev/null

// The MMA warp clears the accumulator itself on the first step, so the
// program must have cleared it right before the loop.
tile.kernel @no_clear(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.gemm' op accumulates in tensor memory from zero in a warp-specialised loop: clear the accumulator with tile.fill %acc, 0.0 right before the loop}}
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
  }
}

// -----

// The body runs in one MMA warp: nothing else with side effects.
tile.kernel @side_effect(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %other = tile.alloc_fragment : !tile.fragment<128x64xf32>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.fill' op cannot run in a warp-specialised tcgen05 loop, whose body runs in a single MMA warp: it may hold the pipelined copies and the waits that gate them, one tile.gemm and side-effect-free ops}}
    tile.fill %other, %zero : !tile.fragment<128x64xf32>, f32
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
  }
}

// -----

// Epilogue rows: one per thread of a warpgroup, so M = 128.
tile.kernel @m64(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.gemm' op accumulates 64 rows; a warp-specialised tcgen05 pipeline reads 128-row accumulators back into registers so far (M = 128)}}
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// N = 24 is no tcgen05.mma shape at M = 128: selection records tcgen05 and
// the gemm's own rule says why (not mma.sync's, which is not chosen).
tile.kernel @bad_n(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<24x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x24xf32>
  tile.fill %acc, %zero : !tile.fragment<128x24xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k] to %Bs[] : memref<?x?xbf16>, memref<24x64xbf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.gemm' op is a tcgen05 product with N = 24, but tcgen05.mma with M = 128 takes N a multiple of 16 in [16, 256]; split the tile into legal products}}
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<24x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x24xf32>
  }
}
