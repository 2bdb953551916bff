// convert-tile-gemm-to-gpu alone: wgmma with K-major rows wider than the
// 128-byte swizzle (K = 128 bf16, 256-byte rows). Such tiles are stored as
// 128-byte column blocks (64 rows x 128 bytes = 8192 bytes for A, 128 x 128
// = 16384 for B), so the K steps' start offsets walk 0, 32, 64, 96 bytes
// along the first block and then 8192 + 0..96 (A), 16384 + 0..96 (B) along
// the second: eight m64n128k16 steps. The descriptors are those of 128-byte
// rows (stride byte offset 1024, swizzle 128).
// RUN: tile-opt %s --convert-tile-gemm-to-gpu | grep -E 'arith.constant [0-9]+ : i64' | sed -E 's/^ *%[a-z0-9_]+ = //'

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @k_major_wide() threads(128) {
    %As = tile.alloc_shared : memref<64x128xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<128x128xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x128xf32, #tile.wgmma<warpgroups = 1>>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x128xbf16, #tile.shared<swizzle = 128>>, memref<128x128xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x128xf32, #tile.wgmma<warpgroups = 1>>
  }
}
