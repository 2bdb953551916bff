// What assignSharedOffsets refuses (convert-tile-memory-to-gpu), and what
// liveness lets fit.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_90a --convert-tile-kernel-to-gpu --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --verify-diagnostics -o /dev/null

// Two 128 KiB tiles used one after the other share their bytes: 129 KiB in
// all, within sm_90a's 227 KiB (the bump allocator needed 257 KiB).
tile.kernel @fits(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<32768xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<32768xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0] to %a[] : memref<?xf32>, memref<32768xf32, #gpu.address_space<workgroup>>
  tile.copy %a[] to %g[%c0] : memref<32768xf32, #gpu.address_space<workgroup>>, memref<?xf32>
  tile.copy %g[%c0] to %b[] : memref<?xf32>, memref<32768xf32, #gpu.address_space<workgroup>>
  tile.copy %b[] to %g[%c0] : memref<32768xf32, #gpu.address_space<workgroup>>, memref<?xf32>
}

// -----

// The same tiles live together do not fit.
// expected-error @below {{'gpu.func' op @overlap needs 263168 bytes of shared memory (its tiles and 1 KiB to align them); sm_90a allows 232448 per CTA: use smaller tiles or fewer pipeline stages (what is live at the most is noted)}}
tile.kernel @overlap(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{131072 bytes: this shared tile}}
  %a = tile.alloc_shared : memref<32768xf32, #gpu.address_space<workgroup>>
  // expected-note @below {{131072 bytes: this shared tile}}
  %b = tile.alloc_shared : memref<32768xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0] to %a[] : memref<?xf32>, memref<32768xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0] to %b[] : memref<?xf32>, memref<32768xf32, #gpu.address_space<workgroup>>
  tile.copy %a[] to %g[%c0] : memref<32768xf32, #gpu.address_space<workgroup>>, memref<?xf32>
  tile.copy %b[] to %g[%c0] : memref<32768xf32, #gpu.address_space<workgroup>>, memref<?xf32>
}

// -----

// Scratch counts too: 128 KiB of tile and 100 KiB of scratch live at once.
// expected-error @below {{'gpu.func' op @scratch_too_big needs 234496 bytes of shared memory}}
tile.kernel @scratch_too_big(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{131072 bytes: this shared tile}}
  %a = tile.alloc_shared : memref<32768xf32, #gpu.address_space<workgroup>>
  // expected-note @below {{102400 bytes: scratch for this op's lowering}}
  tile.copy %g[%c0] to %a[] {tile.test_scratch_bytes = 102400 : i64} : memref<?xf32>, memref<32768xf32, #gpu.address_space<workgroup>>
}

// -----

// A reduction's scratch is what does not fit: the notes name it and the
// tile live beside it, not just the kernel.
// expected-error @below {{'gpu.func' op @reduce_scratch needs 357376 bytes of shared memory}}
tile.kernel @reduce_scratch(%x: memref<?x?xf32>, %y: memref<?x?xf32>) threads(1024) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{225280 bytes: this shared tile}}
  %s = tile.alloc_shared : memref<220x256xf32, #gpu.address_space<workgroup>>
  tile.copy %x[%c0, %c0] to %s[] : memref<?x?xf32>, memref<220x256xf32, #gpu.address_space<workgroup>>
  %f = tile.alloc_fragment : !tile.fragment<32x1024xf32, #tile.blocked<threads = 1024, vector = 4>>
  tile.copy %x[%c0, %c0] to %f[] : memref<?x?xf32>, !tile.fragment<32x1024xf32, #tile.blocked<threads = 1024, vector = 4>>
  %r = tile.alloc_fragment : !tile.fragment<1x1024xf32, #tile.slice<dim = 0, extent = 32, parent = #tile.blocked<threads = 1024, vector = 4>>>
  // expected-note @below {{131072 bytes: scratch for this op's lowering (each warp's partial results; a reduction whose rows lie within one warp needs none)}}
  tile.reduce sum %f into %r dim 0 : !tile.fragment<32x1024xf32, #tile.blocked<threads = 1024, vector = 4>>, !tile.fragment<1x1024xf32, #tile.slice<dim = 0, extent = 32, parent = #tile.blocked<threads = 1024, vector = 4>>>
  tile.copy %s[] to %y[%c0, %c0] : memref<220x256xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

tile.kernel @bad_scratch() threads(128) {
  // expected-error @below {{'gpu.barrier' op has tile.test_scratch_bytes that is not a positive integer}}
  gpu.barrier {tile.test_scratch_bytes = 0 : i64}
}
