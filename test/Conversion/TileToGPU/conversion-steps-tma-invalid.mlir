// A TMA copy lowered without tile-assign-tma-parameters has no tensor map
// to go through: the copy pass refuses, naming the step to run first.
// RUN: tile-opt %s --convert-tile-copy-to-gpu --verify-diagnostics -o /dev/null

module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @no_tensor_map(%A: memref<?x?xbf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
      %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
      // expected-error @+2 {{'tile.copy' op has no tensor-map parameter: run tile-assign-tma-parameters on the outlined kernel first}}
      // expected-error @+1 {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
      tile.copy %A[%c0, %c0] to %s[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 128>>, !tile.barrier<1>
      gpu.return
    }
  }
}
