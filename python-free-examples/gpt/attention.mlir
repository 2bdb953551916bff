// Flash attention forward (FlashAttention-2's online softmax), bf16 in and
// out, fp32 inside, optionally causal.
//
// The operands are GPT-2's: `qkv` is the output of the attention's input
// projection, B*S rows of [q | k | v], q of H heads and k and v of Hkv
// heads (`kv_heads`; grouped-query attention: query head h reads key and
// value head h / (H / Hkv); Hkv = H is GPT-2's), each of `hd` columns, and
// `out` has B*S rows of H*hd columns (head h in columns h*hd ..), the
// layout the output projection reads. The work is a list of items, 128
// queries of one sequence b and head h each (the longest rows first when
// causal); a CTA takes one item, or with PERSISTENT, no more CTAs than SMs
// take every #CTAs-th item (odd rounds in reverse when causal, which
// evens out their loads), so that the K and V loads of the next item fly
// while this one ends. For an item, a CTA loads its Q tile (TMA; the next
// item's goes into the same tile once this item's products are done,
// while its output is written), then walks K and V in tiles of BN keys,
// STAGES - 1 deep (the loads of the next tiles fly while tile j is
// computed):
//
//   S = Q K^T                          (wgmma, fp32; c = log2(e)/sqrt(hd) > 0)
//   m' = max(m, c rowmax(S)),  a = 2^(m - m')
//   P = 2^(c S - m'),  l = a l + rowsum(P),  O = a O + P V   (wgmma, P from registers)
//
// and finally writes O / l. The schedule is FlashAttention-3's, stated in
// the loop: P V is of stage 1 (`tile.stage = 1`: it runs one iteration
// late, so the product of tile j - 1 runs while tile j's softmax is
// computed), and the two consumer warpgroups (64 query rows each) take
// turns at issuing their products (`tile.take_turn` / `tile.pass_turn`),
// so that one issues while the other computes its softmax. With `causal` the keys after a query are masked
// and the walk stops at the diagonal tile; CTAs take the longest rows
// first. S need not be a multiple of 128: keys past S are masked (the
// rows a tile reads past its sequence belong to the next one, or lie past
// the end, where TMA reads zeros) and the output is stored through a view
// of the sequence's S rows, so a last tile's rows past S are not written.
// Head dims 64, 128 and 256 (HD), key tiles of BN keys and STAGES-deep
// K/V pipelines: `configs` lists one hand-picked configuration per head
// dim; tuning/attention-h200.txt (tile-tune's table, against PyTorch's
// cuDNN attention) adds those it chose, and gpt_attention::attention_tuned
// picks among them by head dim, shape and mask. The grid (tile.grid) is a
// CTA per item, or min(items, SMs) with PERSISTENT. Head dim 256 takes tiles
// of 64 keys and two stages: its output alone holds 128 registers a
// thread, and Q, K and V fill 192 KiB of shared memory.

