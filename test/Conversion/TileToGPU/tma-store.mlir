// A shared -> global copy marked {tma}: every thread fences the async proxy
// and syncs, thread 0 issues the bulk tensor store (one per 128-byte column
// block of a swizzled tile), commits and waits for it, then the CTA syncs.
// The kernel gets a tensor-map parameter for the destination.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu | grep -oE 'nvgpu.tma.async.store|nvvm.cp.async.bulk.[a-z_.]+ ?[0-9]*|nvvm.fence.proxy|gpu.barrier|tile.tma = .*\]' | uniq -c

tile.kernel @store(%dst: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : bf16
  %s = tile.alloc_shared {swizzle = 128} : memref<64x128xbf16, #gpu.address_space<workgroup>>
  tile.copy %s[] to %dst[%c0, %c0] {tma} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<?x?xbf16>
}
