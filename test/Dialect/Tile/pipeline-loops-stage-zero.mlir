// An explicit `tile.stage = 0` is every op's default: tile-pipeline-loops
// drops it, so a software-pipelined loop (whose body moves into an
// scf.for, where no stage may be) takes it as if it were absent.
// RUN: tile-opt %s --tile-attach-target=chip=sm_80 --tile-select-instructions --tile-assign-layouts --tile-pipeline-loops | grep -E 'tile.gemm|scf.for' | sed -E 's/ : .*$//; s/^ +//'

tile.kernel @stage_zero(%A: memref<?x?xf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xf16>, memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %As, %acc {transpose_b, tile.stage = 0} : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}
