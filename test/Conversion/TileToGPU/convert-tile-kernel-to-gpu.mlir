// convert-tile-kernel-to-gpu: each tile.kernel becomes a gpu.func kernel in
// gpu.module @tile_kernels, its thread count a known block size.
// RUN: tile-opt %s --split-input-file --tile-attach-target --convert-tile-kernel-to-gpu

// A plain kernel: the body moves over, the terminator becomes gpu.return.
tile.kernel @plain(%a: memref<?xf32>, %n: index) threads(128) {
  %bx = gpu.block_id x
}

// -----

// A cluster: nvvm.cluster_dim and known_cluster_size.
tile.kernel @cluster() threads(256) cluster(2, 1, 1) {
}

// -----

// Argument attributes are kept; two kernels share one gpu.module.
tile.kernel @args(%a: memref<?xf32> {llvm.noalias}, %b: memref<?xf32> {llvm.noalias, llvm.readonly}) threads(32) {
}
tile.kernel @second() threads(1) {
}
