// tile-assign-layouts' gemm errors: wgmma accumulators are 64 rows per
// warpgroup of the kernel, and only sm_90a has wgmma.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --verify-diagnostics -o /dev/null

// 128 rows need two warpgroups; the kernel has one.
tile.kernel @rows() threads(128) {
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  // expected-error @below {{'tile.gemm' op wgmma needs M = 64 x warpgroups: 128 rows with 128 threads}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
}

// -----

// 64 rows with two warpgroups.
tile.kernel @too_many_threads() threads(256) {
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.gemm' op wgmma needs M = 64 x warpgroups: 64 rows with 256 threads}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}

// -----

// Threads that are not whole warpgroups.
tile.kernel @partial_warpgroup() threads(96) {
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.gemm' op wgmma needs M = 64 x warpgroups: 64 rows with 96 threads}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}
