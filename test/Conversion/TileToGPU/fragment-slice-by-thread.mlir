// Slices of a fragment that some threads hold and others do not: the
// threads write the runs they hold inside the slice, decided per run at run
// time from the run's first element (runs are whole in a slice or out of
// it). The sm_100a epilogue needs this: #tile.tmem_32x32b<warpgroups = 2>
// on 128 x 64 gives warpgroup 0 columns 0-31 and warpgroup 1 columns 32-63,
// so a 128 x 16 slice at column 32 is warpgroup 1's runs 0-3 (columns
// 32-47): runs 0-3 are checked at run time (warpgroup 0 writes nothing),
// runs 4-7 are outside for every thread and left out at compile time.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_100a --tile-select-instructions --convert-tile-to-gpu --canonicalize --cse

tile.kernel @tmem_columns() threads(256) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %f = tile.alloc_fragment : !tile.fragment<128x64xf32, #tile.tmem_32x32b<warpgroups = 2>>
  %s = tile.alloc_shared : memref<128x16xf32, #gpu.address_space<workgroup>>
  tile.copy %f[%c0, %c32] to %s[] : !tile.fragment<128x64xf32, #tile.tmem_32x32b<warpgroups = 2>>, memref<128x16xf32, #gpu.address_space<workgroup>>
}

// -----

// Part of the rows of a wgmma accumulator (warps hold 16-row bands).
tile.kernel @wgmma_rows() threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
  %s = tile.alloc_shared : memref<32x8xf32, #gpu.address_space<workgroup>>
  tile.copy %f[%c0, %c0] to %s[] : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>, memref<32x8xf32, #gpu.address_space<workgroup>>
}
