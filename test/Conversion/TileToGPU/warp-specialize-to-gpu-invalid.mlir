// The split rewrites the thread ids and barriers of lowered ops, so it must
// run after the ops in its regions are lowered: run first, it refuses.
// RUN: tile-opt %s --tile-attach-target --convert-tile-kernel-to-gpu --convert-tile-warp-specialize-to-gpu --verify-diagnostics -o /dev/null

tile.kernel @too_early(%A: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "producer" warps(1) {
      // expected-error @below {{'tile.copy' op must be lowered before the tile.warp_specialize around it (convert-tile-warp-specialize-to-gpu runs last)}}
      tile.copy %A[%c0, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
    role "consumers" warpgroups(1) {
    }
  }
}
