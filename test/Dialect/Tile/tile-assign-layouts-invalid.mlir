// tile-assign-layouts' blocked-layout errors (the inputs carry the module's
// tile.target, as tile-attach-target writes it).
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --verify-diagnostics -o /dev/null

// The blocked layout would give each thread 512 registers: refused before
// the layout is written.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @registers() threads(128) {
    // expected-error @below {{'tile.alloc_fragment' op needs 512 32-bit registers per thread for '!tile.fragment<256x256xf32, #tile.blocked<threads = 128, vector = 4>>', more than the 255 a thread has; use more threads, a smaller tile, or keep it in shared memory (tile.alloc_shared)}}
    %x = tile.alloc_fragment : !tile.fragment<256x256xf32>
  }
}
