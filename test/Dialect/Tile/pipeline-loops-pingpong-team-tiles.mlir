// tile-pipeline-loops on a ping-pong loop whose epilogue stages the tile in
// shared memory (%Cs, allocated once in the kernel body): each team gets its
// own. %Cs becomes a pair (memref<2x64x64xbf16, ...>) allocated where it
// was, and the consumers' region views slot `team` of it (a subview at
// [team, 0, 0]) for every use: the copy from the accumulator and the TMA
// store. The swizzle stays in the pair's type; each slot is 8 KiB, a
// multiple of the 1024 bytes after which the swizzle pattern starts over.
// @staged_after allocates its staging tile in the tile loop after the
// pipelined loop: the pair is allocated there, in the teams' code, and the
// view follows it.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions --tile-schedule-loops --tile-pipeline-loops

tile.kernel @pingpong_staged(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                             %C: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles = arith.ceildivui %M, %c64 : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Cs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  scf.for %t = %first to %tiles step %ctas {
    %m0 = arith.muli %t, %c64 : index
    tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(2) warp_specialized pingpong {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%c0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<64x64xbf16, #gpu.address_space<workgroup>>,
            memref<64x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<64x64xf32>
    }
    tile.wait_tma_stores pending(0)
    tile.copy %acc[] to %Cs[] : !tile.fragment<64x64xf32>, memref<64x64xbf16, #tile.shared<swizzle = 128>>
    tile.copy %Cs[] to %C[%m0, %c0] {tma, async} : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
  }
  tile.wait_tma_stores pending(0)
}

tile.kernel @staged_after(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                          %C: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles = arith.ceildivui %M, %c64 : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  scf.for %t = %first to %tiles step %ctas {
    %m0 = arith.muli %t, %c64 : index
    tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(2) warp_specialized pingpong {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%c0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<64x64xbf16, #gpu.address_space<workgroup>>,
            memref<64x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<64x64xf32>
    }
    %Cs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    tile.wait_tma_stores pending(0)
    tile.copy %acc[] to %Cs[] : !tile.fragment<64x64xf32>, memref<64x64xbf16, #tile.shared<swizzle = 128>>
    tile.copy %Cs[] to %C[%m0, %c0] {tma, async} : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
  }
  tile.wait_tma_stores pending(0)
}
