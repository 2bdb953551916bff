// tile-schedule-loops then tile-pipeline-loops: a stages(S) loop becomes a
// prologue and an scf.for over rings of S shared tiles that complete on a
// ring of S mbarriers (one arrival per producer copy). Iteration i waits on
// barrier i mod S with parity (i / S) mod 2, runs the rest of the body on
// slot i mod S, synchronises the CTA and refills the slot of iteration
// i - 1 with the loads of iteration i + S - 1. A gemm whose accumulator
// only gemms touch in the loop is left in flight (the schedule's {async}
// and tile.wait_gemms pending(1); it may finish one iteration late).
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --tile-pipeline-loops --canonicalize

// Two producers (A and B) feeding a gemm, double-buffered: the rings keep the
// 128-byte swizzle tile-assign-layouts chose, the barriers expect 2 arrivals,
// the prologue loads iteration 0 and the gemm stays in flight.
tile.kernel @two_stages(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}

// -----

// One producer, three stages, a lower bound and a step: the iteration count
// is ceildiv(max(ub - lb, 0), step), the prologue loads iterations 0 and 1
// (k = lb and lb + 2) into slots 0 and 1, and the loop refills slot
// (i + 2) mod 3 with k = lb + (i + 2) * 2.
tile.kernel @three_stages(%A: memref<?x?xf32>, %lb: index, %ub: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32>
  tile.pipelined_for %k = %lb to %ub step %c2 stages(3) {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32>
  }
}

// -----

// stages(1) asks for no pipelining: the loop is left alone.
tile.kernel @one_stage(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(1) {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// Nothing to multi-buffer (an empty body; one that only reads shared
// memory): each becomes a plain loop, stages(1), which tile-to-gpu lowers to
// scf.for.
tile.kernel @nothing_to_pipeline(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
  }
  tile.pipelined_for %k = %c0 to %n step %c1 stages(3) {
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32>
  }
}
