// A tile kernel straight to PTX (tile-translate runs tile-to-nvvm first), for
// Hopper and Ampere, whole: the header (.version 8.8, .target), the entry
// and its block size (.maxntid 128, 1, 1), and the 16-byte global accesses
// (two @f ld.global.v4.b32, one @f st.global.v4.b32, each with its
// element-wise edge path).
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s
// RUN: tile-translate --tile-to-ptx --chip=sm_80 %s

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
