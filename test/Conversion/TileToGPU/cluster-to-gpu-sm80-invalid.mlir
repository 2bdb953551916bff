// sm_80 has no thread-block clusters.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_80 --tile-select-instructions --convert-tile-to-gpu --verify-diagnostics -o /dev/null

tile.kernel @no_clusters() threads(128) {
  // expected-error @below {{'tile.barrier_all' op level cluster needs thread-block clusters, which sm_80 does not have}}
  tile.barrier_all level cluster
}

// -----

tile.kernel @no_cluster_arrive() threads(128) {
  %c0 = arith.constant 0 : index
  %b = tile.alloc_barrier arrivals(4) : !tile.barrier<1>
  // expected-error @below {{'tile.mbarrier.arrive' op arriving on the cluster's barriers needs thread-block clusters, which sm_80 does not have}}
  tile.mbarrier.arrive %b[%c0] cluster : !tile.barrier<1>
}
