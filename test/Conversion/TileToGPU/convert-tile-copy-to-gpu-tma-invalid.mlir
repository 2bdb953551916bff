// TMA copies convert-tile-copy-to-gpu refuses when it gives the kernel its
// tensor-map parameters. The pass alone: the inputs are outlined (what
// convert-tile-kernel-to-gpu writes) and carry the module's tile.target and
// the copies' tma_load mechanism (tile-select-instructions); shared tiles
// and barriers are still tile ops.
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu --verify-diagnostics -o /dev/null

// TMA reads through a tensor map of a kernel argument; a view of one has none.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @view(%A: memref<?x?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = memref.subview %A[0, 0] [%n, %n] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
      %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
      // expected-error @below {{'tile.copy' op goes through TMA, which needs the global side to be a kernel argument}}
      tile.copy %v[%c0, %c0] to %s[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xf32, strided<[?, 1]>>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
      gpu.return
    }
  }
}

// -----

// A box dimension over 256 elements.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @big_box(%A: memref<?xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
      %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
      // expected-error @below {{'tile.copy' op TMA boxes are at most 256 elements per dimension, got 'memref<512xf32, #gpu.address_space<workgroup>>'}}
      tile.copy %A[%c0] to %s[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?xf32>, memref<512xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
      gpu.return
    }
  }
}

// -----

// No TMA element type for f64.
module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  gpu.module @tile_kernels {
    gpu.func @f64(%A: memref<?xf64>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %s = tile.alloc_shared : memref<64xf64, #gpu.address_space<workgroup>>
      %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
      // expected-error @below {{'tile.copy' op has no TMA element type for 'f64'}}
      tile.copy %A[%c0] to %s[] barrier %full[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?xf64>, memref<64xf64, #gpu.address_space<workgroup>>, !tile.barrier<1>
      gpu.return
    }
  }
}
