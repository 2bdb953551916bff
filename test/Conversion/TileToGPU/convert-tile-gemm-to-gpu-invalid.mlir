// What the wgmma lowering of tile.gemm refuses (sm_90a), each with a located
// error and the conversion driver's "failed to legalize". convert-tile-gemm-to-gpu
// alone: the inputs carry what tile-select-instructions (mechanism wgmma) and
// tile-assign-layouts (#tile.wgmma accumulators, swizzles by row length)
// would write. A blocked accumulator is refused earlier, by
// tile-select-instructions (tile-select-instructions-invalid.mlir).
// RUN: tile-opt %s --split-input-file --convert-tile-gemm-to-gpu --verify-diagnostics -o /dev/null

// tf32 operands must be K-major: B as K x N is refused.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @tf32_n_major_b() threads(128) {
    %As = tile.alloc_shared : memref<64x32xf32, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<32x64xf32, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op needs B K-major for 32-bit (tf32) elements}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>} : memref<64x32xf32, #tile.shared<swizzle = 128>>, memref<32x64xf32, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// A as K x M (M-major) needs 128-byte swizzled column blocks.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @transpose_a_unswizzled() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op needs A's M- or N-major rows in 128-byte swizzled column blocks (got 128-byte rows, swizzle 0)}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_a, transpose_b} : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// i8 inputs (i32 accumulation) are legal tile IR but not lowered yet.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @i8_inputs() threads(128) {
    %As = tile.alloc_shared : memref<64x128xi8, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x128xi8, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xi32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op wgmma lowering handles bf16, f16 and f32 (tf32) inputs so far, got 'i8'}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x128xi8, #tile.shared<swizzle = 128>>, memref<64x128xi8, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xi32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// An f16 accumulator.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @f16_accumulator() threads(128) {
    %As = tile.alloc_shared : memref<64x64xf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x64xf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf16, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op wgmma lowering accumulates in f32 only so far}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xf16, #tile.shared<swizzle = 128>>, memref<64x64xf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xf16, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// K-major rows wider than 128 bytes are read as 128-byte column blocks,
// which only the 128-byte swizzle stores.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @wide_rows() threads(128) {
    %As = tile.alloc_shared : memref<64x128xbf16, #tile.shared<swizzle = 64>>
    %Bs = tile.alloc_shared : memref<64x128xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op needs A's K-major rows of 32, 64 or 128 bytes, or of a multiple of 128 bytes, swizzled to match (got 256-byte rows, swizzle 64)}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x128xbf16, #tile.shared<swizzle = 64>>, memref<64x128xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// 16-byte rows neither.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @narrow_rows() threads(128) {
    %As = tile.alloc_shared : memref<64x8xbf16, #tile.shared<swizzle = 0>>
    %Bs = tile.alloc_shared : memref<64x8xbf16, #tile.shared<swizzle = 0>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op needs A's K-major rows of 32, 64 or 128 bytes, or of a multiple of 128 bytes, swizzled to match (got 16-byte rows, swizzle 0)}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x8xbf16, #tile.shared<swizzle = 0>>, memref<64x8xbf16, #tile.shared<swizzle = 0>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// A swizzle chosen by hand that is not the row's: B unswizzled.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @unswizzled_b() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op needs B's K-major rows of 32, 64 or 128 bytes, or of a multiple of 128 bytes, swizzled to match (got 128-byte rows, swizzle 0)}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<64x64xbf16, #tile.shared<swizzle = 0>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// A in registers needs C's wgmma layout (here a blocked one given by hand).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @a_fragment_blocked() threads(128) {
    %A = tile.alloc_fragment : !tile.fragment<64x64xbf16, #tile.blocked<threads = 128, vector = 8>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op expects A in registers to have C's layout #tile.wgmma<warpgroups = 1> (tile-assign-layouts gives it)}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %A, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : !tile.fragment<64x64xbf16, #tile.blocked<threads = 128, vector = 8>>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// tf32 takes A from shared memory only.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @a_fragment_tf32() threads(128) {
    %A = tile.alloc_fragment : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>
    %Bs = tile.alloc_shared : memref<64x32xf32, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @below {{'tile.gemm' op takes A from registers for bf16 and f16 only; tf32 A must be in shared memory}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %A, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : !tile.fragment<64x32xf32, #tile.wgmma<warpgroups = 1>>, memref<64x32xf32, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

// Completion on a barrier: one arrival per thread, which the barrier must
// count.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @gemm_barrier_arrivals() threads(128) {
    %c0 = arith.constant 0 : index
    %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    // expected-error @below {{'tile.gemm' op completes on a barrier with one arrival per thread, so it needs arrivals(128), not arrivals(1)}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc barrier %bar[%c0] {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, !tile.barrier<1>
  }
}
