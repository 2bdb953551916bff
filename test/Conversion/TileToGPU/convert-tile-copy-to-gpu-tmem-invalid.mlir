// Copies to and from tensor memory are not lowered yet. tile-select-instructions
// refuses them (and tile.alloc_tmem before them: tile-select-instructions-invalid.mlir),
// so such a copy reaches convert-tile-copy-to-gpu without a mechanism, and
// the copy lowering refuses it as unselected. The pass alone, on outlined
// input (what convert-tile-kernel-to-gpu writes) for sm_100a.
// RUN: tile-opt %s --convert-tile-copy-to-gpu --verify-diagnostics -o /dev/null

module attributes {gpu.container_module, tile.target = #tile.target<"sm_100a">} {
  gpu.module @tile_kernels {
    gpu.func @shared_to_tmem() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %s = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
      %t = tile.alloc_tmem : !tile.tmem<128x64xf16>
      // expected-error @below {{'tile.copy' op has no mechanism: run tile-select-instructions before lowering it}}
      // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
      tile.copy %s[] to %t[] : memref<128x64xf16, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf16>
      tile.dealloc_tmem %t : !tile.tmem<128x64xf16>
      gpu.return
    }
  }
}
