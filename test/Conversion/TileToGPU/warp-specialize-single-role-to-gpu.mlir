// A split with one role keeps its ops where the split was (between the ops
// before and after it) in a block of their own, and renumbers only them:
// the thread ids read before and after the split stay the CTA's.
// RUN: tile-opt %s --convert-tile-kernel-to-gpu --convert-tile-warp-specialize-to-gpu

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @single(%out: memref<?xindex>) threads(128) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %before = gpu.thread_id x
    memref.store %before, %out[%c0] : memref<?xindex>
    tile.warp_specialize {
      role "all" warps(4) registers(128) {
        %inside = gpu.thread_id x
        memref.store %inside, %out[%c1] : memref<?xindex>
        gpu.barrier
      }
    }
    %after = gpu.thread_id x
    memref.store %after, %out[%c2] : memref<?xindex>
  }
}
