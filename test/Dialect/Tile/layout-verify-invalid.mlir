// The fragment layouts' rules, as FragmentLayoutAttrInterface::verifyShape
// states them: each layout against tile shapes (type verifier) and against
// the threads of its kernel or team (tile.alloc_fragment), with what to
// write instead. One case per split; the layouts that fit come first.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

// Layouts that fit: a 3-D blocked tile, wgmma's widest N, mma warp grids,
// each in a kernel of its thread count.
func.func private @fits(!tile.fragment<4x8x16xf16, #tile.blocked<threads = 64, vector = 8>>,
                        !tile.fragment<128x256xf32, #tile.wgmma<warpgroups = 2>>,
                        !tile.fragment<64x32xf32, #tile.mma<warps_m = 2, warps_n = 2>>)
tile.kernel @fits_kernel() threads(128) {
  %b = tile.alloc_fragment : !tile.fragment<1024xf32, #tile.blocked<threads = 128, vector = 4>>
  %w = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
  %m = tile.alloc_fragment : !tile.fragment<64x32xf32, #tile.mma<warps_m = 2, warps_n = 2>>
}

//===----------------------------------------------------------------------===//
// #tile.blocked
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{blocked layout vector (8) must divide the innermost dimension (12); vector = 4 would fit}}
func.func private @blocked_vector(!tile.fragment<64x12xf32, #tile.blocked<threads = 32, vector = 8>>)

// -----

// Parameters past a CTA are refused before any product of them (they
// overflowed, or divided by zero, and crashed tile-opt).
// expected-error @+1 {{blocked layout threads must be at most 1024 (a CTA) and vector at most 2^24 (a fragment), got threads = 4611686018427387904, vector = 4}}
func.func private @blocked_huge(!tile.fragment<64x64xf32, #tile.blocked<threads = 4611686018427387904, vector = 4>>)

// -----

// expected-error @+1 {{mma layout needs warps_m x warps_n of at most 32 (a CTA's warps), got warps_m = 4611686018427387904, warps_n = 4}}
func.func private @mma_huge(!tile.fragment<64x64xf32, #tile.mma<warps_m = 4611686018427387904, warps_n = 4>>)

// -----

// expected-error @+1 {{mma layout needs warps_m x warps_n of at most 32 (a CTA's warps), got warps_m = 8, warps_n = 8}}
func.func private @mma_warps(!tile.fragment<128x64xf32, #tile.mma<warps_m = 8, warps_n = 8>>)

// -----

// expected-error @+1 {{wgmma layout needs warpgroups of at most 8 (a CTA) and blocks of at most 2^24, got warpgroups = 1073741826, blocks = 1}}
func.func private @wgmma_huge(!tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1073741826>>)

// -----

// expected-error @+1 {{blocked layout part (48) must be a multiple of 32 that divides threads (128) and is less than it; write part = 32 for a part per warp, or leave part out for one part of all threads}}
func.func private @blocked_part_lanes(!tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 8, part = 48>>)

// -----

// expected-error @+1 {{blocked layout part (128) must be a multiple of 32 that divides threads (128) and is less than it}}
func.func private @blocked_part_all(!tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 8, part = 128>>)

// -----

// A part larger than the CTA: refused, not a division by zero.
tile.kernel @blocked_part_large() threads(128) {
  // expected-error @+1 {{blocked layout part (256) must be a multiple of 32 that divides threads (128) and is less than it}}
  %f = tile.alloc_fragment : !tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 8, part = 256>>
}

// -----

// expected-error @+1 {{blocked layout part (64) must be a multiple of 32 that divides threads (96)}}
func.func private @blocked_part_divides(!tile.fragment<6x1024xf32, #tile.blocked<threads = 96, vector = 8, part = 64>>)

// -----

// Parts split the elements evenly (without parts, some threads may hold
// fewer runs: tile-assign-layouts.mlir).
// expected-error @+1 {{blocked layout with parts spreads runs of 4 over 128 threads, which does not divide the 256 elements; vector = 2 would fit; leave part out}}
func.func private @blocked_spread(!tile.fragment<256xf32, #tile.blocked<threads = 128, vector = 4, part = 32>>)

// -----

// No narrower run helps: fewer elements than threads.
// expected-error @+1 {{blocked layout with parts spreads runs of 2 over 128 threads, which does not divide the 64 elements; leave part out}}
func.func private @blocked_small(!tile.fragment<64xf32, #tile.blocked<threads = 128, vector = 2, part = 32>>)

// -----

// expected-error @+1 {{blocked layout needs positive threads and vector}}
func.func private @blocked_zero_vector(!tile.fragment<256xf32, #tile.blocked<threads = 128, vector = 0>>)

// -----

tile.kernel @blocked_threads() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 256 threads in a kernel of 128; write threads = 128 (or leave the layout to tile-assign-layouts)}}
  %f = tile.alloc_fragment : !tile.fragment<1024xf32, #tile.blocked<threads = 256, vector = 4>>
}

//===----------------------------------------------------------------------===//
// #tile.wgmma
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{wgmma layout needs a (64 x blocks x warpgroups) x N tile with N a multiple of 8 up to 256, got 64x64 with warpgroups = 2, blocks = 1; for 64 rows write #tile.wgmma<warpgroups = 1>}}
func.func private @wgmma_rows(!tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 2>>)

// -----

// expected-error @+1 {{wgmma layout needs a (64 x blocks x warpgroups) x N tile with N a multiple of 8 up to 256, got 96x64 with warpgroups = 1, blocks = 1}}
func.func private @wgmma_rows_not_64(!tile.fragment<96x64xf32, #tile.wgmma<warpgroups = 1>>)

// -----

// 128-row warpgroup tiles are two blocks of 64.
// expected-error @+1 {{got 256x128 with warpgroups = 2, blocks = 1; for 256 rows write #tile.wgmma<warpgroups = 2, blocks = 2>}}
func.func private @wgmma_blocks_missing(!tile.fragment<256x128xf32, #tile.wgmma<warpgroups = 2>>)

// -----

// expected-error @+1 {{got 128x128 with warpgroups = 2, blocks = 2; for 128 rows write #tile.wgmma<warpgroups = 2>}}
func.func private @wgmma_blocks_extra(!tile.fragment<128x128xf32, #tile.wgmma<warpgroups = 2, blocks = 2>>)

// -----

// expected-error @+1 {{wgmma layout needs warpgroups >= 1 and blocks >= 1, got warpgroups = 1, blocks = 0}}
func.func private @wgmma_blocks_zero(!tile.fragment<64x128xf32, #tile.wgmma<warpgroups = 1, blocks = 0>>)

// -----

// expected-error @+1 {{got 64x12 with warpgroups = 1}}
func.func private @wgmma_n_multiple(!tile.fragment<64x12xf32, #tile.wgmma<warpgroups = 1>>)

// -----

// expected-error @+1 {{got 64x264 with warpgroups = 1}}
func.func private @wgmma_n_max(!tile.fragment<64x264xf32, #tile.wgmma<warpgroups = 1>>)

// -----

// expected-error @+1 {{got 64 with warpgroups = 1}}
func.func private @wgmma_1d(!tile.fragment<64xf32, #tile.wgmma<warpgroups = 1>>)

// -----

// expected-error @+1 {{wgmma layout needs warpgroups >= 1 and blocks >= 1, got warpgroups = 0, blocks = 1}}
func.func private @wgmma_no_groups(!tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 0>>)

// -----

tile.kernel @wgmma_threads() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 256 threads in a kernel of 128; write #tile.wgmma<warpgroups = 1, blocks = 2>}}
  %f = tile.alloc_fragment : !tile.fragment<128x64xf32, #tile.wgmma<warpgroups = 2>>
}

// -----

// The hint keeps the tile: 256 rows in one warpgroup are four blocks.
tile.kernel @wgmma_threads_blocks() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 256 threads in a kernel of 128; write #tile.wgmma<warpgroups = 1, blocks = 4>}}
  %f = tile.alloc_fragment : !tile.fragment<256x128xf32, #tile.wgmma<warpgroups = 2, blocks = 2>>
}

// -----

tile.kernel @wgmma_threads_not_128() threads(96) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 128 threads in a kernel of 96; wgmma layouts need a multiple of 128 threads}}
  %f = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
}

// -----

// In a warp-specialised kernel the consumers' layouts are for one team:
// (384 - 128 producer threads) / 2 teams.
tile.kernel @wgmma_team_threads() threads(384) {
  tile.warp_specialize {
    role "producer" warpgroups(1) {
    }
    role "consumers" warpgroups(2) teams(2) as %team {
    // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 256 threads in a kernel of 128; write #tile.wgmma<warpgroups = 1, blocks = 2>}}
    %f = tile.alloc_fragment : !tile.fragment<128x64xf32, #tile.wgmma<warpgroups = 2>>
    }
  }
}

//===----------------------------------------------------------------------===//
// #tile.mma
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{mma layout needs a 2-D tile whose rows split into 16-row and columns into 8-column tiles per warp, got 48x32 over warps_m = 2, warps_n = 2 (rows a multiple of 16 x warps_m, columns of 8 x warps_n)}}
func.func private @mma_rows(!tile.fragment<48x32xf32, #tile.mma<warps_m = 2, warps_n = 2>>)

// -----

// expected-error @+1 {{got 64x24 over warps_m = 1, warps_n = 2}}
func.func private @mma_columns(!tile.fragment<64x24xf32, #tile.mma<warps_m = 1, warps_n = 2>>)

// -----

// expected-error @+1 {{got 64x8x8 over warps_m = 1, warps_n = 1}}
func.func private @mma_rank(!tile.fragment<64x8x8xf32, #tile.mma<warps_m = 1, warps_n = 1>>)

// -----

// expected-error @+1 {{got 64x32 over warps_m = 0, warps_n = 2}}
func.func private @mma_no_warps(!tile.fragment<64x32xf32, #tile.mma<warps_m = 0, warps_n = 2>>)

// -----

tile.kernel @mma_threads() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 64 threads in a kernel of 128; write warps_m x warps_n = 4}}
  %f = tile.alloc_fragment : !tile.fragment<64x32xf32, #tile.mma<warps_m = 1, warps_n = 2>>
}

// -----

tile.kernel @mma_threads_not_32() threads(48) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 32 threads in a kernel of 48; mma layouts need a multiple of 32 threads}}
  %f = tile.alloc_fragment : !tile.fragment<16x8xf32, #tile.mma<warps_m = 1, warps_n = 1>>
}

//===----------------------------------------------------------------------===//
// Not a layout
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{fragment layout must be a tile layout attribute, got #gpu.address_space<workgroup>}}
func.func private @not_a_layout(!tile.fragment<256xf32, #gpu.address_space<workgroup>>)
