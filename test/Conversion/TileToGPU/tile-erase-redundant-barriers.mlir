// tile-erase-redundant-barriers alone, on lowered IR: a gpu.barrier that
// only side-effect-free ops separate from the previous one goes, and so do
// its async-proxy fences when that barrier has the same fence before it;
// a barrier after a memory access stays, and so does a fenced barrier after
// an unfenced one (the fence is new work).
// RUN: tile-opt %s --tile-erase-redundant-barriers

gpu.module @kernels {
  gpu.func @barriers(%p: memref<4xf32, #gpu.address_space<workgroup>>, %v: f32) kernel {
    %c0 = arith.constant 0 : index
    gpu.barrier
    // Only a constant between: dropped.
    %c1 = arith.constant 1 : index
    gpu.barrier
    memref.store %v, %p[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    // After a store: stays.
    gpu.barrier
    // Fenced after an unfenced barrier: stays.
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    // Fenced alike after a fenced barrier: dropped with its fence.
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    gpu.barrier
    memref.store %v, %p[%c1] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
