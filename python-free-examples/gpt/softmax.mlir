// Row-wise softmax of an M x n bf16 matrix, numerically stable:
// y = exp(x - max) / sum(exp(x - max)) per row, in fp32, y rounded to bf16.
//
// Each CTA of the @softmax family holds ROWS consecutive rows of at most
// COLS columns in registers: one max and one sum reduction (tile.reduce),
// the row results broadcast back (tile.elementwise with n x 1 inputs);
// columns past n are masked to -inf with the element's column index.
// Configurations: n <= 768 (4 rows per CTA of 128 threads, a row per warp),
// 1024 (the same CTA) and 4096 (2 rows per CTA of 512 threads, or 1 per
// CTA of 256); gpt/GptKernels.h says which it runs for each n. Longer
// rows: @softmax_staged.

tile.kernel @softmax(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>)
    params(ROWS: index = 4, COLS: index = 1024, THREADS: i32 = 128)
    configs([ROWS = 4, COLS = 768, THREADS = 128],
            [ROWS = 4, COLS = 1024, THREADS = 128],
            [ROWS = 2, COLS = 4096, THREADS = 512],
            [ROWS = 1, COLS = 4096, THREADS = 256])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tile.param "ROWS" : index
  %cols = tile.param "COLS" : index
  %neg_inf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.44269504 : f32
  %one = arith.constant 1.0 : f32
  // The grid, for the host: a CTA per ROWS rows, and none (a launch the
  // runtime refuses) for rows longer than COLS, which this configuration
  // would not normalise whole: a dispatcher then takes another.
  %M = memref.dim %x, %c0 : memref<?x?xbf16>
  %N = memref.dim %x, %c1 : memref<?x?xbf16>
  %row_ctas = arith.ceildivui %M, %rows : index
  %cols_param = tile.param "COLS" : index
  %fit = arith.divui %cols_param, %N : index
  %fits = arith.minui %fit, %c1 : index
  %ctas = arith.muli %row_ctas, %fits : index
  tile.grid %ctas
  %bx = gpu.block_id x
  %row = arith.muli %bx, %rows : index
  %n = memref.dim %x, %c1 : memref<?x?xbf16>

  %xs = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xbf16>
  tile.copy %x[%row, %c0] to %xs[] : memref<?x?xbf16>, !tile.fragment<?x?xbf16>

  // Scaled by log2(e) so that exp becomes exp2; -inf past column n.
  %s = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  tile.elementwise ins(%xs : !tile.fragment<?x?xbf16>) outs(%s : !tile.fragment<?x?xf32>) {
  ^bb0(%v: bf16, %i: index, %j: index):
    %vf = arith.extf %v : bf16 to f32
    %scaled = arith.mulf %vf, %log2e : f32
    %inside = arith.cmpi ult, %j, %n : index
    %masked = arith.select %inside, %scaled, %neg_inf : f32
    tile.yield %masked : f32
  }
  %max = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.reduce max %s into %max dim 1 : !tile.fragment<?x?xf32>, !tile.fragment<?x1xf32>

  // e = 2^(s - max), in place: at most 1, and 0 past column n; approximate
  // (afn: one ex2.approx.ftz, terms under 2^-126 flushed to 0, nothing
  // beside the row's largest term, which is 1).
  tile.elementwise ins(%s, %max : !tile.fragment<?x?xf32>, !tile.fragment<?x1xf32>) outs(%s : !tile.fragment<?x?xf32>) {
  ^bb0(%v: f32, %m: f32):
    %shifted = arith.subf %v, %m : f32
    %p = math.exp2 %shifted fastmath<afn> : f32
    tile.yield %p : f32
  }
  %sum = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.reduce sum %s into %sum dim 1 : !tile.fragment<?x?xf32>, !tile.fragment<?x1xf32>

  // One division per row, then y = e * (1 / sum).
  %inv = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.elementwise ins(%sum : !tile.fragment<?x1xf32>) outs(%inv : !tile.fragment<?x1xf32>) {
  ^bb0(%t: f32):
    %i = arith.divf %one, %t : f32
    tile.yield %i : f32
  }
  tile.elementwise ins(%s, %inv : !tile.fragment<?x?xf32>, !tile.fragment<?x1xf32>) outs(%xs : !tile.fragment<?x?xbf16>) {
  ^bb0(%p: f32, %t: f32):
    %q = arith.mulf %p, %t : f32
    %o = arith.truncf %q : f32 to bf16
    tile.yield %o : bf16
  }
  tile.copy %xs[] to %y[%row, %c0] : !tile.fragment<?x?xbf16>, memref<?x?xbf16>
}

