// Cannon's GEMM over a Q x Q grid of PEs (TileScale's example_cannon):
//
//   C = A B^T, A: M x K, B: N x K (bf16), C in fp32; PE (r, c), number
//   r * Q + c, computes C's block (r, c), M/Q x N/Q, as the sum over the Q
//   blocks j of K of A(r, j) B(c, j)^T.
//
// Each PE starts with the skewed pair A(r, (r + c) mod Q) and
// B(c, (r + c) mod Q) in slot 0 of its A and B; at step s it multiplies
// slot s, A(r, (r + c + s) mod Q) and B(c, (r + c + s) mod Q), which its
// right neighbour (r, c + 1) and lower neighbour (r + 1, c) held at step
// s - 1: each PE forwards its slot s - 1 to its left and upper neighbours'
// slot s (the host's comm stream, a put with a signal through the copy
// engine, once the block has arrived: cannon.cpp), so every block crosses
// one link a step, as in Cannon's algorithm.
//
// A holds Q slots of Ml x Kl (the rows of slot s start at s * Ml), B Q
// slots of Nl x Kl; the signal word s says slot s of A has arrived, word
// Q + s slot s of B (set to the call's epoch; slot 0 is this PE's own and
// is waited for with 0, at once).
//
// The steps run in order, as in Cannon's algorithm: each CTA takes its
// tiles (t = its index + j * the grid, as a persistent GEMM does) through
// step 0, then through step 1, and so on, storing step 0's product into C
// and adding each later step's with atomic adds. The thread that adds an
// element is the one that stored it (the same fragment layout), so its
// own program order puts the store first: C needs no zeroing, and only
// steps after the first add. So all of step 0 runs on the PE's own blocks
// while the copy engines move step 1's, and so on; a tile's step s > 0
// waits for its step's two words before its k-loop (tile-pipeline-loops
// gives the wait to the producer warp too, which then loads nothing
// early). With the steps inside each tile's k-loop instead (every tile
// over the whole K, its accumulator in registers), every tile would need
// step 1's blocks half-way through its first k-loop, and little but the
// first tiles' first halves would overlap the copies (measured in
// docs/measurements.md, "Cannon's GEMM"). With (step, tile) work items
// spread over all CTAs, as gemm.mlir's split-K, a step's add could come
// before another CTA's store: C zeroed and every step added, which
// measured slower.
//
// The GEMM is allgather-gemm.mlir's persistent, warp-specialised one
// (128 x BN tiles, K in steps of 64, TMA loads on a ring of STAGES slots).
//
// Rows of a tile past a slot's Ml read the next slot's (or TMA's zeros
// past the last): they feed only rows of C past Ml, which the store leaves
// out.
// Tile t's place (pm, pn) among tiles_m x tiles_n tiles, in groups of
// `group` tile-rows (Triton's grouped ordering, as in gemm.mlir; a helper
// cannot be shared between files yet).
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

tile.kernel @cannon_gemm(%A: memref<?x?xbf16> {tile.symmetric},
                         %B: memref<?x?xbf16> {tile.symmetric},
                         %C: memref<?x?xf32>,
                         %flags: memref<?xi64> {tile.symmetric},
                         %epoch: i64, %steps: i32)
    params(BN: index = 256 in [128, 256], GROUP: index = 8,
           STAGES: i32 = 4)
    configs([BN = 256], [BN = 128, STAGES = 6], [BN = 256, GROUP = 16])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c0_i64 = arith.constant 0 : i64
  %bn = tile.param "BN" : index
  %group = tile.param "GROUP" : index
  %Ml = memref.dim %C, %c0 : memref<?x?xf32>
  %Nl = memref.dim %C, %c1 : memref<?x?xf32>
  %Kl = memref.dim %A, %c1 : memref<?x?xbf16>
  %q = arith.index_castui %steps : i32 to index
  %tiles_m = arith.ceildivui %Ml, %c128 : index
  %tiles_n = arith.ceildivui %Nl, %bn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ksteps = arith.ceildivui %Kl, %c64 : index
  %per_group = arith.muli %tiles_n, %group : index
  %sms = tile.num_sms : index
  %ctas = arith.minui %tiles, %sms : index
  tile.grid %ctas
  %block_id = gpu.block_id x
  %grid = gpu.grid_dim x
  // This CTA's tiles, block_id + j * grid, each through every step.
  %tiles_after = arith.subi %tiles, %block_id : index
  %mine = arith.ceildivui %tiles_after, %grid : index
  %work = arith.muli %q, %mine : index

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared [%bn] : memref<?x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment [%bn] : !tile.fragment<128x?xf32>
  %zero = arith.constant 0.0 : f32

  scf.for %w = %c0 to %work step %c1 {
    // Work item w: step s = w / mine, of this CTA's tile j = w mod mine.
    %s = arith.divui %w, %mine : index
    %j = arith.remui %w, %mine : index
    %j_ctas = arith.muli %j, %grid : index
    %t = arith.addi %block_id, %j_ctas : index
    %pm, %pn = func.call @grouped_tile_order(%t, %tiles_m, %per_group, %group)
        : (index, index, index, index) -> (index, index)
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %bn : index
    // The step's blocks: this PE's own at step 0, else once they arrived.
    %own = arith.cmpi eq, %s, %c0 : index
    %awaited = arith.select %own, %c0_i64, %epoch : i64
    %b_word = arith.addi %q, %s : index
    tile.wait %flags[%s] ge %awaited level world : memref<?xi64>
    tile.wait %flags[%b_word] ge %awaited level world : memref<?xi64>
    %a_row0 = arith.muli %s, %Ml : index
    %a_row = arith.addi %a_row0, %m0 : index
    %b_row0 = arith.muli %s, %Nl : index
    %b_row = arith.addi %b_row0, %n0 : index

    tile.fill %acc, %zero : !tile.fragment<128x?xf32>, f32
    tile.pipelined_for %kt = %c0 to %ksteps step %c1 stages(STAGES) warp_specialized {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%a_row, %k0] to %As[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %B[%b_row, %k0] to %Bs[]
          : memref<?x?xbf16>, memref<?x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<?x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x?xf32>
    }
    scf.if %own {
      tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x?xf32>, memref<?x?xf32>
    } else {
      tile.copy %acc[] to %C[%m0, %n0] {atomic_add} : !tile.fragment<128x?xf32>, memref<?x?xf32>
    }
  }
}
