// convert-tile-elementwise-to-gpu alone: tile.elementwise and tile.fill. The
// fragments carry the layouts tile-assign-layouts would give them; fragments
// and shared tiles stay tile ops (the casts stand for
// convert-tile-memory-to-gpu's allocas).
// RUN: tile-opt %s --split-input-file --convert-tile-elementwise-to-gpu

// Fragments (128 f32 over 64 threads: one run of 2 each) and a captured
// scalar: the body runs once per element, on register slots 0 and 1.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @fragments(%scale: f32) threads(64) {
    %x = tile.alloc_fragment : !tile.fragment<128xf32, #tile.blocked<threads = 64, vector = 2>>
    %y = tile.alloc_fragment : !tile.fragment<128xf32, #tile.blocked<threads = 64, vector = 2>>
    tile.elementwise ins(%x : !tile.fragment<128xf32, #tile.blocked<threads = 64, vector = 2>>) outs(%y : !tile.fragment<128xf32, #tile.blocked<threads = 64, vector = 2>>) {
    ^bb0(%a: f32):
      %s = arith.mulf %a, %scale : f32
      tile.yield %s : f32
    }
  }
}

// -----

// A shared tile in place: the blocked split for 32 threads (runs of 4 at row
// 4 * tid / 64, column 4 * tid mod 64 + v), between CTA barriers.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @shared() threads(32) {
    %s = tile.alloc_shared : memref<2x64xf32, #gpu.address_space<workgroup>>
    tile.elementwise ins(%s : memref<2x64xf32, #gpu.address_space<workgroup>>) outs(%s : memref<2x64xf32, #gpu.address_space<workgroup>>) {
    ^bb0(%a: f32):
      %s2 = arith.addf %a, %a : f32
      tile.yield %s2 : f32
    }
  }
}

// -----

// Shared in, fragment out: the fragment's layout places the shared reads; no
// barrier, shared memory is only read.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @shared_to_fragment() threads(64) {
    %s = tile.alloc_shared : memref<2x64xf32, #gpu.address_space<workgroup>>
    %x = tile.alloc_fragment : !tile.fragment<2x64xf32, #tile.blocked<threads = 64, vector = 2>>
    tile.elementwise ins(%s : memref<2x64xf32, #gpu.address_space<workgroup>>) outs(%x : !tile.fragment<2x64xf32, #tile.blocked<threads = 64, vector = 2>>) {
    ^bb0(%a: f32):
      tile.yield %a : f32
    }
  }
}

// -----

// fill of a fragment: one splat store per run (512 f32 over 64 threads: two
// runs of 4).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @fill_fragment() threads(64) {
    %zero = arith.constant 0.0 : f32
    %x = tile.alloc_fragment : !tile.fragment<512xf32, #tile.blocked<threads = 64, vector = 4>>
    tile.fill %x, %zero : !tile.fragment<512xf32, #tile.blocked<threads = 64, vector = 4>>, f32
  }
}

// -----

// fill of a shared tile: 16 runs of 8 bf16 over 32 threads, so half the
// threads store, between CTA barriers.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @fill_shared(%v: bf16) threads(32) {
    %s = tile.alloc_shared : memref<2x64xbf16, #gpu.address_space<workgroup>>
    tile.fill %s, %v : memref<2x64xbf16, #gpu.address_space<workgroup>>, bf16
  }
}

// -----

// Broadcast inputs and coordinates: y = x * r + w where r is a 2x1 column
// (one slot per row the thread holds: run r of y reads slot r) and w a
// 1x64 row (the thread's two runs share one: slots 0..1 for both), and a
// column index masks elements at column 63 and beyond. 2x64 f32 over 32
// threads in runs of 2: one run per row per thread.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @broadcast() threads(32) {
    %x = tile.alloc_fragment : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>
    %r = tile.alloc_fragment : !tile.fragment<2x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.blocked<threads = 32, vector = 2>>>
    %w = tile.alloc_fragment : !tile.fragment<1x64xf32, #tile.slice<dim = 0, extent = 2, parent = #tile.blocked<threads = 32, vector = 2>>>
    tile.elementwise ins(%x, %r, %w : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>, !tile.fragment<2x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.blocked<threads = 32, vector = 2>>>, !tile.fragment<1x64xf32, #tile.slice<dim = 0, extent = 2, parent = #tile.blocked<threads = 32, vector = 2>>>)
                     outs(%x : !tile.fragment<2x64xf32, #tile.blocked<threads = 32, vector = 2>>) {
    ^bb0(%a: f32, %b: f32, %c: f32, %i: index, %j: index):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %m, %c : f32
      %c63 = arith.constant 63 : index
      %in = arith.cmpi ult, %j, %c63 : index
      %z = arith.constant 0.0 : f32
      %o = arith.select %in, %s, %z : f32
      tile.yield %o : f32
    }
  }
}

// -----

// A broadcast input laid out as the slice of a wider tile of the outputs'
// layout holds its rows where the outputs' own slice would (a wgmma row
// does not depend on the tile's width): read as that slice. The row max
// of a 64x16 score tile scaling a 64x8 accumulator, as flash attention
// does.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @broadcast_alike_slice() threads(128) {
    %o = tile.alloc_fragment : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
    %a = tile.alloc_fragment : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 16, parent = #tile.wgmma<warpgroups = 1>>>
    tile.elementwise ins(%o, %a : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>, !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 16, parent = #tile.wgmma<warpgroups = 1>>>)
                     outs(%o : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>) {
    ^bb0(%x: f32, %s: f32):
      %m = arith.mulf %x, %s : f32
      tile.yield %m : f32
    }
  }
}

// -----

// Operands of the outputs' shape whose layouts hold it alike: the running
// maxima, sliced from a 64x64 accumulator, and a tile's row maxima, sliced
// from its 64x16 scores, are in the same slots of the same threads, so one
// distribution reads both (m = max(m, rowmax), as flash attention does).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @same_shape_alike() threads(128) {
    %m = tile.alloc_fragment : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>
    %r = tile.alloc_fragment : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 16, parent = #tile.wgmma<warpgroups = 1>>>
    tile.elementwise ins(%m, %r : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>, !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 16, parent = #tile.wgmma<warpgroups = 1>>>)
                     outs(%m : !tile.fragment<64x1xf32, #tile.slice<dim = 1, extent = 64, parent = #tile.wgmma<warpgroups = 1>>>) {
    ^bb0(%a: f32, %b: f32):
      %x = arith.maximumf %a, %b : f32
      tile.yield %x : f32
    }
  }
}
