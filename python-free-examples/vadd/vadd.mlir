// Element-wise vector add, c = a + b, over n elements of any size, in fp32
// and in bf16: one kernel family whose element type is a parameter (T,
// written !T below) next to its tile: each CTA of 128 threads handles one
// tile of TILE elements (16 bytes per thread per run: 1024 fp32 or 2048
// bf16), the last tile partial, its out-of-bounds elements masked by
// tile.copy. tile-specialize makes vadd__Tf32_TILE1024 and
// vadd__Tbf16_TILE2048.
!T = !tile.type_param<"T", f32>

tile.kernel @vadd(%a: memref<?x!T>, %b: memref<?x!T>, %c: memref<?x!T>)
    params(T: type = f32 in [f32, bf16], TILE: index = 1024)
    configs([T = f32, TILE = 1024], [T = bf16, TILE = 2048])
    threads(128) {
  %bx = gpu.block_id x
  %tile = tile.param "TILE" : index
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment [%tile] : !tile.fragment<?x!T>
  %y = tile.alloc_fragment [%tile] : !tile.fragment<?x!T>
  tile.copy %a[%base] to %x[] : memref<?x!T>, !tile.fragment<?x!T>
  tile.copy %b[%base] to %y[] : memref<?x!T>, !tile.fragment<?x!T>
  tile.elementwise ins(%x, %y : !tile.fragment<?x!T>, !tile.fragment<?x!T>)
                   outs(%x : !tile.fragment<?x!T>) {
  ^bb0(%u: !T, %v: !T):
    %s = arith.addf %u, %v : !T
    tile.yield %s : !T
  }
  tile.copy %x[] to %c[%base] : !tile.fragment<?x!T>, memref<?x!T>
}
