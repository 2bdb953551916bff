// tile.pipelined_for with stages(1) is a plain scf.for (convert-tile-to-gpu).
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu

tile.kernel @loop(%lo: index, %hi: index, %step: index) threads(32) {
  %s = tile.alloc_shared : memref<32xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %lo to %hi step %step stages(1) {
    %i = arith.index_cast %k : index to i32
    %f = arith.sitofp %i : i32 to f32
    tile.fill %s, %f : memref<32xf32, #gpu.address_space<workgroup>>, f32
  }
}
