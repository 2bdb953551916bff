// Warp specialisation is lowered for sm_90a only: on sm_80 the pipeliner
// refuses it with a located error instead of changing the schedule.
// RUN: tile-opt %s --tile-attach-target=chip=sm_80 --tile-select-instructions --tile-pipeline-loops --verify-diagnostics -o /dev/null
// RUN: tile-opt %s --tile-attach-target=chip=sm_80 --tile-select-instructions --tile-schedule-loops --verify-diagnostics -o /dev/null

tile.kernel @ws_sm80(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.pipelined_for' op with warp_specialized needs TMA loads (its producers take cp.async or vector copies on this chip)}}
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}
