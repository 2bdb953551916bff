// Fragment slices and swizzled writes the lowering refuses, each with a
// located error (and the conversion driver's "failed to legalize").
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --verify-diagnostics -o /dev/null

// A slice must take whole runs: the wgmma layout's are 2 columns wide.
tile.kernel @cut_runs() threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared : memref<64x8xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.copy' op copies a slice of a fragment that cuts its #tile.wgmma<warpgroups = 1> runs: the slice's columns must start and end on whole runs of 2 elements}}
  // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[%c0, %c1] to %s[] : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, memref<64x8xf32, #gpu.address_space<workgroup>>
}

// -----

// A swizzled tile whose rows are wider than the swizzle: TMA would see it
// as column blocks, which the write does not lay out.
tile.kernel @wide_swizzled_rows() threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared : memref<64x64xf32, #tile.shared<swizzle = 128>>
  // expected-error @below {{'tile.copy' op writes a 128-byte swizzled shared tile whose rows are not that wide, which is not lowered yet}}
  // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[] to %s[] : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, memref<64x64xf32, #tile.shared<swizzle = 128>>
}

// -----

// A swizzle moves 16-byte units; a 32-byte run would straddle two.
tile.kernel @wide_runs() threads(32) {
  %f = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 32, vector = 8>>
  %s = tile.alloc_shared : memref<8x32xf32, #tile.shared<swizzle = 128>>
  // expected-error @below {{'tile.copy' op writes runs of 32 bytes into a swizzled shared tile; at most 16 are lowered}}
  // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[] to %s[] : !tile.fragment<8x32xf32, #tile.blocked<threads = 32, vector = 8>>, memref<8x32xf32, #tile.shared<swizzle = 128>>
}

// -----

// The swizzle follows absolute address bits; a view's coordinates are not.
tile.kernel @swizzled_view() threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared : memref<128x32xf32, #tile.shared<swizzle = 128>>
  %v = memref.subview %s[64, 0] [64, 32] [1, 1] : memref<128x32xf32, #tile.shared<swizzle = 128>> to memref<64x32xf32, strided<[32, 1], offset: 2048>, #tile.shared<swizzle = 128>>
  // expected-error @+2 {{'tile.copy' op writes a swizzled shared tile through a view other than a whole slot of a ring, which is not lowered yet}}
  // expected-error @+1 {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[] to %v[] : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>, memref<64x32xf32, strided<[32, 1], offset: 2048>, #tile.shared<swizzle = 128>>
}
