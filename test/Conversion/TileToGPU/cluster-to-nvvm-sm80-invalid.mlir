// sm_80 has no thread-block clusters.
// RUN: tile-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_80 --verify-diagnostics -o /dev/null

tile.kernel @no_clusters() threads(128) {
  // expected-error @below {{'tile.barrier_all' op at level cluster needs thread-block clusters (sm_90+); sm_80 has none}}
  // expected-error @below {{failed to legalize operation 'tile.barrier_all' that was explicitly marked illegal}}
  tile.barrier_all level cluster
}

// -----

tile.kernel @no_cluster_arrive() threads(128) {
  %c0 = arith.constant 0 : index
  %b = tile.alloc_barrier arrivals(4) : !tile.barrier<1>
  // expected-error @below {{'tile.mbarrier.arrive' op with `cluster` needs thread-block clusters (sm_90+); sm_80 has none}}
  // expected-error @below {{failed to legalize operation 'tile.mbarrier.arrive' that was explicitly marked illegal}}
  tile.mbarrier.arrive %b[%c0] cluster : !tile.barrier<1>
}
