// tile.elementwise and tile.fill lowering (convert-tile-to-gpu, which also
// allocates the operands; --cse only merges the repeated constants).
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --tile-assign-layouts --convert-tile-to-gpu --cse

// Fragments (128 f32 over 64 threads: one run of 2 each) and a captured
// scalar: the body runs once per element, on register slots 0 and 1.
tile.kernel @fragments(%scale: f32) threads(64) {
  %x = tile.alloc_fragment : !tile.fragment<128xf32>
  %y = tile.alloc_fragment : !tile.fragment<128xf32>
  tile.elementwise ins(%x : !tile.fragment<128xf32>) outs(%y : !tile.fragment<128xf32>) {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %scale : f32
    tile.yield %s : f32
  }
}

// -----

// A shared tile in place: the blocked split for 32 threads (runs of 4 at row
// 4 * tid / 64, column 4 * tid mod 64 + v), between CTA barriers.
tile.kernel @shared() threads(32) {
  %s = tile.alloc_shared : memref<2x64xf32, #gpu.address_space<workgroup>>
  tile.elementwise ins(%s : memref<2x64xf32, #gpu.address_space<workgroup>>) outs(%s : memref<2x64xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%a: f32):
    %s2 = arith.addf %a, %a : f32
    tile.yield %s2 : f32
  }
}

// -----

// Shared in, fragment out: the fragment's layout places the shared reads; no
// barrier, shared memory is only read.
tile.kernel @shared_to_fragment() threads(64) {
  %s = tile.alloc_shared : memref<2x64xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<2x64xf32>
  tile.elementwise ins(%s : memref<2x64xf32, #gpu.address_space<workgroup>>) outs(%x : !tile.fragment<2x64xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
}

// -----

// fill of a fragment: one splat store per run.
tile.kernel @fill_fragment() threads(64) {
  %zero = arith.constant 0.0 : f32
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.fill %x, %zero : !tile.fragment<512xf32>, f32
}

// -----

// fill of a shared tile: 16 runs of 8 bf16 over 32 threads, so half the
// threads store, between CTA barriers.
tile.kernel @fill_shared(%v: bf16) threads(32) {
  %s = tile.alloc_shared : memref<2x64xbf16, #gpu.address_space<workgroup>>
  tile.fill %s, %v : memref<2x64xbf16, #gpu.address_space<workgroup>>, bf16
}
