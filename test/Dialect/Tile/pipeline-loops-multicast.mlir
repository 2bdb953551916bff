// tile-pipeline-loops on a warp_specialized loop with a {multicast} copy in
// a kernel of clusters of 2 CTAs: the "empty" ring counts one arrival per
// consumer warp per CTA (8 warps x 2 = 16) and the consumers release slots
// with `tile.mbarrier.arrive ... cluster` (to both CTAs, whose producers
// both write the slot); a cluster barrier follows the rings' allocation
// (peers arrive on them and multicast into them) and ends the kernel (no
// CTA leaves while its peer can still write its shared memory).
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions --tile-schedule-loops --tile-pipeline-loops

tile.kernel @pair(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                  %C: memref<?x?xf32>) threads(256) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %rank = gpu.cluster_block_id x
  %m0 = arith.muli %rank, %c128 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.fill %acc, %zero : !tile.fragment<128x256xf32>, f32
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(3) warp_specialized {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%m0, %k0] to %As[]
        : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] {multicast}
        : memref<?x?xbf16>, memref<256x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b}
        : memref<128x64xbf16, #gpu.address_space<workgroup>>,
          memref<256x64xbf16, #gpu.address_space<workgroup>>,
          !tile.fragment<128x256xf32>
  }
  tile.copy %acc[] to %C[%m0, %c0] : !tile.fragment<128x256xf32>, memref<?x?xf32>
}
