// What tile-pipeline-loops refuses, each with a located error.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --tile-pipeline-loops --verify-diagnostics -o /dev/null

// Nothing for a producer warp to load: a warp-specialised loop needs a
// global-to-shared copy (a software-pipelined one becomes a plain loop:
// pipeline-loops.mlir).
tile.kernel @no_producer(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
  // expected-error @below {{'tile.pipelined_for' op has no global-to-shared copy to pipeline}}
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
    tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
  }
}

// -----

// The destination is allocated in the loop: there is no tile to make a ring of.
tile.kernel @alloc_inside(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{'tile.copy' op in a pipelined loop must write a shared tile allocated outside the loop}}
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// The destination is a view, not the allocation itself.
tile.kernel @view_dest(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<16x32xf32, #gpu.address_space<workgroup>>
  %v = memref.subview %s[0, 0] [8, 32] [1, 1] : memref<16x32xf32, #gpu.address_space<workgroup>> to memref<8x32xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    // expected-error @below {{'tile.copy' op in a pipelined loop must write a shared tile allocated outside the loop}}
    tile.copy %A[%k, %c0] to %v[] : memref<?x?xf32>, memref<8x32xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>
  }
}

// -----

// The multi-buffered tile is read after the loop: which slot would it be?
tile.kernel @used_after(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
  // expected-error @below {{'tile.copy' op uses a shared tile that a pipelined loop multi-buffers; use it only inside the loop}}
  tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32, #tile.blocked<threads = 128, vector = 2>>
}

// -----

// Two copies into one tile.
tile.kernel @two_writers(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @below {{'tile.copy' op writes a shared tile another copy in the loop also writes}}
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// A use of the tile before the copy that writes it would see the next data.
tile.kernel @use_before_copy(%A: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : bf16
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    // expected-error @+1 {{'tile.fill' op uses a shared tile before the pipelined copy that writes it in the same iteration}}
    tile.fill %s, %zero : memref<64x64xbf16, #gpu.address_space<workgroup>>, bf16
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
  }
}

// -----

// Ring slots must keep TMA's 128-byte alignment.
tile.kernel @small_slot(%A: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<4x8xbf16, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    // expected-error @+1 {{'tile.copy' op pipelines a shared tile of 64 bytes; ring slots need a multiple of 128 bytes}}
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xbf16>, memref<4x8xbf16, #gpu.address_space<workgroup>>
  }
}

// -----

// Warp specialisation splits the kernel body: the loop must be in it (or in
// a persistent scf.for there), not under a branch.
tile.kernel @ws_under_if(%A: memref<?x?xf32>, %n: index, %p: i1) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  scf.if %p {
    // expected-error @below {{'tile.pipelined_for' op with warp_specialized must sit in the kernel body, or in an scf.for without results there (a persistent loop over tiles)}}
    tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
      tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
  }
}

// -----

