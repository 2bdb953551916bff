// What tile-schedule-loops and tile-pipeline-loops (which checks the
// schedule again) refuse of the stages a kernel author gives, each with a
// located error.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-pipeline-loops --verify-diagnostics -o /dev/null
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --verify-diagnostics -o /dev/null

// Stages run in the consumers' loop of a warp-specialised loop only.
tile.kernel @not_specialized(%A: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.pipelined_for' op has ops of stage 1 (tile.stage), which need `warp_specialized` consumers on wgmma without `pingpong` (only their loop runs stages)}}
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %As, %acc {transpose_b, tile.stage = 1} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// The producer issues the copies ahead of every stage.
tile.kernel @late_copy(%A: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    // expected-error @below {{'tile.copy' op is a pipelined copy, which the producer issues ahead of every stage; leave it in stage 0}}
    tile.copy %A[%c0, %k] to %As[] {tile.stage = 1} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %As, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// Stage 0 of an iteration runs before its stage 1: it cannot read stage
// 1's values.
tile.kernel @early_read(%A: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    %late = arith.addi %k, %c1 {tile.stage = 1} : index
    // expected-error @below {{'arith.muli' op of stage 0 reads a value of stage 1, which is computed one iteration late}}
    %early = arith.muli %late, %c1 : index
  }
}

// -----

// A stage-1 op cannot read what an op with effects of stage 0 computed: it
// would be the next iteration's by then.
tile.kernel @effectful_input(%A: memref<?x?xbf16>, %n: memref<?xindex>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    %v = memref.load %n[%k] : memref<?xindex>
    // expected-error @below {{'arith.addi' op of stage 1 reads a value that an op of stage 0 with side effects computes; give that op stage 1 too, or compute the value without effects}}
    %w = arith.addi %v, %c1 {tile.stage = 1} : index
    memref.store %w, %n[%k] {tile.stage = 1} : memref<?xindex>
  }
}

// -----

// A loop with nothing to pipeline runs as a plain loop: no stage runs late
// there.
tile.kernel @plain(%kt: index, %out: memref<?xindex>) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    // expected-error @below {{'memref.store' op has stage 1 (tile.stage) in a loop that runs as a plain loop (stages(1), or nothing to pipeline); stages run in a warp_specialized loop's consumers}}
    memref.store %k, %out[%k] {tile.stage = 1} : memref<?xindex>
  }
}
