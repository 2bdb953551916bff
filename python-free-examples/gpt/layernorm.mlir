// Layer normalisation over the rows of an M x n bf16 matrix, as GPT-2 uses
// it: y = (x - mean) / sqrt(var + eps) * w + b, mean and (biased) variance
// in fp32, y rounded to bf16.
//
// Each CTA of the @layernorm family normalises ROWS consecutive rows of at
// most COLS columns held in registers: one copy in, two row reductions
// (tile.reduce: shuffles within warps, shared memory across them), the
// weight and bias rows broadcast over the tile (tile.elementwise with
// 1 x COLS inputs), one copy out. Columns past n read as 0 and are masked
// out of the variance with the element's column index; rows past M are
// never written. Configurations: n <= 768 (4 rows per CTA of 128 threads,
// a row per warp), 1024 (the same CTA, each row over its four warps),
// and 4096 (2 rows per CTA of 512 or 256 threads); gpt/GptKernels.h says
// which it runs for each n. Longer rows: @layernorm_staged.

tile.kernel @layernorm(%x: memref<?x?xbf16>, %w: memref<?xbf16>, %b: memref<?xbf16>,
                       %y: memref<?x?xbf16>, %eps: f32)
    params(ROWS: index = 4, COLS: index = 1024,
           THREADS: i32 = 128)
    configs([ROWS = 4, COLS = 768, THREADS = 128],
            [ROWS = 4, COLS = 1024, THREADS = 128],
            [ROWS = 2, COLS = 4096, THREADS = 512],
            [ROWS = 2, COLS = 4096, THREADS = 256])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tile.param "ROWS" : index
  %cols = tile.param "COLS" : index
  %zero = arith.constant 0.0 : f32
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
  %n_i32 = arith.index_cast %n : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.divf %one, %n_f32 : f32
  // The weight and bias rows, as 1 x n views for the copies.
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>
  %b_row = memref.expand_shape %b [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>

  // Columns past n (and rows past the end) read as 0.
  %xs = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xbf16>
  %ws = tile.alloc_fragment [%cols] : !tile.fragment<1x?xbf16>
  %bs = tile.alloc_fragment [%cols] : !tile.fragment<1x?xbf16>
  tile.copy %x[%row, %c0] to %xs[] : memref<?x?xbf16>, !tile.fragment<?x?xbf16>
  tile.copy %w_row[%c0, %c0] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
  tile.copy %b_row[%c0, %c0] to %bs[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>

  // mean = sum(x) / n, accumulated in fp32.
  %sum = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  %mean = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.reduce sum %xs into %sum dim 1 : !tile.fragment<?x?xbf16>, !tile.fragment<?x1xf32>
  tile.elementwise ins(%sum : !tile.fragment<?x1xf32>) outs(%mean : !tile.fragment<?x1xf32>) {
  ^bb0(%s: f32):
    %m = arith.mulf %s, %inv_n : f32
    tile.yield %m : f32
  }

  // (x - mean)^2, 0 past column n so that the variance ignores padding.
  %d2 = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  tile.elementwise ins(%xs, %mean : !tile.fragment<?x?xbf16>, !tile.fragment<?x1xf32>)
                   outs(%d2 : !tile.fragment<?x?xf32>) {
  ^bb0(%v: bf16, %m: f32, %i: index, %j: index):
    %vf = arith.extf %v : bf16 to f32
    %diff = arith.subf %vf, %m : f32
    %inside = arith.cmpi ult, %j, %n : index
    %dm = arith.select %inside, %diff, %zero : f32
    %sq = arith.mulf %dm, %dm : f32
    tile.yield %sq : f32
  }

  // rstd = 1 / sqrt(sum(d^2) / n + eps).
  %ssq = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  %rstd = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.reduce sum %d2 into %ssq dim 1 : !tile.fragment<?x?xf32>, !tile.fragment<?x1xf32>
  tile.elementwise ins(%ssq : !tile.fragment<?x1xf32>) outs(%rstd : !tile.fragment<?x1xf32>) {
  ^bb0(%s: f32):
    %var = arith.mulf %s, %inv_n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %r : f32
  }

  // y = (x - mean) * rstd * w + b, rounded to bf16 (x is read again from
  // its registers rather than kept in fp32).
  tile.elementwise ins(%xs, %mean, %rstd, %ws, %bs : !tile.fragment<?x?xbf16>, !tile.fragment<?x1xf32>, !tile.fragment<?x1xf32>, !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>)
                   outs(%xs : !tile.fragment<?x?xbf16>) {
  ^bb0(%v: bf16, %m: f32, %r: f32, %wv: bf16, %bv: bf16):
    %vf = arith.extf %v : bf16 to f32
    %dv = arith.subf %vf, %m : f32
    %wf = arith.extf %wv : bf16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %t = arith.mulf %dv, %r : f32
    %u = math.fma %t, %wf, %bf : f32
    %o = arith.truncf %u : f32 to bf16
    tile.yield %o : bf16
  }
  tile.copy %xs[] to %y[%row, %c0] : !tile.fragment<?x?xbf16>, memref<?x?xbf16>
}

// RMS normalisation (LLaMA's): y = x / sqrt(mean(x^2) + eps) * w, the mean
// of squares in fp32, y rounded to bf16. The same tiles as @layernorm:
// ROWS consecutive rows of at most COLS columns per CTA of THREADS threads,
// one pass over the registers for the sum of squares (columns past n read
// as 0 and add nothing), the weight row broadcast over the tile.
tile.kernel @rmsnorm(%x: memref<?x?xbf16>, %w: memref<?xbf16>,
                     %y: memref<?x?xbf16>, %eps: f32)
    params(ROWS: index = 4, COLS: index = 1024,
           THREADS: i32 = 128)
    configs([ROWS = 4, COLS = 768, THREADS = 128],
            [ROWS = 4, COLS = 1024, THREADS = 128],
            [ROWS = 2, COLS = 4096, THREADS = 512])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tile.param "ROWS" : index
  %cols = tile.param "COLS" : index
  // The grid, as @layernorm's: none for rows longer than COLS.
  %M = memref.dim %x, %c0 : memref<?x?xbf16>
  %N = memref.dim %x, %c1 : memref<?x?xbf16>
  %row_ctas = arith.ceildivui %M, %rows : index
  %fit = arith.divui %cols, %N : index
  %fits = arith.minui %fit, %c1 : index
  %ctas = arith.muli %row_ctas, %fits : index
  tile.grid %ctas
  %bx = gpu.block_id x
  %row = arith.muli %bx, %rows : index
  %n_i32 = arith.index_cast %N : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.divf %one, %n_f32 : f32
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %N] : memref<?xbf16> into memref<1x?xbf16>

  %xs = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xbf16>
  %ws = tile.alloc_fragment [%cols] : !tile.fragment<1x?xbf16>
  tile.copy %x[%row, %c0] to %xs[] : memref<?x?xbf16>, !tile.fragment<?x?xbf16>
  tile.copy %w_row[%c0, %c0] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>

  // rstd = 1 / sqrt(sum(x^2) / n + eps).
  %x2 = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  tile.elementwise ins(%xs : !tile.fragment<?x?xbf16>) outs(%x2 : !tile.fragment<?x?xf32>) {
  ^bb0(%v: bf16):
    %vf = arith.extf %v : bf16 to f32
    %sq = arith.mulf %vf, %vf : f32
    tile.yield %sq : f32
  }
  %ssq = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.reduce sum %x2 into %ssq dim 1 : !tile.fragment<?x?xf32>, !tile.fragment<?x1xf32>
  %rstd = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.elementwise ins(%ssq : !tile.fragment<?x1xf32>) outs(%rstd : !tile.fragment<?x1xf32>) {
  ^bb0(%q: f32):
    %ms = arith.mulf %q, %inv_n : f32
    %ve = arith.addf %ms, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %r : f32
  }

  // y = x * rstd * w, rounded to bf16.
  tile.elementwise ins(%xs, %rstd, %ws : !tile.fragment<?x?xbf16>, !tile.fragment<?x1xf32>, !tile.fragment<1x?xbf16>)
                   outs(%xs : !tile.fragment<?x?xbf16>) {
  ^bb0(%v: bf16, %r: f32, %wv: bf16):
    %vf = arith.extf %v : bf16 to f32
    %wf = arith.extf %wv : bf16 to f32
    %t = arith.mulf %vf, %r : f32
    %u = arith.mulf %t, %wf : f32
    %o = arith.truncf %u : f32 to bf16
    tile.yield %o : bf16
  }
  tile.copy %xs[] to %y[%row, %c0] : !tile.fragment<?x?xbf16>, memref<?x?xbf16>
}

