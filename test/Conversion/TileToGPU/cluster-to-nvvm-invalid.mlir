// What the cluster forms' lowering refuses, each with a located error
// (followed by the conversion driver's own "failed to legalize").
// RUN: tile-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_90a --verify-diagnostics -o /dev/null

// A multicast copy must complete on a barrier: without one it would be a
// plain synchronous copy, which cannot write another CTA's tile.
tile.kernel @multicast_sync(%A: memref<?x?xbf16>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.copy' op with {multicast} must complete on a barrier (a warp_specialized tile.pipelined_for gives it one)}}
  // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %A[%c0, %c0] to %s[] {multicast} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
}

// -----

// Between GPUs (NVSHMEM) nothing is lowered yet.
tile.kernel @world() threads(128) {
  // expected-error @below {{'tile.barrier_all' op at level world (NVSHMEM) is not lowered yet}}
  // expected-error @below {{failed to legalize operation 'tile.barrier_all' that was explicitly marked illegal}}
  tile.barrier_all level world
}
