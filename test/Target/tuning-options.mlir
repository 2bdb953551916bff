// tile-translate's --tile-configs (a family's configurations replaced, as
// tile-tune's candidates) and --tuning-table (a table's configurations
// added, the launcher's <family>_tuned), and their refusals: each a
// located error and a non-zero exit.
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx --kernel-info=%t.kinfo --tile-configs=%S/Inputs/configs-good.txt
// RUN: grep '^config' %t.kinfo
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tile-configs=%S/Inputs/configs-bad.txt
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tile-configs=%S/Inputs/configs-unknown-param.txt
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tile-configs=%S/Inputs/no-such-file.txt
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tuning-table=%S/Inputs/tuning-bad-value.txt
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tuning-table=%S/Inputs/tuning-other-family.txt
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tuning-table=%S/Inputs/tuning-sm100.txt
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tuning-table=%S/Inputs/tuning-malformed.txt
// RUN: not tile-translate --tile-to-ptx %s -o %t.ptx --tuning-table=%S/Inputs/tuning-good.txt --tuning-table=%S/Inputs/tuning-good.txt
// Lowered IR has no families to configure.
// RUN: not echo 'llvm.func @k() attributes {nvvm.kernel} { llvm.return }' | tile-translate --tile-to-ptx --tile-configs=%S/Inputs/configs-good.txt

tile.kernel @axpy(%a: memref<?xf32>, %c: memref<?xf32>)
    params(TILE: index = 1024 in [512, 1024, 2048], THREADS: i32 = 128)
    configs([TILE = 1024])
    threads(THREADS) {
  %bx = gpu.block_id x
  %tile = tile.param "TILE" : index
  %c0 = arith.constant 0 : index
  %n = memref.dim %c, %c0 : memref<?xf32>
  %ctas = arith.ceildivui %n, %tile : index
  tile.grid %ctas
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment [%tile] : !tile.fragment<?xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
  tile.copy %x[] to %c[%base] : !tile.fragment<?xf32>, memref<?xf32>
}
