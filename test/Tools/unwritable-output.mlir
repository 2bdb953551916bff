// An output path that cannot be written is one clear error and a non-zero
// exit, for -o and for --kernel-info; when the kernel description cannot be
// written the cubin is not written either (outputs land together or not at
// all).
// RUN: rm -f %t.cubin
// RUN: not tile-opt %s -o %t.missing/x.mlir 2>&1 | sed -E 's|/[^ ]*\.missing/|<dir>/|g'
// RUN: not tile-translate --tile-to-ptx --chip=sm_90a %s -o %t.missing/x.ptx 2>&1 | sed -E 's|/[^ ]*\.missing/|<dir>/|g'
// RUN: not tile-translate --tile-to-llvmir --chip=sm_90a %s -o %t.cubin --kernel-info=%t.missing/k.kinfo 2>&1 | sed -E 's|^.*: error: |error: |; s|/[^ ]*\.missing/|<dir>/|g'
// RUN: test ! -e %t.cubin && echo 'no output written'
tile.kernel @k(%x: memref<?xf32>) threads(32) {
}
