// Copies to and from tensor memory are refused by the copy lowering itself
// (convert-tile-to-gpu stops earlier, at tile.alloc_tmem).
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_100a --tile-select-instructions --convert-tile-kernel-to-gpu --convert-tile-copy-to-gpu --verify-diagnostics -o /dev/null

tile.kernel @shared_to_tmem() threads(128) {
  %s = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.alloc_tmem' op is not lowered yet, for any chip: tensor memory (tcgen05.alloc/dealloc)}}
  %t = tile.alloc_tmem : !tile.tmem<128x64xf16>
  tile.copy %s[] to %t[] : memref<128x64xf16, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf16>
  tile.dealloc_tmem %t : !tile.tmem<128x64xf16>
}
