// Round trip of every op and type of the tile dialect: the printed form parses
// back to the same IR (--verify-roundtrip checks the generic form too).
// RUN: tile-opt %s --verify-roundtrip

// Kernel structure: no cluster, scalar arguments of every kind, an explicit
// (elided on printing) terminator, rank-3 global memref.
tile.kernel @structure(%a: memref<?x?x?xf32>, %i: i32, %f: f16, %x: index) threads(1) {
  %bx = gpu.block_id x
  %tx = gpu.thread_id x
  tile.yield
}

// A cluster and global memory spelled three ways.
tile.kernel @cluster(%a: memref<16xf32>, %b: memref<16xf32, #gpu.address_space<global>>, %c: memref<16xf32, 1>) threads(1024) cluster(2, 2, 4) {
}

// Allocations and mbarriers.
tile.kernel @allocs(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %phase = arith.constant true
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %s3 = tile.alloc_shared : memref<2x4x8xi8, 3>
  %f = tile.alloc_fragment : !tile.fragment<128x128xf32>
  %f1 = tile.alloc_fragment : !tile.fragment<1024xi1>
  %t = tile.alloc_tmem : !tile.tmem<128x256xf32>
  %t2 = tile.alloc_tmem : !tile.tmem<64x64xbf16>
  %t3 = tile.alloc_tmem : !tile.tmem<128x128xi8>
  %bar = tile.alloc_barrier arrivals(128) : !tile.barrier<3>
  %one = tile.alloc_barrier arrivals(1048575) : !tile.barrier<1>
  %big = tile.alloc_barrier arrivals(1) : !tile.barrier<64>
  tile.mbarrier.arrive %bar[%c0] : !tile.barrier<3>
  tile.mbarrier.arrive %bar[%c2] leader : !tile.barrier<3>
  tile.mbarrier.arrive %big[%n] : !tile.barrier<64>
  tile.mbarrier.expect_tx %one[%c0], 16384 : !tile.barrier<1>
  tile.mbarrier.expect_tx %bar[%n], 1048575 : !tile.barrier<3>
  tile.mbarrier.wait %bar[%c2], %phase : !tile.barrier<3>
  tile.mbarrier.wait %one[%c0], %phase {note = "attr-dict"} : !tile.barrier<1>
  tile.dealloc_tmem %t3 : !tile.tmem<128x128xi8>
  tile.dealloc_tmem %t2 : !tile.tmem<64x64xbf16>
  tile.dealloc_tmem %t : !tile.tmem<128x256xf32>
}

// Copies in every legal direction.
tile.kernel @copies(%g: memref<?x?xf16>, %g1: memref<4096xf32>, %m: index, %k: index) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
  %f = tile.alloc_fragment : !tile.fragment<128x64xf16>
  %t = tile.alloc_tmem : !tile.tmem<128x64xf16>
  %s1 = tile.alloc_shared : memref<1024xf32, #gpu.address_space<workgroup>>
  %f1 = tile.alloc_fragment : !tile.fragment<1024xf32>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  // global -> shared, synchronous and on a barrier
  tile.copy %g[%m, %k] to %s[] : memref<?x?xf16>, memref<128x64xf16, #gpu.address_space<workgroup>>
  tile.copy %g[%m, %k] to %s[] barrier %bar[%c1] : memref<?x?xf16>, memref<128x64xf16, #gpu.address_space<workgroup>>, !tile.barrier<2>
  tile.copy %g1[%m] to %s1[] barrier %bar[%k] : memref<4096xf32>, memref<1024xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
  // global -> fragment
  tile.copy %g[%c0, %c0] to %f[] : memref<?x?xf16>, !tile.fragment<128x64xf16>
  tile.copy %g1[%m] to %f1[] : memref<4096xf32>, !tile.fragment<1024xf32>
  // shared -> global, fragment -> global
  tile.copy %s[] to %g[%m, %k] : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<?x?xf16>
  tile.copy %f[] to %g[%m, %k] : !tile.fragment<128x64xf16>, memref<?x?xf16>
  tile.copy %f1[] to %g1[%c0] : !tile.fragment<1024xf32>, memref<4096xf32>
  // shared <-> fragment
  tile.copy %s[] to %f[] : memref<128x64xf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf16>
  tile.copy %f[] to %s[] : !tile.fragment<128x64xf16>, memref<128x64xf16, #gpu.address_space<workgroup>>
  tile.copy %s1[] to %f1[] : memref<1024xf32, #gpu.address_space<workgroup>>, !tile.fragment<1024xf32>
  // shared -> tmem, tmem <-> fragment
  tile.copy %s[] to %t[] : memref<128x64xf16, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf16>
  tile.copy %t[] to %f[] : !tile.tmem<128x64xf16>, !tile.fragment<128x64xf16>
  tile.copy %f[] to %t[] : !tile.fragment<128x64xf16>, !tile.tmem<128x64xf16>
  tile.dealloc_tmem %t : !tile.tmem<128x64xf16>
}

