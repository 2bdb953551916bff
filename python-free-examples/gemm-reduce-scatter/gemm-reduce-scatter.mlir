// GEMM + reduce-scatter, the reduction (tensor parallelism's second linear
// layer: each GPU holds the activations' K / n columns and the weight's,
// and its product is a partial sum of all M x N of the output; GPU r keeps
// rows [r * part, (r + 1) * part) of the total):
//
//   out[part, N] = sum over ranks q of parts[q] (each part x N, bf16)
//
// parts is a symmetric buffer of n slots of part x N: slot q holds rank q's
// partial product of this rank's rows. The peers' slots arrive by puts
// with a signal (the host's, on a stream, through the copy engine, each
// after the peer's GEMM of this rank's rows: gemm-reduce-scatter.cpp): the
// put from rank q sets this rank's signal word q to `epoch`. This rank's
// own slot is written by its own GEMM, stream-ordered before this kernel,
// so its word is not waited for (a wait for >= 0).
//
// Each CTA sums CHUNK elements of every slot in fp32 and rounds once to
// bf16; before it reads it waits for every peer's word (an acquire spin,
// mechanism p2p). The last chunk is partial and masked by tile.copy.

// The value to wait for on the word of slot `q`: `epoch`, or 0 (at once)
// for this rank's own slot.
func.func private @awaited(%q: index, %me: index, %epoch: i64) -> i64 {
  %c0_i64 = arith.constant 0 : i64
  %own = arith.cmpi eq, %q, %me : index
  %value = arith.select %own, %c0_i64, %epoch : i64
  func.return %value : i64
}

tile.kernel @sum_parts(%parts: memref<?x?xbf16> {tile.symmetric},
                       %out: memref<1x?xbf16>,
                       %flags: memref<?xi64> {tile.symmetric},
                       %epoch: i64, %rank: i32)
    params(CHUNK: index = 2048 in [1024, 2048, 4096], THREADS: i32 = 128)
    configs([CHUNK = 2048, THREADS = 128], [CHUNK = 4096, THREADS = 256],
            [CHUNK = 1024, THREADS = 128])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %chunk = tile.param "CHUNK" : index
  %n = memref.dim %parts, %c0 : memref<?x?xbf16>
  %len = memref.dim %parts, %c1 : memref<?x?xbf16>
  %ctas = arith.ceildivui %len, %chunk : index
  tile.grid %ctas
  %me = arith.index_castui %rank : i32 to index
  %bx = gpu.block_id x
  %base = arith.muli %bx, %chunk : index

  scf.for %q = %c0 to %n step %c1 {
    %value = func.call @awaited(%q, %me, %epoch) : (index, index, i64) -> i64
    tile.wait %flags[%q] ge %value level world : memref<?xi64>
  }

  %zero = arith.constant 0.0 : f32
  %sum = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xf32>
  %x = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  tile.fill %sum, %zero : !tile.fragment<1x?xf32>, f32
  scf.for %q = %c0 to %n step %c1 {
    tile.copy %parts[%q, %base] to %x[] : memref<?x?xbf16>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%sum, %x : !tile.fragment<1x?xf32>, !tile.fragment<1x?xbf16>)
                     outs(%sum : !tile.fragment<1x?xf32>) {
    ^bb0(%s: f32, %v: bf16):
      %vf = arith.extf %v : bf16 to f32
      %t = arith.addf %s, %vf : f32
      tile.yield %t : f32
    }
  }
  %y = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  tile.elementwise ins(%sum : !tile.fragment<1x?xf32>) outs(%y : !tile.fragment<1x?xbf16>) {
  ^bb0(%s: f32):
    %t = arith.truncf %s : f32 to bf16
    tile.yield %t : bf16
  }
  tile.copy %y[] to %out[%c0, %base] : !tile.fragment<1x?xbf16>, memref<1x?xbf16>
}
