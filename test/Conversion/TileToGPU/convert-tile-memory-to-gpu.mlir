// convert-tile-memory-to-gpu: shared tiles, fragments and barrier rings.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --tile-assign-layouts --convert-tile-memory-to-gpu

// Two shared tiles: two distinct workgroup globals, 1024-byte aligned.
tile.kernel @shared() threads(128) {
  %a = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
}

// -----

// A fragment: a per-thread alloca of its 1024 / 128 = 8 elements, at the
// function entry.
tile.kernel @fragment() threads(128) {
  %bx = gpu.block_id x
  %x = tile.alloc_fragment : !tile.fragment<1024xf32>
}

// -----

// A ring of two barriers: thread 0 initialises both, then a CTA barrier.
tile.kernel @barrier() threads(128) {
  %bar = tile.alloc_barrier arrivals(128) : !tile.barrier<2>
}
