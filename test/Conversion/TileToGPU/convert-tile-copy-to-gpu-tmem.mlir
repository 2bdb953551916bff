// convert-tile-copy-to-gpu alone, mechanisms tmem_load and tmem_store
// (sm_100a), on fragments with the #tile.tmem_32x32b layout that
// tile-assign-layouts gives.
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu

// Two warpgroups read a 128 x 256 f32 accumulator: each thread's address is
// the tile's plus lane 32 (warp mod 4) in bits 16.. and its warpgroup's
// first column (128 g); two tcgen05.ld 32x32b.x64 cover its 128 columns,
// then one wait::ld, then the words land in the fragment's slots 0 and 64.
// Fences: after the thread synchronisation that made the data ready, and
// before the one that hands tensor memory on.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @load() threads(256) {
    %t = tile.alloc_tmem : !tile.tmem<128x256xf32>
    %f = tile.alloc_fragment : !tile.fragment<128x256xf32, #tile.tmem_32x32b<warpgroups = 2>>
    tile.copy %t[] to %f[] {mechanism = #tile.copy_mechanism<tmem_load>} : !tile.tmem<128x256xf32>, !tile.fragment<128x256xf32, #tile.tmem_32x32b<warpgroups = 2>>
  }
}

// -----

// One warpgroup writes 48 columns back: chunks of 16 (the most, up to 64,
// that divide 48), three tcgen05.st, one wait::st.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @store() threads(128) {
    %t = tile.alloc_tmem : !tile.tmem<128x48xi32>
    %f = tile.alloc_fragment : !tile.fragment<128x48xi32, #tile.tmem_32x32b<warpgroups = 1>>
    tile.copy %f[] to %t[] {mechanism = #tile.copy_mechanism<tmem_store>} : !tile.fragment<128x48xi32, #tile.tmem_32x32b<warpgroups = 1>>, !tile.tmem<128x48xi32>
  }
}
