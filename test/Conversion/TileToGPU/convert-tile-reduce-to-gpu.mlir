// convert-tile-reduce-to-gpu alone, after the kernel is outlined and its
// shared memory placed (convert-tile-memory-to-gpu asks for the reduction's
// scratch). The fragments carry the layouts tile-assign-layouts gives them.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_90a --convert-tile-kernel-to-gpu --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --convert-tile-reduce-to-gpu

// Row sums of a 4x1024 bf16 tile over 128 threads: each thread holds one
// 8-element run per row; it sums each run in f32 (extf), then five
// butterfly shuffles (lanes along the row), then lane 0 of each warp writes
// its 4 partials to scratch[warp][row], a barrier, and every thread adds
// the 4 warps' partials of its rows in warp order. Result: 4 slots.
tile.kernel @rows_across_warps() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x1024xbf16, #tile.blocked<threads = 128, vector = 8>>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8>>>
  tile.reduce sum %x into %s dim 1 : !tile.fragment<4x1024xbf16, #tile.blocked<threads = 128, vector = 8>>, !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8>>>
}

// -----

// The same row sums with a part per warp (what tile-assign-layouts gives a
// tile reduced along its rows): warp w holds row w, each thread 4 runs of
// 8 along it, so five shuffles finish each row: no scratch, no barrier, one
// result slot.
tile.kernel @rows_per_warp() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x1024xbf16, #tile.blocked<threads = 128, vector = 8, part = 32>>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8, part = 32>>>
  tile.reduce sum %x into %s dim 1 : !tile.fragment<4x1024xbf16, #tile.blocked<threads = 128, vector = 8, part = 32>>, !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8, part = 32>>>
}

// -----

// Narrow rows go several to a warp: 16 rows of 64 bf16 (8 runs of 8), a
// part of 4 rows per warp; lane bits 0..2 move along a row (three
// shuffles), bits 3 and 4 across rows (none).
tile.kernel @narrow_rows_per_warp() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<16x64xbf16, #tile.blocked<threads = 128, vector = 8, part = 32>>
  %m = tile.alloc_fragment : !tile.fragment<16x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.blocked<threads = 128, vector = 8, part = 32>>>
  tile.reduce max %x into %m dim 1 : !tile.fragment<16x64xbf16, #tile.blocked<threads = 128, vector = 8, part = 32>>, !tile.fragment<16x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.blocked<threads = 128, vector = 8, part = 32>>>
}

// -----

// Row maxima of a wgmma accumulator (64x16, one warpgroup): a row lives in
// one warp (4 lanes, 2 column runs of 2 per thread), so no scratch and no
// barrier: in-thread maxima, then shuffles over lane bits 0 and 1. Rows
// 8 apart (h) stay apart: 2 result slots.
tile.kernel @rows_within_warps() threads(128) {
  %acc = tile.alloc_fragment : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>
  %m = tile.alloc_fragment : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 16, parent = #tile.wgmma<warpgroups = 1>>>
  tile.reduce max %acc into %m dim 1 : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>, !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 16, parent = #tile.wgmma<warpgroups = 1>>>
}

// -----

// The same row maxima into the slice of a wider wgmma tile (64x64): a
// wgmma row lives in the same threads and slots whatever the tile's width,
// so the destination holds the results as the source's own slice would,
// and the code is @rows_within_warps'.
tile.kernel @rows_into_a_wider_slice() threads(128) {
  %acc = tile.alloc_fragment : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>
  %m = tile.alloc_fragment : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>
  tile.reduce max %acc into %m dim 1 : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>, !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>
}

// -----

// Row sums across warps (runs of 4: every thread holds part of all 4 rows)
// into the slice of runs of 8, which also holds rows 0..3 in slots 0..3 of
// every thread: the scratch is indexed as the source's slice places them.
tile.kernel @alike_slice_across_warps() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 4>>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8>>>
  tile.reduce sum %x into %s dim 1 : !tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 4>>, !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8>>>
}

// -----

// Column minima of a 32x8 i32 tile over 64 threads (runs of 4: two lanes
// per row, 16 rows per warp, 2 warps): the reduction runs along dim 0,
// so the lanes along it are bits 1..4, the warp bit 5; each result run
// keeps its 4 columns (slots 0..3 of the 1x8 result hold 4 columns).
tile.kernel @columns_int() threads(64) {
  %x = tile.alloc_fragment : !tile.fragment<32x8xi32, #tile.blocked<threads = 64, vector = 4>>
  %m = tile.alloc_fragment : !tile.fragment<1x8xi32, #tile.slice<dim = 0, extent = 32, parent = #tile.blocked<threads = 64, vector = 4>>>
  tile.reduce min %x into %m dim 0 : !tile.fragment<32x8xi32, #tile.blocked<threads = 64, vector = 4>>, !tile.fragment<1x8xi32, #tile.slice<dim = 0, extent = 32, parent = #tile.blocked<threads = 64, vector = 4>>>
}
