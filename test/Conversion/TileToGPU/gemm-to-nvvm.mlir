// tile.gemm to sm_90a wgmma, summarised. Per kernel: the accumulator
// registers (N / 2 per thread of a 64 x N warpgroup tile), then between one
// wgmma.fence and one commit + wait, one inline-PTX block; SSA names are
// blanked so that repeats count.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu | grep -E '^// -{5}|gpu\.func|nvvm\.wgmma|memref\.alloca|nvgpu\.mbarrier\.arrive |nvvm\.mma\.sync|nvvm\.ldmatrix' | sed -E -e 's/ : !llvm\.struct.*//' -e 's/%[0-9a-z_]+/%v/g' | uniq -c
// The block: one wgmma.mma_async m64nNk16 per 16 columns of K on the same
// accumulator registers (shown as {d}), the first with scale-d `first`, which
// is 0 with clear_accum.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu | grep -oE '^// -{5}|setp\.ne\.b32 first, [01]|wgmma\.mma_async[^;]*' | sed -E 's/\{[^}]*\}/{d}/' | uniq -c
// The i64 constants per kernel, first use order: the warpgroup's A offset
// (64 rows), the descriptor arithmetic (address & 0x3FFFF, >> 4), the
// descriptor's fixed bits (layout type 1/2/3 for 128/64/32-byte swizzles in
// bits 62-63, stride byte offset 8 rows >> 4 in bits 32-45, leading byte
// offset 1 in bits 16-29) and the K steps of 32 bytes.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu | grep -E '^// -{5}|arith\.constant -?[0-9]+ : i64' | sed -E 's/.*arith\.constant (-?[0-9]+) : i64.*/\1/' | awk '/-----/ { delete seen } /-----/ || !seen[$0]++'

// One warpgroup, 128-byte rows: K = 64 is four m64n64k16 steps.
tile.kernel @bf16_128b(%C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}

// -----

// Two warpgroups, f16 with 64-byte rows (K = 32, two steps), clear_accum.
tile.kernel @f16_64b() threads(256) {
  %As = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
  tile.gemm %As, %Bs, %acc {transpose_b, clear_accum} : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
}

// -----

// 32-byte rows: K = 16 is one step; N = 24.
tile.kernel @bf16_32b() threads(128) {
  %As = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<24x16xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x24xf32>
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<24x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x24xf32>
}

// -----

// A from registers: the fragment takes C's layout, and each K step passes
// four 32-bit registers (pairs of A's 16-bit elements) instead of A's
// descriptor; B keeps its transpose immediate, A has none.
tile.kernel @a_registers() threads(128) {
  %A = tile.alloc_fragment : !tile.fragment<64x32xbf16>
  %Bs = tile.alloc_shared : memref<64x32xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.gemm %A, %Bs, %acc {transpose_b} : !tile.fragment<64x32xbf16>, memref<64x32xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
}

// -----

// Completion on a barrier: the warpgroup waits for its group (wgmma cannot
// signal an mbarrier itself), then every thread arrives.
tile.kernel @on_barrier() threads(128) {
  %c0 = arith.constant 0 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %done = tile.alloc_barrier arrivals(128) : !tile.barrier<1>
  tile.gemm %As, %Bs, %acc barrier %done[%c0] {transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>, !tile.barrier<1>
}

// -----

// An #tile.mma accumulator asks for mma.sync on sm_90a too: plain shared
// tiles, ldmatrix and mma.sync, no wgmma.
tile.kernel @mma_asked_for() threads(128) {
  %As = tile.alloc_shared : memref<64x32xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x32xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x32xbf16, #gpu.address_space<workgroup>>, memref<64x32xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
}

// -----

// mma.sync with A stored K x M and B stored K x N: the same instructions,
// with ldmatrix reading transposed (layout col, PTX .trans).
tile.kernel @mma_transposed() threads(128) {
  %As = tile.alloc_shared : memref<32x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<32x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
  tile.gemm %As, %Bs, %acc {transpose_a} : memref<32x64xbf16, #gpu.address_space<workgroup>>, memref<32x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32, #tile.mma<warps_m = 2, warps_n = 2>>
}
