// convert-tile-copy-to-gpu alone, mechanism vector. The inputs carry what
// tile-select-instructions (mechanism) and tile-assign-layouts (#tile.blocked
// fragments) would write; fragments and shared tiles stay tile ops (the
// casts stand for convert-tile-memory-to-gpu's allocas and views).
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu

// global -> fragment, one run of 4 per thread at %i + 4 * tid: a 16-byte
// vector load when in bounds and aligned, else a masked load (zeros outside).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @global_to_fragment(%g: memref<?xf32>, %i: index) threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
    tile.copy %g[%i] to %x[] {mechanism = #tile.copy_mechanism<vector>} : memref<?xf32>, !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
  }
}

// -----

// fragment -> global: a vector store, or a masked store at the edge.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @fragment_to_global(%g: memref<?xf32>, %i: index) threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
    tile.copy %x[] to %g[%i] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>, memref<?xf32>
  }
}

// -----

// f32 fragment -> bf16 global: each run of 4 is rounded (arith.truncf on
// the vector) and stored as 8 bytes.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @fragment_to_global_rounded(%g: memref<?xbf16>, %i: index) threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
    tile.copy %x[] to %g[%i] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>, memref<?xbf16>
  }
}

// -----

// global -> shared, 2-D, 8 x 32 f32: 64 runs of 4 for 128 threads, so
// threads 64 and up do nothing; row = 4 * tid / 32, column = 4 * tid mod 32;
// the row stride takes part in the alignment check (scalar path otherwise).
// It writes shared memory, so CTA barriers before and after.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @global_to_shared(%g: memref<?x?xf32>, %m: index, %k: index) threads(128) {
    %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %g[%m, %k] to %s[] {mechanism = #tile.copy_mechanism<vector>} : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// shared -> fragment: two runs per thread (tid and tid + 32), into slots 0
// and 8; no barrier, shared memory is only read.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @shared_to_fragment() threads(32) {
    %s = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
    %x = tile.alloc_fragment : !tile.fragment<8x64xbf16, #tile.blocked<threads = 32, vector = 8>>
    tile.copy %s[] to %x[] {mechanism = #tile.copy_mechanism<vector>} : memref<8x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<8x64xbf16, #tile.blocked<threads = 32, vector = 8>>
  }
}

// -----

// fragment -> shared: writes shared memory, so between CTA barriers.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @fragment_to_shared() threads(64) {
    %s = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
    %x = tile.alloc_fragment : !tile.fragment<8x64xbf16, #tile.blocked<threads = 64, vector = 8>>
    tile.copy %x[] to %s[] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<8x64xbf16, #tile.blocked<threads = 64, vector = 8>>, memref<8x64xbf16, #gpu.address_space<workgroup>>
  }
}

// -----

// fragment -> a view of some rows of a matrix (a sequence's rows): the
// view's sizes bound the store and its offset and row stride address it.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @fragment_to_row_view(%g: memref<?x?xf32>, %first: index, %rows: index) threads(128) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %g, %c1 : memref<?x?xf32>
    %view = memref.subview %g[%first, 0] [%rows, %n] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %x = tile.alloc_fragment : !tile.fragment<4x128xf32, #tile.blocked<threads = 128, vector = 4>>
    tile.copy %x[] to %view[%c0, %c0] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<4x128xf32, #tile.blocked<threads = 128, vector = 4>>, memref<?x?xf32, strided<[?, 1], offset: ?>>
  }
}

// -----

// global -> a bias row broadcast over a wgmma accumulator (a slice of a
// matrix layout, as a GEMM epilogue's): each thread's pairs of columns
// (8 j + 2 (lane mod 4)) load as one 32-bit word each, by plain loads at
// constant offsets when the 1 x 64 box is in bounds and aligned, else by
// the guarded runs; no third path of predicated whole runs.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @bias_row_of_a_matrix_layout(%g: memref<1x?xbf16>, %n0: index) threads(128) {
    %c0 = arith.constant 0 : index
    %b = tile.alloc_fragment : !tile.fragment<1x64xbf16, #tile.slice<dim = 0, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>
    tile.copy %g[%c0, %n0] to %b[] {mechanism = #tile.copy_mechanism<vector>} : memref<1x?xbf16>, !tile.fragment<1x64xbf16, #tile.slice<dim = 0, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>
  }
}
