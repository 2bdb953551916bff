// tile.zero_before_launch after tile-specialize: where its condition holds
// (SPLITK > 1, or no condition) tile-record-grid adds the argument to the
// kernel's tile.zeroed_args (sorted) and erases the op with what only it
// used; where it does not, the op goes and the kernel zeroes nothing.
// RUN: tile-opt %s --tile-specialize --tile-record-grid

tile.kernel @split(%A: memref<?x?xbf16>, %C: memref<?x?xf32>,
                   %W: memref<?xf32>)
    params(SPLITK: index = 1)
    configs([SPLITK = 1], [SPLITK = 3])
    threads(128) {
  %c1 = arith.constant 1 : index
  %splitk = tile.param "SPLITK" : index
  %split = arith.cmpi ugt, %splitk, %c1 : index
  tile.zero_before_launch %W : memref<?xf32>
  tile.zero_before_launch %C if %split : memref<?x?xf32>
}
