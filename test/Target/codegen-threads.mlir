// tile-translate --codegen-threads: the NVPTX back end compiles each kernel
// of a module (a family's configurations) in a module of its own, in
// parallel threads, and merges the PTX texts: the header once, each
// declaration once, every kernel as the whole-module compile gives it (its
// basic-block labels aside, which are numbered by function). The lines of
// the two PTX texts, labels normalised and sorted, are the same.
// RUN: rm -f %t.1.ptx %t.4.ptx %t.1.sorted %t.4.sorted
// RUN: tile-translate --tile-to-ptx %s --codegen-threads=1 -o %t.1.ptx
// RUN: tile-translate --tile-to-ptx %s --codegen-threads=4 -o %t.4.ptx
// RUN: grep -v '^[[:space:]]*$' %t.1.ptx | sed -E 's/\$L__BB[0-9]+_/$L__BB_/g' | sort > %t.1.sorted
// RUN: grep -v '^[[:space:]]*$' %t.4.ptx | sed -E 's/\$L__BB[0-9]+_/$L__BB_/g' | sort > %t.4.sorted
// RUN: cmp %t.1.sorted %t.4.sorted && echo 'the same lines'
// RUN: grep -c '^\.version' %t.4.ptx
// RUN: grep -E '^\.visible \.entry' %t.4.ptx

// Three configurations, each with its own barrier ring (shared globals the
// back end demotes into the kernel that uses them).
tile.kernel @stage(%a: memref<?x?xf32>, %c: memref<?x?xf32>)
    params(ROWS: index = 64 in [64, 128, 256], STAGES: i32 = 2)
    configs([ROWS = 64], [ROWS = 128, STAGES = 3], [ROWS = 256])
    threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %rows = tile.param "ROWS" : index
  %bx = gpu.block_id x
  %r0 = arith.muli %bx, %rows : index
  %s = tile.alloc_shared [%rows] : memref<?x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment [%rows] : !tile.fragment<?x32xf32>
  tile.pipelined_for %k = %c0 to %c4 step %c1 stages(STAGES) {
    %k0 = arith.muli %k, %c4 : index
    tile.copy %a[%r0, %k0] to %s[] : memref<?x?xf32>, memref<?x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s[] to %x[] : memref<?x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<?x32xf32>
  }
  tile.copy %x[] to %c[%r0, %c0] : !tile.fragment<?x32xf32>, memref<?x?xf32>
}
