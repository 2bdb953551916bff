// convert-tile-copy-to-gpu alone, mechanism cp_async (what
// tile-select-instructions picks for global -> shared copies of 16-byte runs
// on chips with cp.async). The shared tile stays a tile op.
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu

// 8 x 32 f32: 64 runs of 4 (16 bytes) for 128 threads, so threads 64 and up
// do nothing; row = 4 * tid / 32, column = 4 * tid mod 32. When the global
// side is 16-byte aligned (base, column offset and row stride, checked at
// run time) each run is one 16-byte cp.async (cache cg) whose source size
// is the in-bounds bytes (the rest is zero-filled); otherwise the runs are
// read by inline PTX (a vector load when in bounds, else scalar loads) and
// stored to shared memory. Not {async}: the copy commits and waits for its
// group, between CTA barriers.
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @global_to_shared(%g: memref<?x?xf32>, %m: index, %k: index) threads(128) {
    %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %g[%m, %k] to %s[] {mechanism = #tile.copy_mechanism<cp_async>} : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// {async} (inside a pipeline, which commits and waits itself): neither a
// commit nor a wait.
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @async(%g: memref<?x?xf32>, %m: index, %k: index) threads(128) {
    %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %g[%m, %k] to %s[] {async, mechanism = #tile.copy_mechanism<cp_async>} : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}
