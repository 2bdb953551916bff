// tile-schedule-loops alone: each pipelined loop's schedule written into
// its body, nothing else rewritten.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-schedule-loops | grep -E 'tile.kernel|pipelined_for|tile.gemm|tile.wait_gemms|tile.stage|tile.reduce|memref.store' | sed -E 's/ : .*$//; s/^ +//'

// A GEMM's product is left in flight: {async}, and a wait for all but the
// newest product after it (iteration i + 1's wait covers iteration i's).
tile.kernel @in_flight(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
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
}

// -----

// An accumulator the loop reads outside gemms waits for its product.
tile.kernel @read_in_loop(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %s = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %row = tile.alloc_fragment : !tile.fragment<64x1xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %s {transpose_b, clear_accum} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.reduce max %s into %row dim 1 : !tile.fragment<64x64xf32>, !tile.fragment<64x1xf32>
  }
}

// -----

// With stages the kernel author states the waits: no product is added to
// those in flight, and the explicit stage 0 is dropped.
tile.kernel @staged(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b, tile.stage = 0} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.gemm %As, %Bs, %acc2 {transpose_b, tile.stage = 1} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// Nothing to multi-buffer: a plain loop, stages(1).
tile.kernel @nothing_to_load(%x: memref<?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  tile.pipelined_for %i = %c0 to %n step %c1 stages(3) {
    memref.store %one, %x[%i] {tile.stage = 0} : memref<?xf32>
  }
}
