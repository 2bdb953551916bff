// tile-pipeline-loops on a `warp_specialized` loop whose gemm takes tcgen05
// (sm_100a). Three roles: "producer" (warp 0: waits on empty[g mod S],
// loads slot g mod S, as on sm_90a), "mma" (warp 1: per tile waits on
// acc_empty for its buffer, per step on full[g mod S], issues the gemm into
// the buffer (clear_accum on the first step) committed to empty[g mod S],
// and after the loop commits the tile to acc_full) and "epilogue" (the
// kernel's threads: the tile loop's other ops, the loop replaced by the
// wait on acc_full, a tcgen05.ld of the buffer into the gemm's fragment
// when the loop ran, and the release on acc_empty). The kernel gains the
// producer warpgroup (256 -> 384 threads); `empty` counts one arrival (a
// commit), acc_empty one per epilogue thread. In the persistent tile loop
// the accumulator has two tensor-memory buffers: tile j (of this CTA) uses
// buffer j mod 2, whose barriers complete their phase (j / 2) mod 2.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_100a --tile-select-instructions --tile-assign-layouts --tile-pipeline-loops --canonicalize

tile.kernel @persistent(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %tiles: index, %kt: index) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
  scf.for %t = %first to %tiles step %ctas {
    %m0 = arith.muli %t, %c128 : index
    tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32
    tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) warp_specialized {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
    }
    tile.copy %acc[] to %C[%m0, %c0] : !tile.fragment<128x128xf32>, memref<?x?xf32>
  }
}

// -----

// Without a tile loop: one buffer, tile 0.
tile.kernel @flat(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %As = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) warp_specialized {
    %k0 = arith.muli %k, %c32 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xf16>, memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xf16>, memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
  }
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<128x64xf32>, memref<?x?xf32>
}
