// Named barrier ids are allocated per role or team that synchronises:
// sixteen one-warp teams whose plain copies end with a CTA barrier would
// need sixteen, and the hardware has 15 besides the CTA's barrier 0.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --verify-diagnostics -o /dev/null

tile.kernel @too_many_barriers(%A: memref<?x?xf32>) threads(512) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.warp_specialize' op needs 16 named barriers (one per role or team with CTA barriers, one per warpgroup taking turns: 'many' x16) but the hardware has 15 besides the CTA's barrier 0; synchronise fewer roles or teams by CTA barriers (use mbarriers between them)}}
  tile.warp_specialize {
    role "many" warps(16) teams(16) as %t {
      tile.copy %A[%c0, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
  }
}
