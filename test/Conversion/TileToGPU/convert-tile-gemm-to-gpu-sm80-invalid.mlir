// tile.gemm on sm_80 (mma.sync): what the lowering refuses, each with a
// located error and the conversion driver's "failed to legalize".
// convert-tile-gemm-to-gpu alone: the inputs carry what
// tile-select-instructions (mechanism mma_sync) and tile-assign-layouts
// (#tile.mma accumulators, swizzle 0 on the shared tiles, blocked fragments)
// would write. Earlier refusals have their pass's file: no warp grid for the
// accumulator (tile-assign-layouts-gemm-invalid.mlir), a #tile.wgmma
// accumulator on sm_80 (tile-select-instructions-invalid.mlir).
// RUN: tile-opt %s --split-input-file --convert-tile-gemm-to-gpu --verify-diagnostics -o /dev/null

// ldmatrix reads plain tiles: a swizzle asked for by hand is refused.
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @swizzled() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
    // expected-error @below {{'tile.gemm' op ldmatrix reads unswizzled shared tiles only}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<64x64xbf16, #tile.shared<swizzle = 0>>, !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @f32_inputs() threads(128) {
    %As = tile.alloc_shared : memref<64x32xf32, #tile.shared<swizzle = 0>>
    %Bs = tile.alloc_shared : memref<64x32xf32, #tile.shared<swizzle = 0>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
    // expected-error @below {{'tile.gemm' op mma.sync lowering handles bf16 and f16 inputs so far, got 'f32'}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : memref<64x32xf32, #tile.shared<swizzle = 0>>, memref<64x32xf32, #tile.shared<swizzle = 0>>, !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @k_not_16() threads(128) {
    %As = tile.alloc_shared : memref<64x8xbf16, #tile.shared<swizzle = 0>>
    %Bs = tile.alloc_shared : memref<64x8xbf16, #tile.shared<swizzle = 0>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
    // expected-error @below {{'tile.gemm' op needs K to be a multiple of 16, got 8}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : memref<64x8xbf16, #tile.shared<swizzle = 0>>, memref<64x8xbf16, #tile.shared<swizzle = 0>>, !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
  }
}

// -----

// A in registers is lowered for wgmma only.
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @a_fragment() threads(128) {
    %A = tile.alloc_fragment : !tile.fragment<64x64xbf16, #tile.blocked<threads = 128, vector = 8>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
    // expected-error @below {{'tile.gemm' op with A in registers is lowered for wgmma only so far}}
    // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
    tile.gemm %A, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : !tile.fragment<64x64xbf16, #tile.blocked<threads = 128, vector = 8>>, memref<64x64xbf16, #tile.shared<swizzle = 0>>, !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
  }
}
