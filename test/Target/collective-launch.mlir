// A kernel that calls NVSHMEM's barrier (tile.barrier_all level world) is
// described as a collective launch (launch <kernel> collective: the runtime
// checks that its whole grid is resident and launches it cooperatively,
// never also as a dependent launch, which its description also allows);
// one that only puts with a signal and waits by tile's spin is not.
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s -o %t.ptx --kernel-info=%t.kinfo && grep -E '^(kernel|link|launch)' %t.kinfo

tile.kernel @barrier(%x: memref<?xf32> {tile.symmetric}) threads(128) {
  tile.barrier_all level world
}

tile.kernel @put_and_wait(%x: memref<?xf32> {tile.symmetric},
                          %flags: memref<?xi64> {tile.symmetric},
                          %epoch: i64) threads(128) {
  %c0 = arith.constant 0 : index
  %src = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  %me = tile.rank level world : i32
  tile.put %src to %x[%c0] peer %me scope block level world
      signal %flags[%c0] set %epoch
      : memref<128xf32, #gpu.address_space<workgroup>>, memref<?xf32>, memref<?xi64>
  tile.wait %flags[%c0] ge %epoch level world : memref<?xi64>
}
