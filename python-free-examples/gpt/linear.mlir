// A GPT linear layer: C = act(A W^T + b), bf16 in and out, fp32 inside.
//
//   A: M x K (activations), W: N x K (the weight, PyTorch's nn.Linear
//   layout), b: N, C: M x N; act is GELU (tanh form) when %gelu is set,
//   the identity otherwise; without %has_bias there is no bias (GPT-2's
//   logits).
//
// gemm.mlir's persistent warp-specialised kernel (read it first) with
// 128 x 128 tiles of C, so that the epilogue fits in the consumers'
// registers beside the accumulator: the bias row is broadcast over the
// wgmma accumulator (each thread reads the bias of the columns it holds),
// GELU is applied in fp32, in place, and the copy to C rounds the tile to
// bf16. Edge
// tiles need no code: out-of-bounds loads read zeros and out-of-bounds
// stores are skipped.
//
// TMASTORE = 1 (linear__TMASTORE1) stages the bf16 tile through shared
// memory and stores it by TMA (../gemm/gemm-tma-store.mlir's epilogue):
// whole 128-byte rows go out instead of each thread's 4-byte pairs, and the
// stores overlap the next tile's main loop. TMA needs 16-byte global rows:
// N % 8 == 0 (Gpt2.h uses linear__TMASTORE0 otherwise, e.g. for the 50257
// logits).

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

tile.kernel @linear(%A: memref<?x?xbf16>, %W: memref<?x?xbf16>,
                    %bias: memref<?xbf16>, %C: memref<?x?xbf16>,
                    %has_bias: i1, %gelu: i1)
    params(TMASTORE: i1 = false)
    configs([TMASTORE = false], [TMASTORE = true])
    threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %tma_store = tile.param "TMASTORE" : i1
  %zero = arith.constant 0.0 : f32
  %zero_bf16 = arith.constant 0.0 : bf16
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %sqrt_2_over_pi = arith.constant 0.7978845608 : f32
  %cubic = arith.constant 0.044715 : f32
  %M = memref.dim %A, %c0 : memref<?x?xbf16>
  %N = memref.dim %W, %c0 : memref<?x?xbf16>
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %M, %c128 : index
  %tiles_n = arith.ceildivui %N, %c128 : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %ktiles = arith.ceildivui %K, %c64 : index
  %per_group = arith.muli %tiles_n, %c8 : index
  %first = gpu.block_id x
  %ctas = gpu.grid_dim x
  // The bias as a 1 x N row, for the copy of a tile's 128 columns.
  %bias_row = memref.expand_shape %bias [[0, 1]] output_shape [1, %N]
      : memref<?xbf16> into memref<1x?xbf16>

  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Ws = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x128xf32>
  %b = tile.alloc_fragment : !tile.fragment<1x128xbf16>
  // TMASTORE's two 128 x 64 bf16 halves of the tile (128-byte rows);
  // without it As stands in, unused (tile-specialize drops an unused tile
  // only where a parameter sizes it).
  %Cs0, %Cs1 = scf.if %tma_store -> (memref<128x64xbf16, #gpu.address_space<workgroup>>,
                                     memref<128x64xbf16, #gpu.address_space<workgroup>>) {
    %h0 = tile.alloc_shared {swizzle = 128} : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %h1 = tile.alloc_shared {swizzle = 128} : memref<128x64xbf16, #gpu.address_space<workgroup>>
    scf.yield %h0, %h1 : memref<128x64xbf16, #gpu.address_space<workgroup>>,
                         memref<128x64xbf16, #gpu.address_space<workgroup>>
  } else {
    scf.yield %As, %As : memref<128x64xbf16, #gpu.address_space<workgroup>>,
                         memref<128x64xbf16, #gpu.address_space<workgroup>>
  }

  scf.for %t = %first to %tiles step %ctas {
    %pm, %pn = func.call @grouped_tile_order(%t, %tiles_m, %per_group, %c8)
        : (index, index, index, index) -> (index, index)
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c128 : index

    // The tile's bias columns, loaded before the main loop so that their
    // latency hides behind it rather than delaying the epilogue.
    scf.if %has_bias {
      tile.copy %bias_row[%c0, %n0] to %b[] : memref<1x?xbf16>, !tile.fragment<1x128xbf16>
    } else {
      tile.fill %b, %zero_bf16 : !tile.fragment<1x128xbf16>, bf16
    }
    tile.fill %acc, %zero : !tile.fragment<128x128xf32>, f32
    tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(4) warp_specialized {
      %k0 = arith.muli %kt, %c64 : index
      tile.copy %A[%m0, %k0] to %As[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %W[%n0, %k0] to %Ws[]
          : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Ws, %acc {transpose_b}
          : memref<128x64xbf16, #gpu.address_space<workgroup>>,
            memref<128x64xbf16, #gpu.address_space<workgroup>>,
            !tile.fragment<128x128xf32>
    }

    tile.elementwise ins(%acc, %b : !tile.fragment<128x128xf32>, !tile.fragment<1x128xbf16>)
                     outs(%acc : !tile.fragment<128x128xf32>) {
    ^bb0(%a: f32, %bias_bf16: bf16):
      %bias_f32 = arith.extf %bias_bf16 : bf16 to f32
      %x = arith.addf %a, %bias_f32 : f32
      // GELU: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
      %x2 = arith.mulf %x, %x : f32
      %x3 = arith.mulf %x2, %x : f32
      %cx3 = arith.mulf %x3, %cubic : f32
      %inner = arith.addf %x, %cx3 : f32
      %arg = arith.mulf %inner, %sqrt_2_over_pi : f32
      %th = math.tanh %arg : f32
      %one_th = arith.addf %th, %one : f32
      %half_x = arith.mulf %x, %half : f32
      %g = arith.mulf %half_x, %one_th : f32
      %y = arith.select %gelu, %g, %x : f32
      tile.yield %y : f32
    }
    scf.if %tma_store {
      // Each half waits until the store of the previous tile's same half
      // has read its buffer, is rounded into it, and leaves by TMA while
      // the next tile's loop runs.
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c0] to %Cs0[] : !tile.fragment<128x128xf32>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      tile.copy %Cs0[] to %C[%m0, %n0] {tma, async} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<?x?xbf16>
      tile.wait_tma_stores pending(1)
      tile.copy %acc[%c0, %c64] to %Cs1[] : !tile.fragment<128x128xf32>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      %n1 = arith.addi %n0, %c64 : index
      tile.copy %Cs1[] to %C[%m0, %n1] {tma, async} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<?x?xbf16>
    } else {
      tile.copy %acc[] to %C[%m0, %n0] : !tile.fragment<128x128xf32>, memref<?x?xbf16>
    }
  }
  // No store may still read shared memory when the CTA ends.
  scf.if %tma_store {
    tile.wait_tma_stores pending(0)
  }
}