// gemm: every legal element type pair, transposes, clear_accum.
tile.kernel @gemm_types() threads(128) {
  %a_bf16 = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %b_bf16 = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
  %c_f32 = tile.alloc_fragment : !tile.fragment<128x128xf32>
  tile.gemm %a_bf16, %b_bf16, %c_f32 : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>

  %a_f16 = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
  %b_f16 = tile.alloc_shared : memref<32x16xf16, #gpu.address_space<workgroup>>
  %c_f16 = tile.alloc_fragment : !tile.fragment<64x16xf16>
  %c_f16f32 = tile.alloc_fragment : !tile.fragment<64x16xf32>
  tile.gemm %a_f16, %b_f16, %c_f16 : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf16>
  tile.gemm %a_f16, %b_f16, %c_f16f32 {clear_accum} : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32>

  %a_f32 = tile.alloc_shared : memref<64x8xf32, #gpu.address_space<workgroup>>
  %b_f32 = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %c_f32s = tile.alloc_fragment : !tile.fragment<64x32xf32>
  tile.gemm %a_f32, %b_f32, %c_f32s : memref<64x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<64x32xf32>

  %a_i8 = tile.alloc_shared : memref<64x32xi8, #gpu.address_space<workgroup>>
  %b_i8 = tile.alloc_shared : memref<32x64xi8, #gpu.address_space<workgroup>>
  %c_i32 = tile.alloc_fragment : !tile.fragment<64x64xi32>
  tile.gemm %a_i8, %b_i8, %c_i32 : memref<64x32xi8, #gpu.address_space<workgroup>>, memref<32x64xi8, #gpu.address_space<workgroup>>, !tile.fragment<64x64xi32>

  %a_f8 = tile.alloc_shared : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
  %b_f8 = tile.alloc_shared : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
  %c_f8 = tile.alloc_fragment : !tile.fragment<64x128xf32>
  tile.gemm %a_f8, %b_f8, %c_f8 : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, !tile.fragment<64x128xf32>

  %a_e5 = tile.alloc_shared : memref<64x64xf8E5M2, #gpu.address_space<workgroup>>
  %b_e5 = tile.alloc_shared : memref<64x128xf8E5M2, #gpu.address_space<workgroup>>
  tile.gemm %a_e5, %b_e5, %c_f8 : memref<64x64xf8E5M2, #gpu.address_space<workgroup>>, memref<64x128xf8E5M2, #gpu.address_space<workgroup>>, !tile.fragment<64x128xf32>

  // Transposes: A is K x M with transpose_a, B is N x K with transpose_b.
  %at = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
  %bt = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %c_mn = tile.alloc_fragment : !tile.fragment<128x256xf32>
  tile.gemm %at, %b_bf16, %c_f32 {transpose_a} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  tile.gemm %a_bf16, %bt, %c_mn {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>
  tile.gemm %at, %bt, %c_mn {clear_accum, transpose_a, transpose_b} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>
}

// gemm operand placements: A in a fragment, A and C in tensor memory, with a
// barrier.
tile.kernel @gemm_operands() threads(128) {
  %c0 = arith.constant 0 : index
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  %b = tile.alloc_shared : memref<64x128xbf16, #gpu.address_space<workgroup>>
  %af = tile.alloc_fragment : !tile.fragment<128x64xbf16>
  %cf = tile.alloc_fragment : !tile.fragment<128x128xf32>
  tile.gemm %af, %b, %cf : !tile.fragment<128x64xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  %as = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %at = tile.alloc_tmem : !tile.tmem<128x64xbf16>
  %ct = tile.alloc_tmem : !tile.tmem<128x128xf32>
  tile.gemm %at, %b, %ct barrier %bar[%c0] : !tile.tmem<128x64xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.tmem<128x128xf32>, !tile.barrier<2>
  tile.gemm %as, %b, %ct barrier %bar[%c0] {clear_accum} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.tmem<128x128xf32>, !tile.barrier<2>
  tile.gemm %af, %b, %cf barrier %bar[%c0] : !tile.fragment<128x64xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>, !tile.barrier<2>
  tile.dealloc_tmem %ct : !tile.tmem<128x128xf32>
  tile.dealloc_tmem %at : !tile.tmem<128x64xbf16>
}

// fill and elementwise.
tile.kernel @fill_elementwise(%scale: f32) threads(128) {
  %zero = arith.constant 0.0 : f32
  %seven = arith.constant 7 : i32
  %x = tile.alloc_fragment : !tile.fragment<16x64xf32>
  %y = tile.alloc_shared : memref<16x64xf32, #gpu.address_space<workgroup>>
  %n = tile.alloc_fragment : !tile.fragment<16x64xi32>
  %z = tile.alloc_fragment : !tile.fragment<16x64xf32>
  tile.fill %x, %zero : !tile.fragment<16x64xf32>, f32
  tile.fill %y, %scale : memref<16x64xf32, #gpu.address_space<workgroup>>, f32
  tile.fill %n, %seven : !tile.fragment<16x64xi32>, i32
  // Several inputs (fragment and shared) and outputs, a captured scalar.
  tile.elementwise ins(%x, %y, %n : !tile.fragment<16x64xf32>, memref<16x64xf32, #gpu.address_space<workgroup>>, !tile.fragment<16x64xi32>) outs(%z, %y : !tile.fragment<16x64xf32>, memref<16x64xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%a: f32, %b: f32, %c: i32):
    %cf = arith.sitofp %c : i32 to f32
    %s = arith.addf %a, %b : f32
    %t = arith.mulf %s, %scale : f32
    %u = arith.addf %t, %cf : f32
    tile.yield %t, %u : f32, f32
  }
  // No inputs: a generator.
  tile.elementwise outs(%n : !tile.fragment<16x64xi32>) {
    tile.yield %seven : i32
  }
}

// A pipelined loop.
tile.kernel @pipeline(%A: memref<?x?xbf16>, %kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Af = tile.alloc_fragment : !tile.fragment<128x64xbf16>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(4) {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %As[] to %Af[] : memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xbf16>
  }
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(1) {
  }
  tile.pipelined_for %k = %kt to %kt step %kt stages(16) attributes {note = "x"} {
    tile.pipelined_for %j = %c0 to %k step %c1 stages(2) {
    }
  }
}

// An epilogue staged through shared memory: a slice of a fragment, an
// asynchronous TMA store and the wait for it.
tile.kernel @staged_epilogue(%C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  %Cs = tile.alloc_shared : memref<64x32xf32, #tile.shared<swizzle = 128>>
  tile.copy %acc[%c0, %c32] to %Cs[] : !tile.fragment<64x64xf32>, memref<64x32xf32, #tile.shared<swizzle = 128>>
  tile.copy %Cs[] to %C[%c0, %c32] {async, tma} : memref<64x32xf32, #tile.shared<swizzle = 128>>, memref<?x?xf32>
  tile.wait_tma_stores pending(1)
}

// Warp specialisation: asked of a pipelined loop, or written out.
tile.kernel @warp_roles(%A: memref<?x?xbf16>, %kt: index) threads(384) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) warp_specialized attributes {note = "x"} {
    tile.copy %A[%c0, %k] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
  }
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
      %x = tile.alloc_fragment : !tile.fragment<64xf32, #tile.blocked<threads = 32, vector = 2>>
    }
    role "consumers" warpgroups(2) registers(232) {
      %y = tile.alloc_fragment : !tile.fragment<256xf32, #tile.blocked<threads = 256, vector = 1>>
    }
  }
  tile.warp_specialize {
    role "producer" warps(1) {
    }
    role "consumers" warpgroups(2) {
    }
  }
}

