// What the cluster forms' selection and lowering refuse, each with a
// located error.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_90a --tile-select-instructions --convert-tile-to-gpu --verify-diagnostics -o /dev/null

// A multicast copy must complete on a barrier: without one it would be a
// plain synchronous copy, which cannot write another CTA's tile.
tile.kernel @multicast_sync(%A: memref<?x?xbf16>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.copy' op with {multicast} must complete on a barrier (a warp_specialized tile.pipelined_for gives it one)}}
  tile.copy %A[%c0, %c0] to %s[] {multicast} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
}

// -----

// Communication between the CTAs of a cluster needs a cluster.
tile.kernel @no_cluster(%A: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 1 : i32
  %s = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.put' op at level cluster needs a kernel with a cluster: write cluster(N, 1, 1) on the tile.kernel}}
  tile.put %s to %s[%c0] peer %p scope block level cluster : memref<128xf32, #gpu.address_space<workgroup>>, memref<128xf32, #gpu.address_space<workgroup>>
}
