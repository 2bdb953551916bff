// Copies to and from tensor memory are refused by the copy lowering itself
// (convert-tile-to-gpu stops earlier, at tile.alloc_tmem).
// RUN: tile-opt %s --split-input-file --convert-tile-kernel-to-gpu --convert-tile-copy-to-gpu=chip=sm_100a --verify-diagnostics -o /dev/null

tile.kernel @shared_to_tmem() threads(128) {
  %s = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
  %t = tile.alloc_tmem : !tile.tmem<128x64xf16>
  // expected-error @below {{'tile.copy' op copies to or from tensor memory are not lowered yet (they need sm_100a's tcgen05.ld/st/cp)}}
  // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %s[] to %t[] : memref<128x64xf16, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf16>
  tile.dealloc_tmem %t : !tile.tmem<128x64xf16>
}