// Communication at world level (NVSHMEM): put with and without a signal, get,
// signal, wait with every comparison, fence, barrier_all, rank, num_ranks.
tile.kernel @world(%buf: memref<1024xf32>, %recv: memref<?xf32> {tile.symmetric}, %recv2: memref<?x?xf32> {tile.symmetric}, %flags: memref<?xi64> {tile.symmetric}, %idx: index) threads(128) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %me = tile.rank level world : i32
  %n = tile.num_ranks level world : i32
  %tile = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
  tile.put %buf to %recv[%idx] peer %n scope block level world : memref<1024xf32>, memref<?xf32>
  tile.put %tile to %recv2[%c0, %idx] peer %me scope warp level world : memref<32x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  tile.put %buf to %recv[%idx] peer %n scope block level world signal %flags[%c0] set %one : memref<1024xf32>, memref<?xf32>, memref<?xi64>
  tile.put %buf to %recv[%idx] peer %n scope warp level world signal %flags[%idx] add %one : memref<1024xf32>, memref<?xf32>, memref<?xi64>
  tile.quiet level world
  tile.fence level world
  tile.get %recv[%idx] peer %me scope block level world to %buf : memref<?xf32>, memref<1024xf32>
  tile.get %recv2[%idx, %c0] peer %me scope warp level world to %tile : memref<?x?xf32>, memref<32x32xf32, #gpu.address_space<workgroup>>
  tile.signal %flags[%c0] set %one peer %n level world : memref<?xi64>
  tile.signal %flags[%idx] add %one peer %me level world : memref<?xi64>
  tile.wait %flags[%c0] eq %one level world : memref<?xi64>
  tile.wait %flags[%c0] ne %one level world : memref<?xi64>
  tile.wait %flags[%c0] gt %one level world : memref<?xi64>
  tile.wait %flags[%c0] ge %one level world : memref<?xi64>
  tile.wait %flags[%c0] lt %one level world : memref<?xi64>
  tile.wait %flags[%idx] le %one level world : memref<?xi64>
  tile.barrier_all level world
}

