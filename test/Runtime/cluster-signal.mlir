// The hardening issue's class 10: each CTA of a 2-CTA cluster puts a 64x64
// f32 shared tile into its peer's, signals the peer's flag and waits for its
// own, then copies what it received to global memory. compute-sanitizer's
// racecheck reported hazards on this pattern while every result was right;
// test/Runtime/cluster-signal.cpp (built by test/CMakeLists.txt) checks it
// on a GPU, runs it many times over (--stress N), and runs the same put
// ordered by a cluster barrier instead (put_barrier), which racecheck can
// follow. docs/testing.md says what racecheck reports and why. Here: the
// order of the PTX that carries the protocol (the put's remote stores, the
// CTA barrier, one thread's release-add to the peer's flag, the acquire
// loads on its own, the CTA barrier before anything reads the tile).
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s -o %t.ptx
// RUN: awk '/^\.visible \.entry/ { print; next } /st\.shared::cluster|bar\.sync|barrier\.cluster\.(arrive|wait)|red\.release|ld\.acquire|fence\./ { gsub(/\t/, " "); gsub(/^[ \t]+|[ \t]*\[.*$|[ \t]+%.*$|;$/, ""); if ($0 != last) print "  " $0; last = $0 }' %t.ptx

// Y[64 g .. 64 g + 63] = X[64 (g xor 1) .. 64 (g xor 1) + 63], through
// the peer's shared memory, ordered by a flag.
tile.kernel @put_wait(%X: memref<?x64xf32>, %Y: memref<?x64xf32>)
    threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %c1 = arith.constant 1 : i32
  %m = memref.dim %X, %c0 : memref<?x64xf32>
  %ctas = arith.ceildivui %m, %c64 : index
  tile.grid %ctas
  %g = gpu.block_id x
  %row = arith.muli %g, %c64 : index
  %me = tile.rank level cluster : i32
  %ranks = tile.num_ranks level cluster : i32
  %after = arith.addi %me, %c1 : i32
  %peer = arith.remui %after, %ranks : i32
  %mine = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %recv = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %flag = tile.alloc_shared : memref<1xi64, #gpu.address_space<workgroup>>
  tile.fill %flag, %zero : memref<1xi64, #gpu.address_space<workgroup>>, i64
  tile.copy %X[%row, %c0] to %mine[] : memref<?x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
  tile.put %mine to %recv[%c0, %c0] peer %peer scope block level cluster
      signal %flag[%c0] add %one
      : memref<64x64xf32, #gpu.address_space<workgroup>>,
        memref<64x64xf32, #gpu.address_space<workgroup>>,
        memref<1xi64, #gpu.address_space<workgroup>>
  tile.wait %flag[%c0] ge %one level cluster : memref<1xi64, #gpu.address_space<workgroup>>
  tile.copy %recv[] to %Y[%row, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x64xf32>
  tile.barrier_all level cluster
}

// The same exchange ordered by a cluster barrier instead of the flag.
tile.kernel @put_barrier(%X: memref<?x64xf32>, %Y: memref<?x64xf32>)
    threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : i32
  %m = memref.dim %X, %c0 : memref<?x64xf32>
  %ctas = arith.ceildivui %m, %c64 : index
  tile.grid %ctas
  %g = gpu.block_id x
  %row = arith.muli %g, %c64 : index
  %me = tile.rank level cluster : i32
  %ranks = tile.num_ranks level cluster : i32
  %after = arith.addi %me, %c1 : i32
  %peer = arith.remui %after, %ranks : i32
  %mine = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %recv = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.copy %X[%row, %c0] to %mine[] : memref<?x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
  tile.put %mine to %recv[%c0, %c0] peer %peer scope block level cluster
      : memref<64x64xf32, #gpu.address_space<workgroup>>,
        memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
  tile.copy %recv[] to %Y[%row, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x64xf32>
  tile.barrier_all level cluster
}

// A negative control for racecheck, never checked for its results: the
// put of put_wait without the wait, so a CTA may copy its tile out while
// its peer is still writing it (`--unordered` runs it once).
tile.kernel @put_unordered(%X: memref<?x64xf32>, %Y: memref<?x64xf32>)
    threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %c1 = arith.constant 1 : i32
  %m = memref.dim %X, %c0 : memref<?x64xf32>
  %ctas = arith.ceildivui %m, %c64 : index
  tile.grid %ctas
  %g = gpu.block_id x
  %row = arith.muli %g, %c64 : index
  %me = tile.rank level cluster : i32
  %ranks = tile.num_ranks level cluster : i32
  %after = arith.addi %me, %c1 : i32
  %peer = arith.remui %after, %ranks : i32
  %mine = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %recv = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %flag = tile.alloc_shared : memref<1xi64, #gpu.address_space<workgroup>>
  tile.fill %flag, %zero : memref<1xi64, #gpu.address_space<workgroup>>, i64
  tile.copy %X[%row, %c0] to %mine[] : memref<?x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
  tile.put %mine to %recv[%c0, %c0] peer %peer scope block level cluster
      signal %flag[%c0] add %one
      : memref<64x64xf32, #gpu.address_space<workgroup>>,
        memref<64x64xf32, #gpu.address_space<workgroup>>,
        memref<1xi64, #gpu.address_space<workgroup>>
  tile.copy %recv[] to %Y[%row, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<?x64xf32>
  tile.barrier_all level cluster
}
