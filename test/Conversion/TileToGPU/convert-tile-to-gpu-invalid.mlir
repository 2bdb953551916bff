// What tile-select-instructions and convert-tile-to-gpu refuse, each with a
// located error (followed, in the conversion, by the driver's own "failed to
// legalize").
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_80 --tile-select-instructions --convert-tile-to-gpu --verify-diagnostics -o /dev/null

// A copy that completes on an mbarrier is a TMA copy: sm_80 has no TMA.
tile.kernel @barrier_on_sm80(%g: memref<?xf32>, %i: index) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<1024xf32, #gpu.address_space<workgroup>>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  // expected-error @below {{'tile.copy' op completing on a barrier (a TMA load) needs TMA, which sm_80 does not have}}
  tile.copy %g[%i] to %s[] barrier %bar[%c0] : memref<?xf32>, memref<1024xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
}

// -----

// Multi-stage pipelining is not lowered; asking for it must not silently
// give a plain loop.
tile.kernel @stages(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'tile.pipelined_for' op with stages > 1 is not lowered yet; use stages(1) for a plain loop}}
  // expected-error @below {{failed to legalize operation 'tile.pipelined_for' that was explicitly marked illegal}}
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
  }
}

// -----

// A view of global memory whose columns are not adjacent (a transposed
// matrix, or every other column).
tile.kernel @strided(%g: memref<?x?xf32, strided<[1, ?], offset: ?>>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x64xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.copy' op expects global memrefs whose innermost stride is 1; views with other strides are not lowered yet: pass the row-major matrix (memref<?x?xT>, or a subview of it) and give the copy the view's first element as offsets ([%row, %col]); for a transposed matrix, copy it as stored and transpose in the consumer (tile.gemm's transpose_a / transpose_b)}}
  // expected-error @below {{failed to legalize operation 'tile.copy' that was explicitly marked illegal}}
  tile.copy %g[%c0, %c0] to %s[] : memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<8x64xf32, #gpu.address_space<workgroup>>
}

// -----

// A fragment without a layout (tile-assign-layouts did not run).
tile.kernel @no_layout() threads(128) {
  // expected-error @below {{'tile.alloc_fragment' op fragment has no layout the lowering knows; run tile-assign-layouts first}}
  // expected-error @below {{failed to legalize operation 'tile.alloc_fragment' that was explicitly marked illegal}}
  %x = tile.alloc_fragment : !tile.fragment<1024xf32>
}

// -----

// Tensor memory: sm_80 has none.
tile.kernel @tmem() threads(128) {
  // expected-error @below {{'tile.alloc_tmem' op needs tensor memory, which sm_80 does not have}}
  %t = tile.alloc_tmem : !tile.tmem<128x64xf16>
  tile.dealloc_tmem %t : !tile.tmem<128x64xf16>
}

// -----

// Ordinary copies never read swizzled tiles.
tile.kernel @swizzled_plain_copy(%A: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  // expected-error @below {{'tile.copy' op accesses a 128-byte swizzled shared tile with ordinary loads and stores, which is not lowered (TMA, wgmma, tcgen05 and copies from fragments handle swizzled tiles)}}
  tile.copy %A[%c0, %c0] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 128>>
}

// -----

// Ordinary loads would ignore the swizzle the tile's type states.
tile.kernel @swizzled_load() threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  // expected-error @+2 {{failed to legalize operation 'memref.load' that was explicitly marked illegal}}
  // expected-error @+1 {{'memref.load' op accesses a 128-byte swizzled shared tile with ordinary loads and stores, which is not lowered (TMA, wgmma, tcgen05 and copies from fragments handle swizzled tiles)}}
  %v = memref.load %s[%c0, %c0] : memref<64x64xbf16, #tile.shared<swizzle = 128>>
}
