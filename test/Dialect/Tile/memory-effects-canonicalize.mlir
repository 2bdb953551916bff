// Every tile op declares its memory effects, and upstream passes see them
// (memory-effects-{canonicalize,cse,licm}.mlir, one upstream pass each).
// canonicalize erases allocations nobody uses (MemAlloc on the result only)
// and regions whose bodies have no effects (RecursiveMemoryEffects), but
// keeps every op that writes, frees or synchronises, and empty kernels.
// RUN: tile-opt %s --canonicalize

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

