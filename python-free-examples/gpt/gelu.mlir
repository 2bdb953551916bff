// GELU, tanh form, on n bf16 elements:
// y = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), in fp32, rounded to
// bf16. Each CTA of 128 threads handles 2048 elements (two 16-byte runs per
// thread); the last tile is partial and masked by tile.copy.
tile.kernel @gelu(%x: memref<?xbf16>, %y: memref<?xbf16>) threads(128) {
  %tile = arith.constant 2048 : index
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xbf16>
  %ctas = arith.ceildivui %n, %tile : index
  tile.grid %ctas
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.7978845608 : f32
  %k1 = arith.constant 0.044715 : f32
  %bx = gpu.block_id x
  %base = arith.muli %bx, %tile : index
  %v = tile.alloc_fragment : !tile.fragment<2048xbf16>
  tile.copy %x[%base] to %v[] : memref<?xbf16>, !tile.fragment<2048xbf16>
  tile.elementwise ins(%v : !tile.fragment<2048xbf16>) outs(%v : !tile.fragment<2048xbf16>) {
  ^bb0(%a: bf16):
    %x32 = arith.extf %a : bf16 to f32
    %x2 = arith.mulf %x32, %x32 : f32
    %inner = math.fma %k1, %x2, %one : f32
    %xi = arith.mulf %x32, %inner : f32
    %arg = arith.mulf %k0, %xi : f32
    // afn: one tanh.approx.f32 (error about 2^-11, below bf16's
    // rounding) rather than libdevice's tanhf (tile-lower-fast-math).
    %t = math.tanh %arg fastmath<afn> : f32
    %onep = arith.addf %one, %t : f32
    %hx = arith.mulf %half, %x32 : f32
    %g = arith.mulf %hx, %onep : f32
    %o = arith.truncf %g : f32 to bf16
    tile.yield %o : bf16
  }
  tile.copy %v[] to %y[%base] : !tile.fragment<2048xbf16>, memref<?xbf16>
}
