// tile-assign-layouts around tile.gemm (sm_90a): the accumulator takes
// #tile.wgmma<warpgroups = threads / 128>, fragments that meet it in a
// tile.elementwise take it too (transitively), and the shared operands get
// the swizzle of their row length (32, 64 or 128 bytes; 0 otherwise) in
// their types (#tile.shared<swizzle = N>). A
// swizzle given by hand is kept, and other shared tiles get none. The
// inputs carry the module's tile.target and each gemm's mechanism (wgmma;
// mma_sync in the last case), as tile-attach-target and
// tile-select-instructions write them.
// RUN: tile-opt %s --split-input-file --tile-assign-layouts

// Two warpgroups; %bias and %out meet %acc, %other only meets %out: all
// four become wgmma fragments (whatever their element type); %alone meets
// none and is blocked.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @wgmma() threads(256) {
    %zero = arith.constant 0.0 : f32
    %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
    %bias = tile.alloc_fragment : !tile.fragment<128x64xf32>
    %out = tile.alloc_fragment : !tile.fragment<128x64xbf16>
    %other = tile.alloc_fragment : !tile.fragment<128x64xbf16>
    %alone = tile.alloc_fragment : !tile.fragment<128x64xf32>
    tile.fill %acc, %zero : !tile.fragment<128x64xf32>, f32
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
    tile.elementwise ins(%acc, %bias : !tile.fragment<128x64xf32>, !tile.fragment<128x64xf32>) outs(%out : !tile.fragment<128x64xbf16>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      %t = arith.truncf %s : f32 to bf16
      tile.yield %t : bf16
    }
    tile.elementwise ins(%out : !tile.fragment<128x64xbf16>) outs(%other : !tile.fragment<128x64xbf16>) {
    ^bb0(%a: bf16):
      tile.yield %a : bf16
    }
  }
}

// -----

// 64-byte rows (32 bf16), 32-byte rows (16 f16), 256-byte rows (no
// swizzle), a swizzle of 0 given by hand on 128-byte rows (kept; its partner
// B still gets 128), and a shared tile no gemm reads.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @swizzles() threads(128) {
    %A64 = tile.alloc_shared : memref<64x32xbf16, #gpu.address_space<workgroup>>
    %B64 = tile.alloc_shared : memref<32x32xbf16, #gpu.address_space<workgroup>>
    %acc64 = tile.alloc_fragment : !tile.fragment<64x32xf32>
    tile.gemm %A64, %B64, %acc64 {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x32xbf16, #gpu.address_space<workgroup>>, memref<32x32xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x32xf32>
    %A32 = tile.alloc_shared : memref<64x16xf16, #gpu.address_space<workgroup>>
    %B32 = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %acc32 = tile.alloc_fragment : !tile.fragment<64x16xf32>
    tile.gemm %A32, %B32, %acc32 {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32>
    %A256 = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
    %B256 = tile.alloc_shared : memref<8x128xbf16, #gpu.address_space<workgroup>>
    %acc256 = tile.alloc_fragment : !tile.fragment<64x8xf32>
    tile.gemm %A256, %B256, %acc256 {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<8x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x8xf32>
    %Ahand = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
    %B128 = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
    %acc128 = tile.alloc_fragment : !tile.fragment<64x8xf32>
    tile.gemm %Ahand, %B128, %acc128 {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<8x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x8xf32>
    %other = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  }
}

// -----

// Ring views (as tile-pipeline-loops leaves them) reach their allocation,
// and take its swizzle in their types (#tile.shared).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @through_views() threads(128) {
    %c1 = arith.constant 1 : index
    %As = tile.alloc_shared : memref<2x64x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<2x64x64xbf16, #gpu.address_space<workgroup>>
    %a = memref.subview %As[%c1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xbf16, #gpu.address_space<workgroup>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %b = memref.subview %Bs[%c1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xbf16, #gpu.address_space<workgroup>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    tile.gemm %a, %b, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// A in registers takes the accumulator's wgmma layout.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @a_registers() threads(256) {
    %A = tile.alloc_fragment : !tile.fragment<128x64xbf16>
    %Bs = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
    tile.gemm %A, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : !tile.fragment<128x64xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  }
}

// -----

// M- and N-major operands (A stored K x M, B stored K x N): 128-byte
// swizzles for their 64-element (128-byte) column blocks
// (convert-tile-gemm-to-gpu-wgmma-mn-major.mlir lowers this gemm).
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @mn_major() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_a} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x128xf32>
  }
}

// -----

// mma_sync (sm_80): the accumulator takes an #tile.mma warp grid for the
// kernel's four warps (2 x 2), and the shared operands get swizzle 0
// (ldmatrix reads them plain).
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @mma_sync() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// A view's results that are not memrefs (the sizes and strides of
// memref.extract_strided_metadata) keep their types; its base buffer, the
// same shared bytes, takes the swizzle.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @metadata() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %As : memref<64x64xbf16, #gpu.address_space<workgroup>> -> memref<bf16, #gpu.address_space<workgroup>>, index, index, index, index, index
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}
