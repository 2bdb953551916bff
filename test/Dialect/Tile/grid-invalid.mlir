// tile.grid and tile.num_sms used wrongly: located errors that say what a
// grid may be computed from.
// RUN: tile-opt %s --split-input-file --tile-record-grid --verify-diagnostics -o /dev/null

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  // expected-note @+1 {{computed here}}
  %bx = gpu.block_id x
  // expected-error @+1 {{'tile.grid' op size #0 depends on 'gpu.block_id', which the host cannot evaluate at launch; a grid is computed from the kernel's integer arguments, memref.dim of its memref arguments, constants, parameters, tile.num_sms, integer arithmetic (arith add, sub, mul, div, ceildiv, rem, min, max, casts) and arith.select by parameters}}
  tile.grid %bx
}

// -----

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  %c1 = arith.constant 1 : index
  tile.grid %c1
  // expected-error @+1 {{'tile.grid' op is the kernel's second tile.grid; state the grid once}}
  tile.grid %c1
}

// -----

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.grid' op expects 1 to 3 sizes (x, y, z), got 4}}
  tile.grid %c1, %c1, %c1, %c1
}

// -----

tile.kernel @k(%a: memref<?xf32>, %x: f32) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant true
  scf.if %t {
    // expected-error @+1 {{'tile.grid' op expects parent op 'tile.kernel'}}
    tile.grid %c1
  }
}

// -----

tile.kernel @k(%a: memref<?xf32>, %i: index) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{computed here}}
  %d = memref.dim %a, %i : memref<?xf32>
  // expected-error @+1 {{'tile.grid' op size #0 reads a size that is not a constant dimension of a memref argument of the kernel}}
  tile.grid %d
}

// -----

// The device does not know the SM count.
tile.kernel @k(%a: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.num_sms' op is known only on the host: use it in the operands of the kernel's tile.grid, not in the kernel's own code}}
  %sms = tile.num_sms : index
  %x = tile.alloc_fragment [%sms] : !tile.fragment<?xf32>
  %zero = arith.constant 0.0 : f32
  tile.fill %x, %zero : !tile.fragment<?xf32>, f32
}

// -----

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  // expected-note @+1 {{computed here}}
  %big = arith.constant 36893488147419103232 : i128
  %n = arith.index_cast %big : i128 to index
  // expected-error @+1 {{'tile.grid' op size #0 takes a constant beyond 63 bits}}
  tile.grid %n
}

// -----

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  // expected-note @+1 {{computed here}}
  %c = arith.constant -4 : index
  // expected-error @+1 {{'tile.grid' op size #0 takes a negative constant (grid expressions are non-negative)}}
  tile.grid %c
}

// -----

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %v = memref.subview %a[%c0] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
  // expected-error @+1 {{'tile.zero_before_launch' op zeroes a memref argument of the kernel (the launcher's view of it); this value is not one: name the argument itself, and zero a part of it in the kernel instead}}
  tile.zero_before_launch %v : memref<4xf32, strided<[1], offset: ?>>
}

// -----

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  tile.zero_before_launch %a : memref<?xf32>
  // expected-error @+1 {{'tile.zero_before_launch' op names argument #0 a second time; zero each argument once}}
  tile.zero_before_launch %a : memref<?xf32>
}

// -----

tile.kernel @k(%a: memref<?xf32>) threads(128) {
  %t = arith.constant true
  scf.if %t {
    // expected-error @+1 {{'tile.zero_before_launch' op expects parent op 'tile.kernel'}}
    tile.zero_before_launch %a : memref<?xf32>
  }
}

// -----

tile.kernel @k(%a: memref<?xf32>, %n: index) threads(128) {
  %c1 = arith.constant 1 : index
  %big = arith.cmpi ugt, %n, %c1 : index
  // expected-error @+1 {{'tile.zero_before_launch' op has a condition that is not known after tile-specialize: compute it from the family's parameters and constants only}}
  tile.zero_before_launch %a if %big : memref<?xf32>
}

// -----

// A select by a run-time condition: the host's grid expressions have no
// select (only a family's choice by parameters, which tile-specialize
// folds, may choose a grid).
tile.kernel @k(%a: memref<?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = memref.dim %a, %c0 : memref<?xf32>
  %big = arith.cmpi ugt, %n, %c1 : index
  // expected-note @+1 {{computed here}}
  %g = arith.select %big, %n, %d : index
  // expected-error @+1 {{'tile.grid' op size #0 chooses by an arith.select whose condition the host cannot evaluate at launch (only one computed from parameters and constants, which tile-specialize folds); a grid is computed from}}
  tile.grid %g
}
