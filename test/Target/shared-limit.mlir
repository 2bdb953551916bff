// A configuration that needs more shared memory than the chip has is an
// error naming the kernel, or with --skip-failing-configs a warning, and
// the PTX and the kernel description leave it out (sm_80: 163 KiB per CTA;
// ROWS = 1536 needs 193 KiB). With every configuration over, an error and
// no output.
// RUN: rm -f %t.ptx %t2.ptx %t.kinfo
// RUN: not tile-translate --tile-to-ptx --chip=sm_80 %s -o %t.ptx 2>&1 | sed -E -e 's|^.*: error: |error: |' -e 's|^.*: note: |note: |'
// RUN: test ! -e %t.ptx && echo 'no PTX written'
// RUN: tile-translate --tile-to-ptx --chip=sm_80 %s -o %t.ptx --skip-failing-configs --kernel-info=%t.kinfo 2>&1 | sed -E 's|^.*: warning: |warning: |'
// RUN: grep -E '^(kernel|config)' %t.kinfo
// RUN: grep -c '^.visible .entry' %t.ptx
// RUN: not tile-translate --tile-to-ptx --chip=sm_80 %s --tile-values=ROWS=1536 -o %t2.ptx --skip-failing-configs 2>&1 | sed -E -e 's|^.*: error: |error: |' -e 's|^.*: warning: |warning: |' -e 's|^.*: note: |note: |'
// RUN: test ! -e %t2.ptx && echo 'no PTX written'

tile.kernel @stage(%a: memref<?x?xf32>)
    params(ROWS: index = 256 in [256, 1536])
    configs([ROWS = 256], [ROWS = 1536])
    threads(128) {
  %c0 = arith.constant 0 : index
  %rows = tile.param "ROWS" : index
  %bx = gpu.block_id x
  %r0 = arith.muli %bx, %rows : index
  %s = tile.alloc_shared [%rows] : memref<?x32xf32, #gpu.address_space<workgroup>>
  tile.copy %a[%r0, %c0] to %s[] : memref<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
  tile.copy %s[] to %a[%r0, %c0] : memref<?x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}
