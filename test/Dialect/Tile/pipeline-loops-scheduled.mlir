// tile-pipeline-loops alone, on a schedule written by hand (what
// tile-schedule-loops writes for a GEMM): the product left in flight at the
// end of the body makes the refill of a slot wait one iteration (the
// refill of iteration i + 1 follows iteration i + 1's pending(1)), and the
// last product is waited for after the loop.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-pipeline-loops --canonicalize | grep -E 'scf.for|scf.if|tile.gemm|tile.wait_gemms|mbarrier.wait|gpu.barrier|tile.copy|^ *}$' | sed -E 's/ : .*$//; s/ \{mechanism.*$//; s/^ +//'

tile.kernel @scheduled(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b, async} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.wait_gemms pending(1)
  }
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}
