// TMA copies the lowering refuses.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu --verify-diagnostics -o /dev/null

// TMA reads through a tensor map of a kernel argument; a view of one has none.
tile.kernel @view(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %v = memref.subview %A[0, 0] [%n, %n] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  // expected-error @below {{'tile.copy' op goes through TMA, which needs the global side to be a kernel argument}}
  tile.copy %v[%c0, %c0] to %s[] barrier %full[%c0] : memref<?x?xf32, strided<[?, 1]>>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
}

// -----

// A box dimension over 256 elements.
tile.kernel @big_box(%A: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  // expected-error @below {{'tile.copy' op TMA boxes are at most 256 elements per dimension, got 'memref<512xf32, #gpu.address_space<workgroup>>'}}
  tile.copy %A[%c0] to %s[] barrier %full[%c0] : memref<?xf32>, memref<512xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
}

// -----

// No TMA element type for f64.
tile.kernel @f64(%A: memref<?xf64>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64xf64, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  // expected-error @below {{'tile.copy' op has no TMA element type for 'f64'}}
  tile.copy %A[%c0] to %s[] barrier %full[%c0] : memref<?xf64>, memref<64xf64, #gpu.address_space<workgroup>>, !tile.barrier<1>
}
