// convert-tile-gemm-to-gpu alone, mechanism wgmma (sm_90a). The inputs
// carry what tile-select-instructions (mechanism) and tile-assign-layouts
// (#tile.wgmma accumulators, swizzles on the shared tiles) would write.
// RUN: tile-opt %s --split-input-file --convert-tile-gemm-to-gpu

// One warpgroup, 128-byte rows: K = 64 is four m64n8k16 steps on the same
// accumulator registers, the first with scale-d `first` (1: accumulate).
// A's descriptor starts at the warpgroup's offset (64 rows x 128 bytes =
// 8192 per warpgroup), each step adds 32 bytes (0, 32, 64, 96); the
// descriptor is (address & 0x3FFFF) >> 4 or'ed with the fixed bits: layout
// type 1 (128-byte swizzle) in bits 62-63, stride byte offset 8 rows x 128
// bytes >> 4 in bits 32-45, leading byte offset 1 in bits 16-29
// (4611686293305360384). Then commit and wait_group 0.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @bf16_128b() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<8x64xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<8x64xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// Two warpgroups, f16 with 64-byte rows (K = 32, two steps; the second
// warpgroup's A starts 64 x 64 = 4096 bytes on; layout type 2), clear_accum:
// scale-d `first` is 0.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @f16_64b() threads(256) {
    %As = tile.alloc_shared : memref<128x32xf16, #tile.shared<swizzle = 64>>
    %Bs = tile.alloc_shared : memref<8x32xf16, #tile.shared<swizzle = 64>>
    %acc = tile.alloc_fragment : !tile.fragment<128x8xf32, #tile.wgmma<warpgroups = 2>>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b, clear_accum} : memref<128x32xf16, #tile.shared<swizzle = 64>>, memref<8x32xf16, #tile.shared<swizzle = 64>>, !tile.fragment<128x8xf32, #tile.wgmma<warpgroups = 2>>
  }
}

// -----

// 32-byte rows: K = 16 is one step (layout type 3, 2048 bytes per
// warpgroup); N = 24 gives 12 accumulators per thread.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @bf16_32b() threads(128) {
    %As = tile.alloc_shared : memref<64x16xbf16, #tile.shared<swizzle = 32>>
    %Bs = tile.alloc_shared : memref<24x16xbf16, #tile.shared<swizzle = 32>>
    %acc = tile.alloc_fragment : !tile.fragment<64x24xf32, #tile.wgmma<warpgroups = 1>>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x16xbf16, #tile.shared<swizzle = 32>>, memref<24x16xbf16, #tile.shared<swizzle = 32>>, !tile.fragment<64x24xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// A from registers: the fragment has C's layout, and each K step passes four
// 32-bit registers (pairs of A's 16-bit elements) instead of A's descriptor;
// B keeps its transpose immediate, A has none.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @a_registers() threads(128) {
    %A = tile.alloc_fragment : !tile.fragment<64x32xbf16, #tile.wgmma<warpgroups = 1>>
    %Bs = tile.alloc_shared : memref<8x32xbf16, #tile.shared<swizzle = 64>>
    %acc = tile.alloc_fragment : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
    tile.gemm %A, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : !tile.fragment<64x32xbf16, #tile.wgmma<warpgroups = 1>>, memref<8x32xbf16, #tile.shared<swizzle = 64>>, !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// Completion on a barrier: the warpgroup waits for its group (wgmma cannot
// signal an mbarrier itself), then every thread arrives.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @on_barrier() threads(128) {
    %c0 = arith.constant 0 : index
    %As = tile.alloc_shared : memref<64x16xbf16, #tile.shared<swizzle = 32>>
    %Bs = tile.alloc_shared : memref<8x16xbf16, #tile.shared<swizzle = 32>>
    %acc = tile.alloc_fragment : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
    %done = tile.alloc_barrier arrivals(128) : !tile.barrier<1>
    tile.gemm %As, %Bs, %acc barrier %done[%c0] {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x16xbf16, #tile.shared<swizzle = 32>>, memref<8x16xbf16, #tile.shared<swizzle = 32>>, !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>, !tile.barrier<1>
  }
}
