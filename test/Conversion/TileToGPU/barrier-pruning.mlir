// After the tile-to-GPU conversion a CTA barrier is dropped when only
// side-effect-free ops separate it from the previous one (with its
// async-proxy fence when that one was fenced the same way); barriers with
// memory accesses between them stay.
// - write_then_store: the fragment -> shared copy ends with fence + barrier
//   and the TMA store starts with the same pair: one pair is left.
// - read_then_write: the shared -> fragment copy reads the tile, then the
//   fragment -> shared copy must wait for every reader before it writes:
//   its opening barrier stays between the loads and the stores.
// convert-tile-to-gpu alone (the pruning is its step after the conversion);
// the inputs carry the module's tile.target and the copies' mechanisms, as
// tile-attach-target and tile-select-instructions write them.
// RUN: tile-opt %s --split-input-file --convert-tile-to-gpu

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @write_then_store(%C: memref<?x?xf32>) threads(128) {
    %c0 = arith.constant 0 : index
    %x = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
    %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %x[] to %s[] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>, memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %C[%c0, %c0] {mechanism = #tile.copy_mechanism<tma_store>, tma} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @read_then_write() threads(128) {
    %x = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
    %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] {mechanism = #tile.copy_mechanism<vector>} : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
    tile.copy %x[] to %s[] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}