tile.kernel @attention(%qkv: memref<?x?xbf16>, %out: memref<?x?xbf16>,
                       %seq: index, %heads: index, %kv_heads: index,
                       %scale: f32,
                       %causal: i1)
    params(HD: index = 64 in [64, 128, 256],
           BN: index = 128 in [64, 128],
           STAGES: i32 = 3 in [2, 3, 4],
           PERSISTENT: i1 = false)
    configs([HD = 64, STAGES = 4, PERSISTENT = true], [HD = 128],
            [HD = 256, BN = 64, STAGES = 2])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %hd = tile.param "HD" : index
  %bn = tile.param "BN" : index
  %zero = arith.constant 0.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %tiles = arith.ceildivui %seq, %c128 : index
  // The work: a query tile of each sequence and head (@item_place says
  // which is item w).
  %rows = memref.dim %qkv, %c0 : memref<?x?xbf16>
  %batch = arith.divui %rows, %seq : index
  %sequence_heads = arith.muli %batch, %heads : index
  %work = arith.muli %tiles, %sequence_heads : index
  // The grid, for the host: a CTA per item, or with PERSISTENT no more
  // CTAs than SMs (CTA c takes items c, c + #CTAs, ...), so that the
  // producer loads the next item's keys while the consumers finish this
  // one. Items are dealt in turn, not taken as CTAs free up, so long
  // causal sequences balance worse (tile-tune chooses).
  %persistent = tile.param "PERSISTENT" : i1
  %sms = tile.num_sms : index
  %resident = arith.minui %work, %sms : index
  %ctas_launched = arith.select %persistent, %resident, %work : index
  tile.grid %ctas_launched
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  %width = arith.muli %heads, %hd : index
  // Round n deals items n #CTAs .. to the CTAs (@item_place).
  %whole_rounds = arith.divui %work, %ctas : index
  // Key and value head h / (H / Hkv), after the H query heads and after
  // the Hkv key heads.
  %group = arith.divui %heads, %kv_heads : index
  %kv_width = arith.muli %kv_heads, %hd : index
  %key_tiles = arith.ceildivui %seq, %bn : index

  // Q and K are read K-major: rows wider than 128 bytes are stored (and
  // read) as 128-byte column blocks.
  %Qs = tile.alloc_shared [%hd] : memref<128x?xbf16, #gpu.address_space<workgroup>>
  %Ks = tile.alloc_shared [%bn, %hd] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  %Vs = tile.alloc_shared [%bn, %hd] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  %S = tile.alloc_fragment [%bn] : !tile.fragment<128x?xf32>
  %P = tile.alloc_fragment [%bn] : !tile.fragment<128x?xbf16>
  %O = tile.alloc_fragment [%hd] : !tile.fragment<128x?xf32>
  %Ob = tile.alloc_fragment [%hd] : !tile.fragment<128x?xbf16>
  %m = tile.alloc_fragment : !tile.fragment<128x1xf32>
  %m_new = tile.alloc_fragment : !tile.fragment<128x1xf32>
  %alpha = tile.alloc_fragment : !tile.fragment<128x1xf32>
  %l = tile.alloc_fragment : !tile.fragment<128x1xf32>
  %l_tile = tile.alloc_fragment : !tile.fragment<128x1xf32>

  // Q of item w arrives on %loaded (one arrival: the copy raises the bytes
  // the phase expects), in phase n mod 2 of the CTA's n-th item; %read
  // (every consumer thread arrives) says this item's products no longer
  // read Q, so that the next item's may replace it.
  %loaded = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %read = tile.alloc_barrier arrivals(256) : !tile.barrier<1>
  %f_seq_row, %f_q0, %q_first_row, %q_first_col, %f_h = func.call @item_place(%c0, %first, %ctas, %whole_rounds, %sequence_heads, %tiles, %persistent, %causal, %heads, %seq, %hd)
      : (index, index, index, index, index, index, i1, i1, index, index, index) -> (index, index, index, index, index)
  tile.copy %qkv[%q_first_row, %q_first_col] to %Qs[] barrier %loaded[%c0]
      : memref<?x?xbf16>, memref<128x?xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>

  // The CTA's items: one of each round n < count; one without
  // PERSISTENT, which the compiler then sees (no loop is left).
  %span = arith.subi %work, %first : index
  %resident_items = arith.ceildivui %span, %ctas : index
  %count = arith.select %persistent, %resident_items, %c1 : index
  scf.for %n = %c0 to %count step %c1 {
    %first_row, %q0, %q_row, %q_col, %h = func.call @item_place(%n, %first, %ctas, %whole_rounds, %sequence_heads, %tiles, %persistent, %causal, %heads, %seq, %hd)
        : (index, index, index, index, index, index, i1, i1, index, index, index) -> (index, index, index, index, index)
    %kv_h = arith.divui %h, %group : index
    %kv_off = arith.muli %kv_h, %hd : index
    %k_col = arith.addi %width, %kv_off : index
    %v_start = arith.addi %width, %kv_width : index
    %v_col = arith.addi %v_start, %kv_off : index
    // The sequence's own rows of the output: a last tile's rows past S are
    // outside the view, so its store skips them.
    %out_seq = memref.subview %out[%first_row, 0] [%seq, %width] [1, 1]
        : memref<?x?xbf16> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    // Causal: the key tiles up to the query tile's last row (BN divides 128).
    %q_end = arith.addi %q0, %c128 : index
    %diagonal = arith.ceildivui %q_end, %bn : index
    %kv_tiles = arith.select %causal, %diagonal, %key_tiles : index
    // This CTA's n-th item waits for phase n mod 2.
    %n_i1 = arith.index_cast %n : index to i64
    %phase = arith.trunci %n_i1 : i64 to i1

    // The next item's Q tile, worked out here so that only it is held
    // through the K/V loop.
    %n_next = arith.addi %n, %c1 : index
    // (Never without PERSISTENT: then nothing of it is left to hold.)
    %next_exists = arith.cmpi ult, %n_next, %count : index
    %more = arith.andi %persistent, %next_exists : i1
    %n_seq_row, %n_q0, %next_row, %next_col, %n_h = func.call @item_place(%n_next, %first, %ctas, %whole_rounds, %sequence_heads, %tiles, %persistent, %causal, %heads, %seq, %hd)
        : (index, index, index, index, index, index, i1, i1, index, index, index) -> (index, index, index, index, index)

    tile.fill %O, %zero : !tile.fragment<128x?xf32>, f32
    tile.fill %m, %neg_inf : !tile.fragment<128x1xf32>, f32
    tile.fill %l, %zero : !tile.fragment<128x1xf32>, f32
    tile.mbarrier.wait %loaded[%c0], %phase : !tile.barrier<1>

    tile.pipelined_for %j = %c0 to %kv_tiles step %c1 stages(STAGES) warp_specialized {
      %k0 = arith.muli %j, %bn : index
      %kv_row = arith.addi %first_row, %k0 : index
      tile.copy %qkv[%kv_row, %k_col] to %Ks[]
          : memref<?x?xbf16>, memref<?x?xbf16, #gpu.address_space<workgroup>>
      tile.copy %qkv[%kv_row, %v_col] to %Vs[]
          : memref<?x?xbf16>, memref<?x?xbf16, #gpu.address_space<workgroup>>
      // In this warpgroup's turn: S = Q K^T of this tile and, one iteration
      // late (stage 1), O += P V of the previous one, which runs while this
      // tile's softmax is computed (FlashAttention-3's intra-warpgroup
      // overlap); the other warpgroup issues its products in between.
      tile.take_turn
      tile.gemm %Qs, %Ks, %S {transpose_b, clear_accum, async}
          : memref<128x?xbf16, #gpu.address_space<workgroup>>,
            memref<?x?xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x?xf32>
      tile.gemm %P, %Vs, %O {async, tile.stage = 1}
          : !tile.fragment<128x?xbf16>, memref<?x?xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x?xf32>
      tile.pass_turn
      // S is ready; P V may still run.
      tile.wait_gemms pending(1)
      // Only the diagonal tile when causal (keys after the query) and a tile
      // reaching past the sequence hold keys to mask (to -inf); the others
      // go on unchanged.
      %k_end = arith.addi %k0, %bn : index
      %diagonal_tile = arith.cmpi ugt, %k_end, %q0 : index
      %causal_tile = arith.andi %causal, %diagonal_tile : i1
      %ragged_tile = arith.cmpi ugt, %k_end, %seq : index
      %needs_mask = arith.ori %causal_tile, %ragged_tile : i1
      scf.if %needs_mask {
        tile.elementwise ins(%S : !tile.fragment<128x?xf32>) outs(%S : !tile.fragment<128x?xf32>) {
        ^bb0(%s: f32, %r: index, %c: index):
          %query = arith.addi %q0, %r : index
          %key = arith.addi %k0, %c : index
          %future = arith.cmpi ugt, %key, %query : index
          %causal_masked = arith.andi %causal, %future : i1
          %past_end = arith.cmpi uge, %key, %seq : index
          %masked = arith.ori %causal_masked, %past_end : i1
          %v = arith.select %masked, %neg_inf, %s : f32
          tile.yield %v : f32
        }
      }
      // The scale (for exp2, and positive, so that it commutes with the
      // maximum) is applied to the row maxima and inside each exponent's
      // FMA, not in a pass of its own.
      tile.reduce max %S into %m_new dim 1 : !tile.fragment<128x?xf32>, !tile.fragment<128x1xf32>
      tile.elementwise ins(%m, %m_new : !tile.fragment<128x1xf32>, !tile.fragment<128x1xf32>)
                       outs(%m_new, %alpha : !tile.fragment<128x1xf32>, !tile.fragment<128x1xf32>) {
      ^bb0(%old: f32, %row_max: f32):
        %scaled_max = arith.mulf %row_max, %scale : f32
        %new = arith.maximumf %old, %scaled_max : f32
        %d = arith.subf %old, %new : f32
        %a = math.exp2 %d fastmath<afn> : f32
        tile.yield %new, %a : f32, f32
      }
      tile.elementwise ins(%S, %m_new : !tile.fragment<128x?xf32>, !tile.fragment<128x1xf32>)
                       outs(%S : !tile.fragment<128x?xf32>) {
      ^bb0(%s: f32, %new: f32):
        %neg = arith.negf %new : f32
        %d = math.fma %s, %scale, %neg : f32
        %p = math.exp2 %d fastmath<afn> : f32
        tile.yield %p : f32
      }
      tile.reduce sum %S into %l_tile dim 1 : !tile.fragment<128x?xf32>, !tile.fragment<128x1xf32>
      tile.elementwise ins(%l, %alpha, %l_tile, %m_new : !tile.fragment<128x1xf32>, !tile.fragment<128x1xf32>,
                           !tile.fragment<128x1xf32>, !tile.fragment<128x1xf32>)
                       outs(%l, %m : !tile.fragment<128x1xf32>, !tile.fragment<128x1xf32>) {
      ^bb0(%lo: f32, %a: f32, %ls: f32, %new: f32):
        %scaled = arith.mulf %lo, %a : f32
        %sum = arith.addf %scaled, %ls : f32
        tile.yield %sum, %new : f32, f32
      }
      // The previous tile's P V is done: P and O may change.
      tile.wait_gemms pending(0) {tile.stage = 1}
      tile.elementwise ins(%S : !tile.fragment<128x?xf32>) outs(%P : !tile.fragment<128x?xbf16>) {
      ^bb0(%p: f32):
        %pb = arith.truncf %p : f32 to bf16
        tile.yield %pb : bf16
      }
      tile.elementwise ins(%O, %alpha : !tile.fragment<128x?xf32>, !tile.fragment<128x1xf32>)
                       outs(%O : !tile.fragment<128x?xf32>) {
      ^bb0(%o: f32, %a: f32):
        %scaled = arith.mulf %o, %a : f32
        tile.yield %scaled : f32
      }
    }

    // Every consumer's products are done (the loop waited for them): once
    // all have said so, the next item's Q replaces this one's while this
    // one's output is written. (The CTA's items with a next one come first,
    // so the n-th arrival completes phase n mod 2.)
    scf.if %more {
      tile.mbarrier.arrive %read[%c0] : !tile.barrier<1>
      tile.mbarrier.wait %read[%c0], %phase : !tile.barrier<1>
      tile.copy %qkv[%next_row, %next_col] to %Qs[] barrier %loaded[%c0]
          : memref<?x?xbf16>, memref<128x?xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
    }
    tile.elementwise ins(%O, %l : !tile.fragment<128x?xf32>, !tile.fragment<128x1xf32>)
                     outs(%Ob : !tile.fragment<128x?xbf16>) {
    ^bb0(%o: f32, %sum: f32):
      %x = arith.divf %o, %sum : f32
      %y = arith.truncf %x : f32 to bf16
      tile.yield %y : bf16
    }
    tile.copy %Ob[] to %out_seq[%q0, %q_col] : !tile.fragment<128x?xbf16>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
  }
}

