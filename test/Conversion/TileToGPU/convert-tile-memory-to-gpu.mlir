// convert-tile-memory-to-gpu alone: shared tiles, fragments and barrier
// rings. The input is outlined (what convert-tile-kernel-to-gpu writes): the
// pass places allocations in the dynamic shared memory and entry block of a
// gpu.func and refuses anything else. Fragments carry the layout
// tile-assign-layouts would give them.
// RUN: tile-opt %s --split-input-file --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu

// Two shared tiles: two views of the kernel's dynamic shared memory at
// distinct 1024-byte aligned offsets (their uses overlap); the kernel
// records its total. (A tile nothing uses would take no bytes.)
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @shared() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %zero_bf16 = arith.constant 0.0 : bf16
      %a = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
      %b = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %zero_bf16, %a[%c0, %c0] : memref<64x64xbf16, #gpu.address_space<workgroup>>
      memref.store %zero, %b[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %back = memref.load %a[%c0, %c0] : memref<64x64xbf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// A fragment: a per-thread alloca of its 1024 / 128 = 8 elements, at the
// function entry.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @fragment() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %bx = gpu.block_id x
      %x = tile.alloc_fragment : !tile.fragment<1024xf32, #tile.blocked<threads = 128, vector = 4>>
      gpu.return
    }
  }
}

// -----

// A ring of two barriers: thread 0 initialises both, then a CTA barrier.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @barrier() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %bar = tile.alloc_barrier arrivals(128) : !tile.barrier<2>
      gpu.return
    }
  }
}

// -----

// The tiles of convert-tile-copy-to-gpu-tma's @shared_maps: 1024 + 1024 +
// 2048 + 1024 bytes at offsets 0, 1024, 2048 and 4096, plus 1024 bytes to
// align the dynamic base: 6144. The barrier is an nvgpu.mbarrier.create of
// its own, initialised for 4 arrivals and fenced for the async proxy.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @tiles_and_barrier() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %s0 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      %s1 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      %s2 = tile.alloc_shared : memref<16x32xf32, #gpu.address_space<workgroup>>
      %s3 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      %full = tile.alloc_barrier arrivals(4) : !tile.barrier<1>
      // Every tile in use from the first op to the last.
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %s0[%c0, %c0] : memref<8x32xf32, #gpu.address_space<workgroup>>
      memref.store %zero, %s1[%c0, %c0] : memref<8x32xf32, #gpu.address_space<workgroup>>
      memref.store %zero, %s2[%c0, %c0] : memref<16x32xf32, #gpu.address_space<workgroup>>
      memref.store %zero, %s3[%c0, %c0] : memref<8x32xf32, #gpu.address_space<workgroup>>
      %v3 = memref.load %s3[%c0, %c0] : memref<8x32xf32, #gpu.address_space<workgroup>>
      %v2 = memref.load %s2[%c0, %c0] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %v1 = memref.load %s1[%c0, %c0] : memref<8x32xf32, #gpu.address_space<workgroup>>
      %v0 = memref.load %s0[%c0, %c0] : memref<8x32xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
