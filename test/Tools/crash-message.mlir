// A crash in tile-opt or tile-translate prints one line naming what was
// running and what to do, exits 1 (not by a signal), dumps no stack and
// writes no output file. The crashes are upstream's: memref.dim's folder on
// a negative index, and the LLVM IR export of a GEP over `index`.
// RUN: rm -f %t.out
// RUN: not tile-opt %s --pass-pipeline='builtin.module(tile-attach-target{chip=sm_80},canonicalize)' -o %t.out
// RUN: test ! -e %t.out && echo 'no output written'
// RUN: not tile-opt %s --pass-pipeline='builtin.module(tile-attach-target{chip=sm_80},canonicalize)' --mlir-pass-pipeline-crash-reproducer=%t.repro -o %t.out
// RUN: test -s %t.repro && echo 'reproducer written'
// RUN: not echo 'llvm.func @k(%p: !llvm.ptr) attributes {nvvm.kernel} { %c = llvm.mlir.constant(1 : i64) : i64 %q = llvm.getelementptr %p[%c] : (!llvm.ptr, i64) -> !llvm.ptr, index llvm.return }' | tile-translate --tile-to-ptx -o %t.out
// RUN: test ! -e %t.out && echo 'no output written'

func.func @f(%m: memref<?xf32>) -> index {
  %c = arith.constant -1 : index
  %d = memref.dim %m, %c : memref<?xf32>
  return %d : index
}
