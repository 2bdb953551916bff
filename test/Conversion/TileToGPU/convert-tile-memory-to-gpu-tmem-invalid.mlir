// More than the 512 columns of a CTA, on outlined input (tile.kernel's
// verifier refuses the same before outlining: invalid.mlir).
// RUN: tile-opt %s --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --verify-diagnostics -o /dev/null

module attributes {gpu.container_module, tile.target = #tile.target<"sm_100a">} {
  gpu.module @tile_kernels {
    gpu.func @too_many() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %a = tile.alloc_tmem : !tile.tmem<128x512xf32>
      // expected-error @below {{'tile.alloc_tmem' op exceeds the 512 tensor-memory columns of a CTA: the kernel's allocations need 544}}
      %b = tile.alloc_tmem : !tile.tmem<128x16xf32>
      gpu.return
    }
  }
}
