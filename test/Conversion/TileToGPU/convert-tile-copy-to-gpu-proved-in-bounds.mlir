// convert-tile-copy-to-gpu, mechanism vector: a copy whose box upstream's
// value-bounds analysis proves inside its memref takes no run-time bounds
// test (only its runs' alignment decides between the vector accesses and
// the guarded runs); one it cannot prove keeps the test. The inputs carry
// what tile-select-instructions and tile-assign-layouts would write.
// RUN: tile-opt %s --split-input-file --tile-assign-tma-parameters --convert-tile-copy-to-gpu

// Whole chunks of 512 columns: chunk %i < %n / 512 lies in a row of %n,
// which the analysis sees through arith.divui and the loop's bounds. The
// outer scf.if of the load and of the store (back into the same row) tests
// the runs' alignment alone: no comparison with the row's length.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @whole_chunks(%g: memref<?xf32>) threads(128) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %n = memref.dim %g, %c0 : memref<?xf32>
    %whole = arith.divui %n, %c512 : index
    %x = tile.alloc_fragment : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
    scf.for %i = %c0 to %whole step %c1 {
      %c = arith.muli %i, %c512 : index
      tile.copy %g[%c] to %x[] {mechanism = #tile.copy_mechanism<vector>} : memref<?xf32>, !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
      tile.copy %x[] to %g[%c] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>, memref<?xf32>
    }
  }
}

// -----

// Not provable: the chunk one column on (the last reaches past the row),
// and a store into %h, whose length need not be %g's. Both keep the bounds
// test and the paths for runs at the edge.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @not_proved(%g: memref<?xf32>, %h: memref<?xf32>) threads(128) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %n = memref.dim %g, %c0 : memref<?xf32>
    %whole = arith.divui %n, %c512 : index
    %x = tile.alloc_fragment : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
    scf.for %i = %c0 to %whole step %c1 {
      %c = arith.muli %i, %c512 : index
      %c_1 = arith.addi %c, %c1 : index
      tile.copy %g[%c_1] to %x[] {mechanism = #tile.copy_mechanism<vector>} : memref<?xf32>, !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>
      tile.copy %x[] to %h[%c] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<512xf32, #tile.blocked<threads = 128, vector = 4>>, memref<?xf32>
    }
  }
}
