// Fragment slices and swizzled writes the lowering refuses, each with a
// located error (and the conversion driver's "failed to legalize").
// RUN: tile-opt %s --split-input-file --convert-tile-to-gpu --verify-diagnostics -o /dev/null

// Slices are lowered for the wgmma accumulator layout only.
tile.kernel @blocked_slice() threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<8x64xf32, #tile.blocked<threads = 128, vector = 4>>
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+2 {{'tile.copy' op copies a slice of a fragment, which is lowered for #tile.wgmma layouts only}}
  // expected-error @+1 {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[%c0, %c0] to %s[] : !tile.fragment<8x64xf32, #tile.blocked<threads = 128, vector = 4>>, memref<8x32xf32, #gpu.address_space<workgroup>>
}

// -----

// ... of whole rows and groups of 8 columns.
tile.kernel @partial_rows() threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+2 {{'tile.copy' op copies a slice of a #tile.wgmma fragment that is not whole rows and groups of 8 columns}}
  // expected-error @+1 {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[%c0, %c0] to %s[] : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, memref<32x32xf32, #gpu.address_space<workgroup>>
}

// -----

// A swizzled tile whose rows are wider than the swizzle: TMA would see it
// as column blocks, which the write does not lay out.
tile.kernel @wide_swizzled_rows() threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared {swizzle = 128} : memref<64x64xf32, #gpu.address_space<workgroup>>
  // expected-error @+2 {{'tile.copy' op writes a 128-byte swizzled shared tile whose rows are not that wide, which is not lowered yet}}
  // expected-error @+1 {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[] to %s[] : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, memref<64x64xf32, #gpu.address_space<workgroup>>
}
