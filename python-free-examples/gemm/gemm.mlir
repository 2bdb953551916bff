// A bf16 GEMM for Hopper, written as a tile program: a kernel family.
//
//   C[M, N] = epilogue(A[M, K] * B[N, K]^T)  (bf16 inputs, fp32 accumulation)
//
// The kernel is persistent: it is launched with one CTA per SM (no more
// than there are tiles: the grid it states with tile.grid, which the
// generated launcher evaluates) and each CTA walks the BM x BN tiles of C
// (tile t, t + #CTAs, ...) in groups of GROUP tile-rows. For a tile, it walks K in steps of 64: TMA loads a BM x 64
// tile of A and a BN x 64 tile of B into shared memory, and the tensor
// cores (wgmma) accumulate their product into registers.
//
// `stages(STAGES)` asks the compiler to multi-buffer As and Bs STAGES
// deep, with the loads completing on a ring of mbarriers whose phases it
// computes. `warp_specialized` splits the work between warps: the compiler
// adds a producer warpgroup whose one warp issues the loads as soon as a
// slot is free, and the warpgroups written here wait for each slot,
// multiply, and release it.
//   - PINGPONG = 0: the THREADS = 256 consumers (two warpgroups) share each
//     tile; the producer makes 384 threads.
//   - PINGPONG = 1: the kernel is written for one warpgroup (THREADS = 128)
//     and the compiler runs two such teams on alternate tiles, so that one
//     team's epilogue overlaps the other's main loop.
//   - TMASTORE = 1: the tile leaves through shared memory by asynchronous
//     TMA stores instead of from registers, in chunks of CHUNK columns
//     (128-byte rows: 32 for an f32 C, 64 for bf16); TMA needs global rows
//     of a multiple of 16 bytes: N % 4 == 0 (f32), N % 8 == 0 (bf16). With
//     PINGPONG each team gets its own two staging buffers from the
//     compiler (so fewer STAGES fit).
//
//   - SPLITK > 1 (split-K, the plain product only: f32 C, no epilogue,
//     which a tile.static_assert refuses):
//     each tile's K loop is cut into SPLITK parts of whole 64-steps, and
//     the CTAs walk the SPLITK x tiles (part, tile) pairs, part by part, so
//     that shapes of few tiles and long K still fill the SMs. Each part
//     adds its sum into C (`red.global.add` from registers), which the
//     launcher zeroes before each launch (tile.zero_before_launch). Two
//     parts give the same bits every run (0 + a + b = 0 + b + a); more
//     parts add in the order they finish, so the last bits may differ
//     between runs.
//   - CLUSTER = 2 (not with PINGPONG): the CTAs run in clusters of two on
//     vertically adjacent tiles (rows m0 and m0 + BM, the same columns),
//     so both read the same tiles of B: `{multicast}` on that copy makes
//     each CTA load half of B's tile, which TMA multicast writes into both
//     (half of B's L2 requests; what pays where rows of K are not whole
//     128-byte lines). The compiler releases each pipeline slot to both
//     CTAs and synchronises the cluster (gemm-cluster.mlir, the example it
//     comes from). With CLUSTER = 1 the copy is a plain load.
//
// The epilogue, applied to the fp32 tile in registers before it is stored
// (the fused linear layers of gpt/ are configurations of this family):
//   - BIAS = 1 adds %bias[n] (bf16, N values) to every row;
//   - GELU = 1 then applies GELU (tanh form);
//   - RESIDUAL = 1 then adds %R[m, n] (bf16, M x N);
//   - OUT is C's element type: f32, or bf16 (rounded to nearest even).
// %bias and %R are read only where their flag is set (pass empty memrefs
// otherwise).
// Edge tiles need no code: out-of-bounds loads read zeros and out-of-bounds
// stores are skipped.
//
// The configurations below are the hand-picked ones gemm-check and
// gemm-bench name; tuning/gemm_bf16-h200.txt (tile-tune's table, which
// CMakeLists.txt passes with TUNING) adds those it chose, and
// gemm_kernels::gemm_bf16_tuned picks among them by shape (gemm-bench, the
// GPT-2 forward's linear layers). tile-translate compiles them all into
// one cubin, named
// gemm_bf16__BM<BM>_BN<BN>_..._CHUNK<CHUNK> (every parameter, in order);
// `--tile-values=NAME=V,...` compiles one kernel, @gemm_bf16, at those
// values and the defaults (128 x 256, f32 out, no epilogue).

