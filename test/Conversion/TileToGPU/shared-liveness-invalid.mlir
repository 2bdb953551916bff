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
// expected-error @below {{'gpu.func' op @overlap needs 263168 bytes of shared memory (its tiles and 1 KiB to align them); sm_90a allows 232448 per CTA: use fewer pipeline stages or smaller tiles}}
tile.kernel @overlap(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<32768xf32, #gpu.address_space<workgroup>>
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
  %a = tile.alloc_shared : memref<32768xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0] to %a[] {tile.test_scratch_bytes = 102400 : i64} : memref<?xf32>, memref<32768xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @bad_scratch() threads(128) {
  // expected-error @below {{'gpu.barrier' op has tile.test_scratch_bytes that is not a positive integer}}
  gpu.barrier {tile.test_scratch_bytes = 0 : i64}
}
