// A fragment -> shared copy learns its destination's swizzle from the
// allocation; lowered after shared memory (the wrong order of the
// one-at-a-time passes) it cannot, and refuses rather than write unswizzled.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --convert-tile-memory-to-gpu --convert-tile-copy-to-gpu --verify-diagnostics -o /dev/null

tile.kernel @late(%x: index) threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared {swizzle = 128} : memref<64x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+2 {{'tile.copy' op has no recorded destination swizzle: lower it before convert-tile-memory-to-gpu, through the tile-to-GPU passes}}
  // expected-error @+1 {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %f[] to %s[] : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>, memref<64x32xf32, #gpu.address_space<workgroup>>
}
