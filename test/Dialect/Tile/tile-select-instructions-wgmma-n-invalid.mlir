// Gemm shapes the selected matrix instruction cannot take, refused by
// tile-select-instructions before any layout is made (never a wgmma with a
// non-existent N in the PTX).
// RUN: tile-opt %s --split-input-file --tile-select-instructions --verify-diagnostics -o /dev/null

// N = 12: not a multiple of 8.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @n12() threads(128) {
    %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x12xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x12xf32>
    // expected-error @+1 {{'tile.gemm' op has N = 12, which wgmma cannot take: wgmma needs N a multiple of 8 in [8, 256] (8, 16, ..., 256); pad N to 16}}
    tile.gemm %a, %b, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x12xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x12xf32>
  }
}

// -----

// N = 264: a multiple of 8, but more than 256.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @n264() threads(128) {
    %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x264xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x264xf32>
    // expected-error @+1 {{'tile.gemm' op has N = 264, which wgmma cannot take: wgmma needs N a multiple of 8 in [8, 256] (8, 16, ..., 256); split N into gemms of at most 256 columns, or write mechanism = #tile.mma_mechanism<mma_sync>}}
    tile.gemm %a, %b, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x264xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x264xf32>
  }
}

// -----

// A mechanism written by hand is checked too.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @n12_by_hand() threads(128) {
    %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x12xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x12xf32>
    // expected-error @+1 {{'tile.gemm' op has N = 12, which wgmma cannot take}}
    tile.gemm %a, %b, %acc {mechanism = #tile.mma_mechanism<wgmma>} : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x12xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x12xf32>
  }
}

// -----

// mma.sync tiles are 16 rows by 8 columns.
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @mma_sync_n12() threads(128) {
    %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x12xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x12xf32>
    // expected-error @+1 {{'tile.gemm' op is 64x12 (M x N), which mma.sync cannot take: it needs M a multiple of 16 and N a multiple of 8; pad the tile to 64x16}}
    tile.gemm %a, %b, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x12xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x12xf32>
  }
}
