// tile-select-instructions: the mechanism of every copy and gemm, per chip.
// The same kernels for sm_90a (TMA, wgmma) and sm_80 (cp.async, mma.sync);
// sm_100a's tcgen05 and tensor memory: tile-select-instructions-sm100a.mlir.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions
// RUN: tile-opt %s --tile-attach-target=chip=sm_80 --tile-select-instructions

// Plain copies: global -> shared takes cp.async where runs are 16 bytes,
// registers otherwise (8-byte runs of a 2-element row); everything else
// goes through registers.
tile.kernel @plain(%g: memref<?x?xf32>, %h: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
  %narrow = tile.alloc_shared : memref<256x2xf32, #gpu.address_space<workgroup>>
  %f = tile.alloc_fragment : !tile.fragment<32x32xf32>
  tile.copy %g[%c0, %c0] to %s[] : memref<?x?xf32>, memref<32x32xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0, %c0] to %narrow[] : memref<?x?xf32>, memref<256x2xf32, #gpu.address_space<workgroup>>
  tile.copy %s[] to %f[] : memref<32x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<32x32xf32>
  tile.copy %f[] to %h[%c0, %c0] : !tile.fragment<32x32xf32>, memref<?x?xf32>
}

// A pipelined loop's loads: TMA where the chip has it, else cp.async; a
// gemm: wgmma where the chip has it; an #tile.mma accumulator asks for
// mma.sync anywhere.
tile.kernel @pipelined(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %mma = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.mma<warps_m = 4, warps_n = 1>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(3) {
    tile.copy %A[%c0, %k] to %a[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k] to %b[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %a, %b, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.gemm %a, %b, %mma {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32, #tile.mma<warps_m = 4, warps_n = 1>>
  }
}

// A pipelined load of a tile wider than a TMA box (256 elements per
// dimension) takes cp.async on sm_90a too, as on sm_80 (it failed when its
// tensor map was made).
tile.kernel @wider_than_a_box(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<4x512xf32, #gpu.address_space<workgroup>>
  %f = tile.alloc_fragment : !tile.fragment<4x512xf32>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<4x512xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %f[] : memref<4x512xf32, #gpu.address_space<workgroup>>, !tile.fragment<4x512xf32>
  }
}

// A mechanism written by hand is kept.
tile.kernel @by_hand(%g: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0, %c0] to %s[] {mechanism = #tile.copy_mechanism<vector>} : memref<?x?xf32>, memref<32x32xf32, #gpu.address_space<workgroup>>
}
