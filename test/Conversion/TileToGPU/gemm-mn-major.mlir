// wgmma with M- and N-major operands: A stored K x M (transpose_a), B stored
// K x N. Their shared tiles are 128-byte swizzled column blocks of 64
// elements; the descriptors carry the block stride (64 rows x 128 bytes =
// 8192) as leading byte offset and 1024 as stride byte offset, the k-steps
// advance 16 rows (2048 bytes), and the instruction reads both transposed.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu | grep -oE 'wgmma\.mma_async[^;]*' | sed -E 's/\{[^}]*\}/{d}/' | sort | uniq -c
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts --convert-tile-to-gpu | grep -oE 'arith.constant (8192|2048|4096|6144|[0-9]{15,}) : i64' | sort | uniq -c
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --tile-assign-layouts | grep -oE 'alloc_shared \{swizzle = [0-9]+ : i64\} : memref<[0-9x]+bf16'

tile.kernel @mn_major() threads(128) {
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x128xf32>
  tile.gemm %As, %Bs, %acc {transpose_a} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x128xf32>
}
