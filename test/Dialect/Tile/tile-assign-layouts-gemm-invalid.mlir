// tile-assign-layouts' gemm errors: wgmma accumulators are 64 rows (or
// blocks of 64) per warpgroup of the kernel, mma.sync accumulators need a warp grid, and every
// gemm needs the mechanism tile-select-instructions writes (the inputs carry
// it, and the module's tile.target).
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --verify-diagnostics -o /dev/null

// 96 rows are not blocks of 64.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @rows() threads(128) {
    %As = tile.alloc_shared : memref<96x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<96x64xf32>
    // expected-error @below {{'tile.gemm' op wgmma needs M = 64 x blocks x warpgroups: 96 rows with 128 threads}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<96x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<96x64xf32>
  }
}

// -----

// 64 rows with two warpgroups.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @too_many_threads() threads(256) {
    %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    // expected-error @below {{'tile.gemm' op wgmma needs M = 64 x blocks x warpgroups: 64 rows with 256 threads}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// Threads that are not whole warpgroups.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @partial_warpgroup() threads(96) {
    %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    // expected-error @below {{'tile.gemm' op wgmma needs M = 64 x blocks x warpgroups: 64 rows with 96 threads}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// mma.sync (sm_80): 8 rows cannot be split into 16-row mma tiles.
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @no_grid() threads(128) {
    %As = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<8x64xf32>
    // expected-error @below {{'tile.gemm' op has no mma.sync warp grid: a 8x64 tile over 4 warps needs 16-row by 8-column tiles per warp}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : memref<8x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<8x64xf32>
  }
}

// -----

// A gemm tile-select-instructions has not seen: no mechanism, no layout.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @no_mechanism() threads(128) {
    %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    // expected-error @below {{'tile.gemm' op has no mechanism: run tile-select-instructions first}}
    tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// A 128x256 mma.sync accumulator over 4 warps: 256 registers a thread.
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @registers() threads(128) {
    %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
    // expected-error @below {{'tile.gemm' op needs 256 32-bit registers per thread for '!tile.fragment<128x256xf32, #tile.mma<warps_m = 1, warps_n = 4>>', more than the 255 a thread has}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<mma_sync>, transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>
  }
}

// -----

// A in registers takes C's wgmma layout, which a K of 512 does not fit.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @a_registers() threads(128) {
    %A = tile.alloc_fragment : !tile.fragment<64x512xbf16>
    %Bs = tile.alloc_shared : memref<64x512xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
    // expected-error @below {{'tile.gemm' op wgmma layout needs a (64 x blocks x warpgroups) x N tile with N a multiple of 8 up to 256, got 64x512 with warpgroups = 1, blocks = 1}}
    tile.gemm %A, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : !tile.fragment<64x512xbf16>, memref<64x512xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// Outside a kernel there are no warpgroups to give the rows to.
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @no_kernel(%As: memref<64x64xbf16, #gpu.address_space<workgroup>>, %Bs: memref<64x64xbf16, #gpu.address_space<workgroup>>, %acc: !tile.fragment<64x64xf32>) {
    // expected-error @below {{'tile.gemm' op wgmma needs M = 64 x blocks x warpgroups: 64 rows with 0 threads}}
    tile.gemm %As, %Bs, %acc {mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    return
  }
}
