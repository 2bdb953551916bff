// What the tcgen05 lowering of tile.gemm refuses (sm_100a), each with a
// located error. convert-tile-gemm-to-gpu alone, inputs as
// tile-select-instructions and tile-assign-layouts would write them.
// RUN: tile-opt %s --split-input-file --convert-tile-gemm-to-gpu --verify-diagnostics -o /dev/null

// tf32 operands must be K-major: B as K x N is refused.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @tf32_n_major_b() threads(128) {
    %c0 = arith.constant 0 : index
    %As = tile.alloc_shared : memref<128x32xf32, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<32x64xf32, #tile.shared<swizzle = 128>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    %acc = tile.alloc_tmem : !tile.tmem<128x64xf32>
    // expected-error @below {{'tile.gemm' op needs B K-major for 32-bit (tf32) elements}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc barrier %bar[%c0] {mechanism = #tile.mma_mechanism<tcgen05>} : memref<128x32xf32, #tile.shared<swizzle = 128>>, memref<32x64xf32, #tile.shared<swizzle = 128>>, !tile.tmem<128x64xf32>, !tile.barrier<1>
  }
}

// -----

// A hand-written tcgen05 mechanism on a register accumulator outside a
// pipeline: nothing placed C in tensor memory.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @fragment_c() threads(128) {
    %As = tile.alloc_shared : memref<128x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<128x64xf32, #tile.tmem_32x32b<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op expects C in tensor memory (tile.alloc_tmem); a fragment accumulator is placed there by a warp_specialized tile.pipelined_for}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<tcgen05>, transpose_b} : memref<128x64xbf16, #tile.shared<swizzle = 128>>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<128x64xf32, #tile.tmem_32x32b<warpgroups = 1>>
  }
}
