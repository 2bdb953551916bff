// A tile module straight to a cubin through ptxas, with the runtime's kernel
// description: an ELF64 CUDA object holding both kernels and @pair's 2 KiB
// shared tile (1024-byte aligned), and one line per kernel with its block and
// cluster shape. The cubin is a binary ELF, which no golden can carry:
// readelf excerpts (its class and machine, the kernels' symbols, the shared
// section).
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %s -o %t.cubin --kernel-info=%t.kinfo && readelf -h %t.cubin | grep -E 'Class|Machine'
// RUN: readelf -sW %t.cubin | grep -E 'FUNC .* (scale|pair)$' | awk '{print $4, $5, $NF}' | sort
// RUN: readelf -SW %t.cubin 2>/dev/null | grep -oE '\.nv\.shared\.pair .*' | awk '{print $1, "size", $5, "align", $NF}'
// RUN: cat %t.kinfo

tile.kernel @scale(%a: memref<?xf32>, %f: f32) threads(128) {
  %bx = gpu.block_id x
  %tile = arith.constant 512 : index
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.elementwise ins(%x : !tile.fragment<512xf32>) outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%u: f32):
    %s = arith.mulf %u, %f : f32
    tile.yield %s : f32
  }
  tile.copy %x[] to %a[%base] : !tile.fragment<512xf32>, memref<?xf32>
}

tile.kernel @pair(%a: memref<?x?xbf16>) threads(64) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
  tile.copy %a[%c0, %c0] to %s[] : memref<?x?xbf16>, memref<8x64xbf16, #gpu.address_space<workgroup>>
  tile.copy %s[] to %a[%c0, %c0] : memref<8x64xbf16, #gpu.address_space<workgroup>>, memref<?x?xbf16>
}
