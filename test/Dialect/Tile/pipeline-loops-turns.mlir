// tile-pipeline-loops keeps warpgroups' turns where the kernel author put
// them: the take before the loop moves into the consumers (it has effects),
// the pass and take of the body stay around the products in each consumer
// iteration (between the wait on full and the slot's release), and the
// pass after the loop follows the consumers' loop. The producer has none.
// tile-pipeline-loops alone: the kernel author's schedule is kept as
// written (no product is left in flight past the body's pending(0), so each
// slot is released in its own iteration).
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-pipeline-loops --canonicalize | grep -E 'role|scf.for|tile.take_turn|tile.pass_turn|tile.gemm|tile.wait_gemms|mbarrier.(wait|arrive)|tile.copy' | sed -E 's/ : .*$//; s/ \{mechanism.*$//; s/^ +//'

tile.kernel @turns(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %bx = gpu.block_id x
  %m0 = arith.muli %bx, %c64 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32
  tile.take_turn
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b, async} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
    tile.pass_turn
    tile.wait_gemms pending(0)
    tile.take_turn
  }
  tile.pass_turn
  tile.copy %acc[] to %C[%m0, %c0] : !tile.fragment<128x64xf32>, memref<?x?xf32>
}
