// convert-tile-gemm-to-gpu alone, mechanism tcgen05 (sm_100a). The inputs
// carry what tile-select-instructions (mechanism) and tile-assign-layouts
// (swizzles on the shared tiles) would write.
// RUN: tile-opt %s --split-input-file --convert-tile-gemm-to-gpu

// 128 x 256 bf16, both operands K-major with 128-byte rows, clear_accum:
// thread 0 fences after the thread synchronisation, issues K = 64 as four
// tcgen05.mma kind::f16 (the first with enable-input-d false, the rest
// true), each descriptor advanced by 32 bytes of K, and commits them to
// barrier 0. The instruction descriptor is 0x08400490 = 138413200 (D f32,
// A/B bf16, K-major, N >> 3 = 32, M >> 4 = 8), the same value Triton 3.6
// builds for this shape; the shared-memory descriptors' constant part is
// 0x4000404000010000 = 4611756662049538048 (SBO 1024 >> 4, the fixed
// 0b001 at bit 46, swizzle 2 = 128 bytes, LBO 1).
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @bf16_k_major() threads(128) {
    %c0 = arith.constant 0 : index
    %As = tile.alloc_shared : memref<128x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<256x64xbf16, #tile.shared<swizzle = 128>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    %acc = tile.alloc_tmem : !tile.tmem<128x256xf32>
    tile.gemm %As, %Bs, %acc barrier %bar[%c0] {mechanism = #tile.mma_mechanism<tcgen05>, transpose_b, clear_accum} : memref<128x64xbf16, #tile.shared<swizzle = 128>>, memref<256x64xbf16, #tile.shared<swizzle = 128>>, !tile.tmem<128x256xf32>, !tile.barrier<1>
  }
}

// -----

// tf32 with 64-byte rows (K = 16: two steps of 8), B N-major is refused
// for tf32 (next file); here B is N x K. M = 64, N = 8: idesc
// 2 << 7 | 2 << 10 | 1 << 4 | 1 << 17 | 4 << 24 = 67242256; swizzle mode 4
// (64 bytes), SBO 512.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @tf32_64b() threads(128) {
    %c0 = arith.constant 0 : index
    %As = tile.alloc_shared : memref<64x16xf32, #tile.shared<swizzle = 64>>
    %Bs = tile.alloc_shared : memref<8x16xf32, #tile.shared<swizzle = 64>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    %acc = tile.alloc_tmem : !tile.tmem<64x8xf32>
    tile.gemm %As, %Bs, %acc barrier %bar[%c0] {mechanism = #tile.mma_mechanism<tcgen05>, transpose_b} : memref<64x16xf32, #tile.shared<swizzle = 64>>, memref<8x16xf32, #tile.shared<swizzle = 64>>, !tile.tmem<64x8xf32>, !tile.barrier<1>
  }
}

// -----

// B as K x N (N-major, 128-byte column blocks of 64 elements): transpose B
// (bit 16) in the instruction descriptor, 138478736; B's LBO is the
// distance between column blocks (64 rows x 128 bytes = 8192, >> 4 = 512).
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @bf16_n_major_b() threads(128) {
    %c0 = arith.constant 0 : index
    %As = tile.alloc_shared : memref<128x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x256xbf16, #tile.shared<swizzle = 128>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    %acc = tile.alloc_tmem : !tile.tmem<128x256xf32>
    tile.gemm %As, %Bs, %acc barrier %bar[%c0] {mechanism = #tile.mma_mechanism<tcgen05>} : memref<128x64xbf16, #tile.shared<swizzle = 128>>, memref<64x256xbf16, #tile.shared<swizzle = 128>>, !tile.tmem<128x256xf32>, !tile.barrier<1>
  }
}
