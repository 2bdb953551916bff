// An error from ptxas is reported at the kernel it is in (the tile.kernel's
// location in this file), naming the kernel and quoting the PTX line, not
// at the module (hardening, error messages). A stand-in ptxas
// (Inputs/fake-ptxas.sh) fails on the first line that matches a pattern:
// one in the second kernel's body, then none at all (a log without a line
// stays at the module).
// RUN: rm -rf %t.cuda && mkdir -p %t.cuda/bin && cp %S/Inputs/fake-ptxas.sh %t.cuda/bin/ptxas && chmod +x %t.cuda/bin/ptxas
// RUN: not env FAKE_PTXAS_ERROR='mul\.rn\.f32' tile-translate --tile-to-cubin --cuda-root=%t.cuda --chip=sm_90a %s -o %t.cubin 2>&1 | sed -E 's|^[^ ]*ptxas-error-location.mlir:|<this file>:|; s|[^ ]*\.ptx|<ptx>|; s|line [0-9]+;|line N;|'
// RUN: not env FAKE_PTXAS_ERROR='^NO LINE MATCHES' tile-translate --tile-to-cubin --cuda-root=%t.cuda --chip=sm_90a %s -o %t.cubin 2>&1 | sed -E 's|^[^ ]*ptxas-error-location.mlir:|<this file>:|; s|[^ ]*\.ptx|<ptx>|'

tile.kernel @first(%x: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %x[%c0] to %f[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.copy %f[] to %x[%c0] : !tile.fragment<512xf32>, memref<?xf32>
}

tile.kernel @second(%x: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %x[%c0] to %f[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.elementwise ins(%f : !tile.fragment<512xf32>) outs(%f : !tile.fragment<512xf32>) {
  ^bb0(%a: f32):
    %b = arith.mulf %a, %a : f32
    tile.yield %b : f32
  }
  tile.copy %f[] to %x[%c0] : !tile.fragment<512xf32>, memref<?xf32>
}
