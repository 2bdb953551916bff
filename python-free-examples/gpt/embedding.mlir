// GPT-2's input embedding: x[t] = wte[tokens[t]] + wpe[t mod S], bf16 rows
// of d <= 1024 elements (768 for GPT-2 small), the sum in fp32.
//
// One CTA per token: it reads the token id, copies the token's and the
// position's embedding rows into registers, adds them and writes row t of
// x. A token id outside the vocabulary reads zeros (the copy masks rows
// past the table's end), so a bad id gives the position embedding, never
// a read out of bounds.
tile.kernel @embedding(%tokens: memref<?xi32>, %wte: memref<?x?xbf16>,
                       %wpe: memref<?x?xbf16>, %x: memref<?x?xbf16>,
                       %seq: index) threads(128) {
  %c0 = arith.constant 0 : index
  %t = gpu.block_id x
  %token_i32 = memref.load %tokens[%t] : memref<?xi32>
  // Negative ids become huge unsigned ones: rows past the end, read as 0.
  %token = arith.index_castui %token_i32 : i32 to index
  %pos = arith.remui %t, %seq : index

  %e = tile.alloc_fragment : !tile.fragment<1x1024xbf16>
  %p = tile.alloc_fragment : !tile.fragment<1x1024xbf16>
  tile.copy %wte[%token, %c0] to %e[] : memref<?x?xbf16>, !tile.fragment<1x1024xbf16>
  tile.copy %wpe[%pos, %c0] to %p[] : memref<?x?xbf16>, !tile.fragment<1x1024xbf16>
  tile.elementwise ins(%e, %p : !tile.fragment<1x1024xbf16>, !tile.fragment<1x1024xbf16>)
                   outs(%e : !tile.fragment<1x1024xbf16>) {
  ^bb0(%a: bf16, %b: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %af, %bf : f32
    %sb = arith.truncf %s : f32 to bf16
    tile.yield %sb : bf16
  }
  tile.copy %e[] to %x[%t, %c0] : !tile.fragment<1x1024xbf16>, memref<?x?xbf16>
}
