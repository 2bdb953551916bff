// Copies that complete on a barrier become TMA loads (sm_90+): the kernel
// gains one !llvm.ptr tensor-map parameter per distinct (argument, box,
// swizzle), listed in its `tile.tma` attribute for the runtime; thread 0
// raises the barrier's expected bytes and issues nvgpu.tma.async.load with
// the offsets innermost first.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu

// One bf16 tile with a 128-byte swizzle; the full lowering is small enough
// to read whole.
tile.kernel @tma(%A: memref<?x?xbf16>, %m: index, %k: index) threads(128) {
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.copy %A[%m, %k] to %As[] barrier %full[%c1] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.barrier<2>
  tile.mbarrier.wait %full[%c1], %false : !tile.barrier<2>
}
