// All-gather + GEMM with the communication overlapped (tensor parallelism's
// first linear layer: the tokens are sharded over the GPUs, the weight's
// output columns too):
//
//   C[M, N] = A[M, K] * B[N, K]^T, A gathered from every rank's M / n rows
//
// A is a symmetric buffer of all M rows: this rank's part is already in its
// slot (rows me * part ..), and each peer's part arrives by a put with a
// signal (the host's, through NVSHMEM on a stream of its own: the copy
// engine between GPUs of a node, so no SM is taken from the GEMM): the put
// of rank r's part sets this rank's signal word r to `epoch`.
//
// The GEMM is gemm.mlir's persistent, warp-specialised one (BM x BN tiles,
// K in steps of 64, TMA loads on a ring of STAGES slots, a producer warp,
// the TMA-store epilogue in CHUNK-column pieces) with two changes:
//   - the tile-rows are walked from this rank's own part on (tile-row pm
//     is the (pm + first)-th, first the first tile-row that starts in this
//     rank's part), so that the first tiles need nothing from a peer and
//     the later ones the parts that rank me + 1, me + 2, ... send first;
//   - before a tile's K loop, `tile.wait` on the signal words of the parts
//     the tile's rows come from (at most two: a tile-row may straddle two
//     parts, which hold at least 128 rows each; the host checks). tile-pipeline-loops gives that wait to the producer too,
//     which runs it before it loads the tile (a wait before the k-loop of a
//     tile loop gates its loads), so the GEMM starts on the first part that
//     arrives and stalls only where a part is late.
// The words of this rank's own part are not waited for (a wait for >= 0).
// A wait is a spin on the local word (mechanism p2p), with no call.
//
// A family over the tile (BN), the ring's depth and the tile order's
// groups; the host picks by shape (allgather-gemm.cpp).

// Tile t's place (pm, pn) among tiles_m x tiles_n tiles, in groups of
// `group` tile-rows (Triton's grouped ordering, as in gemm.mlir).
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

// The value to wait for on the word of part `r`: `epoch`, or 0 (at once)
// for this rank's own part.
func.func private @awaited(%r: index, %me: index, %epoch: i64) -> i64 {
  %c0_i64 = arith.constant 0 : i64
  %own = arith.cmpi eq, %r, %me : index
  %value = arith.select %own, %c0_i64, %epoch : i64
  func.return %value : i64
}

tile.kernel @allgather_gemm(%A: memref<?x?xbf16> {tile.symmetric},
                            %B: memref<?x?xbf16>, %C: memref<?x?xbf16>,
                            %flags: memref<?xi64> {tile.symmetric},
                            %epoch: i64, %rank: i32, %ranks: i32)
    params(BN: index = 256 in [128, 256], GROUP: index = 8,
           STAGES: i32 = 4)
    configs([BN = 256], [BN = 128, STAGES = 6], [BN = 256, GROUP = 16])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bn = tile.param "BN" : index
  %group = tile.param "GROUP" : index
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %B, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %c128 : index
  %tiles_n = arith.ceildivui %N, %bn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %group : index
  %sms = tile.num_sms : index
  %ctas = arith.minui %tiles, %sms : index
  tile.grid %ctas
  // This rank's part: rows [me * part, (me + 1) * part), M = n * part.
  // (The host passes the rank and their number: tile.rank would be a call
  // of NVSHMEM's, and a call makes ptxas serialise the wgmmas.)
  %me = arith.index_castui %rank : i32 to index
  %n = arith.index_castui %ranks : i32 to index
  %part = arith.divui %M, %n : index
  %own_row = arith.muli %me, %part : index
  %first = arith.ceildivui %own_row, %c128 : index
  %block_id = gpu.block_id x
  %grid = gpu.grid_dim x

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%bn] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment [%bn] : !tile.fragment<128x?xf32>
  %Cs0 = tile.alloc_shared : memref<128x64xbf16, #tile.shared<swizzle = 128>>
  %Cs1 = tile.alloc_shared : memref<128x64xbf16, #tile.shared<swizzle = 128>>
  %zero = arith.constant 0.0 : f32

  scf.for %t = %block_id to %tiles step %grid {
    %pm_grouped, %pn = func.call @grouped_tile_order(%t, %tiles_m, %per_group, %group)
        : (index, index, index, index) -> (index, index)
    // From this rank's own tile-rows on, round to the start.
    %pm_from_first = arith.addi %pm_grouped, %first : index
    %pm = arith.remui %pm_from_first, %tiles_m : index
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %bn : index
    // The parts of the tile's first and last rows.
    %m_end = arith.addi %m0, %c128 : index
    %m_last_end = arith.minui %m_end, %M : index
    %m_last = arith.subi %m_last_end, %c1 : index
    %r_first = arith.divui %m0, %part : index
    %r_last = arith.divui %m_last, %part : index
    %v_first = func.call @awaited(%r_first, %me, %epoch) : (index, index, i64) -> i64
    %v_last = func.call @awaited(%r_last, %me, %epoch) : (index, index, i64) -> i64
    tile.wait %flags[%r_first] ge %v_first level world : memref<?xi64>
    tile.wait %flags[%r_last] ge %v_last level world : memref<?xi64>

    tile.fill %acc, %zero : !tile.fragment<128x?xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(STAGES) warp_specialized {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%n0, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<?x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<?x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x?xf32>
    }

    // The tile in 64-column chunks (128-byte rows of bf16), chunk j through
    // buffer j % 2 once the store two chunks back has read it.
    %col1 = arith.constant 64 : index
    %col2 = arith.constant 128 : index
    %col3 = arith.constant 192 : index
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %c0] to %Cs0[] : !tile.fragment<128x?xf32>, memref<128x64xbf16, #tile.shared<swizzle = 128>>
    tile.copy %Cs0[] to %C[%m0, %n0] {tma, async} : memref<128x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
    tile.wait_tma_stores pending(1)
    tile.copy %acc[%c0, %col1] to %Cs1[] : !tile.fragment<128x?xf32>, memref<128x64xbf16, #tile.shared<swizzle = 128>>
    %nc1 = arith.addi %n0, %col1 : index
    tile.copy %Cs1[] to %C[%m0, %nc1] {tma, async} : memref<128x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
    %in2 = arith.cmpi ult, %col2, %bn : index
    scf.if %in2 {
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %col2] to %Cs0[] : !tile.fragment<128x?xf32>, memref<128x64xbf16, #tile.shared<swizzle = 128>>
      %nc2 = arith.addi %n0, %col2 : index
      tile.copy %Cs0[] to %C[%m0, %nc2] {tma, async} : memref<128x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %col3] to %Cs1[] : !tile.fragment<128x?xf32>, memref<128x64xbf16, #tile.shared<swizzle = 128>>
      %nc3 = arith.addi %n0, %col3 : index
      tile.copy %Cs1[] to %C[%m0, %nc3] {tma, async} : memref<128x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
    }
  }
  // No store may still read shared memory when the CTA ends.
  tile.wait_tma_stores pending(0)
}
