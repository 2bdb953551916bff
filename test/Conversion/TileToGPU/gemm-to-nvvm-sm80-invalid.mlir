// tile.gemm for sm_80: tile-assign-layouts has no mma.sync accumulator layout
// yet, and with a wgmma layout given by hand the lowering refuses the chip.
// RUN: tile-opt %s --split-input-file --tile-assign-layouts=chip=sm_80 --convert-tile-to-gpu=chip=sm_80 --verify-diagnostics -o /dev/null

tile.kernel @assign() threads(128) {
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.gemm' op accumulator layouts for sm_80 are not implemented yet (only sm_90a's wgmma)}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @lower() threads(128) {
  %As = tile.alloc_shared {swizzle = 128} : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared {swizzle = 128} : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  // expected-error @below {{'tile.gemm' op on sm_80 is not lowered yet (only sm_90a's wgmma is implemented)}}
  // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
}
