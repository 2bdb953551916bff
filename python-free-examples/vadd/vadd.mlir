// Element-wise vector add, c = a + b, over n elements of any size: each CTA
// of 128 threads handles one 1024-element tile; the last tile is partial and
// its out-of-bounds elements are masked by tile.copy.
tile.kernel @vadd_f32(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>)
    threads(128) {
  %bx = gpu.block_id x
  %tile = arith.constant 1024 : index
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment : !tile.fragment<1024xf32>
  %y = tile.alloc_fragment : !tile.fragment<1024xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<1024xf32>
  tile.copy %b[%base] to %y[] : memref<?xf32>, !tile.fragment<1024xf32>
  tile.elementwise ins(%x, %y : !tile.fragment<1024xf32>, !tile.fragment<1024xf32>)
                   outs(%x : !tile.fragment<1024xf32>) {
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    tile.yield %s : f32
  }
  tile.copy %x[] to %c[%base] : !tile.fragment<1024xf32>, memref<?xf32>
}

// The same in bf16: 2048-element tiles, runs of 8 elements (16 bytes).
tile.kernel @vadd_bf16(%a: memref<?xbf16>, %b: memref<?xbf16>, %c: memref<?xbf16>)
    threads(128) {
  %bx = gpu.block_id x
  %tile = arith.constant 2048 : index
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment : !tile.fragment<2048xbf16>
  %y = tile.alloc_fragment : !tile.fragment<2048xbf16>
  tile.copy %a[%base] to %x[] : memref<?xbf16>, !tile.fragment<2048xbf16>
  tile.copy %b[%base] to %y[] : memref<?xbf16>, !tile.fragment<2048xbf16>
  tile.elementwise ins(%x, %y : !tile.fragment<2048xbf16>, !tile.fragment<2048xbf16>)
                   outs(%x : !tile.fragment<2048xbf16>) {
  ^bb0(%u: bf16, %v: bf16):
    %s = arith.addf %u, %v : bf16
    tile.yield %s : bf16
  }
  tile.copy %x[] to %c[%base] : !tile.fragment<2048xbf16>, memref<?xbf16>
}