// RMS normalisation of rows of any length: one row per CTA of 512 threads,
// walked in chunks of 4096 columns twice (the sum of squares, accumulated
// per thread across the chunks and reduced once, then the output). Used
// for rows longer than 32768; it reads x twice and writes y once.
tile.kernel @rmsnorm_rows(%x: memref<?x?xbf16>, %w: memref<?xbf16>,
                          %y: memref<?x?xbf16>, %eps: f32) threads(512) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // A CTA a row.
  %rows = memref.dim %x, %c0 : memref<?x?xbf16>
  tile.grid %rows
  %chunk = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %row = gpu.block_id x
  %n = memref.dim %x, %c1 : memref<?x?xbf16>
  %n_i32 = arith.index_cast %n : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %inv_n = arith.divf %one, %n_f32 : f32
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>

  %xs = tile.alloc_fragment : !tile.fragment<1x4096xbf16>
  %x2 = tile.alloc_fragment : !tile.fragment<1x4096xf32>
  %total = tile.alloc_fragment : !tile.fragment<1x1xf32>

  // sum(x^2), columns past n read as 0: accumulated per thread across the
  // chunks, one tile.reduce after the walk.
  tile.fill %x2, %zero : !tile.fragment<1x4096xf32>, f32
  scf.for %c = %c0 to %n step %chunk {
    tile.copy %x[%row, %c] to %xs[] : memref<?x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.elementwise ins(%xs, %x2 : !tile.fragment<1x4096xbf16>, !tile.fragment<1x4096xf32>) outs(%x2 : !tile.fragment<1x4096xf32>) {
    ^bb0(%v: bf16, %a: f32):
      %vf = arith.extf %v : bf16 to f32
      %sq = math.fma %vf, %vf, %a : f32
      tile.yield %sq : f32
    }
  }
  tile.reduce sum %x2 into %total dim 1 : !tile.fragment<1x4096xf32>, !tile.fragment<1x1xf32>
  // rstd = 1 / sqrt(sum(x^2) / n + eps).
  %rstd = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%total : !tile.fragment<1x1xf32>) outs(%rstd : !tile.fragment<1x1xf32>) {
  ^bb0(%q: f32):
    %ms = arith.mulf %q, %inv_n : f32
    %ve = arith.addf %ms, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %r : f32
  }

  // y = x * rstd * w, chunk by chunk.
  %ws = tile.alloc_fragment : !tile.fragment<1x4096xbf16>
  scf.for %c = %c0 to %n step %chunk {
    tile.copy %x[%row, %c] to %xs[] : memref<?x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.copy %w_row[%c0, %c] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.elementwise ins(%xs, %rstd, %ws : !tile.fragment<1x4096xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x4096xbf16>)
                     outs(%xs : !tile.fragment<1x4096xbf16>) {
    ^bb0(%v: bf16, %r: f32, %wv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %wf = arith.extf %wv : bf16 to f32
      %t = arith.mulf %vf, %r : f32
      %u = arith.mulf %t, %wf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y[%row, %c] : !tile.fragment<1x4096xbf16>, memref<?x?xbf16>
  }
}

// The residual add fused into the layernorm that follows it in a GPT
// block: x = x + res (written back, bf16), then y = layernorm(x) as
// @layernorm computes it. One launch and one pass over x instead of
// two; x and res are M x n. The same tiles as @layernorm: ROWS rows of at
// most COLS columns per CTA of THREADS threads; GPT-2 small's 768-wide
// rows take COLS = 768 (a row per warp, no masked lanes: 24 elements a
// thread, not 32), wider ones the 1024- or 4096-column configuration.
tile.kernel @residual_layernorm(%x: memref<?x?xbf16>, %res: memref<?x?xbf16>,
                                %w: memref<?xbf16>, %b: memref<?xbf16>,
                                %y: memref<?x?xbf16>, %eps: f32)
    params(ROWS: index = 4, COLS: index = 1024,
           THREADS: i32 = 128)
    configs([ROWS = 4, COLS = 768, THREADS = 128],
            [ROWS = 4, COLS = 1024, THREADS = 128],
            [ROWS = 2, COLS = 4096, THREADS = 256])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tile.param "ROWS" : index
  %cols = tile.param "COLS" : index
  %zero = arith.constant 0.0 : f32
  // The grid, for the host: as @layernorm's (none for rows longer than
  // COLS).
  %M = memref.dim %x, %c0 : memref<?x?xbf16>
  %n = memref.dim %x, %c1 : memref<?x?xbf16>
  %row_ctas = arith.ceildivui %M, %rows : index
  %fit = arith.divui %cols, %n : index
  %fits = arith.minui %fit, %c1 : index
  %ctas = arith.muli %row_ctas, %fits : index
  tile.grid %ctas
  %bx = gpu.block_id x
  %row = arith.muli %bx, %rows : index
  %n_i32 = arith.index_cast %n : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv_n = arith.divf %one, %n_f32 : f32
  // The weight and bias rows, as 1 x n views for the copies.
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>
  %b_row = memref.expand_shape %b [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>

  // Columns past n (and rows past the end) read as 0.
  %xs = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xbf16>
  %ws = tile.alloc_fragment [%cols] : !tile.fragment<1x?xbf16>
  %bs = tile.alloc_fragment [%cols] : !tile.fragment<1x?xbf16>
  %rs = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xbf16>
  tile.copy %x[%row, %c0] to %xs[] : memref<?x?xbf16>, !tile.fragment<?x?xbf16>
  tile.copy %res[%row, %c0] to %rs[] : memref<?x?xbf16>, !tile.fragment<?x?xbf16>
  // x += res, rounded to bf16 as the residual stream is kept, and written back.
  tile.elementwise ins(%xs, %rs : !tile.fragment<?x?xbf16>, !tile.fragment<?x?xbf16>)
                   outs(%xs : !tile.fragment<?x?xbf16>) {
  ^bb0(%u: bf16, %v: bf16):
    %uf = arith.extf %u : bf16 to f32
    %vf = arith.extf %v : bf16 to f32
    %s = arith.addf %uf, %vf : f32
    %sb = arith.truncf %s : f32 to bf16
    tile.yield %sb : bf16
  }
  tile.copy %xs[] to %x[%row, %c0] : !tile.fragment<?x?xbf16>, memref<?x?xbf16>
  tile.copy %w_row[%c0, %c0] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
  tile.copy %b_row[%c0, %c0] to %bs[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>

  // mean = sum(x) / n, accumulated in fp32.
  %sum = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  %mean = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.reduce sum %xs into %sum dim 1 : !tile.fragment<?x?xbf16>, !tile.fragment<?x1xf32>
  tile.elementwise ins(%sum : !tile.fragment<?x1xf32>) outs(%mean : !tile.fragment<?x1xf32>) {
  ^bb0(%s: f32):
    %m = arith.mulf %s, %inv_n : f32
    tile.yield %m : f32
  }

  // (x - mean)^2, 0 past column n so that the variance ignores padding.
  %d2 = tile.alloc_fragment [%rows, %cols] : !tile.fragment<?x?xf32>
  tile.elementwise ins(%xs, %mean : !tile.fragment<?x?xbf16>, !tile.fragment<?x1xf32>)
                   outs(%d2 : !tile.fragment<?x?xf32>) {
  ^bb0(%v: bf16, %m: f32, %i: index, %j: index):
    %vf = arith.extf %v : bf16 to f32
    %diff = arith.subf %vf, %m : f32
    %inside = arith.cmpi ult, %j, %n : index
    %dm = arith.select %inside, %diff, %zero : f32
    %sq = arith.mulf %dm, %dm : f32
    tile.yield %sq : f32
  }

  // rstd = 1 / sqrt(sum(d^2) / n + eps).
  %ssq = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  %rstd = tile.alloc_fragment [%rows] : !tile.fragment<?x1xf32>
  tile.reduce sum %d2 into %ssq dim 1 : !tile.fragment<?x?xf32>, !tile.fragment<?x1xf32>
  tile.elementwise ins(%ssq : !tile.fragment<?x1xf32>) outs(%rstd : !tile.fragment<?x1xf32>) {
  ^bb0(%s: f32):
    %var = arith.mulf %s, %inv_n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %r : f32
  }

  // y = (x - mean) * rstd * w + b, rounded to bf16 (x is read again from
  // its registers rather than kept in fp32).
  tile.elementwise ins(%xs, %mean, %rstd, %ws, %bs : !tile.fragment<?x?xbf16>, !tile.fragment<?x1xf32>, !tile.fragment<?x1xf32>, !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>)
                   outs(%xs : !tile.fragment<?x?xbf16>) {
  ^bb0(%v: bf16, %m: f32, %r: f32, %wv: bf16, %bv: bf16):
    %vf = arith.extf %v : bf16 to f32
    %dv = arith.subf %vf, %m : f32
    %wf = arith.extf %wv : bf16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %t = arith.mulf %dv, %r : f32
    %u = math.fma %t, %wf, %bf : f32
    %o = arith.truncf %u : f32 to bf16
    tile.yield %o : bf16
  }
  tile.copy %xs[] to %y[%row, %c0] : !tile.fragment<?x?xbf16>, memref<?x?xbf16>
}

// Rows of any length: one row per CTA of 512 threads, walked in chunks of
// 4096 columns twice (the sums of x's deviations from a pivot K, the
// row's first element, and of their squares, accumulated per thread
// across the chunks and reduced once after the walk; then the output).
// Used for rows longer than 32768, which the staged kernels' buffers do not
// hold; it reads x twice and writes y once, 1.5 times the traffic of a
// copy of x (three reads before).
// var = sum((x - K)^2) / n - (sum(x - K) / n)^2 does not cancel as the
// plain sum(x^2) / n - mean^2 does on rows whose mean is far from zero
// against their spread: both sums are of deviations from K, which lies
// within sqrt(n - 1) spreads of the mean (an element of the row:
// Samuelson's inequality), so the rounding error of the difference is
// about n fp32 epsilons of the variance at worst (2e-3 at n = 32768,
// below bf16's rounding of the output), whatever the mean. @layernorm keeps two
// passes over its registers: the shifted single pass was slower there
// (docs/measurements.md).
tile.kernel @layernorm_rows(%x: memref<?x?xbf16>, %w: memref<?xbf16>, %b: memref<?xbf16>,
                            %y: memref<?x?xbf16>, %eps: f32) threads(512) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // A CTA a row.
  %rows = memref.dim %x, %c0 : memref<?x?xbf16>
  tile.grid %rows
  %chunk = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %row = gpu.block_id x
  %n = memref.dim %x, %c1 : memref<?x?xbf16>
  %n_i32 = arith.index_cast %n : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %inv_n = arith.divf %one, %n_f32 : f32
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>
  %b_row = memref.expand_shape %b [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>

  %xs = tile.alloc_fragment : !tile.fragment<1x4096xbf16>
  %total = tile.alloc_fragment : !tile.fragment<1x1xf32>

  // The pivot K (the row's first element) and, in one walk over the
  // chunks, sum(x - K) and sum((x - K)^2) (0 past column n); every
  // thread's pivot feeds the sums, so no write of y (in place: x) comes
  // before a thread has read it. Both sums are accumulated per thread
  // across the chunks, one tile.reduce each after the walk.
  %pivot = tile.alloc_fragment : !tile.fragment<1x1xbf16>
  tile.copy %x[%row, %c0] to %pivot[] : memref<?x?xbf16>, !tile.fragment<1x1xbf16>
  %d = tile.alloc_fragment : !tile.fragment<1x4096xf32>
  %d2 = tile.alloc_fragment : !tile.fragment<1x4096xf32>
  %total2 = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.fill %d, %zero : !tile.fragment<1x4096xf32>, f32
  tile.fill %d2, %zero : !tile.fragment<1x4096xf32>, f32
  scf.for %c = %c0 to %n step %chunk {
    tile.copy %x[%row, %c] to %xs[] : memref<?x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.elementwise ins(%xs, %pivot, %d, %d2 : !tile.fragment<1x4096xbf16>, !tile.fragment<1x1xbf16>, !tile.fragment<1x4096xf32>, !tile.fragment<1x4096xf32>)
                     outs(%d, %d2 : !tile.fragment<1x4096xf32>, !tile.fragment<1x4096xf32>) {
    ^bb0(%v: bf16, %k: bf16, %a: f32, %q: f32, %i: index, %j: index):
      %vf = arith.extf %v : bf16 to f32
      %kf = arith.extf %k : bf16 to f32
      %diff = arith.subf %vf, %kf : f32
      %col = arith.addi %c, %j : index
      %inside = arith.cmpi ult, %col, %n : index
      %dm = arith.select %inside, %diff, %zero : f32
      %s = arith.addf %a, %dm : f32
      %s2 = math.fma %dm, %dm, %q : f32
      tile.yield %s, %s2 : f32, f32
    }
  }
  tile.reduce sum %d into %total dim 1 : !tile.fragment<1x4096xf32>, !tile.fragment<1x1xf32>
  tile.reduce sum %d2 into %total2 dim 1 : !tile.fragment<1x4096xf32>, !tile.fragment<1x1xf32>
  // mean = K + sum(x - K) / n, var = sum((x - K)^2) / n - (mean - K)^2.
  %mean = tile.alloc_fragment : !tile.fragment<1x1xf32>
  %rstd = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%total, %total2, %pivot : !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xbf16>)
                   outs(%mean, %rstd : !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>) {
  ^bb0(%s: f32, %q: f32, %k: bf16):
    %dk = arith.mulf %s, %inv_n : f32
    %kf = arith.extf %k : bf16 to f32
    %m = arith.addf %kf, %dk : f32
    %dk2 = arith.mulf %dk, %dk : f32
    %q_n = arith.mulf %q, %inv_n : f32
    %var_raw = arith.subf %q_n, %dk2 : f32
    %var = arith.maximumf %var_raw, %zero : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %m, %r : f32, f32
  }

  // y = (x - mean) * rstd * w + b, chunk by chunk.
  %ws = tile.alloc_fragment : !tile.fragment<1x4096xbf16>
  %bs = tile.alloc_fragment : !tile.fragment<1x4096xbf16>
  scf.for %c = %c0 to %n step %chunk {
    tile.copy %x[%row, %c] to %xs[] : memref<?x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.copy %w_row[%c0, %c] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.copy %b_row[%c0, %c] to %bs[] : memref<1x?xbf16>, !tile.fragment<1x4096xbf16>
    tile.elementwise ins(%xs, %mean, %rstd, %ws, %bs : !tile.fragment<1x4096xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x4096xbf16>, !tile.fragment<1x4096xbf16>)
                     outs(%xs : !tile.fragment<1x4096xbf16>) {
    ^bb0(%v: bf16, %m: f32, %r: f32, %wv: bf16, %bv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %dv = arith.subf %vf, %m : f32
      %wf = arith.extf %wv : bf16 to f32
      %bf = arith.extf %bv : bf16 to f32
      %t = arith.mulf %dv, %r : f32
      %u = math.fma %t, %wf, %bf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y[%row, %c] : !tile.fragment<1x4096xbf16>, memref<?x?xbf16>
  }
}



// Rows of up to COLS columns staged in shared memory: a CTA of THREADS
// threads takes one row in by cp.async (every chunk of CHUNK columns in
// flight at once, no registers held), then walks the staged row twice:
// sum(x - K) and sum((x - K)^2) about a pivot K, the row's first element
// (accumulated per thread across chunks, one tile.reduce each), then the
// output. x is read from memory once. At 32768 columns a row takes 64 KB,
// so three CTAs share an SM and one's load overlaps the others' walks;
// @layernorm's whole-row registers held one CTA an SM and left each row's
// load latency exposed. The walks are what bound the kernel (ncu:
// issue-bound), so each does as little as it can: 16 columns a thread a
// chunk and the mask only in the partial chunk (docs/design.md, "Long rows
// staged in shared memory"). Configurations: rows of up to 8192 columns in
// CTAs of 64 threads and chunks of 1024, which divide LLaMA's 5120- and
// 8192-wide rows (16 KB a row: many CTAs share an SM), of up to 16384 in
// CTAs of 128 threads and chunks of 2048 (GPT-3's 12288), and of up to
// 32768 in CTAs of 256 threads and chunks of 4096.
// var = sum((x - K)^2) / n - (sum(x - K) / n)^2 does not cancel as the plain
// sum(x^2) / n - mean^2 does on rows whose mean is far from zero against
// their spread: both sums are of deviations from K, which lies within
// sqrt(n - 1) spreads of the mean (an element of the row: Samuelson's
// inequality), so the rounding error of the difference is about n fp32
// epsilons of the variance at worst (2e-3 at n = 32768, below bf16's
// rounding of the output), whatever the mean.
tile.kernel @layernorm_staged(%x: memref<?x?xbf16>, %w: memref<?xbf16>, %b: memref<?xbf16>,
                             %y: memref<?x?xbf16>, %eps: f32)
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
  %n_i32 = arith.index_cast %n : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %inv_n = arith.divf %one, %n_f32 : f32
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>
  %b_row = memref.expand_shape %b [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>
  // This CTA's row of y: the copies into it at a whole chunk's columns
  // are then provably in bounds.
  %y_row = memref.subview %y[%row, 0] [1, %n] [1, 1] : memref<?x?xbf16> to memref<1x?xbf16, strided<[?, 1], offset: ?>>

  // The row, chunk by chunk into the rows of %staged, all in flight.
  %staged = tile.alloc_shared [%chunks, %chunk] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  scf.for %c = %c0 to %n step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %x[%row, %c] to %part[] {async} : memref<?x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  nvvm.cp.async.commit.group
  // The pivot K = x[0] (see @layernorm_rows: sums of deviations from an
  // element of the row), read while the row is on its way.
  %x0 = tile.alloc_fragment : !tile.fragment<1x1xbf16>
  tile.copy %x[%row, %c0] to %x0[] : memref<?x?xbf16>, !tile.fragment<1x1xbf16>
  %pivot = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%x0 : !tile.fragment<1x1xbf16>) outs(%pivot : !tile.fragment<1x1xf32>) {
  ^bb0(%u: bf16):
    %k = arith.extf %u : bf16 to f32
    tile.yield %k : f32
  }
  nvvm.cp.async.wait.group 0
  gpu.barrier

  // sum(x - K) and sum((x - K)^2) in one walk.
  %xs = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %acc = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xf32>
  %acc2 = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xf32>
  tile.fill %acc, %zero : !tile.fragment<1x?xf32>, f32
  tile.fill %acc2, %zero : !tile.fragment<1x?xf32>, f32
  scf.for %c = %c0 to %whole_cols step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %pivot, %acc, %acc2 : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) outs(%acc, %acc2 : !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %k: f32, %a: f32, %q: f32):
      %vf = arith.extf %v : bf16 to f32
      %d = arith.subf %vf, %k : f32
      %s = arith.addf %a, %d : f32
      %s2 = math.fma %d, %d, %q : f32
      tile.yield %s, %s2 : f32, f32
    }
  }
  scf.if %partial {
    %part = memref.subview %staged[%whole, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %pivot, %acc, %acc2 : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) outs(%acc, %acc2 : !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %k: f32, %a: f32, %q: f32, %r: index, %j: index):
      %vf = arith.extf %v : bf16 to f32
      %d0 = arith.subf %vf, %k : f32
      %inside = arith.cmpi ult, %j, %tail : index
      %d = arith.select %inside, %d0, %zero : f32
      %s = arith.addf %a, %d : f32
      %s2 = math.fma %d, %d, %q : f32
      tile.yield %s, %s2 : f32, f32
    }
  }
  %s1 = tile.alloc_fragment : !tile.fragment<1x1xf32>
  %s2 = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.reduce sum %acc into %s1 dim 1 : !tile.fragment<1x?xf32>, !tile.fragment<1x1xf32>
  tile.reduce sum %acc2 into %s2 dim 1 : !tile.fragment<1x?xf32>, !tile.fragment<1x1xf32>
  // mean = K + s1 / n, var = s2 / n - (s1 / n)^2 (at least 0).
  %mean = tile.alloc_fragment : !tile.fragment<1x1xf32>
  %rstd = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%s1, %s2, %pivot : !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>) outs(%mean, %rstd : !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>) {
  ^bb0(%a: f32, %q: f32, %k: f32):
    %d = arith.mulf %a, %inv_n : f32
    %m = arith.addf %k, %d : f32
    %q1 = arith.mulf %q, %inv_n : f32
    %d2 = arith.mulf %d, %d : f32
    %var1 = arith.subf %q1, %d2 : f32
    %var = arith.maximumf %var1, %zero : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %m, %r : f32, f32
  }

  // y = (x - mean) * rstd * w + b, chunk by chunk: the whole chunks by
  // their index, which lets the copy lowering prove them in bounds (no
  // run-time test), then the partial one.
  %ws = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %bs = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  scf.for %i = %c0 to %whole step %c1 {
    %c = arith.muli %i, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %w_row[%c0, %c] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %b_row[%c0, %c] to %bs[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %mean, %rstd, %ws, %bs : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>)
                     outs(%xs : !tile.fragment<1x?xbf16>) {
    ^bb0(%v: bf16, %m: f32, %r: f32, %wv: bf16, %bv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %dv = arith.subf %vf, %m : f32
      %wf = arith.extf %wv : bf16 to f32
      %bf = arith.extf %bv : bf16 to f32
      %t = arith.mulf %dv, %r : f32
      %u = math.fma %t, %wf, %bf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y_row[%c0, %c] : !tile.fragment<1x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>>
  }
  scf.if %partial {
    %part = memref.subview %staged[%whole, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %w_row[%c0, %whole_cols] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %b_row[%c0, %whole_cols] to %bs[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %mean, %rstd, %ws, %bs : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>)
                     outs(%xs : !tile.fragment<1x?xbf16>) {
    ^bb0(%v: bf16, %m: f32, %r: f32, %wv: bf16, %bv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %dv = arith.subf %vf, %m : f32
      %wf = arith.extf %wv : bf16 to f32
      %bf = arith.extf %bv : bf16 to f32
      %t = arith.mulf %dv, %r : f32
      %u = math.fma %t, %wf, %bf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y[%row, %whole_cols] : !tile.fragment<1x?xbf16>, memref<?x?xbf16>
  }
}

// @rmsnorm for rows of up to COLS columns, staged as @layernorm_staged
// stages them: the row in by cp.async, sum(x^2) over it (columns past n are
// 0 and add nothing: no mask), then y = x * rstd * w two chunks a step, so
// that both chunks' w loads are in flight together (91% of the copy's
// bandwidth at 1024 x 32768, against 84% a chunk a step).
tile.kernel @rmsnorm_staged(%x: memref<?x?xbf16>, %w: memref<?xbf16>,
                           %y: memref<?x?xbf16>, %eps: f32)
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
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %chunk2 = arith.muli %chunk, %c2 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
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
  %n_i32 = arith.index_cast %n : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %inv_n = arith.divf %one, %n_f32 : f32
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>

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

  // rstd = 1 / sqrt(sum(x^2) / n + eps) (columns past n are 0 and add
  // nothing: no mask).
  %xs = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %acc = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xf32>
  tile.fill %acc, %zero : !tile.fragment<1x?xf32>, f32
  scf.for %c = %c0 to %n step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %acc : !tile.fragment<1x?xbf16>, !tile.fragment<1x?xf32>) outs(%acc : !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %a: f32):
      %vf = arith.extf %v : bf16 to f32
      %s = math.fma %vf, %vf, %a : f32
      tile.yield %s : f32
    }
  }
  %ssq = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.reduce sum %acc into %ssq dim 1 : !tile.fragment<1x?xf32>, !tile.fragment<1x1xf32>
  %rstd = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%ssq : !tile.fragment<1x1xf32>) outs(%rstd : !tile.fragment<1x1xf32>) {
  ^bb0(%q: f32):
    %ms = arith.mulf %q, %inv_n : f32
    %ve = arith.addf %ms, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %r : f32
  }

  // y = x * rstd * w, two chunks a step (their w loads in flight
  // together).
  %xs_0 = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %ws_0 = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %xs_1 = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %ws_1 = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  scf.for %c = %c0 to %n step %chunk2 {
    %i = arith.divui %c, %chunk : index
    %part_0 = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    %c_1 = arith.addi %c, %chunk : index
    %i_1 = arith.addi %i, %c1 : index
    %part_1 = memref.subview %staged[%i_1, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %w_row[%c0, %c] to %ws_0[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %part_0[] to %xs_0[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.copy %w_row[%c0, %c_1] to %ws_1[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %part_1[] to %xs_1[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs_0, %rstd, %ws_0 : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xbf16>)
                     outs(%xs_0 : !tile.fragment<1x?xbf16>) {
    ^bb0(%v: bf16, %r: f32, %wv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %wf = arith.extf %wv : bf16 to f32
      %t = arith.mulf %vf, %r : f32
      %u = arith.mulf %t, %wf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs_0[] to %y[%row, %c] : !tile.fragment<1x?xbf16>, memref<?x?xbf16>
    tile.elementwise ins(%xs_1, %rstd, %ws_1 : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xbf16>)
                     outs(%xs_1 : !tile.fragment<1x?xbf16>) {
    ^bb0(%v: bf16, %r: f32, %wv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %wf = arith.extf %wv : bf16 to f32
      %t = arith.mulf %vf, %r : f32
      %u = arith.mulf %t, %wf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs_1[] to %y[%row, %c_1] : !tile.fragment<1x?xbf16>, memref<?x?xbf16>
  }
}

// @residual_layernorm for rows of up to COLS columns, staged as
// @layernorm_staged stages them: the first walk also adds res (x written
// back, the staged row updated), the pivot x[0] + res[0].
tile.kernel @residual_layernorm_staged(%x: memref<?x?xbf16>, %res: memref<?x?xbf16>,
                                      %w: memref<?xbf16>, %b: memref<?xbf16>,
                                      %y: memref<?x?xbf16>, %eps: f32)
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
  %n_i32 = arith.index_cast %n : index to i32
  %n_f32 = arith.sitofp %n_i32 : i32 to f32
  %inv_n = arith.divf %one, %n_f32 : f32
  %w_row = memref.expand_shape %w [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>
  %b_row = memref.expand_shape %b [[0, 1]] output_shape [1, %n] : memref<?xbf16> into memref<1x?xbf16>
  // This CTA's rows of x, res and y: the copies at a whole chunk's columns
  // are then provably in bounds.
  %x_row = memref.subview %x[%row, 0] [1, %n] [1, 1] : memref<?x?xbf16> to memref<1x?xbf16, strided<[?, 1], offset: ?>>
  %res_row = memref.subview %res[%row, 0] [1, %n] [1, 1] : memref<?x?xbf16> to memref<1x?xbf16, strided<[?, 1], offset: ?>>
  %y_row = memref.subview %y[%row, 0] [1, %n] [1, 1] : memref<?x?xbf16> to memref<1x?xbf16, strided<[?, 1], offset: ?>>

  // The row, chunk by chunk into the rows of %staged, all in flight.
  %staged = tile.alloc_shared [%chunks, %chunk] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  scf.for %c = %c0 to %n step %chunk {
    %i = arith.divui %c, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %x[%row, %c] to %part[] {async} : memref<?x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  nvvm.cp.async.commit.group
  // The pivot K = x[0] + res[0], rounded as the updated row is (see
  // @layernorm_rows: sums of deviations from an element of the row).
  %x0 = tile.alloc_fragment : !tile.fragment<1x1xbf16>
  %r0 = tile.alloc_fragment : !tile.fragment<1x1xbf16>
  tile.copy %x[%row, %c0] to %x0[] : memref<?x?xbf16>, !tile.fragment<1x1xbf16>
  tile.copy %res[%row, %c0] to %r0[] : memref<?x?xbf16>, !tile.fragment<1x1xbf16>
  %pivot = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%x0, %r0 : !tile.fragment<1x1xbf16>, !tile.fragment<1x1xbf16>) outs(%pivot : !tile.fragment<1x1xf32>) {
  ^bb0(%u: bf16, %v: bf16):
    %uf = arith.extf %u : bf16 to f32
    %vf = arith.extf %v : bf16 to f32
    %t = arith.addf %uf, %vf : f32
    %tb = arith.truncf %t : f32 to bf16
    %k = arith.extf %tb : bf16 to f32
    tile.yield %k : f32
  }
  nvvm.cp.async.wait.group 0
  gpu.barrier

  // x += res (rounded to bf16 as the residual stream is kept), written
  // back to memory and to the staged row, and sum(x - K) and
  // sum((x - K)^2) in the same walk.
  %xs = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %rs = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %acc = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xf32>
  %acc2 = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xf32>
  tile.fill %acc, %zero : !tile.fragment<1x?xf32>, f32
  tile.fill %acc2, %zero : !tile.fragment<1x?xf32>, f32
  scf.for %i = %c0 to %whole step %c1 {
    %c = arith.muli %i, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.copy %res_row[%c0, %c] to %rs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %rs, %pivot, %acc, %acc2 : !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) outs(%xs, %acc, %acc2 : !tile.fragment<1x?xbf16>, !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %rv: bf16, %k: f32, %a: f32, %q: f32):
      %uf = arith.extf %v : bf16 to f32
      %rf = arith.extf %rv : bf16 to f32
      %t = arith.addf %uf, %rf : f32
      %tb = arith.truncf %t : f32 to bf16
      %vf = arith.extf %tb : bf16 to f32
      %d = arith.subf %vf, %k : f32
      %s = arith.addf %a, %d : f32
      %s2 = math.fma %d, %d, %q : f32
      tile.yield %tb, %s, %s2 : bf16, f32, f32
    }
    tile.copy %xs[] to %part[] : !tile.fragment<1x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %xs[] to %x_row[%c0, %c] : !tile.fragment<1x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>>
  }
  scf.if %partial {
    %part = memref.subview %staged[%whole, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.copy %res[%row, %whole_cols] to %rs[] : memref<?x?xbf16>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %rs, %pivot, %acc, %acc2 : !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) outs(%xs, %acc, %acc2 : !tile.fragment<1x?xbf16>, !tile.fragment<1x?xf32>, !tile.fragment<1x?xf32>) {
    ^bb0(%v: bf16, %rv: bf16, %k: f32, %a: f32, %q: f32, %r: index, %j: index):
      %uf = arith.extf %v : bf16 to f32
      %rf = arith.extf %rv : bf16 to f32
      %t = arith.addf %uf, %rf : f32
      %tb = arith.truncf %t : f32 to bf16
      %vf = arith.extf %tb : bf16 to f32
      %d0 = arith.subf %vf, %k : f32
      %inside = arith.cmpi ult, %j, %tail : index
      %d = arith.select %inside, %d0, %zero : f32
      %s = arith.addf %a, %d : f32
      %s2 = math.fma %d, %d, %q : f32
      tile.yield %tb, %s, %s2 : bf16, f32, f32
    }
    tile.copy %xs[] to %part[] : !tile.fragment<1x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %xs[] to %x[%row, %whole_cols] : !tile.fragment<1x?xbf16>, memref<?x?xbf16>
  }
  %s1 = tile.alloc_fragment : !tile.fragment<1x1xf32>
  %s2 = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.reduce sum %acc into %s1 dim 1 : !tile.fragment<1x?xf32>, !tile.fragment<1x1xf32>
  tile.reduce sum %acc2 into %s2 dim 1 : !tile.fragment<1x?xf32>, !tile.fragment<1x1xf32>
  // mean = K + s1 / n, var = s2 / n - (s1 / n)^2 (at least 0).
  %mean = tile.alloc_fragment : !tile.fragment<1x1xf32>
  %rstd = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.elementwise ins(%s1, %s2, %pivot : !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>) outs(%mean, %rstd : !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>) {
  ^bb0(%a: f32, %q: f32, %k: f32):
    %d = arith.mulf %a, %inv_n : f32
    %m = arith.addf %k, %d : f32
    %q1 = arith.mulf %q, %inv_n : f32
    %d2 = arith.mulf %d, %d : f32
    %var1 = arith.subf %q1, %d2 : f32
    %var = arith.maximumf %var1, %zero : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %m, %r : f32, f32
  }

  // y = (x - mean) * rstd * w + b, chunk by chunk: the whole chunks by
  // their index, which lets the copy lowering prove them in bounds (no
  // run-time test), then the partial one.
  %ws = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  %bs = tile.alloc_fragment [%chunk] : !tile.fragment<1x?xbf16>
  scf.for %i = %c0 to %whole step %c1 {
    %c = arith.muli %i, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %w_row[%c0, %c] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %b_row[%c0, %c] to %bs[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %mean, %rstd, %ws, %bs : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>)
                     outs(%xs : !tile.fragment<1x?xbf16>) {
    ^bb0(%v: bf16, %m: f32, %r: f32, %wv: bf16, %bv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %dv = arith.subf %vf, %m : f32
      %wf = arith.extf %wv : bf16 to f32
      %bf = arith.extf %bv : bf16 to f32
      %t = arith.mulf %dv, %r : f32
      %u = math.fma %t, %wf, %bf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y_row[%c0, %c] : !tile.fragment<1x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>>
  }
  scf.if %partial {
    %part = memref.subview %staged[%whole, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %w_row[%c0, %whole_cols] to %ws[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %b_row[%c0, %whole_cols] to %bs[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    tile.copy %part[] to %xs[] : memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>, !tile.fragment<1x?xbf16>
    tile.elementwise ins(%xs, %mean, %rstd, %ws, %bs : !tile.fragment<1x?xbf16>, !tile.fragment<1x1xf32>, !tile.fragment<1x1xf32>, !tile.fragment<1x?xbf16>, !tile.fragment<1x?xbf16>)
                     outs(%xs : !tile.fragment<1x?xbf16>) {
    ^bb0(%v: bf16, %m: f32, %r: f32, %wv: bf16, %bv: bf16):
      %vf = arith.extf %v : bf16 to f32
      %dv = arith.subf %vf, %m : f32
      %wf = arith.extf %wv : bf16 to f32
      %bf = arith.extf %bv : bf16 to f32
      %t = arith.mulf %dv, %r : f32
      %u = math.fma %t, %wf, %bf : f32
      %o = arith.truncf %u : f32 to bf16
      tile.yield %o : bf16
    }
    tile.copy %xs[] to %y[%row, %whole_cols] : !tile.fragment<1x?xbf16>, memref<?x?xbf16>
  }
}
