// Tensor maps are shared between copies of one argument with one box and
// swizzle: four copies here need three maps (A with an 8x32 box, A with a
// 16x32 box, B with an 8x32 box); unswizzled tiles use SWIZZLE_NONE. Only
// the signature, the casts to descriptors and the TMA ops are shown.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu | grep -E 'gpu\.func|tensormap\.descriptor|expect_tx|tma\.async\.load' | sed -E 's/ : <tensor = .*//'

tile.kernel @shared_maps(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %i: index) threads(128) {
  %c0 = arith.constant 0 : index
  %s0 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %s1 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %s2 = tile.alloc_shared : memref<16x32xf32, #gpu.address_space<workgroup>>
  %s3 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(4) : !tile.barrier<1>
  tile.copy %A[%i, %c0] to %s0[] barrier %full[%c0] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  tile.copy %A[%c0, %i] to %s1[] barrier %full[%c0] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  tile.copy %A[%c0, %c0] to %s2[] barrier %full[%c0] : memref<?x?xf32>, memref<16x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  tile.copy %B[%c0, %c0] to %s3[] barrier %full[%c0] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
}
