// tile.gemm on sm_80 (mma.sync): what the lowering refuses.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_80 --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu --verify-diagnostics -o /dev/null

// No warp grid: 8 rows cannot be split into 16-row mma tiles.
tile.kernel @no_grid() threads(128) {
  %As = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<8x64xf32>
  // expected-error @below {{'tile.gemm' op has no mma.sync warp grid: a 8x64 tile over 4 warps needs 16-row by 8-column tiles per warp}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<8x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<8x64xf32>
}

// -----

// A wgmma layout given by hand is not an mma.sync layout.
tile.kernel @wgmma_layout() threads(128) {
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  // expected-error @below {{'tile.gemm' op a #tile.wgmma accumulator needs wgmma, which sm_80 does not have}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
}

// -----

// ldmatrix reads plain tiles: a swizzle asked for by hand is refused.
tile.kernel @swizzled() threads(128) {
  %As = tile.alloc_shared {swizzle = 128} : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.gemm' op ldmatrix reads unswizzled shared tiles only}}
  // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @f32_inputs() threads(128) {
  %As = tile.alloc_shared : memref<64x32xf32, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x32xf32, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.gemm' op mma.sync lowering handles bf16 and f16 inputs so far, got 'f32'}}
  // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<64x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}

// -----

tile.kernel @k_not_16() threads(128) {
  %As = tile.alloc_shared : memref<64x8xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x8xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.gemm' op needs K to be a multiple of 16, got 8}}
  // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x8xbf16, #gpu.address_space<workgroup>>, memref<64x8xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}

// -----

// A in registers is lowered for wgmma only.
tile.kernel @a_fragment() threads(128) {
  %A = tile.alloc_fragment : !tile.fragment<64x64xbf16>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.gemm' op with A in registers is lowered for wgmma only so far}}
  // expected-error @below {{failed to legalize operation 'tile.gemm' that was explicitly marked illegal}}
  tile.gemm %A, %Bs, %acc {transpose_b} : !tile.fragment<64x64xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}
