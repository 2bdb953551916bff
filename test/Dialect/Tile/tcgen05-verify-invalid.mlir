// What tile.gemm's verifier refuses for products into tensor memory
// (tcgen05.mma shapes, a barrier to complete on) and what tile.commit_gemms
// refuses, each with a located error; tcgen05 on a chip without it:
// tile-select-instructions-invalid.mlir.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

tile.kernel @no_barrier() threads(128) {
  %a = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %t = tile.alloc_tmem : !tile.tmem<128x64xf32>
  // expected-error @+1 {{'tile.gemm' op accumulates in tensor memory, so it completes asynchronously: write `barrier %b[%i]` (a barrier expecting one arrival) and wait on it before reading C or reusing A and B}}
  tile.gemm %a, %b, %t : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf32>
}

// -----

// M = 128 takes N in steps of 16.
tile.kernel @n_step() threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x24xbf16, #gpu.address_space<workgroup>>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %t = tile.alloc_tmem : !tile.tmem<128x24xf32>
  // expected-error @+1 {{'tile.gemm' op is a tcgen05 product with N = 24, but tcgen05.mma with M = 128 takes N a multiple of 16 in [16, 256]; split the tile into legal products}}
  tile.gemm %a, %b, %t barrier %bar[%c0] : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x24xbf16, #gpu.address_space<workgroup>>, !tile.tmem<128x24xf32>, !tile.barrier<1>
}

// -----

// More than 256 columns in one product.
tile.kernel @n_too_wide() threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x264xbf16, #gpu.address_space<workgroup>>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %t = tile.alloc_tmem : !tile.tmem<64x264xf32>
  // expected-error @+1 {{'tile.gemm' op is a tcgen05 product with N = 264, but tcgen05.mma with M = 64 takes N a multiple of 8 in [8, 256]; split the tile into legal products}}
  tile.gemm %a, %b, %t barrier %bar[%c0] : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x264xbf16, #gpu.address_space<workgroup>>, !tile.tmem<64x264xf32>, !tile.barrier<1>
}

// -----

// A hand-written tcgen05 mechanism on a fragment accumulator of 32 rows.
tile.kernel @m32() threads(128) {
  %a = tile.alloc_shared : memref<32x64xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<32x64xf32>
  // expected-error @+1 {{'tile.gemm' op is a tcgen05 product with M = 32, but tcgen05.mma on one CTA takes M = 64 or 128 (tensor memory has 128 lanes); split the tile into legal products}}
  tile.gemm %a, %b, %acc {mechanism = #tile.mma_mechanism<tcgen05>} : memref<32x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<32x64xf32>
}

// -----

// K in steps of 32 bytes: 8 tf32 elements.
tile.kernel @k_step() threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<128x12xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<12x64xf32, #gpu.address_space<workgroup>>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %t = tile.alloc_tmem : !tile.tmem<128x64xf32>
  // expected-error @+1 {{'tile.gemm' op is a tcgen05 product with K = 12, which must be a multiple of 8 (32 bytes of the operand type)}}
  tile.gemm %a, %b, %t barrier %bar[%c0] : memref<128x12xf32, #gpu.address_space<workgroup>>, memref<12x64xf32, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf32>, !tile.barrier<1>
}

// -----

// A tcgen05 gemm whose register accumulator has another matrix layout.
tile.kernel @wrong_layout() threads(256) {
  %a = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32, #tile.wgmma<warpgroups = 2>>
  // expected-error @+1 {{'tile.gemm' op takes mechanism tcgen05, whose C has the #tile.tmem_32x32b layout, not #tile.wgmma<warpgroups = 2>}}
  tile.gemm %a, %b, %acc {mechanism = #tile.mma_mechanism<tcgen05>} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32, #tile.wgmma<warpgroups = 2>>
}

// -----

tile.kernel @commit_index() threads(128) {
  %c2 = arith.constant 2 : index
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  // expected-error @+1 {{'tile.commit_gemms' op barrier index 2 is outside the ring of 2}}
  tile.commit_gemms barrier %bar[%c2] : !tile.barrier<2>
}
