// convert-tile-nvshmem-to-gpu alone (after outlining): the world-level ops
// become NVSHMEM calls, declared in the gpu.module, and the cluster-level
// ones are left for convert-tile-ops-to-gpu, which runs per kernel.
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --tile-select-instructions --convert-tile-kernel-to-gpu --convert-tile-nvshmem-to-gpu | grep -oE 'llvm\.func @[a-z_]+|llvm\.call @[a-z_]+|tile\.[a-z_]+ [%a-z0-9]+|level [a-z]+' | sort | uniq -c

tile.kernel @both(%X: memref<?xf32> {tile.symmetric}, %flags: memref<?xi64> {tile.symmetric}) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %peer = arith.constant 1 : i32
  %mine = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
  %recv = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
  tile.put %mine to %recv[%c0] peer %peer scope block level cluster : memref<256xf32, #gpu.address_space<workgroup>>, memref<256xf32, #gpu.address_space<workgroup>>
  tile.put %mine to %X[%c0] peer %peer scope block level world : memref<256xf32, #gpu.address_space<workgroup>>, memref<?xf32>
  tile.wait %flags[%c0] ge %one level world : memref<?xi64>
  tile.fence level cluster
  tile.quiet level world
}
