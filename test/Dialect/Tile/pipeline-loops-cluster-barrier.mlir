// tile-pipeline-loops on a warp_specialized loop after a cluster-wide
// barrier_all: the barrier needs every thread of the CTA, so it stays in
// front of the tile.warp_specialize (which the producer reaches too), with
// the fill of the shared flag before it; the accumulator's fill (a
// per-thread fragment) and what follows the barrier (the flag's put and
// wait) go to the consumers.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions --tile-schedule-loops --tile-pipeline-loops

tile.kernel @pair(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                  %C: memref<?x?xf32>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %zero_word = arith.constant 0 : i64
  %one_word = arith.constant 1 : i64
  %peer = arith.constant 0 : i32
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %flags = tile.alloc_shared : memref<1xi64, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.fill %flags, %zero_word : memref<1xi64, #gpu.address_space<workgroup>>, i64
  tile.barrier_all level cluster
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(2) warp_specialized {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%c0, %k0] to %As[]
        : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[]
        : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b}
        : memref<64x64xbf16, #gpu.address_space<workgroup>>,
          memref<64x64xbf16, #gpu.address_space<workgroup>>,
          !tile.fragment<64x64xf32>
  }
  tile.signal %flags[%c0] add %one_word peer %peer level cluster : memref<1xi64, #gpu.address_space<workgroup>>
  tile.wait %flags[%c0] ge %one_word level cluster : memref<1xi64, #gpu.address_space<workgroup>>
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}
