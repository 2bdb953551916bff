// An epilogue staged through shared memory: a slice of a #tile.wgmma
// accumulator (columns 32..63 of 64 x 64) written into a 128-byte-swizzled
// 64 x 32 tile, then stored by TMA asynchronously.
// - The copy writes only the runs whose 8-column group is in the slice (8 of
//   each thread's 16 two-element runs: columns 32..63), at the slice's
//   column (column - 32), with the 16-byte unit of each 128-byte row XORed
//   with row % 8 (the swizzle TMA reads back).
// - {tma, async}: thread 0 issues the store and commits its bulk group but
//   neither waits nor synchronises; tile.wait_tma_stores pending(0) makes it
//   wait for the group to have read the tile (wait_group.read 0), then the
//   CTA synchronises.
// - The copy's closing fence + barrier and the store's opening ones meet:
//   one pair is left.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --canonicalize --cse

tile.kernel @staged(%C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  %Cs = tile.alloc_shared : memref<64x32xf32, #tile.shared<swizzle = 128>>
  tile.copy %acc[%c0, %c32] to %Cs[] : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, memref<64x32xf32, #tile.shared<swizzle = 128>>
  tile.copy %Cs[] to %C[%c0, %c32] {tma, async} : memref<64x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
  tile.wait_tma_stores pending(0)
}

// A 64-byte swizzle (rows of 16 fp32): two rows per 128-byte line, so the
// unit is XORed with (row / 2) mod 4; the slice is columns 16..31.
tile.kernel @staged64(%C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  %Cs = tile.alloc_shared : memref<64x16xf32, #tile.shared<swizzle = 64>>
  tile.copy %acc[%c0, %c16] to %Cs[] : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, memref<64x16xf32, #tile.shared<swizzle = 64>>
  tile.copy %Cs[] to %C[%c0, %c16] {tma} : memref<64x16xf32, #tile.shared<swizzle = 64>>, memref<?x?xf32>
}

// A whole slot of a pair of swizzled tiles (a ping-pong team's own, as
// tile-pipeline-loops makes it): each slot is 8 KiB, a multiple of the 1024
// bytes after which the pattern starts over, so the copy swizzles as in
// @staged, from the slot's first element (slot x 2048 elements on).
tile.kernel @staged_slot(%C: memref<?x?xf32>, %team: index) threads(128) {
  %c0 = arith.constant 0 : index
  %acc = tile.alloc_fragment : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>
  %pair = tile.alloc_shared : memref<2x64x32xf32, #tile.shared<swizzle = 128>>
  %Cs = memref.subview %pair[%team, 0, 0] [1, 64, 32] [1, 1, 1] : memref<2x64x32xf32, #tile.shared<swizzle = 128>> to memref<64x32xf32, strided<[32, 1], offset: ?>, #tile.shared<swizzle = 128>>
  tile.copy %acc[] to %Cs[] : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>, memref<64x32xf32, strided<[32, 1], offset: ?>, #tile.shared<swizzle = 128>>
  tile.copy %Cs[] to %C[%c0, %c0] {tma, async} : memref<64x32xf32, strided<[32, 1], offset: ?>, #tile.shared<swizzle = 128>>, memref<?x?xf32>
  tile.wait_tma_stores pending(0)
}
