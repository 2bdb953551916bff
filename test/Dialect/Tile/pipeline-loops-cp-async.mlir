// tile-pipeline-loops for chips without TMA (sm_80): the loop's copies become
// cp.async (marked tile.cp_async_group: the copy lowering issues them without
// committing or synchronising), one commit group per iteration issued (the
// prologue's S - 1 included, even when the iteration does not exist), and
// each iteration waits until at most S - 2 groups are pending, then
// synchronises the CTA; no mbarriers.
// RUN: tile-opt %s --tile-attach-target=chip=sm_80 --tile-select-instructions --tile-pipeline-loops --cse

tile.kernel @sm80(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(3) {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32>
  }
}
