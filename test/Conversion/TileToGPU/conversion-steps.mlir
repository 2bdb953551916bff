// Each step of convert-tile-to-gpu alone, on one outlined kernel with a
// tensor-memory tile, a swizzled shared tile read by TMA and a barrier ring
// (sm_100a): what each adds, in the pipeline's order.
// RUN: tile-opt %s --tile-allocate-tensor-memory | grep -oE 'tcgen05\.(alloc|dealloc|relinquish_alloc_permit)|tile\.alloc_(tmem|shared)[^:]*: [^ ]*' | sort | uniq -c
// RUN: tile-opt %s --tile-allocate-tensor-memory --tile-assign-shared-offsets | grep -oE 'tile\.shared_offset = [0-9]+|tile\.dynamic_shared_bytes = [0-9]+'
// RUN: tile-opt %s --tile-assign-tma-parameters | grep -oE 'tile\.tma = .*\]|tile\.tma_param = [0-9]+|%arg[0-9]+: !llvm\.ptr'
// RUN: tile-opt %s --convert-tile-to-gpu | grep -oE 'tile\.[a-z_]+ |tcgen05\.alloc|nvgpu\.tma\.async\.load' | sort | uniq -c
// The pipeline is those steps and the patterns in a row, nothing more:
// RUN: tile-opt %s --convert-tile-to-gpu -o %t.pipeline && tile-opt %s --tile-allocate-tensor-memory --tile-assign-shared-offsets --tile-assign-tma-parameters --convert-tile-nvshmem-to-gpu --convert-tile-ops-to-gpu --tile-erase-redundant-barriers --convert-tile-warp-specialize-to-gpu -o %t.steps && diff %t.pipeline %t.steps && echo same

module attributes {gpu.container_module, tile.target = #tile.target<"sm_100a">} {
  gpu.module @tile_kernels [#nvvm.target<chip = "sm_100a">] {
    gpu.func @steps(%A: memref<?x?xbf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %phase = arith.constant false
      %t = tile.alloc_tmem : !tile.tmem<128x64xf32>
      %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
      %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
      tile.copy %A[%c0, %c0] to %s[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.barrier<1>
      tile.mbarrier.wait %full[%c0], %phase : !tile.barrier<1>
      tile.dealloc_tmem %t : !tile.tmem<128x64xf32>
      gpu.return
    }
  }
}
