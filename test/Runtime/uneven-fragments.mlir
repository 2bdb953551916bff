// Fragments whose runs do not spread evenly over the CTA's threads (the
// hardening issue, class 7): a 1x1 fragment in a CTA of 128 threads, and
// 3x200 bf16 rows (75 runs of 8 over 128 threads) with a broadcast row.
// test/Runtime/uneven-fragments.cpp (built by test/CMakeLists.txt) runs
// them on a GPU against a CPU reference; here, the layouts chosen and the
// guards on the runs the last threads lack.
// RUN: tile-opt %s --tile-assign-layouts | grep -o 'fragment<[^>]*>>' | sort -u
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx
// RUN: grep -E '^\.visible \.entry' %t.ptx
module attributes {tile.target = #tile.target<"sm_90a">} {
// y[0, 0] = 2 x[0, 0] + 1 in a CTA of 128 threads: thread 0 holds the
// fragment's one element.
tile.kernel @scalar(%x: memref<?x?xf32>, %y: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.grid %c1
  %f = tile.alloc_fragment : !tile.fragment<1x1xf32>
  tile.copy %x[%c0, %c0] to %f[] : memref<?x?xf32>, !tile.fragment<1x1xf32>
  tile.elementwise ins(%f : !tile.fragment<1x1xf32>) outs(%f : !tile.fragment<1x1xf32>) {
  ^bb0(%a: f32):
    %one = arith.constant 1.0 : f32
    %d = arith.addf %a, %a : f32
    %e = arith.addf %d, %one : f32
    tile.yield %e : f32
  }
  tile.copy %f[] to %y[%c0, %c0] : !tile.fragment<1x1xf32>, memref<?x?xf32>
}

// y = x * x + bias over M x 200 bf16, three rows per CTA: 75 runs of 8 over
// 128 threads, the bias row broadcast over them.
tile.kernel @rows(%x: memref<?x200xbf16>, %bias: memref<1x200xbf16>,
                  %y: memref<?x200xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %m = memref.dim %x, %c0 : memref<?x200xbf16>
  %ctas = arith.ceildivui %m, %c3 : index
  tile.grid %ctas
  %bx = gpu.block_id x
  %row = arith.muli %bx, %c3 : index
  %f = tile.alloc_fragment : !tile.fragment<3x200xbf16>
  %b = tile.alloc_fragment : !tile.fragment<1x200xbf16>
  tile.copy %x[%row, %c0] to %f[] : memref<?x200xbf16>, !tile.fragment<3x200xbf16>
  tile.copy %bias[%c0, %c0] to %b[] : memref<1x200xbf16>, !tile.fragment<1x200xbf16>
  tile.elementwise ins(%f, %b : !tile.fragment<3x200xbf16>, !tile.fragment<1x200xbf16>) outs(%f : !tile.fragment<3x200xbf16>) {
  ^bb0(%a: bf16, %c: bf16):
    %p = arith.mulf %a, %a : bf16
    %s = arith.addf %p, %c : bf16
    tile.yield %s : bf16
  }
  tile.copy %f[] to %y[%row, %c0] : !tile.fragment<3x200xbf16>, memref<?x200xbf16>
}
}
