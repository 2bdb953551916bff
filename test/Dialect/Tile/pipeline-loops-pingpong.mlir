// tile-pipeline-loops on `warp_specialized pingpong` in a persistent tile
// loop: the kernel of 128 threads (one team) becomes 384 (the producer and
// two teams), the tile.warp_specialize has teams(2) and its consumers
// region takes the team's index. The producer is unchanged (every tile in
// order). Team c runs the tile loop from its lower bound + c x step, by
// 2 x step, counting k-iterations from c x n (n per tile) and adding 2 n
// per tile, so that it finds its tiles' ring slots. A ring of two "turn"
// barriers (128 arrivals, one team's threads) orders the teams' loops:
// before its j-th loop team c waits on turn[c] for parity (j + c + 1) mod 2
// (team 0's first wait passes at once), and in its loop's last iteration,
// after the product is issued, every thread arrives on turn[1 - c] (also
// when the loop has no iterations).
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions --tile-schedule-loops --tile-pipeline-loops

tile.kernel @pingpong(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xf32>) threads(128) {
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
  %Bs = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  scf.for %t = %first to %tiles step %ctas {
    %m0 = arith.muli %t, %c64 : index
    tile.fill %acc, %zero : !tile.fragment<64x128xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(2) warp_specialized pingpong {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%c0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<64x64xbf16, #gpu.address_space<workgroup>>,
            memref<128x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<64x128xf32>
    }
    tile.copy %acc[] to %C[%m0, %c0] : !tile.fragment<64x128xf32>, memref<?x?xf32>
  }
}
