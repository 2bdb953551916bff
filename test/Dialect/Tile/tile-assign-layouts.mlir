// tile-assign-layouts: the widest run of at most 16 bytes that divides the
// innermost dimension and spreads evenly over the kernel's threads (else the
// widest that divides the innermost dimension, the last threads holding a
// run fewer or none). The
// inputs carry what tile-attach-target and tile-select-instructions write
// (the module's tile.target, each copy's mechanism).
// RUN: tile-opt %s --split-input-file --tile-assign-layouts

// f32: runs of 4; the new type reaches every use (here a copy).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @f32(%g: memref<?xf32>) threads(128) {
    %c0 = arith.constant 0 : index
    %x = tile.alloc_fragment : !tile.fragment<1024xf32>
    tile.copy %g[%c0] to %x[] {mechanism = #tile.copy_mechanism<vector>} : memref<?xf32>, !tile.fragment<1024xf32>
  }
}

// -----

// bf16: runs of 8.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @bf16() threads(64) {
    %x = tile.alloc_fragment : !tile.fragment<16x64xbf16>
  }
}

// -----

// i8: runs of 16.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @i8() threads(32) {
    %x = tile.alloc_fragment : !tile.fragment<8x64xi8>
  }
}

// -----

// 4 f32 do not divide a row of 6: the run shrinks to 2.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @shrink() threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<128x6xf32>
  }
}

// -----

// 512 f32 over 256 threads: runs of 4 would leave threads idle, so runs of 2.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @few() threads(256) {
    %x = tile.alloc_fragment : !tile.fragment<512xf32>
  }
}

// -----

// A layout already given is kept.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @given() threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<1024xf32, #tile.blocked<threads = 128, vector = 1>>
  }
}

// -----

// Reductions and broadcasts: %x (bf16) and %f (f32) meet in an elementwise
// op, so they share one blocked layout with the bf16 runs of 8; the row
// sums take it sliced along dim 1, the broadcast weight row sliced along
// dim 0, and %r (the sums' elementwise partner) the sums' layout. No part
// per warp: the weight row would hold 32 columns per thread instead of 8.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @rows() threads(128) {
    %f = tile.alloc_fragment : !tile.fragment<4x1024xf32>
    %x = tile.alloc_fragment : !tile.fragment<4x1024xbf16>
    %s = tile.alloc_fragment : !tile.fragment<4x1xf32>
    %r = tile.alloc_fragment : !tile.fragment<4x1xf32>
    %w = tile.alloc_fragment : !tile.fragment<1x1024xf32>
    tile.reduce sum %x into %s dim 1 : !tile.fragment<4x1024xbf16>, !tile.fragment<4x1xf32>
    tile.elementwise ins(%s : !tile.fragment<4x1xf32>) outs(%r : !tile.fragment<4x1xf32>) {
    ^bb0(%a: f32):
      tile.yield %a : f32
    }
    tile.elementwise ins(%x, %r, %w : !tile.fragment<4x1024xbf16>, !tile.fragment<4x1xf32>, !tile.fragment<1x1024xf32>)
                     outs(%f : !tile.fragment<4x1024xf32>) {
    ^bb0(%a: bf16, %b: f32, %c: f32):
      %e = arith.extf %a : bf16 to f32
      %m = arith.mulf %e, %b : f32
      %n = arith.addf %m, %c : f32
      tile.yield %n : f32
    }
  }
}

// -----

