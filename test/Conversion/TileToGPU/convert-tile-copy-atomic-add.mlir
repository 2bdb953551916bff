// tile.copy {atomic_add}: a fragment's runs added into global memory with
// `red.global.add`, predicated per run as stores are: on sm_90a whole
// aligned runs of two f32 as one `.v2` reduction and the elements of a
// partial or unaligned run one by one; before sm_90 (no vector reductions)
// every element alone.
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @add_wgmma_tile(%C: memref<?x?xf32>, %m: index, %n: index) threads(128) {
    %acc = tile.alloc_fragment : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>
    tile.copy %acc[] to %C[%m, %n] {atomic_add, mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<64x8xf32, #tile.wgmma<warpgroups = 1>>, memref<?x?xf32>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @add_blocked_sm80(%C: memref<?x?xf32>, %m: index, %n: index) threads(32) {
    %acc = tile.alloc_fragment : !tile.fragment<4x64xf32, #tile.blocked<threads = 32, vector = 2>>
    tile.copy %acc[] to %C[%m, %n] {atomic_add, mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<4x64xf32, #tile.blocked<threads = 32, vector = 2>>, memref<?x?xf32>
  }
}
