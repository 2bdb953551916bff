// The steps of convert-tile-to-gpu are passes of their own; a pattern pass
// run without the step it needs refuses, naming the pass to run, rather
// than lowering without it.
// RUN: tile-opt %s --split-input-file --convert-tile-memory-to-gpu --verify-diagnostics -o /dev/null

// No tile-assign-shared-offsets: the allocation has no place.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @no_offsets() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      // expected-error @+2 {{'tile.alloc_shared' op has no shared-memory offset: run tile-assign-shared-offsets on the outlined kernel first}}
      // expected-error @+1 {{failed to legalize operation 'tile.alloc_shared' that was explicitly marked illegal}}
      %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// No tile-allocate-tensor-memory: the tile has no columns.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_100a">} {
  gpu.module @tile_kernels {
    gpu.func @no_columns() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      // expected-error @+2 {{'tile.alloc_tmem' op has no tensor-memory columns: run tile-allocate-tensor-memory on the outlined kernel first}}
      // expected-error @+1 {{failed to legalize operation 'tile.alloc_tmem' that was explicitly marked illegal}}
      %t = tile.alloc_tmem : !tile.tmem<128x32xf32>
      gpu.return
    }
  }
}
