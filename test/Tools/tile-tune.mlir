// tile-tune: compiling a family's candidates (tile-translate, here), the
// manifest and configuration list it writes for `measure`, and its
// refusals; `measure` without a GPU exits 77 and says why.
// REQUIRES: ptxas tile-tune
// RUN: rm -rf %t.dir
// RUN: tile-tune compile %s --space %S/Inputs/axpy.space -o %t.dir --tile-translate tile-translate | sed -e 's/ in [0-9.]* s/ in N s/' -e 's|%t|TMP|g'
// RUN: sed 's/tile-tune [0-9][0-9.]*/tile-tune V/' %t.dir/tune.manifest %t.dir/candidates.configs
// RUN: grep -c '^kernel' %t.dir/candidates.kinfo
// tile-tune does not know how to feed @axpy (neither a GEMM nor a row
// family): measuring it is refused before any GPU is asked for.
// RUN: not tile-tune measure %t.dir --check-only
// gpt/'s softmax family, which it knows: without a GPU, exit 77.
// RUN: tile-tune compile %S/../../python-free-examples/gpt/softmax.mlir --space %S/../../python-free-examples/gpt/tuning/softmax.space -o %t.rows > /dev/null
// (No GPU for this line even where there is one.)
// RUN: env CUDA_VISIBLE_DEVICES= tile-tune measure %t.rows --check-only; echo "measure without a GPU: exit $?"
// gpt/'s attention family: its reference (PyTorch's cuDNN attention) is
// measured beside, so measuring without --reference is refused before a
// GPU is asked for; checking alone needs none; --reference is refused for
// a family whose reference runs here; CAUSAL is a flag (0 or 1).
// RUN: tile-tune compile %S/../../python-free-examples/gpt/attention.mlir --space %S/Inputs/attention.space -o %t.attn | sed -e 's/ in [0-9.]* s/ in N s/' -e 's|%t|TMP|g'
// RUN: not tile-tune measure %t.attn
// RUN: env CUDA_VISIBLE_DEVICES= tile-tune measure %t.attn --check-only; echo "check-only without a GPU: exit $?"
// RUN: not tile-tune measure %t.rows --reference %S/Inputs/attention.shapes
// RUN: not tile-tune measure %t.attn --check-only --shapes 1x2x2x256x2
// RUN: not tile-tune compile %s --space %S/Inputs/bad.space -o %t.bad
// RUN: not tile-tune compile %s --space %S/Inputs/no-such.space -o %t.bad
// RUN: not tile-tune compile %s -o %t.bad
// RUN: not tile-tune measure %t.rows --shapes 0x5
// RUN: not tile-tune measure %t.nodir
// RUN: not tile-tune frobnicate %t.dir
// RUN: tile-tune --version | sed 's/[0-9][0-9.]*/V/'

tile.kernel @axpy(%a: memref<?xf32>, %c: memref<?xf32>)
    params(TILE: index = 1024 in [512, 1024, 2048], THREADS: i32 = 128)
    configs([TILE = 1024])
    threads(THREADS) {
  %bx = gpu.block_id x
  %tile = tile.param "TILE" : index
  %c0 = arith.constant 0 : index
  %n = memref.dim %c, %c0 : memref<?xf32>
  %ctas = arith.ceildivui %n, %tile : index
  tile.grid %ctas
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment [%tile] : !tile.fragment<?xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
  tile.copy %x[] to %c[%base] : !tile.fragment<?xf32>, memref<?xf32>
}