// Rows of any length: one row per CTA of 512 threads, walked in chunks of
// 4096 columns twice. The first walk keeps, for each of a thread's columns
// of a chunk, a running maximum M and sum L of 2^(s - M) across the chunks
// (the old sum rescaled by 2^(M_old - M_new) when the maximum grows, as
// flash attention does), so that the row's maximum m and sum l take one
// tile.reduce each after the walk, not two a chunk; the second writes
// 2^(s - m) / l. Used for rows longer than 32768, which the staged kernel's
// buffer does not hold.
tile.kernel @softmax_rows(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>) threads(512) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // A CTA a row.
  %rows = memref.dim %x, %c0 : memref<?x?xbf16>
  tile.grid %rows
  %chunk = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.44269504 : f32
  %row = gpu.block_id x
  %n = memref.dim %x, %c1 : memref<?x?xbf16>

  %xs = tile.alloc_fragment : !tile.fragment<1x4096xbf16>
  %mc = tile.alloc_fragment : !tile.fragment<1x4096xf32>
  %lc = tile.alloc_fragment : !tile.fragment<1x4096xf32>
  %m = tile.alloc_fragment : !tile.fragment<1x1xf32>
  %l = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.fill %mc, %neg_inf : !tile.fragment<1x4096xf32>, f32
  tile.fill %lc, %zero : !tile.fragment<1x4096xf32>, f32
  scf.for %c = %c0 to %n step %chunk {
    tile.copy %x[%row, %c] to %xs[] : memref<?x?xbf16>, !tile.fragment<1x4096xbf16>
    // s = x log2(e) (exp becomes exp2), -inf past column n; a column that
    // has seen only -inf keeps M = -inf and L = 0.
    tile.elementwise ins(%xs, %mc, %lc : !tile.fragment<1x4096xbf16>, !tile.fragment<1x4096xf32>, !tile.fragment<1x4096xf32>)
                     outs(%mc, %lc : !tile.fragment<1x4096xf32>, !tile.fragment<1x4096xf32>) {
    ^bb0(%v: bf16, %old: f32, %sum: f32, %i: index, %j: index):
      %vf = arith.extf %v : bf16 to f32
      %scaled = arith.mulf %vf, %log2e : f32
      %col = arith.addi %c, %j : index
      %inside = arith.cmpi ult, %col, %n : index
      %sv = arith.select %inside, %scaled, %neg_inf : f32
      %new = arith.maximumf %old, %sv : f32
      %seen = arith.cmpf ogt, %new, %neg_inf : f32
      %base = arith.select %seen, %new, %zero : f32
      %d_old = arith.subf %old, %base : f32
      %a = math.exp2 %d_old fastmath<afn> : f32
      %d_new = arith.subf %sv, %base : f32
      %p = math.exp2 %d_new fastmath<afn> : f32
      %t = math.fma %sum, %a, %p : f32
      tile.yield %new, %t : f32, f32
    }
  }
  // m = max M; l = sum L 2^(M - m) (a column with M = -inf adds 0).
  tile.reduce max %mc into %m dim 1 : !tile.fragment<1x4096xf32>, !tile.fragment<1x1xf32>
  tile.elementwise ins(%mc, %lc, %m : !tile.fragment<1x4096xf32>, !tile.fragment<1x4096xf32>, !tile.fragment<1x1xf32>)
                   outs(%lc : !tile.fragment<1x4096xf32>) {
  ^bb0(%cm: f32, %sum: f32, %mx: f32):
    %d = arith.subf %cm, %mx : f32
    %a = math.exp2 %d fastmath<afn> : f32
    %t = arith.mulf %sum, %a : f32
    tile.yield %t : f32
  }
  tile.reduce sum %lc into %l dim 1 : !tile.fragment<1x4096xf32>, !tile.fragment<1x1xf32>
  // 1 / l once, then y = 2^(s - m) / l chunk by chunk.
  tile.elementwise ins(%l : !tile.fragment<1x1xf32>) outs(%l : !tile.fragment<1x1xf32>) {
  ^bb0(%sum: f32):
    %inv = arith.divf %one, %sum : f32
    tile.yield %inv : f32
  }
  scf.for %c = %c0 to %n step %chunk {
    tile.copy %x[%row, %c] to %xs[] : memref<?x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.elementwise ins(%xs, %m, %l : !tile.fragment<1x4096xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>)
                     outs(%xs : !tile.fragment<1x4096xbf16>) {
    ^bb0(%v: bf16, %mx: f32, %inv: f32):
      %vf = arith.extf %v : bf16 to f32
      %scaled = arith.mulf %vf, %log2e : f32
      %d = arith.subf %scaled, %mx : f32
      %p = math.exp2 %d fastmath<afn> : f32
      %q = arith.mulf %p, %inv : f32
      %o = arith.truncf %q : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y[%row, %c] : !tile.fragment<1x4096xbf16>, memref<?x?xbf16>
  }
}



