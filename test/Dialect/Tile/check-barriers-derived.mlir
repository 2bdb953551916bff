// tile-check-barriers on the protocols tile-pipeline-loops derives: the
// rings of a software-pipelined and of a warp-specialised loop pass as
// built, and a count changed after the fact is found. The software
// pipeline's full ring (arrivals(2): two producer copies) arrives in the
// prologue's guarded phases and in the loop's guarded refill, on slots
// i mod 3 and (i + 2) mod 3; the warp-specialised loop's full ring in the
// producer's loop, its empty ring (128 arrivals: each consumer thread) in
// the consumers' loop and after it.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --tile-pipeline-loops --tile-check-barriers -o /dev/null && echo 'derived protocols: accepted'
// Arrivals(1) where each phase gets two copies (over-arrival), in both
// loops:
// RUN: bash -c "tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --tile-pipeline-loops --mlir-print-debuginfo | sed 's/arrivals(2)/arrivals(1)/' | tile-opt --split-input-file --tile-check-barriers -o /dev/null 2>&1 | grep -o 'error: .*'"
// Arrivals(64) on the empty ring, which each of the 128 consumer threads
// arrives on once a slot is read (guarded in the consumers' loop):
// RUN: bash -c "tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --tile-pipeline-loops --mlir-print-debuginfo | sed 's/arrivals(128)/arrivals(64)/' | tile-opt --split-input-file --tile-check-barriers -o /dev/null 2>&1 | grep -o 'error: .*'"
// Arrivals(3) (under-arrival): found on the producer's ring, whose loop
// makes all its arrivals; the software pipeline's guarded phases may be
// completed by other runs, so they are not reported:
// RUN: bash -c "tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --tile-schedule-loops --tile-pipeline-loops --mlir-print-debuginfo | sed 's/arrivals(2)/arrivals(3)/' | tile-opt --split-input-file --tile-check-barriers -o /dev/null 2>&1 | grep -o 'error: .*'"

tile.kernel @software(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index) threads(128) {
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
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}

// -----

tile.kernel @warp_specialized(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(4) warp_specialized {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}
