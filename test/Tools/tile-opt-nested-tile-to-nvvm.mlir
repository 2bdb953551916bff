// The tile-to-nvvm pipeline runs on a builtin.module: nested under another
// op it is refused with an error (its module passes made MLIR abort).
// RUN: not tile-opt %s --pass-pipeline='builtin.module(func.func(tile-to-nvvm))'
// RUN: not tile-opt %s --pass-pipeline='builtin.module(tile.kernel(tile-to-nvvm))'

func.func @f() {
  return
}
