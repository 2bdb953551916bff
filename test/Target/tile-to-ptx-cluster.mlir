// A cluster kernel on sm_90a: the cluster shape reaches the PTX entry
// (.explicitcluster, .reqnctapercluster 2, 1, 1 after .maxntid).
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s

tile.kernel @pair(%a: memref<?xf32>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %a[%c0] to %x[] : memref<?xf32>, !tile.fragment<512xf32>
  tile.copy %x[] to %a[%c0] : !tile.fragment<512xf32>, memref<?xf32>
}