// Tile t's place (pm, pn) among tiles_m x tiles_n tiles, in groups of
// `group` tile-rows (per_group = tiles_n * group tiles), so that CTAs
// running together share rows of A and columns of B in L2 (Triton's
// "grouped ordering").
func.func private @grouped_tile_order(%t: index, %tiles_m: index,
                                      %per_group: index, %group: index)
    -> (index, index) {
  %g = arith.divui %t, %per_group : index
  %first_m = arith.muli %g, %group : index
  %rows_left = arith.subi %tiles_m, %first_m : index
  %group_m = arith.minui %rows_left, %group : index
  %in_group = arith.remui %t, %per_group : index
  %pm_off = arith.remui %in_group, %group_m : index
  %pm = arith.addi %first_m, %pm_off : index
  %pn = arith.divui %in_group, %group_m : index
  func.return %pm, %pn : index, index
}

tile.kernel @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                       %C: memref<?x?x!tile.type_param<"OUT", f32>>,
                       %bias: memref<?xbf16>, %R: memref<?x?xbf16>)
    // BN: the TMA epilogue is written for at most 8 chunks (256 f32 columns).
    params(BM: index = 128 in [64, 128, 256],
           BN: index = 256 in [64, 128, 192, 256],
           GROUP: index = 8, STAGES: i32 = 4, THREADS: i32 = 256,
           PINGPONG: i1 = false, TMASTORE: i1 = false,
           OUT: type = f32 in [f32, bf16], BIAS: i1 = false,
           GELU: i1 = false, RESIDUAL: i1 = false,
           CHUNK: index = 32 in [32, 64],
           SPLITK: index = 1 in [1, 2, 3, 4, 6, 8],
           CLUSTER: index = 1 in [1, 2])
    configs([BM = 128, BN = 256],
            [BM = 256, BN = 128],
            [BM = 64, BN = 256, GROUP = 16, STAGES = 5, THREADS = 128,
             PINGPONG = true],
            [BM = 128, BN = 128, STAGES = 6, THREADS = 128, PINGPONG = true],
            [TMASTORE = true],
            // Split-K: each K loop in three parts (gemm-check).
            [BM = 128, BN = 128, STAGES = 6, SPLITK = 3],
            // Clusters of two sharing B by TMA multicast (gemm-check).
            [CLUSTER = 2],
            // The linear layers: bf16 out with a bias (and GELU), by TMA
            // where N % 8 == 0, and with a residual add. (Without a bias and
            // TMA, ptxas serialises this tile's wgmmas, C7514: gpt/ gives
            // the logits a zero bias instead.)
            [BN = 128, OUT = bf16, BIAS = true, TMASTORE = true, CHUNK = 64],
            [BN = 128, OUT = bf16, BIAS = true, GELU = true, TMASTORE = true,
             CHUNK = 64],
            [BN = 128, OUT = bf16, BIAS = true],
            [BN = 128, OUT = bf16, BIAS = true, RESIDUAL = true,
             TMASTORE = true, CHUNK = 64])
    threads(THREADS) cluster(CLUSTER, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %group = tile.param "GROUP" : index
  %tma_store = tile.param "TMASTORE" : i1
  %has_bias = tile.param "BIAS" : i1
  %gelu = tile.param "GELU" : i1
  %residual = tile.param "RESIDUAL" : i1
  %chunk = tile.param "CHUNK" : index
  %splitk = tile.param "SPLITK" : index
  %cluster = tile.param "CLUSTER" : index
  %zero = arith.constant 0.0 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %bm : index
  // The CLUSTER CTAs of a cluster take CLUSTER vertically adjacent tiles
  // (one tile without clusters): the clusters walk rows of such tiles.
  %cluster_rows = arith.ceildivui %tiles_m, %cluster : index
  %tiles_n = arith.ceildivui %N, %bn : index
  %tiles = arith.muli %cluster_rows, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  // GROUP tile-rows are GROUP / CLUSTER rows of the clusters' tiles.
  %cluster_group = arith.divui %group, %cluster : index
  %per_group = arith.muli %tiles_n, %cluster_group : index
  // The work: SPLITK parts of each cluster tile's K loop (one part
  // without split-K).
  %work = arith.muli %tiles, %splitk : index
  %split = arith.cmpi ugt, %splitk, %c1 : index
  // The grid, for the host: a cluster per part, no more clusters than the
  // SMs hold at once.
  %sms = tile.num_sms : index
  %cluster_slots = arith.divui %sms, %cluster : index
  %clusters_launched = arith.minui %work, %cluster_slots : index
  %ctas_launched = arith.muli %clusters_launched, %cluster : index
  tile.grid %ctas_launched
  // The parts add into C: the host zeroes it first. They add partial sums,
  // to which no epilogue applies.
  tile.zero_before_launch %C if %split : memref<?x?x!tile.type_param<"OUT", f32>>
  %true = arith.constant true
  %bias_or_gelu = arith.ori %has_bias, %gelu : i1
  %epilogue = arith.ori %bias_or_gelu, %residual : i1
  %split_epilogue = arith.andi %split, %epilogue : i1
  %no_split_epilogue = arith.xori %split_epilogue, %true : i1
  tile.static_assert %no_split_epilogue, "SPLITK > 1 adds partial sums into C, which takes no epilogue (BIAS, GELU, RESIDUAL)"
  %clustered = arith.cmpi ugt, %cluster, %c1 : index
  %pingpong = tile.param "PINGPONG" : i1
  %pingpong_clustered = arith.andi %pingpong, %clustered : i1
  %late_bias = arith.andi %has_bias, %pingpong : i1
  %early_bias = arith.xori %late_bias, %has_bias : i1
  %no_pingpong_clustered = arith.xori %pingpong_clustered, %true : i1
  tile.static_assert %no_pingpong_clustered, "CLUSTER = 2 shares B by TMA multicast, which ping-pong teams do not take: PINGPONG = 0"
  %group_rem = arith.remui %group, %cluster : index
  %whole_groups = arith.cmpi eq, %group_rem, %c0 : index
  tile.static_assert %whole_groups, "GROUP tile-rows must be whole rows of clusters: GROUP a multiple of CLUSTER"
  // This cluster's place among the clusters and this CTA's in it (without
  // clusters, the CTA's; the selects fold away).
  %cluster_id = gpu.cluster_id x
  %block_id = gpu.block_id x
  %first = arith.select %clustered, %cluster_id, %block_id : index
  %cluster_count = gpu.cluster_dim x
  %grid_ctas = gpu.grid_dim x
  %ctas = arith.select %clustered, %cluster_count, %grid_ctas : index
  %cluster_rank = gpu.cluster_block_id x
  %rank = arith.select %clustered, %cluster_rank, %c0 : index

  %As = tile.alloc_shared [%bm] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%bn] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
  // TMASTORE's two 128-byte-swizzled buffers of BM x CHUNK (unused, and
  // dropped, without it).
  %Cs0 = tile.alloc_shared [%bm, %chunk] : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
  %Cs1 = tile.alloc_shared [%bm, %chunk] : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
  // BIAS's row of BN values and RESIDUAL's tile (unused without them).
  %b = tile.alloc_fragment [%bn] : !tile.fragment<1x?xbf16>
  %r = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xbf16>
  // The bias as a 1 x N row, for the copy of a tile's columns.
  %N_bias = memref.dim %bias, %c0 : memref<?xbf16>
  %bias_row = memref.expand_shape %bias [[0, 1]] output_shape [1, %N_bias]
      : memref<?xbf16> into memref<1x?xbf16>

  scf.for %w = %first to %work step %ctas {
    // Work item w: part p = w / tiles of tile w mod tiles, K steps
    // [p KT / SPLITK, (p + 1) KT / SPLITK). (Without split-K: tile w, the
    // whole K loop; the selects fold away.)
    %p = arith.divui %w, %tiles : index
    %t_split = arith.remui %w, %tiles : index
    %t = arith.select %split, %t_split, %w : index
    %p_next = arith.addi %p, %c1 : index
    %kb_x = arith.muli %p, %ktiles : index
    %kb_split = arith.divui %kb_x, %splitk : index
    %ke_x = arith.muli %p_next, %ktiles : index
    %ke_split = arith.divui %ke_x, %splitk : index
    %kb = arith.select %split, %kb_split, %c0 : index
    %ke = arith.select %split, %ke_split, %ktiles : index
    %pm_cluster, %pn = func.call @grouped_tile_order(%t, %cluster_rows, %per_group, %cluster_group)
        : (index, index, index, index) -> (index, index)
    // This CTA's tile-row in its cluster's (below M for the second CTA of
    // a last odd row: its loads read zeros, its stores are skipped, and it
    // still loads its half of B for its partner).
    %pm_first = arith.muli %pm_cluster, %cluster : index
    %pm = arith.addi %pm_first, %rank : index
    %m0 = arith.muli %pm, %bm : index
    %n0 = arith.muli %pn, %bn : index

    // The bias columns of the tile, loaded before the main loop so that
    // their latency hides behind it; ping-pong teams load them after it
    // (the other team's products hide the latency, and the registers are
    // not held through the loop).
    scf.if %early_bias {
      tile.copy %bias_row[%c0, %n0] to %b[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    }
    tile.fill %acc, %zero : !tile.fragment<?x?xf32>, f32
    tile.pipelined_for %kt = %kb to %ke step %c1 stages(STAGES) warp_specialized pingpong(PINGPONG) {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<?x64xbf16, #gpu.address_space<workgroup>>
      // The cluster's CTAs share B's tile: each loads 1 / CLUSTER of its
      // rows and TMA multicast writes them into every CTA's (a plain load
      // without clusters).
      tile.copy %B[%n0, %k0] to %Bs[] {multicast}
          : memref<?x?xbf16>, memref<?x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<?x64xbf16, #gpu.address_space<workgroup>>,
            memref<?x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<?x?xf32>
    }

    scf.if %late_bias {
      tile.copy %bias_row[%c0, %n0] to %b[] : memref<1x?xbf16>, !tile.fragment<1x?xbf16>
    }
    scf.if %has_bias {
      tile.elementwise ins(%acc, %b : !tile.fragment<?x?xf32>, !tile.fragment<1x?xbf16>)
                       outs(%acc : !tile.fragment<?x?xf32>) {
      ^bb0(%x: f32, %bias_bf16: bf16):
        %bias_f32 = arith.extf %bias_bf16 : bf16 to f32
        %y = arith.addf %x, %bias_f32 : f32
        tile.yield %y : f32
      }
    }
    scf.if %gelu {
      // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as
      // h + h tanh((c s x^2 + s) x) with h = x / 2: five operations and a
      // tanh (arith's mulf and addf are not contracted into FMAs for us;
      // each constant is an FMA's or a product's one immediate operand).
      tile.elementwise ins(%acc : !tile.fragment<?x?xf32>)
                       outs(%acc : !tile.fragment<?x?xf32>) {
      ^bb0(%x: f32):
        %half = arith.constant 0.5 : f32
        %s = arith.constant 0.7978845608 : f32
        %cs = arith.constant 0.0356774081 : f32
        %x2 = arith.mulf %x, %x : f32
        %poly = math.fma %x2, %cs, %s : f32
        %arg = arith.mulf %poly, %x : f32
        // afn: one tanh.approx.f32 (error about 2^-11, below bf16's
        // rounding) rather than libdevice's tanhf (tile-lower-fast-math).
        %th = math.tanh %arg fastmath<afn> : f32
        %h = arith.mulf %x, %half : f32
        %y = math.fma %h, %th, %h : f32
        tile.yield %y : f32
      }
    }
    scf.if %residual {
      tile.copy %R[%m0, %n0] to %r[] : memref<?x?xbf16>, !tile.fragment<?x?xbf16>
      tile.elementwise ins(%acc, %r : !tile.fragment<?x?xf32>, !tile.fragment<?x?xbf16>)
                       outs(%acc : !tile.fragment<?x?xf32>) {
      ^bb0(%x: f32, %res_bf16: bf16):
        %res = arith.extf %res_bf16 : bf16 to f32
        %y = arith.addf %x, %res : f32
        tile.yield %y : f32
      }
    }

    scf.if %split {
      tile.copy %acc[] to %C[%m0, %n0] {atomic_add} : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>>
    } else {
    scf.if %tma_store {
      // The tile in BN / CHUNK chunks, chunk j through buffer j % 2 once
      // the store two chunks back has read it (pending(1)); the last
      // stores overlap the next tile's main loop.
      %c0_ = arith.constant 0 : index
      %c1_ = arith.constant 1 : index
      %c2_ = arith.constant 2 : index
      %c3_ = arith.constant 3 : index
      %c4_ = arith.constant 4 : index
      %c5_ = arith.constant 5 : index
      %c6_ = arith.constant 6 : index
      %c7_ = arith.constant 7 : index
      %col0 = arith.muli %chunk, %c0_ : index
      %in0 = arith.cmpi ult, %col0, %bn : index
      scf.if %in0 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col0] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc0 = arith.addi %n0, %col0 : index
        tile.copy %Cs0[] to %C[%m0, %nc0] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
      %col1 = arith.muli %chunk, %c1_ : index
      %in1 = arith.cmpi ult, %col1, %bn : index
      scf.if %in1 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col1] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc1 = arith.addi %n0, %col1 : index
        tile.copy %Cs1[] to %C[%m0, %nc1] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
      %col2 = arith.muli %chunk, %c2_ : index
      %in2 = arith.cmpi ult, %col2, %bn : index
      scf.if %in2 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col2] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc2 = arith.addi %n0, %col2 : index
        tile.copy %Cs0[] to %C[%m0, %nc2] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
      %col3 = arith.muli %chunk, %c3_ : index
      %in3 = arith.cmpi ult, %col3, %bn : index
      scf.if %in3 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col3] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc3 = arith.addi %n0, %col3 : index
        tile.copy %Cs1[] to %C[%m0, %nc3] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
      %col4 = arith.muli %chunk, %c4_ : index
      %in4 = arith.cmpi ult, %col4, %bn : index
      scf.if %in4 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col4] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc4 = arith.addi %n0, %col4 : index
        tile.copy %Cs0[] to %C[%m0, %nc4] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
      %col5 = arith.muli %chunk, %c5_ : index
      %in5 = arith.cmpi ult, %col5, %bn : index
      scf.if %in5 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col5] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc5 = arith.addi %n0, %col5 : index
        tile.copy %Cs1[] to %C[%m0, %nc5] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
      %col6 = arith.muli %chunk, %c6_ : index
      %in6 = arith.cmpi ult, %col6, %bn : index
      scf.if %in6 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col6] to %Cs0[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc6 = arith.addi %n0, %col6 : index
        tile.copy %Cs0[] to %C[%m0, %nc6] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
      %col7 = arith.muli %chunk, %c7_ : index
      %in7 = arith.cmpi ult, %col7, %bn : index
      scf.if %in7 {
        tile.wait_tma_stores pending(1)
        tile.copy %acc[%c0, %col7] to %Cs1[] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>
        %nc7 = arith.addi %n0, %col7 : index
        tile.copy %Cs1[] to %C[%m0, %nc7] {tma, async} : memref<?x?x!tile.type_param<"OUT", f32>, #tile.shared<swizzle = 128>>, memref<?x?x!tile.type_param<"OUT", f32>>
      }
    } else {
      tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<?x?xf32>, memref<?x?x!tile.type_param<"OUT", f32>>
    }
    }
  }
  // No store may still read shared memory when the CTA ends.
  scf.if %tma_store {
    tile.wait_tma_stores pending(0)
  }
}
