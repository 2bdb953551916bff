// tile.warp_specialize teams(2), lowered: the consumers (threads 128 ..
// 383) are two teams of 128. Each thread's team is (tid - 128) / 128 (the
// region's argument: here it picks the barrier to arrive on) and its
// thread id within the team (tid - 128) mod 128 (the copy's distribution
// reads it); a team's CTA barrier becomes named barrier 1 + team for its
// 128 threads (the producer has none, so the teams get ids 1 and 2). (Both teams write the same shared tile here: the test is
// about the renumbering; the pipeliner refuses such sharing.)
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --canonicalize --cse

tile.kernel @teams(%C: memref<?x?xf32>) threads(384) {
  %c0 = arith.constant 0 : index
  %turn = tile.alloc_barrier arrivals(128) : !tile.barrier<2>
  %zero = arith.constant 0.0 : f32
  tile.warp_specialize {
    role "producer" warps(1) {
    }
    role "consumers" warpgroups(2) teams(2) as %team {
      %x = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
      tile.fill %x, %zero : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>, f32
      %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      tile.copy %x[] to %s[] : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>, memref<8x32xf32, #gpu.address_space<workgroup>>
      tile.mbarrier.arrive %turn[%team] : !tile.barrier<2>
    }
  }
}
