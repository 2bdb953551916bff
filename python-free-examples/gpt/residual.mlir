// The residual connection, c = a + b, on n bf16 elements: added in fp32,
// rounded once to bf16. Each CTA of 128 threads handles 2048 elements; the
// last tile is partial and masked by tile.copy.
tile.kernel @residual_add(%a: memref<?xbf16>, %b: memref<?xbf16>, %c: memref<?xbf16>)
    threads(128) {
  %tile = arith.constant 2048 : index
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xbf16>
  %ctas = arith.ceildivui %n, %tile : index
  tile.grid %ctas
  %bx = gpu.block_id x
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment : !tile.fragment<2048xbf16>
  %y = tile.alloc_fragment : !tile.fragment<2048xbf16>
  tile.copy %a[%base] to %x[] : memref<?xbf16>, !tile.fragment<2048xbf16>
  tile.copy %b[%base] to %y[] : memref<?xbf16>, !tile.fragment<2048xbf16>
  tile.elementwise ins(%x, %y : !tile.fragment<2048xbf16>, !tile.fragment<2048xbf16>)
                   outs(%x : !tile.fragment<2048xbf16>) {
  ^bb0(%u: bf16, %v: bf16):
    %uf = arith.extf %u : bf16 to f32
    %vf = arith.extf %v : bf16 to f32
    %s = arith.addf %uf, %vf : f32
    %o = arith.truncf %s : f32 to bf16
    tile.yield %o : bf16
  }
  tile.copy %x[] to %c[%base] : !tile.fragment<2048xbf16>, memref<?xbf16>
}
