// convert-tile-memory-to-gpu alone: the tensor memory of a kernel (sm_100a).
// RUN: tile-opt %s --split-input-file --allow-unregistered-dialect --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu

// Three buffers of 256, 32 (a 16-column tile rounded up) and 128 columns
// share one allocation of 512 columns (256 + 128 + 32 = 416, rounded up to
// a power of two), largest first: columns 0, 384 and 256. Warp 0 allocates
// into a 4-byte shared slot and relinquishes the permit; fences around a
// CTA barrier; every thread reads the address; each alloc becomes it plus
// its column; the deallocs go, and warp 0 frees the 512 columns after a
// last barrier before the return.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_100a">} {
  gpu.module @tile_kernels {
    gpu.func @three() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %a = tile.alloc_tmem : !tile.tmem<128x256xf32>
      %b = tile.alloc_tmem : !tile.tmem<128x16xf32>
      %c = tile.alloc_tmem : !tile.tmem<64x128xf32>
      "test.use"(%a, %b, %c) : (!tile.tmem<128x256xf32>, !tile.tmem<128x16xf32>, !tile.tmem<64x128xf32>) -> ()
      tile.dealloc_tmem %a : !tile.tmem<128x256xf32>
      tile.dealloc_tmem %b : !tile.tmem<128x16xf32>
      tile.dealloc_tmem %c : !tile.tmem<64x128xf32>
      gpu.return
    }
  }
}
