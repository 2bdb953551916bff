// convert-tile-distributed-to-gpu alone (after outlining), both levels.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_90a --tile-select-instructions --convert-tile-kernel-to-gpu --convert-tile-distributed-to-gpu --canonicalize --cse

// Cluster level: rank and size from %cluster_ctarank / %cluster_nctarank;
// a block-scope put of a 256-element shared tile: a CTA barrier (the source
// is complete), each of the 128 threads stores its 2-element run at the
// peer's address `mapa` gives for its local one, a barrier, then thread 0
// adds to the peer's signal word with release semantics at cluster scope;
// the wait spins thread 0 on acquire loads of the local word, then the
// barrier; a warp-scope get synchronises the warp (what its lanes read of
// the destination is read), loads the runs through `mapa` (32 lanes, 8
// elements each), then synchronises the warp again; fence is fence.acq_rel.cluster;
// barrier_all publishes mbarrier initialisations (fence.mbarrier_init), then
// barrier.cluster arrive + wait.
tile.kernel @cluster(%X: memref<?xf32>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %c1 = arith.constant 1 : i32
  %me = tile.rank level cluster : i32
  %n = tile.num_ranks level cluster : i32
  %next0 = arith.addi %me, %c1 : i32
  %next = arith.remui %next0, %n : i32
  %mine = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
  %recv = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
  %flags = tile.alloc_shared : memref<2xi64, #gpu.address_space<workgroup>>
  tile.put %mine to %recv[%c0] peer %next scope block level cluster signal %flags[%c0] add %one : memref<256xf32, #gpu.address_space<workgroup>>, memref<256xf32, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  tile.wait %flags[%c0] ge %one level cluster : memref<2xi64, #gpu.address_space<workgroup>>
  tile.get %recv[%c0] peer %next scope warp level cluster to %mine : memref<256xf32, #gpu.address_space<workgroup>>, memref<256xf32, #gpu.address_space<workgroup>>
  tile.fence level cluster
  tile.barrier_all level cluster
}

// -----

// The alignment a cluster put's runs may assume (16-byte runs of 4 f32: a
// 512-element tile over 128 threads): 16 at element 512 of the peer's
// buffer (shared tiles start on 1024 bytes); only the element's 4 at
// element 1 (a static offset off the run) and at an offset known only at
// run time.
tile.kernel @cluster_alignment() threads(128) cluster(2, 1, 1) {
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %me = tile.rank level cluster : i32
  %peer = arith.xori %me, %me : i32
  %me_index = arith.index_cast %me : i32 to index
  %src = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
  %dst = tile.alloc_shared : memref<1024xf32, #gpu.address_space<workgroup>>
  tile.put %src to %dst[%c512] peer %peer scope block level cluster : memref<512xf32, #gpu.address_space<workgroup>>, memref<1024xf32, #gpu.address_space<workgroup>>
  tile.put %src to %dst[%c1] peer %peer scope block level cluster : memref<512xf32, #gpu.address_space<workgroup>>, memref<1024xf32, #gpu.address_space<workgroup>>
  tile.put %src to %dst[%me_index] peer %peer scope block level cluster : memref<512xf32, #gpu.address_space<workgroup>>, memref<1024xf32, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
}

// -----

// World level: NVSHMEM device calls on symmetric buffers, declared in the
// gpu.module. A 4 x 64 tile put with a signal (mechanism nvshmem written by
// hand: selection would give this tile p2p, below): three rows by
// nvshmemx_putmem_nbi_block, then nvshmem_fence and the last row by
// nvshmemx_putmem_signal_nbi_block (signal add = 10); the first wait (nvshmem
// by hand) is thread 0's nvshmem_signal_wait_until (ge = 5), the second
// (selection's p2p) thread 0's spin on ld.acquire.sys.global of the word;
// each then fences the async proxy (TMA loads after the wait see the data)
// and the CTA synchronises; a warp-scope get per
// row (nvshmemx_getmem_warp); the signal op is thread 0's fence and
// nvshmemx_signal_op (set = 9) after a CTA barrier; quiet and barrier_all
// are nvshmem_quiet and nvshmemx_barrier_all_block; shared tiles pass their
// generic address.
tile.kernel @world(%X: memref<?x?xf32> {tile.symmetric}, %flags: memref<?xi64> {tile.symmetric}) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %me = tile.rank level world : i32
  %n = tile.num_ranks level world : i32
  %t = tile.alloc_shared : memref<4x64xf32, #gpu.address_space<workgroup>>
  tile.put %t to %X[%c0, %c0] peer %n scope block level world signal %flags[%c0] add %one {mechanism = #tile.comm_mechanism<nvshmem>} : memref<4x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>, memref<?xi64>
  tile.wait %flags[%c0] ge %one level world {mechanism = #tile.comm_mechanism<nvshmem>} : memref<?xi64>
  tile.wait %flags[%c1] ge %one level world : memref<?xi64>
  tile.get %X[%c0, %c0] peer %me scope warp level world to %t {mechanism = #tile.comm_mechanism<nvshmem>} : memref<?x?xf32>, memref<4x64xf32, #gpu.address_space<workgroup>>
  tile.signal %flags[%c1] set %one peer %me level world : memref<?xi64>
  tile.quiet level world
  tile.barrier_all level world
}

// -----

// Mechanism p2p (tiles NVSHMEM would move row by row): nvshmem_ptr gives
// the peer's address of the tile's origin; where it is not null, the CTA
// synchronises, every thread stores its 4-float runs there (16-byte stores
// when both sides' origins and row strides are multiples of 16 bytes, else
// 4-byte ones), the CTA synchronises, and thread 0 fences and signals;
// where it is null the rows go by NVSHMEM's calls as above. A strided
// global source (rows of X 512 floats apart) into rows 1024 floats apart
// remotely. A 2 x 256 shared tile into rows of exactly 256 floats is one
// block: one call. A warp-scope get of rows 1024 floats apart: the warp
// synchronises around its lanes' loads.
tile.kernel @p2p(%X: memref<?x512xf32> {tile.symmetric}, %Y: memref<?x1024xf32> {tile.symmetric}, %Z: memref<?x256xf32> {tile.symmetric}, %flags: memref<?xi64> {tile.symmetric}) threads(128) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %n = tile.num_ranks level world : i32
  %block = memref.subview %X[0, 0] [4, 256] [1, 1] : memref<?x512xf32> to memref<4x256xf32, strided<[512, 1]>>
  tile.put %block to %Y[%c0, %c0] peer %n scope block level world signal %flags[%c0] set %one : memref<4x256xf32, strided<[512, 1]>>, memref<?x1024xf32>, memref<?xi64>
  %t = tile.alloc_shared : memref<2x256xf32, #gpu.address_space<workgroup>>
  tile.put %t to %Z[%c0, %c0] peer %n scope block level world : memref<2x256xf32, #gpu.address_space<workgroup>>, memref<?x256xf32>
  %w = tile.alloc_shared : memref<2x128xf32, #gpu.address_space<workgroup>>
  tile.get %Y[%c0, %c0] peer %n scope warp level world to %w : memref<?x1024xf32>, memref<2x128xf32, #gpu.address_space<workgroup>>
}