// Communication between the CTAs of a cluster (distributed shared memory).
tile.kernel @cluster_comm(%g: memref<256xf32>) threads(128) cluster(4, 1, 1) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %me = tile.rank level cluster : i32
  %n = tile.num_ranks level cluster : i32
  %src = tile.alloc_shared : memref<256xf32, #gpu.address_space<workgroup>>
  %dst = tile.alloc_shared : memref<1024xf32, #gpu.address_space<workgroup>>
  %flags = tile.alloc_shared : memref<4xi64, #gpu.address_space<workgroup>>
  tile.put %src to %dst[%c0] peer %n scope block level cluster : memref<256xf32, #gpu.address_space<workgroup>>, memref<1024xf32, #gpu.address_space<workgroup>>
  tile.put %g to %dst[%c0] peer %n scope block level cluster signal %flags[%c0] add %one : memref<256xf32>, memref<1024xf32, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
  tile.fence level cluster
  tile.get %dst[%c0] peer %me scope block level cluster to %src : memref<1024xf32, #gpu.address_space<workgroup>>, memref<256xf32, #gpu.address_space<workgroup>>
  tile.signal %flags[%c0] set %one peer %me level cluster : memref<4xi64, #gpu.address_space<workgroup>>
  tile.wait %flags[%c0] ge %one level cluster : memref<4xi64, #gpu.address_space<workgroup>>
  tile.barrier_all level cluster
}

