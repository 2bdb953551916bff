// convert-tile-reduce-to-gpu refuses what it cannot lower, with the reason
// (layouts are checked already where the scratch is requested, by
// convert-tile-memory-to-gpu; element types by the lowering, followed by
// the conversion driver's "failed to legalize").
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_90a --convert-tile-kernel-to-gpu --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --convert-tile-reduce-to-gpu --verify-diagnostics -o /dev/null

// A destination without a layout (tile-assign-layouts not run).
tile.kernel @dest_without_layout() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 4>>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32>
  // expected-error @+1 {{'tile.reduce' op destination has no layout; run tile-assign-layouts first}}
  tile.reduce sum %x into %s dim 1 : !tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 4>>, !tile.fragment<4x1xf32>
}

// -----

// Runs at offsets that depend on the thread (a 3-D blocked tile whose step
// is not whole rows): the runs of one row cannot be found at compile time.
tile.kernel @thread_dependent_offsets() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x6x64xf32, #tile.blocked<threads = 128, vector = 4>>
  %s = tile.alloc_fragment : !tile.fragment<4x6x1xf32, #tile.slice<dim = 2, extent = 64, parent = #tile.blocked<threads = 128, vector = 4>>>
  // expected-error @+1 {{does not place runs at fixed offsets}}
  tile.reduce sum %x into %s dim 2 : !tile.fragment<4x6x64xf32, #tile.blocked<threads = 128, vector = 4>>, !tile.fragment<4x6x1xf32, #tile.slice<dim = 2, extent = 64, parent = #tile.blocked<threads = 128, vector = 4>>>
}

// -----

// 64-bit elements: shuffles move 32-bit words.
tile.kernel @wide() threads(32) {
  %x = tile.alloc_fragment : !tile.fragment<32xf64, #tile.blocked<threads = 32, vector = 1>>
  %s = tile.alloc_fragment : !tile.fragment<1xf64, #tile.slice<dim = 0, extent = 32, parent = #tile.blocked<threads = 32, vector = 1>>>
  // expected-error @+2 {{'tile.reduce' op reduces 'f64', wider than the 32 bits lowered so far}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
  tile.reduce sum %x into %s dim 0 : !tile.fragment<32xf64, #tile.blocked<threads = 32, vector = 1>>, !tile.fragment<1xf64, #tile.slice<dim = 0, extent = 32, parent = #tile.blocked<threads = 32, vector = 1>>>
}

// -----

// Fewer threads than a warp: shuffles need whole warps.
tile.kernel @partial_warp() threads(16) {
  %x = tile.alloc_fragment : !tile.fragment<64xf32, #tile.blocked<threads = 16, vector = 4>>
  %s = tile.alloc_fragment : !tile.fragment<1xf32, #tile.slice<dim = 0, extent = 64, parent = #tile.blocked<threads = 16, vector = 4>>>
  // expected-error @+1 {{'tile.reduce' op reduces over 16 threads; reductions need whole warps}}
  tile.reduce sum %x into %s dim 0 : !tile.fragment<64xf32, #tile.blocked<threads = 16, vector = 4>>, !tile.fragment<1xf32, #tile.slice<dim = 0, extent = 64, parent = #tile.blocked<threads = 16, vector = 4>>>
}

// -----

// Rows over three warps: the warps along the row are not a power of two,
// so no butterfly or warp-bit pattern covers them.
tile.kernel @three_warps() threads(96) {
  %x = tile.alloc_fragment : !tile.fragment<1x96xf32, #tile.blocked<threads = 96, vector = 1>>
  %s = tile.alloc_fragment : !tile.fragment<1x1xf32, #tile.slice<dim = 1, extent = 96, parent = #tile.blocked<threads = 96, vector = 1>>>
  // expected-error @+1 {{'tile.reduce' op reduces along dim 1 of '!tile.fragment<1x96xf32, #tile.blocked<threads = 96, vector = 1>>' over 96 threads, whose rows span a number of warps that is not a power of two; use a power-of-two thread count or a tile whose rows a warp holds}}
  tile.reduce sum %x into %s dim 1 : !tile.fragment<1x96xf32, #tile.blocked<threads = 96, vector = 1>>, !tile.fragment<1x1xf32, #tile.slice<dim = 1, extent = 96, parent = #tile.blocked<threads = 96, vector = 1>>>
}

// -----

// An uneven layout (75 runs of 8 over 128 threads): some threads hold no
// run of a row, so the row cannot be combined by lane and warp alone; the
// error names an even tile.
tile.kernel @uneven() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<3x200xbf16, #tile.blocked<threads = 128, vector = 8>>
  %s = tile.alloc_fragment : !tile.fragment<3x1xbf16, #tile.slice<dim = 1, extent = 200, parent = #tile.blocked<threads = 128, vector = 8>>>
  // expected-error @+1 {{'tile.reduce' op reduces a 3x200 fragment whose runs of 8 do not spread evenly over 128 threads (some hold fewer); reduce a tile whose element count is a multiple of the thread count (3x256 is), or run the kernel with fewer threads}}
  tile.reduce sum %x into %s dim 1 : !tile.fragment<3x200xbf16, #tile.blocked<threads = 128, vector = 8>>, !tile.fragment<3x1xbf16, #tile.slice<dim = 1, extent = 200, parent = #tile.blocked<threads = 128, vector = 8>>>
}
