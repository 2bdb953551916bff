// What tile-translate prints for an error in the input: the located error
// and its notes, not the generic dump of the op it is attached to ("see
// current operation"), which --mlir-print-op-on-diagnostic asks for.
// RUN: not tile-translate --tile-to-ptx --chip=sm_90a %s -o %t.ptx 2>&1 | sed -E 's|^.*error-output.mlir:|error-output.mlir:|'
// RUN: not tile-translate --tile-to-ptx --chip=sm_90a %s -o %t.ptx --mlir-print-op-on-diagnostic 2>&1 | grep -c 'see current operation'

tile.kernel @k(%y: memref<?xf32>) threads(32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<32xf32>
  %f = tile.alloc_fragment : !tile.fragment<32xf32>
  tile.copy %a[%c0] to %f[] : memref<32xf32>, !tile.fragment<32xf32>
  tile.copy %f[] to %y[%c0] : !tile.fragment<32xf32>, memref<?xf32>
}
