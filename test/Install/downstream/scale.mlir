// y = a * x over n floats: each CTA of 128 threads scales one tile of 1024.
tile.kernel @scale(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32)
    threads(128) {
  %c1024 = arith.constant 1024 : index
  %bx = gpu.block_id x
  %base = arith.muli %bx, %c1024 : index
  %t = tile.alloc_fragment : !tile.fragment<1024xf32>
  tile.copy %x[%base] to %t[] : memref<?xf32>, !tile.fragment<1024xf32>
  tile.elementwise ins(%t : !tile.fragment<1024xf32>)
                   outs(%t : !tile.fragment<1024xf32>) {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %a : f32
    tile.yield %s : f32
  }
  tile.copy %t[] to %y[%base] : !tile.fragment<1024xf32>, memref<?xf32>
}
