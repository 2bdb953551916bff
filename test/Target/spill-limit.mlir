// tile-translate --max-spill-bytes: a configuration that spills more is an
// error naming it, or with --skip-failing-configs a warning, and the cubin
// and the kernel description leave it out. ptxas here is a stand-in
// (Inputs/fake-ptxas.sh) that reports 64 bytes of spills for TILE = 16384.
// A module of several kernels (the family's two configurations) is given
// to ptxas with --split-compile (parallel threads; --ptxas-threads=1: not).
// RUN: rm -rf %t.cuda %t.cubin %t2.cubin && mkdir -p %t.cuda/bin && cp %S/Inputs/fake-ptxas.sh %t.cuda/bin/ptxas && chmod +x %t.cuda/bin/ptxas
// RUN: not tile-translate --tile-to-cubin %s --cuda-root=%t.cuda --max-spill-bytes=0 -o %t.cubin 2>&1 | sed -E 's|^.*: error: |error: |'
// RUN: test ! -e %t.cubin && echo 'no cubin written'
// RUN: tile-translate --tile-to-cubin %s --cuda-root=%t.cuda --max-spill-bytes=128 -o %t.cubin --kernel-info=%t.kinfo && grep -c '^kernel' %t.kinfo
// RUN: tile-translate --tile-to-cubin %s --cuda-root=%t.cuda --max-spill-bytes=0 --skip-failing-configs -o %t.cubin --kernel-info=%t.kinfo 2>&1 | sed -E 's|^.*: warning: |warning: |'
// RUN: grep -E '^(kernel|config)' %t.kinfo
// RUN: env FAKE_PTXAS_ARGS=1 tile-translate --tile-to-cubin %s --cuda-root=%t.cuda -o %t3.cubin 2>&1 | grep -oE 'split-compile=[0-9]+'
// RUN: env FAKE_PTXAS_ARGS=1 tile-translate --tile-to-cubin %s --cuda-root=%t.cuda --ptxas-threads=1 -o %t3.cubin 2>&1 | grep -c 'split-compile' || true
// RUN: not env FAKE_PTXAS_SPILL_ALL=1 tile-translate --tile-to-cubin %s --cuda-root=%t.cuda --max-spill-bytes=0 --skip-failing-configs -o %t2.cubin 2>&1 | sed -e 's#^.*: error: #error: #' -e 's#^.*: warning: #warning: #'
// RUN: test ! -e %t2.cubin && echo 'no cubin written'

tile.kernel @square(%a: memref<?xf32>)
    params(TILE: index = 512 in [512, 16384])
    configs([TILE = 512], [TILE = 16384])
    threads(128) {
  %bx = gpu.block_id x
  %tile = tile.param "TILE" : index
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment [%tile] : !tile.fragment<?xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
  tile.elementwise ins(%x : !tile.fragment<?xf32>) outs(%x : !tile.fragment<?xf32>) {
  ^bb0(%u: f32):
    %s = arith.mulf %u, %u : f32
    tile.yield %s : f32
  }
  tile.copy %x[] to %a[%base] : !tile.fragment<?xf32>, memref<?xf32>
}
