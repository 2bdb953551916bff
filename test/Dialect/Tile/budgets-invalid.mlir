// Budgets the verifiers check before any lowering sees a tile: fragments
// that could never fit registers, shared tiles larger than any chip's shared
// memory (byte counts computed without wrapping), zero-sized shared tiles,
// a fragment whose layout needs more registers than a thread has, and
// clusters beyond 16 CTAs.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

tile.kernel @fragment_huge() threads(128) {
  // expected-error @+1 {{fragment of more than 16777216 elements (2^24) cannot be held in registers, got 1000000000; keep a tile that large in shared or global memory, or split it}}
  %f = tile.alloc_fragment : !tile.fragment<1000000000xf32>
}

// -----

// The element count wraps int64 when multiplied naively.
tile.kernel @fragment_wraps() threads(128) {
  // expected-error @+1 {{fragment of more than 16777216 elements (2^24) cannot be held in registers, got 4294967296x4294967296x16}}
  %f = tile.alloc_fragment : !tile.fragment<4294967296x4294967296x16xf32>
}

// -----

// 2^32 x 2^32 x 4 bytes is 2^66: it must not wrap to 0 bytes.
tile.kernel @shared_wraps() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op needs more shared memory than any chip has (232448 bytes per CTA at most) for 'memref<4294967296x4294967296xf32, #gpu.address_space<workgroup>>'; split the tile or keep it in global memory}}
  %s = tile.alloc_shared : memref<4294967296x4294967296xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @shared_near_2_63() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op needs more shared memory than any chip has (232448 bytes per CTA at most)}}
  %s = tile.alloc_shared : memref<4611686018427387904x2xbf16, #gpu.address_space<workgroup>>
}

// -----

// 1 MiB: more than the 227 KiB of the largest chip.
tile.kernel @shared_too_big() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op needs more shared memory than any chip has (232448 bytes per CTA at most) for 'memref<512x512xf32, #gpu.address_space<workgroup>>'}}
  %s = tile.alloc_shared : memref<512x512xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @shared_zero() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects positive dimensions, got 0 in 'memref<0x64xf32, #gpu.address_space<workgroup>>'}}
  %s = tile.alloc_shared : memref<0x64xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @shared_index() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects integer or float elements, got 'index'}}
  %s = tile.alloc_shared : memref<64xindex, #gpu.address_space<workgroup>>
}

// -----

// 65536 elements over 128 threads: 512 registers a thread.
tile.kernel @fragment_registers() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op needs 512 32-bit registers per thread for '!tile.fragment<256x256xf32, #tile.blocked<threads = 128, vector = 4>>', more than the 255 a thread has; use more threads, a smaller tile, or keep it in shared memory (tile.alloc_shared)}}
  %f = tile.alloc_fragment : !tile.fragment<256x256xf32, #tile.blocked<threads = 128, vector = 4>>
}

// -----

// 256 registers: one over the budget.
tile.kernel @fragment_registers_wgmma() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op needs 256 32-bit registers per thread}}
  %f = tile.alloc_fragment : !tile.fragment<128x256xf32, #tile.blocked<threads = 128, vector = 4>>
}

// -----

// expected-error @+1 {{'tile.kernel' op expects at most 16 CTAs in a cluster, got 32; 8 is the portable limit, and 9 to 16 run as a non-portable cluster (which the runtime opts in to, on GPUs that allow it)}}
tile.kernel @cluster_32() threads(128) cluster(8, 4, 1) {
}
