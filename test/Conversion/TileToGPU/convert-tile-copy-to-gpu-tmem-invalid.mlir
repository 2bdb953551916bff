// What the tensor-memory copy lowering refuses (sm_100a), each with a
// located error. convert-tile-copy-to-gpu alone, on outlined input.
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu --verify-diagnostics -o /dev/null

// A copy from shared to tensor memory (tcgen05.cp) has no mechanism:
// tile-select-instructions refuses it (tile-select-instructions-invalid.mlir),
// and the lowering refuses it unselected.
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

// -----

// 16-bit tensor-memory elements (packed pairs) are not lowered yet.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @packed() threads(128) {
    %t = tile.alloc_tmem : !tile.tmem<128x64xbf16>
    %f = tile.alloc_fragment : !tile.fragment<128x64xbf16, #tile.tmem_32x32b<warpgroups = 1>>
    // expected-error @below {{'tile.copy' op moves 32-bit tensor-memory elements only so far, got 'bf16'}}
    // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
    tile.copy %t[] to %f[] {mechanism = #tile.copy_mechanism<tmem_load>} : !tile.tmem<128x64xbf16>, !tile.fragment<128x64xbf16, #tile.tmem_32x32b<warpgroups = 1>>
  }
}

// -----

// A fragment in a layout tcgen05.ld does not fill.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @blocked() threads(128) {
    %t = tile.alloc_tmem : !tile.tmem<128x64xf32>
    %f = tile.alloc_fragment : !tile.fragment<128x64xf32, #tile.blocked<threads = 128, vector = 4>>
    // expected-error @below {{'tile.copy' op moves tensor memory to or from a fragment with the #tile.tmem_32x32b layout (tile-assign-layouts gives it), not '!tile.fragment<128x64xf32, #tile.blocked<threads = 128, vector = 4>>'}}
    // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
    tile.copy %t[] to %f[] {mechanism = #tile.copy_mechanism<tmem_load>} : !tile.tmem<128x64xf32>, !tile.fragment<128x64xf32, #tile.blocked<threads = 128, vector = 4>>
  }
}
