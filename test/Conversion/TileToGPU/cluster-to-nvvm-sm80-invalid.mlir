// sm_80 has no thread-block clusters.
// RUN: tile-opt %s --convert-tile-to-gpu=chip=sm_80 --verify-diagnostics -o /dev/null

tile.kernel @no_clusters() threads(128) {
  // expected-error @below {{'tile.barrier_all' op at level cluster needs thread-block clusters (sm_90+); sm_80 has none}}
  // expected-error @below {{failed to legalize operation 'tile.barrier_all' that was explicitly marked illegal}}
  tile.barrier_all level cluster
}
