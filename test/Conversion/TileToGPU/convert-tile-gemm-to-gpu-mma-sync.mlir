// convert-tile-gemm-to-gpu alone, mechanism mma_sync. The inputs carry what
// tile-select-instructions (mechanism) and tile-assign-layouts (#tile.mma
// accumulators; plain shared tiles, which ldmatrix reads) would write.
// RUN: tile-opt %s --split-input-file --convert-tile-gemm-to-gpu

// Two warps (2 x 1), each a 16 x 8 tile of C, K = 32: per K step of 16 one
// ldmatrix x4 of A (16 x 16), one ldmatrix x2 of B (8 x 16), non-transposed
// (layout row), and one mma.sync m16n8k16 on the warp's four accumulators.
// An #tile.mma accumulator asks for mma.sync on sm_90a too.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @mma_sync() threads(64) {
    %As = tile.alloc_shared : memref<32x32xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<8x32xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<32x8xf32, #tile.mma<warps_m = 2, warps_n = 1>>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : memref<32x32xbf16, #gpu.address_space<workgroup>>, memref<8x32xbf16, #gpu.address_space<workgroup>>, !tile.fragment<32x8xf32, #tile.mma<warps_m = 2, warps_n = 1>>
  }
}

// -----

// A stored K x M and B stored K x N: the same instructions, with ldmatrix
// reading transposed (layout col, PTX .trans).
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @mma_transposed() threads(64) {
    %As = tile.alloc_shared : memref<16x32xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<16x8xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<32x8xf32, #tile.mma<warps_m = 2, warps_n = 1>>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_a} : memref<16x32xbf16, #gpu.address_space<workgroup>>, memref<16x8xbf16, #gpu.address_space<workgroup>>, !tile.fragment<32x8xf32, #tile.mma<warps_m = 2, warps_n = 1>>
  }
}
