// What the distributed ops refuse, each with a located error saying what to
// write: world-level buffers that are not symmetric, scopes the lowering
// does not move tiles with, the symmetric marker in the wrong place.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

tile.kernel @not_symmetric(%X: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 1 : i32
  %t = tile.alloc_shared : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.put' op expects the destination to be a symmetric buffer at level 'world' (the same buffer on every rank): a kernel argument marked {tile.symmetric}, allocated with the runtime's symmetric allocator}}
  tile.put %t to %X[%c0] peer %p scope block level world : memref<64xf32, #gpu.address_space<workgroup>>, memref<?xf32>
}

// -----

tile.kernel @signal_not_symmetric(%X: memref<?xf32> {tile.symmetric}, %f: memref<?xi64>) threads(128) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 1 : i32
  %v = arith.constant 1 : i64
  %t = tile.alloc_shared : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.put' op expects the signal to be a symmetric buffer at level 'world'}}
  tile.put %t to %X[%c0] peer %p scope block level world signal %f[%c0] set %v : memref<64xf32, #gpu.address_space<workgroup>>, memref<?xf32>, memref<?xi64>
}

// -----

tile.kernel @get_not_symmetric(%X: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 1 : i32
  %t = tile.alloc_shared : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.get' op expects the source to be a symmetric buffer at level 'world'}}
  tile.get %X[%c0] peer %p scope block level world to %t : memref<?xf32>, memref<64xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @wait_not_symmetric(%f: memref<?xi64>) threads(128) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i64
  // expected-error @below {{'tile.wait' op expects the signal to be a symmetric buffer at level 'world' (the same buffer on every rank): a kernel argument marked {tile.symmetric}, allocated with the runtime's symmetric allocator}}
  tile.wait %f[%c0] ge %v level world : memref<?xi64>
}

// -----

tile.kernel @thread_scope(%X: memref<?xf32> {tile.symmetric}) threads(128) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 1 : i32
  %t = tile.alloc_shared : memref<64xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.put' op moves a tile at scope 'block' or 'warp', not 'thread'}}
  tile.put %t to %X[%c0] peer %p scope thread level world : memref<64xf32, #gpu.address_space<workgroup>>, memref<?xf32>
}

// -----

// expected-error @below {{expects 'tile.symmetric' on a global memref argument (a symmetric buffer), got argument 0 of type 'index'}}
tile.kernel @symmetric_index(%i: index {tile.symmetric}) threads(128) {
}

// -----

// A put into a peer's shared tile must fit it: a tile larger than the
// destination, or a constant offset past its end, would write past the
// peer's tile (nothing guards those stores).
tile.kernel @put_too_large() threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 1 : i32
  %t = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %r = tile.alloc_shared : memref<32x64xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.put' op moves a tile of 64 along dim 0 at offset 0 of a remote buffer of 32, past its end; use a tile of at most 32 there and an offset of at most 0}}
  tile.put %t to %r[%c0, %c0] peer %p scope block level cluster : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<32x64xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @get_past_end() threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c200 = arith.constant 200 : index
  %p = arith.constant 1 : i32
  %t = tile.alloc_shared : memref<64xf32, #gpu.address_space<workgroup>>
  %r = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.get' op moves a tile of 64 along dim 0 at offset 200 of a remote buffer of 256, past its end; use a tile of at most 256 there and an offset of at most 192}}
  tile.get %r[%c200] peer %p scope block level cluster to %t : memref<256xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>
}

// -----

// A result cannot be symmetric: the host allocates symmetric buffers.
// expected-error @below {{expects 'tile.symmetric' on a tile.kernel argument, not on result 0: mark the global memref argument the host allocated with the symmetric allocator}}
func.func private @symmetric_result() -> (memref<?xf32> {tile.symmetric})

// -----

// expected-error @below {{unknown tile result attribute 'tile.shared'}}
func.func private @tile_result_attr() -> (memref<?xf32> {tile.shared})

// -----

tile.kernel @symmetric_on_op() threads(128) {
  // expected-error @below {{expects 'tile.symmetric' on a kernel argument, not on an op}}
  %c0 = arith.constant {tile.symmetric} 0 : index
}

// -----

// A wait comparison must be one of eq, ne, gt, ge, lt, le.
tile.kernel @bad_comparison(%f: memref<?xi64> {tile.symmetric}) threads(128) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i64
  // expected-error @below {{expected ::mlir::tile::Cmp to be one of: eq, ne, gt, ge, lt, le}}
  // expected-error @below {{failed to parse Tile_CmpAttr parameter 'value' which is to be a `::mlir::tile::Cmp`}}
  tile.wait %f[%c0] gte %v level world : memref<?xi64>
}
