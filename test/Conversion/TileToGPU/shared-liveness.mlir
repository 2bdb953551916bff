// Shared memory placed by liveness (assignSharedOffsets, run by
// convert-tile-memory-to-gpu): tiles whose lifetimes, counted in top-level
// ops of the kernel, do not overlap share bytes; where bytes change hands
// the CTA synchronises first (fence.proxy.async + gpu.barrier). In the
// output: each tile's offset (the constant added to the base realigned to
// 1024 bytes, before its memref.view), the syncs, and the kernel's
// tile.dynamic_shared_bytes.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_90a --convert-tile-kernel-to-gpu --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu

// Used one after the other: %b reuses %a's bytes (both at 0, 16 KiB + 1 KiB
// in all instead of 32 KiB + 1 KiB), after a sync before %b's first copy.
tile.kernel @sequence(%g: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0, %c0] to %a[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %a[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  tile.copy %g[%c0, %c0] to %b[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %b[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

// Overlapping lifetimes: no sharing (%b at 16384), no sync.
tile.kernel @overlap(%g: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0, %c0] to %a[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0, %c0] to %b[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %a[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  tile.copy %b[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

// A loop: %a and %b are used one after the other in its body, but the
// next iteration comes back to %a, so both are live over the whole loop
// (%a at 0, %b at 16384). %c, after the loop, reuses %a's bytes, and %d,
// used through a subview, %b's.
tile.kernel @loop(%g: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %c = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %d = tile.alloc_shared : memref<128x64xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %n step %c1 {
    tile.copy %g[%i, %c0] to %a[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %a[] to %g[%i, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    tile.copy %g[%i, %c0] to %b[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %b[] to %g[%i, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  }
  tile.copy %g[%c0, %c0] to %c[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  %top = memref.subview %d[0, 0] [64, 64] [1, 1] : memref<128x64xf32, #gpu.address_space<workgroup>> to memref<64x64xf32, strided<[64, 1]>, #gpu.address_space<workgroup>>
  tile.copy %top[] to %g[%c0, %c0] : memref<64x64xf32, strided<[64, 1]>, #gpu.address_space<workgroup>>, memref<?x?xf32>
  tile.copy %c[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

// An asynchronous TMA store reads %a after the op returns, and no
// `tile.wait_tma_stores pending(0)` follows: %a stays live to the end and
// %b, used only afterwards, gets bytes of its own.
tile.kernel @tma_store_async(%dst: memref<?x?xbf16>, %g: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
  %b = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %g[%c0, %c0] to %a[] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %a[] to %dst[%c0, %c0] {tma, async} : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<?x?xbf16>
  tile.wait_tma_stores pending(1)
  tile.copy %g[%c0, %c0] to %b[] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %b[] to %dst[%c0, %c0] {tma} : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<?x?xbf16>
}

// -----

// The same once `tile.wait_tma_stores pending(0)` has seen the store read
// %a: %b takes %a's bytes after the wait.
tile.kernel @tma_store_waited(%dst: memref<?x?xbf16>, %g: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
  %b = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %g[%c0, %c0] to %a[] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %a[] to %dst[%c0, %c0] {tma, async} : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<?x?xbf16>
  tile.wait_tma_stores pending(0)
  tile.copy %g[%c0, %c0] to %b[] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %b[] to %dst[%c0, %c0] {tma} : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<?x?xbf16>
}

// -----

// A TMA load completes on a barrier: %a is live until the barrier's last
// use (the wait), even though nothing reads it, so %b (used at the wait's
// op) does not take its bytes; %c, after the wait, does.
tile.kernel @tma_load(%g: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %a = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
  %b = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
  %c = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %g[%c0, %c0] to %a[] barrier %bar[%c0] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 0>>, !tile.barrier<1>
  tile.copy %g[%c0, %c0] to %b[] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.mbarrier.wait %bar[%c0], %false : !tile.barrier<1>
  tile.copy %b[] to %g[%c0, %c0] : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<?x?xbf16>
  tile.copy %g[%c0, %c0] to %c[] : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 0>>
  tile.copy %c[] to %g[%c0, %c0] : memref<64x64xbf16, #tile.shared<swizzle = 0>>, memref<?x?xbf16>
}

// -----

// A tile that escapes into an op the allocator does not classify (here a
// yield out of an scf.if) is live over the whole kernel: %b does not reuse
// its bytes.
tile.kernel @escape(%g: memref<?x?xf32>, %p: i1) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %x = scf.if %p -> memref<64x64xf32, #gpu.address_space<workgroup>> {
    scf.yield %a : memref<64x64xf32, #gpu.address_space<workgroup>>
  } else {
    scf.yield %a : memref<64x64xf32, #gpu.address_space<workgroup>>
  }
  tile.copy %x[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  tile.copy %g[%c0, %c0] to %b[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %b[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

// Scratch (asked for here through the test-only attribute
// tile.test_scratch_bytes; the op records where it went in
// tile.scratch_offset) is live only during its op. The copy's 4 KiB go after
// %a, live there too (16384); the barrier's 8 KiB come once %a is dead and
// take its bytes (0, after a sync), as %b does after them.
tile.kernel @scratch(%g: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0, %c0] to %a[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %a[] to %g[%c0, %c0] {tile.test_scratch_bytes = 4096 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  gpu.barrier {tile.test_scratch_bytes = 8192 : i64}
  tile.copy %g[%c0, %c0] to %b[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %b[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

// A tile nothing uses (a family's buffer that its configuration leaves
// unused) takes no bytes: 16 KiB + 1 KiB in all, not 32 KiB + 1 KiB.
tile.kernel @unused(%g: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %unused = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %g[%c0, %c0] to %a[] : memref<?x?xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %a[] to %g[%c0, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}
