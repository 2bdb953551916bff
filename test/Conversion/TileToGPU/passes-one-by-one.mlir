// The tile-to-GPU passes run one at a time compose (their unrealized casts
// meet and fold): nothing of tile is left but the module's tile.target, and
// the copies are the same 16-byte accesses the all-in-one pass makes
// (@f ld/st.global.v4.b32 in predicated inline PTX, the fragment in one
// memref.alloca), with the mbarrier created, initialised by thread 0 and
// arrived on through nvgpu.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --tile-assign-layouts --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --tile-assign-tma-parameters --convert-tile-copy-to-gpu --convert-tile-elementwise-to-gpu --convert-tile-mbarrier-to-gpu --reconcile-unrealized-casts

tile.kernel @scale(%a: memref<?xf32>, %f: f32) threads(128) {
  %c0 = arith.constant 0 : index
  %bx = gpu.block_id x
  %c512 = arith.constant 512 : index
  %base = arith.muli %bx, %c512 : index
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.elementwise ins(%x : !tile.fragment<512xf32>) outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %f : f32
    tile.yield %s : f32
  }
  tile.mbarrier.arrive %bar[%c0] : !tile.barrier<1>
  tile.copy %x[] to %a[%base] : !tile.fragment<512xf32>, memref<?xf32>
}
