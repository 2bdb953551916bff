// tile-pipeline-loops with stages that the kernel author gave: in the
// consumers, a first step (iteration 0 exists) waits on full[0] and runs
// stage 0 of iteration 0 (the first gemm, its wait made pending(0): the
// stage-1 gemm it counted on is not issued there); steps it = 1.. wait on
// full[slot(it)], run in body order the first gemm for iteration it
// (reading slot it) and the second gemm, of stage 1, for iteration it - 1
// (reading slot it - 1), then release slot it - 1; a last step runs stage 1 of the last iteration
// (its wait pending(0)) and releases its slot. No gemm is left in flight
// by the pipeliner: the waits are the author's.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-pipeline-loops --canonicalize --cse | sed -n '/role "consumers"/,$p' | grep -E 'scf.for|scf.if|arith.subi|arith.muli|tile.gemm|tile.wait_gemms|mbarrier.(wait|arrive)|memref.subview|^ *}$' | sed -E 's/ : .*$//; s/ \{mechanism.*$//; s/^ +//'

tile.kernel @stages(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.fill %acc2, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) warp_specialized {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%k0, %c0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b, async} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.gemm %As, %Bs, %acc2 {async, tile.stage = 1} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.wait_gemms pending(1)
    tile.wait_gemms pending(0) {tile.stage = 1}
  }
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
  tile.copy %acc2[] to %C[%c0, %c64] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}
