// Every tile op declares its memory effects, and upstream passes see them
// (memory-effects-{canonicalize,cse,licm}.mlir, one upstream pass each).
// loop-invariant-code-motion hoists pure ops out of scf.for and
// tile.pipelined_for, never a copy, a fill or an allocation.
// RUN: tile-opt %s --loop-invariant-code-motion

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
