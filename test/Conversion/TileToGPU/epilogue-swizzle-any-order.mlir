// A fragment -> shared copy reads its destination's swizzle from the
// tile's type (#tile.shared), so the one-at-a-time passes may run in
// either order: lowering shared memory first (which erases the
// tile.alloc_shared) gives the same swizzled stores as lowering the copy
// first.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --tile-assign-tma-parameters --convert-tile-copy-to-gpu --reconcile-unrealized-casts --canonicalize -o %t.memory-first && tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --tile-assign-tma-parameters --convert-tile-copy-to-gpu --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --reconcile-unrealized-casts --canonicalize -o %t.copy-first && diff %t.memory-first %t.copy-first && cat %t.memory-first

tile.kernel @late(%x: index) threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared : memref<64x32xf32, #tile.shared<swizzle = 128>>
  tile.copy %f[] to %s[] : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>, memref<64x32xf32, #tile.shared<swizzle = 128>>
}
