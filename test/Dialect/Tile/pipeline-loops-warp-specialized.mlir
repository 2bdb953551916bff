// tile-pipeline-loops on a `warp_specialized` loop: the kernel gains a
// producer warpgroup (threads 128 -> 256) and the body from the loop on
// becomes a tile.warp_specialize with registers(40, 256) (256 threads start
// with 248 registers; the producer's 128 x 208 spare ones go to the
// consumers, up to the most setmaxnreg takes). Two barrier rings:
// "full" (one arrival per copy, as without specialisation) and "empty" (one
// arrival per consumer thread). The producer has no prologue: iteration g
// waits on empty[g mod S] for parity (g / S + 1) mod 2 (round 0 passes at
// once) and loads into slot g mod S. The consumers wait on full[g mod S]
// with parity (g / S) mod 2, run the gemm (in flight), release the slot of
// g - 1 and, after the loop, the last one. Side-effecting ops before the
// loop (the accumulator, its fill) and everything after it move into the
// consumer region; pure ones stay in front for both.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --tile-pipeline-loops --canonicalize

tile.kernel @flat(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %m0 = arith.muli %bx, %c64 : index
  // Read the thread id before the split: consumers must see theirs, so this
  // moves into their region with what uses it.
  %tid = gpu.thread_id x
  %col = arith.remui %tid, %c64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) warp_specialized {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc[] to %C[%m0, %col] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}

// -----

// Inside a persistent loop over tiles: both sides run the tile loop and
// count k-iterations across tiles (the iter_arg), so slots and phases carry
// on from one tile to the next. The producer's copy of the tile loop keeps
// only the pure ops its copies need (the tile's row). Two consumer warpgroups: 384
// threads start with 168 registers, the consumers get 232.
tile.kernel @persistent(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index, %tiles: index) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  scf.for %t = %first to %tiles step %ctas {
    %m0 = arith.muli %t, %c128 : index
    tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32
    tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
    }
    tile.copy %acc[] to %C[%m0, %c0] : !tile.fragment<128x64xf32>, memref<?x?xf32>
  }
}

// -----

// A tile.wait before the k-loop in the tile loop gates the tile's rows of A
// (a peer's chunk, as in all-gather + GEMM): the producer's copy of the
// tile loop waits too, with the pure ops its operands need (the chunk of
// the tile's row), before it loads; the consumers keep their wait.
tile.kernel @gated(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %kt: index, %tiles: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  scf.for %t = %first to %tiles step %ctas {
    %m0 = arith.muli %t, %c128 : index
    %chunk = arith.divui %t, %c4 : index
    tile.wait %flags[%chunk] ge %epoch level world : memref<?xi64>
    tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32
    tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
    }
    tile.copy %acc[] to %C[%m0, %c0] : !tile.fragment<128x64xf32>, memref<?x?xf32>
  }
}

// -----

// A wait in the kernel body before a non-persistent warp-specialised loop:
// the producer runs a copy of it first, the consumers theirs.
tile.kernel @gated_flat(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32>
  tile.wait %flags[%c0] ge %epoch level world : memref<?xi64>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32>
  }
}

// -----

// A body that reads its slot with an ordinary copy (no gemm left in flight):
// each consumer releases the slot of its own iteration at the end of it.
tile.kernel @synchronous(%A: memref<?x?xf32>, %C: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32>
    tile.copy %x[] to %C[%k, %c0] : !tile.fragment<8x32xf32>, memref<?x?xf32>
  }
}

// -----

// Fragments carried across iterations (flash attention's running row max):
// %m is allocated and filled before the loop and updated by every
// iteration from the gemm's result (a reduction and an element-wise op in
// the body). All of it is the consumers': the reduction, the element-wise
// op and the fragments move into their region, after each iteration's
// wait on its full slot; the producer only loads.
tile.kernel @carried(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %M: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %neg_inf = arith.constant 0xFF800000 : f32
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %row_max = tile.alloc_fragment : !tile.fragment<64x1xf32>
  %m = tile.alloc_fragment : !tile.fragment<64x1xf32>
  tile.fill %m, %neg_inf : !tile.fragment<64x1xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %s {transpose_b, clear_accum} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.reduce max %s into %row_max dim 1 : !tile.fragment<64x64xf32>, !tile.fragment<64x1xf32>
    tile.elementwise ins(%m, %row_max : !tile.fragment<64x1xf32>, !tile.fragment<64x1xf32>) outs(%m : !tile.fragment<64x1xf32>) {
    ^bb0(%old: f32, %new: f32):
      %mx = arith.maximumf %old, %new : f32
      tile.yield %mx : f32
    }
  }
  tile.copy %m[] to %M[%c0, %c0] : !tile.fragment<64x1xf32>, memref<?x?xf32>
}
