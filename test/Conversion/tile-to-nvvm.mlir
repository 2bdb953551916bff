// The tile-to-nvvm pipeline on a small c = a + b, whole: the kernel
// signature (the memref descriptors unpacked, nvvm.kernel and nvvm.maxntid),
// the 16-byte accesses as predicated inline PTX (a vector access under @f,
// then the element-wise edge path under @p: two loads, one store), four
// llvm.fadd, and nothing of tile (but the module's tile.target), memref,
// vector or scf (or an unrealized cast) left.
// RUN: tile-opt %s --tile-to-nvvm
// An unknown chip.
// RUN: not tile-opt %s --tile-to-nvvm=chip=sm_1000

tile.kernel @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) threads(128) {
  %bx = gpu.block_id x
  %tile = arith.constant 512 : index
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  %y = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.copy %b[%base] to %y[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.elementwise ins(%x, %y : !tile.fragment<512xf32>, !tile.fragment<512xf32>)
                   outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    tile.yield %s : f32
  }
  tile.copy %x[] to %c[%base] : !tile.fragment<512xf32>, memref<?xf32>
}
