// tile-pipeline-loops for sm_80: multi-stage loops need TMA's asynchronous
// copies; the cp.async pipeline is not implemented, and the loop must not
// silently run unpipelined.
// RUN: tile-opt %s --tile-pipeline-loops=chip=sm_80 --verify-diagnostics -o /dev/null

tile.kernel @sm80(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.pipelined_for' op with stages > 1 needs TMA (sm_90 or later) for its asynchronous copies; sm_80 has none (the cp.async pipeline is not implemented yet)}}
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}