// Recorded mechanisms of communication ops; world-level puts and gets of
// warp scope inside a warp_specialize role (each warp moves the tile).
tile.kernel @comm_mechanisms(%recv: memref<?xf32> {tile.symmetric}, %flags: memref<?xi64> {tile.symmetric}) threads(256) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %me = tile.rank level world {mechanism = #tile.comm_mechanism<nvshmem>} : i32
  %t = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "producer" warps(4) {
      tile.put %t to %recv[%c0] peer %me scope warp level world signal %flags[%c0] add %one {mechanism = #tile.comm_mechanism<nvshmem>} : memref<128xf32, #gpu.address_space<workgroup>>, memref<?xf32>, memref<?xi64>
    }
    role "consumers" warps(4) {
      tile.wait %flags[%c0] ge %one level world {mechanism = #tile.comm_mechanism<nvshmem>} : memref<?xi64>
      tile.get %recv[%c0] peer %me scope warp level world to %t : memref<?xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    }
  }
  tile.barrier_all level world {mechanism = #tile.comm_mechanism<nvshmem>}
}

// Cluster forms: a multicast copy, an arrival on every CTA's barrier;
// ping-pong pipelining and consumer teams.
tile.kernel @cluster_forms(%A: memref<?x?xbf16>, %n: index) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %bar = tile.alloc_barrier arrivals(8) : !tile.barrier<2>
  tile.copy %A[%c0, %c0] to %s[] barrier %bar[%c0] {multicast} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<2>
  tile.mbarrier.arrive %bar[%c1] cluster : !tile.barrier<2>
  scf.for %t = %c0 to %n step %c1 {
    tile.pipelined_for %k = %c0 to %n step %c1 stages(3) warp_specialized pingpong {
    }
  }
}

tile.kernel @teams() threads(384) {
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
    }
    role "consumers" warpgroups(2) registers(232) teams(2) as %team {
    }
  }
}

// The target, recorded mechanisms, asynchronous gemms and their wait.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @selected(%A: memref<?x?xbf16>, %C: memref<?x?xf32>) threads(128) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    tile.copy %A[%c0, %c0] to %a[] barrier %bar[%c0] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
    tile.copy %A[%c0, %c0] to %b[] {async, mechanism = #tile.copy_mechanism<cp_async>} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.gemm %a, %b, %acc {async, mechanism = #tile.mma_mechanism<wgmma>, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>
    tile.wait_gemms pending(0)
    tile.copy %acc[] to %C[%c0, %c0] {mechanism = #tile.copy_mechanism<vector>} : !tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 1>>, memref<?x?xf32>
  }
}

// -----

// A row reduction into fp32, its result broadcast back with the element's
// coordinates, and a slice layout written by hand.
tile.kernel @reduce_broadcast() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x1024xbf16>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32>
  %y = tile.alloc_fragment : !tile.fragment<4x1024xf32>
  %w = tile.alloc_fragment : !tile.fragment<1x1024xf32, #tile.slice<dim = 0, extent = 4, parent = #tile.blocked<threads = 128, vector = 8>>>
  tile.reduce max %x into %s dim 1 : !tile.fragment<4x1024xbf16>, !tile.fragment<4x1xf32>
  tile.elementwise ins(%x, %s : !tile.fragment<4x1024xbf16>, !tile.fragment<4x1xf32>) outs(%y : !tile.fragment<4x1024xf32>) {
  ^bb0(%a: bf16, %m: f32, %i: index, %j: index):
    %e = arith.extf %a : bf16 to f32
    %d = arith.subf %e, %m : f32
    tile.yield %d : f32
  }
}
