// tile-specialize{values=...}: a value outside the declared list, and a
// name no kernel declares.
// RUN: not tile-opt %s --mlir-print-op-on-diagnostic=false --tile-specialize="values=BN=96" -o /dev/null
// RUN: not tile-opt %s --mlir-print-op-on-diagnostic=false --tile-specialize="values=BK=64" -o /dev/null
// RUN: not tile-opt %s --mlir-print-op-on-diagnostic=false --tile-specialize="values=BN" -o /dev/null
// RUN: not tile-opt %s --mlir-print-op-on-diagnostic=false --tile-specialize="values=BN=f32" -o /dev/null

tile.kernel @k() params(BN: index = 128 in [64, 128] multiple_of 64) threads(128) {
  %bn = tile.param "BN" : index
}
