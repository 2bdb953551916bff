// convert-tile-ops-to-gpu converts each kernel on its own, so it cannot
// declare NVSHMEM functions in the gpu.module: world-level ops must be
// lowered before it, by convert-tile-nvshmem-to-gpu.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --convert-tile-kernel-to-gpu --convert-tile-ops-to-gpu --verify-diagnostics -o /dev/null

tile.kernel @world_left() threads(128) {
  // expected-error @below {{'tile.quiet' op at level world must be lowered first, by convert-tile-nvshmem-to-gpu on the gpu.module (its lowering declares NVSHMEM functions there)}}
  tile.quiet level world
}