// Rows of up to COLS columns staged in shared memory, as gpt/layernorm.mlir's
// @layernorm_staged stages them: a CTA of THREADS threads takes one row in
// by cp.async, then walks it three times: the maximum, sum(2^(s - max))
// (both accumulated per thread across chunks of CHUNK columns, one
// tile.reduce each, the mask only in the partial chunk), and the output.
// Three 64 KB rows share an SM at 32768 columns; smaller rows take smaller
// buffers, CTAs and chunks, as @layernorm_staged's configurations do.
tile.kernel @softmax_staged(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>)
    params(COLS: index = 32768, CHUNK: index = 4096, THREADS: i32 = 256)
    configs([COLS = 8192, CHUNK = 1024, THREADS = 64],
            [COLS = 16384, CHUNK = 2048, THREADS = 128],
            [COLS = 32768, CHUNK = 4096, THREADS = 256])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cols = tile.param "COLS" : index
  %chunk = tile.param "CHUNK" : index
  %chunks = arith.divui %cols, %chunk : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.44269504 : f32
  // The grid: a CTA a row, none for rows longer than COLS.
  %M = memref.dim %x, %c0 : memref<?x?xbf16>
  %n = memref.dim %x, %c1 : memref<?x?xbf16>
  %fit = arith.divui %cols, %n : index
  %fits = arith.minui %fit, %c1 : index
  %ctas = arith.muli %M, %fits : index
  tile.grid %ctas
  %row = gpu.block_id x
  // Whole chunks, then the partial one (if any) whose columns past n
  // read as 0 and are masked: masks only where needed.
  %whole = arith.divui %n, %chunk : index
  %whole_cols = arith.muli %whole, %chunk : index
  %partial = arith.cmpi ult, %whole_cols, %n : index
  %tail = arith.subi %n, %whole_cols : index

  // The row, chunk by chunk into the rows of %staged, all in flight.
  %staged = tile.alloc_shared [%chunks, %chunk] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  scf.for %c = %c0 to %n step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %x[%row, %c] to %part[] {async} : memref<?x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  nvvm.cp.async.commit.group
  nvvm.cp.async.wait.group 0
  gpu.barrier

  // The maximum of s = x * log2(e) (-inf past column n).
  %xs = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %acc = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xf32>
  tile.fill %acc, %neg_inf : !tile.fragment<1x?xf32>, f32
  scf.for %c = %c0 to %whole_cols step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %acc : !tile.fragment<1x?xbf16>, !tile.fragment<1x?xf32>) outs(%acc : !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %a: f32):
      %vf = arith.extf %v : bf16 to f32
      %s = arith.mulf %vf, %log2e : f32
      %m = arith.maximumf %a, %s : f32
      tile.yield %m : f32
    }
  }
  scf.if %partial {
    %part = memref.subview %staged[%whole, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %acc : !tile.fragment<1x?xbf16>, !tile.fragment<1x?xf32>) outs(%acc : !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %a: f32, %r: index, %j: index):
      %vf = arith.extf %v : bf16 to f32
      %s = arith.mulf %vf, %log2e : f32
      %inside = arith.cmpi ult, %j, %tail : index
      %sm = arith.select %inside, %s, %neg_inf : f32
      %m = arith.maximumf %a, %sm : f32
      tile.yield %m : f32
    }
  }
  %max = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.reduce max %acc into %max dim 1 : !tile.fragment<1x?xf32>, !tile.fragment<1x1xf32>
  %negmax = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%max : !tile.fragment<1x1xf32>) outs(%negmax : !tile.fragment<1x1xf32>) {
  ^bb0(%m: f32):
    %nm = arith.negf %m : f32
    tile.yield %nm : f32
  }

  // sum(2^(s - max)), 0 past column n (approximate exp2: @softmax's).
  tile.fill %acc, %zero : !tile.fragment<1x?xf32>, f32
  scf.for %c = %c0 to %whole_cols step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %negmax, %acc : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xf32>) outs(%acc : !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %nm: f32, %a: f32):
      %vf = arith.extf %v : bf16 to f32
      %d = math.fma %vf, %log2e, %nm : f32
      %p = math.exp2 %d fastmath<afn> : f32
      %t = arith.addf %a, %p : f32
      tile.yield %t : f32
    }
  }
  scf.if %partial {
    %part = memref.subview %staged[%whole, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %negmax, %acc : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xf32>) outs(%acc : !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %nm: f32, %a: f32, %r: index, %j: index):
      %vf = arith.extf %v : bf16 to f32
      %d = math.fma %vf, %log2e, %nm : f32
      %p = math.exp2 %d fastmath<afn> : f32
      %inside = arith.cmpi ult, %j, %tail : index
      %pm = arith.select %inside, %p, %zero : f32
      %t = arith.addf %a, %pm : f32
      tile.yield %t : f32
    }
  }
  %sum = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.reduce sum %acc into %sum dim 1 : !tile.fragment<1x?xf32>, !tile.fragment<1x1xf32>
  %inv = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%sum : !tile.fragment<1x1xf32>) outs(%inv : !tile.fragment<1x1xf32>) {
  ^bb0(%t: f32):
    %i = arith.divf %one, %t : f32
    tile.yield %i : f32
  }

  // y = 2^(s - max) / sum, chunk by chunk.
  scf.for %c = %c0 to %n step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %negmax, %inv : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>)
                     outs(%xs : !tile.fragment<1x?xbf16>) {
    ^bb0(%v: bf16, %nm: f32, %t: f32):
      %vf = arith.extf %v : bf16 to f32
      %d = math.fma %vf, %log2e, %nm : f32
      %p = math.exp2 %d fastmath<afn> : f32
      %q = arith.mulf %p, %t : f32
      %o = arith.truncf %q : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y[%row, %c] : !tile.fragment<1x?xbf16>, memref<?x?xbf16>
  }
}
