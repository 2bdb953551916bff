// convert-tile-gemm-to-gpu alone: wgmma with M- and N-major operands, A
// stored K x M (transpose_a), B stored K x N. Their shared tiles are 128-byte
// swizzled column blocks of 64 elements (the swizzle tile-assign-layouts gives
// them, checked in tile-assign-layouts-gemm.mlir); the descriptors carry the
// block stride (64 rows x 128 bytes = 8192) as leading byte offset and 1024
// as stride byte offset (4611686293338849280), the K steps advance 16 rows
// (2048, 4096, 6144 bytes), and the instruction reads both transposed
// (immediates 1, 1). K = 64: four m64n128k16 steps.
// RUN: tile-opt %s --convert-tile-gemm-to-gpu

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @mn_major() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x128xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x128xf32, #tile.wgmma<warpgroups = 1>>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_a} : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<64x128xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x128xf32, #tile.wgmma<warpgroups = 1>>
  }
}