// The producer warp cannot run what only the consumers run: a load.
tile.kernel @ws_effectful_operand(%A: memref<?x?xf32>, %rows: memref<1xindex>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'memref.load' op computes an operand of a warp-specialised copy (or of a wait that gates it) but has side effects or reads the thread id; the producer warp cannot run it}}
  %row = memref.load %rows[%c0] : memref<1xindex>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
    tile.copy %A[%row, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// The same inside a persistent tile loop.
tile.kernel @ws_effectful_in_tile_loop(%A: memref<?x?xf32>, %rows: memref<?xindex>, %n: index, %tiles: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %tiles step %c1 {
    // expected-error @below {{'memref.load' op computes an operand of a warp-specialised copy (or of a wait that gates it) in the tile loop but is not a pure op; the producer warp cannot run it}}
    %row = memref.load %rows[%t] : memref<?xindex>
    tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
      tile.copy %A[%row, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
  }
}

// -----

// A wait that gates the producer's loads compares a word that only grows:
// the producer reads it before the consumers do.
tile.kernel @ws_gate_eq(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %n: index, %tiles: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %tiles step %c1 {
    // expected-error @below {{'tile.wait' op before a warp_specialized loop gates the producer's loads, and the producer reads the word before the consumers do: compare with `ge` or `gt` on a word that only grows (an epoch), not `eq`}}
    tile.wait %flags[%t] eq %epoch level world : memref<?xi64>
    tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
      tile.copy %A[%t, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
  }
}

// -----

// A wait in a region before the loop: which loads it gates is unclear.
tile.kernel @ws_gate_nested(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %n: index, %tiles: index, %c: i1) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %tiles step %c1 {
    scf.if %c {
      // expected-error @below {{'tile.wait' op inside a region before a warp_specialized loop: which of the producer's loads it gates is unclear; write it directly in the tile loop (or the kernel body) before the loop}}
      tile.wait %flags[%t] ge %epoch level world : memref<?xi64>
    }
    tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
      tile.copy %A[%t, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
  }
}

// -----

// Consumers are whole warpgroups.
tile.kernel @ws_partial_warpgroup(%A: memref<?x?xf32>, %n: index) threads(64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.pipelined_for' op with warp_specialized needs a kernel of whole warpgroups, at most 896 threads; got 64}}
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// One split per kernel: the first warp-specialised loop moves the second
// into its consumers, where it no longer sits in the kernel body.
tile.kernel @ws_twice(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %t = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
    tile.copy %A[%k, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
  // expected-error @below {{'tile.pipelined_for' op with warp_specialized must sit in the kernel body, or in an scf.for without results there (a persistent loop over tiles)}}
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
    tile.copy %A[%k, %c0] to %t[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// Multicast slots are released to every CTA of the cluster, which only the
// warp-specialised schedule does.
tile.kernel @multicast_software_pipelined(%A: memref<?x?xbf16>, %k: index) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.pipelined_for' op has a {multicast} copy, which needs `warp_specialized` (its slots are released to every CTA of the cluster)}}
  tile.pipelined_for %i = %c0 to %k step %c1 stages(2) {
    tile.copy %A[%c0, %i] to %s[] {multicast} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
  }
}

// -----

// Ping-pong teams take turns over the tiles of a persistent loop.
tile.kernel @pingpong_no_tile_loop(%A: memref<?x?xbf16>, %k: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.pipelined_for' op with pingpong must sit in a persistent scf.for over tiles (the teams take its iterations in turn)}}
  tile.pipelined_for %i = %c0 to %k step %c1 stages(2) warp_specialized pingpong {
    tile.copy %A[%c0, %i] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
  }
}

// -----

tile.kernel @pingpong_tile_bounds(%A: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %n step %c1 {
    // expected-error @+1 {{'tile.pipelined_for' op with pingpong needs bounds that do not depend on the tile (each team counts the other's iterations to find its ring slots)}}
    tile.pipelined_for %i = %c0 to %t step %c1 stages(2) warp_specialized pingpong {
      tile.copy %A[%c0, %i] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    }
  }
}

// -----

tile.kernel @pingpong_team_tile_viewed_before(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %out = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  // Each team gets its own %out; a view of it taken before the split would
  // be both teams'.
  // expected-error @+1 {{'memref.subview' op uses a shared tile that each pingpong team gets its own of, outside the teams' own code; use the tile only after the split (in or after the loop), in neither the producer's copies nor communication}}
  %half = memref.subview %out[0, 0] [32, 64] [1, 1] : memref<64x64xbf16, #gpu.address_space<workgroup>> to memref<32x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %n step %c1 {
    tile.pipelined_for %i = %c0 to %n step %c1 stages(2) warp_specialized pingpong {
      tile.copy %A[%c0, %i] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    }
    tile.copy %half[] to %C[%t, %c0] : memref<32x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>, memref<?x?xbf16>
  }
}

// -----

// After the split the teams see the tile through a view of their slot,
// whose type other dialects' views would not follow.
tile.kernel @pingpong_team_tile_other_view(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %out = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %n step %c1 {
    tile.pipelined_for %i = %c0 to %n step %c1 stages(2) warp_specialized pingpong {
      tile.copy %A[%c0, %i] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    }
    // expected-error @+1 {{'memref.subview' op uses a shared tile that each pingpong team gets its own of, through a view of its slot; use it with tile ops only}}
    %half = memref.subview %out[0, 0] [32, 64] [1, 1] : memref<64x64xbf16, #gpu.address_space<workgroup>> to memref<32x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    tile.copy %half[] to %C[%t, %c0] : memref<32x64xbf16, strided<[64, 1]>, #gpu.address_space<workgroup>>, memref<?x?xbf16>
  }
}

// -----

tile.kernel @pingpong_multicast(%A: memref<?x?xbf16>, %n: index) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %n step %c1 {
    // expected-error @+1 {{'tile.pipelined_for' op with pingpong and a {multicast} copy is not supported yet (teams of clustered CTAs)}}
    tile.pipelined_for %i = %c0 to %n step %c1 stages(2) warp_specialized pingpong {
      tile.copy %A[%c0, %i] to %s[] {multicast} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    }
  }
}

// -----

tile.kernel @pingpong_user_barrier(%A: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.alloc_barrier' op would be shared by both pingpong teams; per-team barriers are not supported yet}}
  %done = tile.alloc_barrier arrivals(128) : !tile.barrier<1>
  scf.for %t = %c0 to %n step %c1 {
    tile.pipelined_for %i = %c0 to %n step %c1 stages(2) warp_specialized pingpong {
      tile.copy %A[%c0, %i] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    }
    tile.mbarrier.arrive %done[%c0] : !tile.barrier<1>
  }
}

// -----

// A team of 512 threads would make 1152 with the producer.
tile.kernel @pingpong_too_many(%A: memref<?x?xbf16>, %n: index) threads(512) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  scf.for %t = %c0 to %n step %c1 {
    // expected-error @+1 {{'tile.pipelined_for' op with warp_specialized needs a kernel of whole warpgroups, at most 384 threads; got 512}}
    tile.pipelined_for %i = %c0 to %n step %c1 stages(2) warp_specialized pingpong {
      tile.copy %A[%c0, %i] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    }
  }
}

// -----

// tile-pipeline-loops reads the schedule from the body: two products of
// its own and the previous iteration's still in flight at the end of an
// iteration, but slots are released only one iteration late.
tile.kernel @two_in_flight(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %acc2 = tile.alloc_fragment : !tile.fragment<64x64xf32>
  // expected-error @below {{'tile.pipelined_for' op leaves 3 products in flight at the end of an iteration; a slot is released one iteration late, so wait until at most one is pending (tile.wait_gemms pending(1))}}
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    %k0 = arith.muli %k, %c64 : index
    tile.copy %A[%c0, %k0] to %As[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b, async} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
    tile.gemm %As, %Bs, %acc2 {transpose_b, async} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  }
}

// -----

// A write of a per-thread fragment into shared memory before a cluster
// barrier that precedes a warp_specialized loop: the copy runs in the
// consumers (it reads a fragment), which would put it after the barrier
// that every thread runs, so its data would not be published to the peer.
tile.kernel @publish_before_cluster_barrier(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                                            %C: memref<?x?xf32>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %K = memref.dim %A, %c1 : memref<?x?xbf16>
  %ktiles = arith.ceildivui %K, %c64 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %out = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.fill %acc, %zero : !tile.fragment<64x64xf32>, f32
  // expected-error @+1 {{'tile.copy' op runs in the consumers of the warp-specialised loop (it reads per-thread state) but precedes the cluster-wide tile.barrier_all before the loop, which every thread runs: it would move after the barrier; write it after the barrier}}
  tile.copy %acc[] to %out[] : !tile.fragment<64x64xf32>, memref<64x64xf32, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
  tile.pipelined_for %kt = %c0 to %ktiles step %c1 stages(2) warp_specialized {
    %k0 = arith.muli %kt, %c64 : index
    tile.copy %A[%c0, %k0] to %As[]
        : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %k0] to %Bs[]
        : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc {transpose_b}
        : memref<64x64xbf16, #gpu.address_space<workgroup>>,
          memref<64x64xbf16, #gpu.address_space<workgroup>>,
          !tile.fragment<64x64xf32>
  }
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?xf32>
}

// -----

// A wait in a pipelined loop's body gates the iteration's loads, which run
// iterations ahead: it compares a word that only grows.
tile.kernel @body_gate_eq(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %epoch: i64, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) warp_specialized {
    // expected-error @below {{'tile.wait' op in a pipelined loop gates the iteration's loads, which run iterations ahead of the rest of the body: compare with `ge` or `gt` on a word that only grows (an epoch), not `eq`}}
    tile.wait %flags[%k] eq %epoch level world : memref<?xi64>
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// A wait in a region of the body beside other work: which loads it gates
// is unclear.
tile.kernel @body_gate_nested(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %out: memref<?xf32>, %epoch: i64, %n: index, %c: i1) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    scf.if %c {
      // expected-error @below {{'tile.wait' op inside a region of a pipelined loop's body: which of the iteration's loads it gates is unclear; write it directly in the body, or in an scf.if that holds only waits}}
      tile.wait %flags[%k] ge %epoch level world : memref<?xi64>
      memref.store %one, %out[%k] : memref<?xf32>
    }
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}

// -----

// What a gate reads is computed iterations ahead too: no side effects.
tile.kernel @body_gate_impure(%A: memref<?x?xf32>, %flags: memref<?xi64> {tile.symmetric}, %words: memref<?xindex>, %epoch: i64, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
    // expected-error @below {{'memref.load' op computes an operand of a pipelined copy (or of a wait that gates it) but has side effects; it cannot run iterations ahead of the loop body}}
    %w = memref.load %words[%k] : memref<?xindex>
    tile.wait %flags[%w] ge %epoch level world : memref<?xi64>
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
  }
}
