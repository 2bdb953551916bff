// convert-tile-distributed-to-gpu alone on a kernel that is not outlined
// yet: NVSHMEM calls are declared in the kernel's gpu.module, so world-level
// ops ask for convert-tile-kernel-to-gpu first (a wait on a symmetric
// signal word used to crash here), with the conversion driver's "failed to
// legalize"; an op without a mechanism asks for tile-select-instructions.
// RUN: tile-opt %s --split-input-file --convert-tile-distributed-to-gpu --verify-diagnostics -o /dev/null

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @wait_unoutlined(%flags: memref<?xi64> {tile.symmetric}) threads(128) {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i64
    // expected-error @+2 {{'tile.wait' op at level world must be in an outlined kernel (convert-tile-kernel-to-gpu first)}}
    // expected-error @+1 {{failed to legalize operation 'tile.wait' that was explicitly marked illegal}}
    tile.wait %flags[%c0] ge %v level world {mechanism = #tile.comm_mechanism<nvshmem>} : memref<?xi64>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @put_unoutlined(%X: memref<?xf32> {tile.symmetric}) threads(128) {
    %c0 = arith.constant 0 : index
    %p = arith.constant 1 : i32
    %t = tile.alloc_shared : memref<64xf32, #gpu.address_space<workgroup>>
    // expected-error @+2 {{'tile.put' op at level world must be in an outlined kernel (convert-tile-kernel-to-gpu first)}}
    // expected-error @+1 {{failed to legalize operation 'tile.put' that was explicitly marked illegal}}
    tile.put %t to %X[%c0] peer %p scope block level world {mechanism = #tile.comm_mechanism<nvshmem>} : memref<64xf32, #gpu.address_space<workgroup>>, memref<?xf32>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @unselected() threads(128) cluster(2, 1, 1) {
    // expected-error @+2 {{'tile.fence' op has no mechanism: run tile-select-instructions before lowering it}}
    // expected-error @+1 {{failed to legalize operation 'tile.fence'}}
    tile.fence level cluster
  }
}
