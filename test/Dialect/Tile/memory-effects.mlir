// Every tile op declares its memory effects, and upstream passes see them:
// - canonicalize erases allocations nobody uses (MemAlloc on the result only)
//   and regions whose bodies have no effects (RecursiveMemoryEffects), but
//   keeps every op that writes, frees or synchronises, and empty kernels;
// - cse merges identical pure ops, never two allocations, two copies into one
//   buffer, or two reads of a tile across an op that writes or synchronises;
// - loop-invariant-code-motion hoists pure ops out of scf.for and
//   tile.pipelined_for, never a copy, a fill or an allocation.
// Each RUN line prints the part of the file that its pass is about.
// RUN: tile-opt %s --split-input-file --canonicalize | sed -n '/@dead_allocs/,/-----/p'
// RUN: tile-opt %s --split-input-file --cse | sed -n '/@cse/,/-----/p'
// RUN: tile-opt %s --split-input-file --loop-invariant-code-motion | sed -n '/@licm/,$p'

tile.kernel @dead_allocs(%g: memref<?x?xf32>, %m: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // Unused: erased.
  %unused_s = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %unused_f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %unused_b = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  %unused_t = tile.alloc_tmem : !tile.tmem<128x32xf32>
  // Used: kept with the ops that write, read and free them.
  %s = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %t = tile.alloc_tmem : !tile.tmem<128x32xf32>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.fill %f, %zero : !tile.fragment<64x64xf32>, f32
  tile.copy %g[%c0, %m] to %s[] barrier %bar[%c0] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
  tile.copy %f[] to %g[%c0, %m] : !tile.fragment<64x64xf32>, memref<?x?xf32>
  tile.dealloc_tmem %t : !tile.tmem<128x32xf32>
  // A loop whose body only computes and allocates is dead; one that copies
  // is not.
  tile.pipelined_for %k = %c0 to %m step %c1 stages(2) {
    %x = arith.addi %k, %k : index
    %u = tile.alloc_fragment : !tile.fragment<64x64xf32>
  }
  tile.pipelined_for %k = %c0 to %m step %c1 stages(2) {
    tile.copy %g[%k, %c0] to %s[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  }
  // The same for an upstream region op.
  %cond = arith.cmpi eq, %m, %c0 : index
  scf.if %cond {
    %u = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  }
  scf.if %cond {
    tile.fill %s, %zero : memref<64x64xf32, #gpu.address_space<workgroup>>, f32
  }
  // Synchronisation without operands is kept.
  tile.wait_tma_stores pending(0)
  tile.fence level cluster
  tile.barrier_all level cluster
}

// A kernel is a symbol: empty, it stays.
tile.kernel @empty() threads(32) {
}

// -----

tile.kernel @cse(%g: memref<?x?xf32>, %flags: memref<?xi64>, %v: i64, %m: index, %phase: i1) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %s2 = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %f2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  // Two identical copies into one buffer: both stay.
  tile.copy %g[%m, %c0] to %s[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%m, %c0] to %s[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  // Identical pure ops merge.
  %r1 = tile.rank level cluster : i32
  %r2 = tile.rank level cluster : i32
  // Two reads merge across a pure op, not across a wait on a barrier (it
  // acquires what TMA wrote) nor across a copy (it writes).
  %a = memref.load %s[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>
  %n = tile.num_ranks level cluster : i32
  %b = memref.load %s[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.mbarrier.wait %bar[%c0], %phase : !tile.barrier<2>
  %c = memref.load %s[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %s2[] to %f2[] : memref<64x64xf32, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  %d = memref.load %s[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.fill %f, %a : !tile.fragment<64x64xf32>, f32
  tile.fill %f, %b : !tile.fragment<64x64xf32>, f32
  tile.fill %f, %c : !tile.fragment<64x64xf32>, f32
  tile.fill %f, %d : !tile.fragment<64x64xf32>, f32
  tile.copy %f[] to %g[%c0, %m] : !tile.fragment<64x64xf32>, memref<?x?xf32>
  // Two identical products into one accumulator, two identical element-wise
  // ops into one output: all stay (C is read and written, outputs written).
  %As = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<16x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.gemm %As, %Bs, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  tile.gemm %As, %Bs, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  tile.elementwise ins(%acc : !tile.fragment<64x64xf32>) outs(%f : !tile.fragment<64x64xf32>) {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  tile.elementwise ins(%acc : !tile.fragment<64x64xf32>) outs(%f : !tile.fragment<64x64xf32>) {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  tile.copy %f[] to %g[%m, %m] : !tile.fragment<64x64xf32>, memref<?x?xf32>
  tile.signal %flags[%c0] set %v peer %r1 level world : memref<?xi64>
  tile.signal %flags[%c0] set %v peer %r2 level world : memref<?xi64>
  tile.signal %flags[%c0] set %v peer %n level world : memref<?xi64>
}

// -----

tile.kernel @licm(%g: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %s = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.muli %n, %n : index
    %r = tile.rank level cluster : i32
    %u = tile.alloc_fragment : !tile.fragment<64x64xf32>
    tile.fill %s, %zero : memref<64x64xf32, #gpu.address_space<workgroup>>, f32
    tile.copy %g[%x, %c0] to %s[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %u[] to %g[%i, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
  }
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    %x = arith.muli %n, %n : index
    tile.copy %g[%x, %c0] to %s[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  }
}
