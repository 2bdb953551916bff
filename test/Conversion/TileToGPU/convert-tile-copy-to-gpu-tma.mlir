// convert-tile-copy-to-gpu alone, mechanisms tma_load and tma_store (sm_90a).
// The input is already outlined (what convert-tile-kernel-to-gpu writes):
// tile-assign-tma-parameters gives each gpu.func its tensor-map parameters,
// which it can only do for kernels that are gpu.funcs. The mechanisms and swizzles are what
// tile-select-instructions and tile-assign-layouts would write; shared tiles
// and barriers are still tile ops (convert-tile-memory-to-gpu allocates them).
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu

// A copy that completes on a barrier: the kernel gains one !llvm.ptr
// tensor-map parameter, listed in its tile.tma attribute for the runtime
// (argument 0, a 64 x 64 box, the tile's 128-byte swizzle); thread 0 raises
// the barrier's expected bytes (8192) and issues nvgpu.tma.async.load with the
// offsets innermost first.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @tma_load(%A: memref<?x?xbf16>, %m: index, %k: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c1 = arith.constant 1 : index
      %As = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
      %full = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
      tile.copy %A[%m, %k] to %As[] barrier %full[%c1] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.barrier<2>
      gpu.return
    }
  }
}

// -----

// Tensor maps are shared between copies of one argument with one box and
// swizzle: four copies here need three maps (A with an 8x32 box, A with a
// 16x32 box, B with an 8x32 box); unswizzled tiles use SWIZZLE_NONE.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @shared_maps(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %i: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s0 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      %s1 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      %s2 = tile.alloc_shared : memref<16x32xf32, #gpu.address_space<workgroup>>
      %s3 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      %full = tile.alloc_barrier arrivals(4) : !tile.barrier<1>
      tile.copy %A[%i, %c0] to %s0[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
      tile.copy %A[%c0, %i] to %s1[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
      tile.copy %A[%c0, %c0] to %s2[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xf32>, memref<16x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
      tile.copy %B[%c0, %c0] to %s3[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
      gpu.return
    }
  }
}

// -----

// A shared -> global copy marked {tma}: every thread fences the async proxy
// and syncs, thread 0 issues the bulk tensor store (one per 128-byte column
// block of the swizzled tile: two 64 x 64 boxes), commits and waits for it,
// then the CTA syncs. The kernel gets a tensor-map parameter for the
// destination.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @tma_store(%dst: memref<?x?xbf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s = tile.alloc_shared : memref<64x128xbf16, #tile.shared<swizzle = 128>>
      tile.copy %s[] to %dst[%c0, %c0] {mechanism = #tile.copy_mechanism<tma_store>, tma} : memref<64x128xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
      gpu.return
    }
  }
}

// -----

// {atomic_add} by TMA: the same fence and tensor map as a store, but thread 0
// issues nvvm.cp.async.bulk.tensor.reduce <add> from the tile's shared
// address, one per 32-column (128-byte) block with the block's column
// offset, in one bulk group that the copy (not {async}) waits for; with
// {async} the group is committed and not waited for (tile.wait_tma_stores
// does that).
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @tma_reduce_add(%C: memref<?x?xf32>, %m: index, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %s = tile.alloc_shared : memref<64x64xf32, #tile.shared<swizzle = 128>>
      tile.copy %s[] to %C[%m, %n] {mechanism = #tile.copy_mechanism<tma_store>, tma, atomic_add} : memref<64x64xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
      tile.copy %s[] to %C[%m, %n] {mechanism = #tile.copy_mechanism<tma_store>, tma, async, atomic_add} : memref<64x64xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
      gpu.return
    }
  }
}