// Where the CTA's item of round `round` is: its sequence's first row, the first query of its tile
// in the sequence, where that tile starts in qkv (row, column) and its
// head. One CTA per item (not `persistent`): head-major, as a 2-D grid of
// query tiles by sequences and heads would run, so that the CTAs running
// together share their keys and values in L2; the longest tile of each
// head first when causal. Persistent CTAs dealt the items in turn:
// tile-major, the longest tiles of every head first when causal, odd
// rounds reversed (below), so that the CTAs' loads even out.
func.func private @item_place(%round: index, %cta: index, %ctas: index,
                              %whole_rounds: index,
                              %sequence_heads: index, %tiles: index,
                              %persistent: i1, %causal: i1, %heads: index,
                              %seq: index, %hd: index)
    -> (index, index, index, index, index) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  // Round r deals items r #CTAs .. to the CTAs in turn. Persistent causal
  // CTAs take odd whole rounds in reverse (the round's last item to the
  // first CTA), so that a CTA that took a longer item in one round takes
  // a shorter one in the next: dealt plainly, GPT-2's batch 8 left the
  // CTAs up to 11% apart, snaking 6%.
  %in_whole = arith.cmpi ult, %round, %whole_rounds : index
  %round_i64 = arith.index_cast %round : index to i64
  %odd = arith.trunci %round_i64 : i64 to i1
  %reverse_whole = arith.andi %in_whole, %odd : i1
  %dealt = arith.andi %persistent, %causal : i1
  %reverse = arith.andi %dealt, %reverse_whole : i1
  %last_cta = arith.subi %ctas, %c1 : index
  %mirrored = arith.subi %last_cta, %cta : index
  %place = arith.select %reverse, %mirrored, %cta : index
  %round_start = arith.muli %round, %ctas : index
  %w = arith.addi %round_start, %place : index
  %tile_major_rank = arith.divui %w, %sequence_heads : index
  %tile_major_bh = arith.remui %w, %sequence_heads : index
  %head_major_rank = arith.remui %w, %tiles : index
  %head_major_bh = arith.divui %w, %tiles : index
  %rank = arith.select %persistent, %tile_major_rank, %head_major_rank : index
  %bh = arith.select %persistent, %tile_major_bh, %head_major_bh : index
  %last = arith.subi %tiles, %c1 : index
  %reversed = arith.subi %last, %rank : index
  %qt = arith.select %causal, %reversed, %rank : index
  %b = arith.divui %bh, %heads : index
  %h = arith.remui %bh, %heads : index
  %first_row = arith.muli %b, %seq : index
  %q0 = arith.muli %qt, %c128 : index
  %row = arith.addi %first_row, %q0 : index
  %col = arith.muli %h, %hd : index
  return %first_row, %q0, %row, %col, %h : index, index, index, index, index
}
