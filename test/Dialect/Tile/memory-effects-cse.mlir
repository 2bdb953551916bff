// Every tile op declares its memory effects, and upstream passes see them
// (memory-effects-{canonicalize,cse,licm}.mlir, one upstream pass each).
// cse merges identical pure ops, never two allocations, two copies into one
// buffer, or two reads of a tile across an op that writes or synchronises.
// RUN: tile-opt %s --cse

tile.kernel @cse(%g: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %v: i64, %m: index, %phase: i1) threads(128) {
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