// A reduction's result meets an element-wise partner before the reduction
// gives it a layout. %r takes the running maxima's layout (the slice of a
// 64x64 accumulator), which holds %acc's row maxima as %acc's own slice
// would (tile.reduce accepts it). %q does not take %p's (one row per
// thread, not the wgmma rows' threads): it gets %acc's slice from the
// reduction (and the element-wise lowering refuses that pair).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @alike() threads(128) {
    %acc = tile.alloc_fragment : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>
    %m = tile.alloc_fragment : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>
    %p = tile.alloc_fragment : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 4, parent = #tile.blocked<threads = 128, vector = 2>>>
    %r = tile.alloc_fragment : !tile.fragment<64x1xf32>
    %q = tile.alloc_fragment : !tile.fragment<64x1xf32>
    tile.elementwise ins(%m, %r : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>, !tile.fragment<64x1xf32>)
                     outs(%m : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>) {
    ^bb0(%a: f32, %b: f32):
      %x = arith.maximumf %a, %b : f32
      tile.yield %x : f32
    }
    tile.elementwise ins(%p, %q : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 4, parent = #tile.blocked<threads = 128, vector = 2>>>, !tile.fragment<64x1xf32>)
                     outs(%p : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 4, parent = #tile.blocked<threads = 128, vector = 2>>>) {
    ^bb0(%a: f32, %b: f32):
      %x = arith.maximumf %a, %b : f32
      tile.yield %x : f32
    }
    tile.reduce max %acc into %r dim 1 : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>, !tile.fragment<64x1xf32>
    tile.reduce max %acc into %q dim 1 : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>, !tile.fragment<64x1xf32>
  }
}

// -----

// A softmax's tile: reduced along its rows, with only its row results
// broadcast back: a part per warp, so each row stays within a warp (no
// shared memory in the reductions). One warp has nothing to part.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @rows_per_warp() threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<8x768xbf16>
    %m = tile.alloc_fragment : !tile.fragment<8x1xf32>
    %y = tile.alloc_fragment : !tile.fragment<8x768xbf16>
    tile.reduce max %x into %m dim 1 : !tile.fragment<8x768xbf16>, !tile.fragment<8x1xf32>
    tile.elementwise ins(%x, %m : !tile.fragment<8x768xbf16>, !tile.fragment<8x1xf32>) outs(%y : !tile.fragment<8x768xbf16>) {
    ^bb0(%a: bf16, %b: f32):
      %e = arith.extf %a : bf16 to f32
      %d = arith.subf %e, %b : f32
      %t = arith.truncf %d : f32 to bf16
      tile.yield %t : bf16
    }
  }
  tile.kernel @one_warp() threads(32) {
    %x = tile.alloc_fragment : !tile.fragment<8x768xbf16>
    %m = tile.alloc_fragment : !tile.fragment<8x1xf32>
    tile.reduce max %x into %m dim 1 : !tile.fragment<8x768xbf16>, !tile.fragment<8x1xf32>
  }
}

// -----

// Allocation order does not matter: %m (allocated first) only receives the
// row maxima, so its group waits for %x's layout and takes the slice; %s2,
// whose source has runs of 4, keeps its own slice although it meets %s1 (a
// slice of runs of 8) in an elementwise op: a reduction's result takes its
// layout from its source only (the elementwise lowering then refuses to mix
// the two layouts, with an error, rather than the reduction failing).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @order() threads(128) {
    %m = tile.alloc_fragment : !tile.fragment<4x1xf32>
    %x = tile.alloc_fragment : !tile.fragment<4x1024xbf16>
    %y = tile.alloc_fragment : !tile.fragment<4x1024xf32>
    %s1 = tile.alloc_fragment : !tile.fragment<4x1xf32>
    %s2 = tile.alloc_fragment : !tile.fragment<4x1xf32>
    tile.reduce max %x into %s1 dim 1 : !tile.fragment<4x1024xbf16>, !tile.fragment<4x1xf32>
    tile.reduce sum %y into %s2 dim 1 : !tile.fragment<4x1024xf32>, !tile.fragment<4x1xf32>
    tile.elementwise ins(%s1, %s2 : !tile.fragment<4x1xf32>, !tile.fragment<4x1xf32>) outs(%m : !tile.fragment<4x1xf32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.yield %c : f32
    }
  }
}

// -----

// Fewer runs than threads: 25 runs of 4 over 128 threads (threads 25 and up
// hold none), and a 1x1 fragment held by thread 0.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @too_few() threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<100xf32>
    %y = tile.alloc_fragment : !tile.fragment<1x1xf32>
  }
}

// -----

// Runs the threads do not divide: 24 runs of 4 over 64 threads, and 25 runs
// of 8 bf16 over 128 (no run width gives every thread the same count).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @uneven() threads(64) {
    %x = tile.alloc_fragment : !tile.fragment<96xf32>
  }
  tile.kernel @uneven_rows() threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<1x200xbf16>
  }
}
