// The cluster forms of the barrier ops (convert-tile-to-gpu, then --cse):
// `tile.barrier_all level cluster` publishes the barriers' initialisation
// to the cluster (fence.mbarrier_init) and waits for every thread of every
// CTA (barrier.cluster arrive + wait); `tile.mbarrier.arrive ... cluster`
// syncs the warp, and its lane 0 arrives on the barrier of each CTA of the
// cluster (%cluster_nctarank of them) through `mapa`; a {multicast} TMA
// load expects the whole tile's bytes but loads only this CTA's half of the
// rows (rank x 64 rows in, at element rank x 4096 of the tile) with a
// multicast mask of 0b11, through a tensor map whose box is that half.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions --convert-tile-to-gpu --cse

tile.kernel @pair(%B: memref<?x?xbf16>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %empty = tile.alloc_barrier arrivals(8) : !tile.barrier<1>
  %Bs = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
  tile.copy %B[%c0, %c0] to %Bs[] barrier %full[%c0] {multicast}
      : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
  %false = arith.constant false
  tile.mbarrier.wait %full[%c0], %false : !tile.barrier<1>
  tile.mbarrier.arrive %empty[%c0] cluster : !tile.barrier<1>
  tile.barrier_all level cluster
}
