// What tile-check-barriers reports: mbarrier protocols that cannot match,
// each a hang or a phase completed early on the GPU.
// RUN: tile-opt %s --split-input-file --tile-check-barriers --verify-diagnostics -o /dev/null

// Two copies per phase on a barrier that expects one arrival (the bug
// gemm-explicit.mlir once had the other way round).
tile.kernel @two_copies_one_arrival(%A: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @below {{'tile.alloc_barrier' op expects 1 arrival per phase, but each phase of its loop arrives 2 times on slot 0: write arrivals(2), or arrive 1 time per phase}}
  %loaded = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  scf.for %k = %c0 to %n step %c1 {
    %round = arith.remui %k, %c2 : index
    %parity = arith.cmpi ne, %round, %c0 : index
    // expected-note @below {{arrives here}}
    tile.copy %A[%c0, %k] to %As[] barrier %loaded[%c0] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
    // expected-note @below {{arrives here}}
    tile.copy %A[%c1, %k] to %Bs[] barrier %loaded[%c0] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
    // expected-note @below {{the phase is waited for here}}
    tile.mbarrier.wait %loaded[%c0], %parity : !tile.barrier<1>
  }
}

// -----

// Straight-line code: one copy before the wait, two expected.
tile.kernel @too_few(%A: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %s = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{expects 2 arrivals per phase, but its block arrives, before the wait noted, 1 time on slot 0: write arrivals(1), or arrive 2 times per phase}}
  %full = tile.alloc_barrier arrivals(2) : !tile.barrier<1>
  // expected-note @below {{arrives here}}
  tile.copy %A[%c0, %c0] to %s[] barrier %full[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  // expected-note @below {{the phase is waited for here}}
  tile.mbarrier.wait %full[%c0], %false : !tile.barrier<1>
}

// -----

// Every thread of the 128-thread consumer role arrives (no `leader`): 128
// arrivals an iteration where one is expected.
tile.kernel @every_thread_arrives(%n: index) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{expects 1 arrival per phase, but each iteration of its loop arrives 128 times on slot 0}}
  %empty = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.warp_specialize {
    role "producer" warpgroups(1) {
    }
    role "consumers" warpgroups(1) {
      scf.for %k = %c0 to %n step %c1 {
        // expected-note @below {{arrives here}}
        tile.mbarrier.arrive %empty[%c0] : !tile.barrier<2>
      }
    }
  }
}

// -----

// `leader` in a role of two teams on one slot: one arrival per team, two
// a phase.
tile.kernel @leader_per_team(%n: index) threads(384) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{expects 1 arrival per phase, but each iteration of its loop arrives 2 times on slot 0}}
  %empty = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.warp_specialize {
    role "producer" warpgroups(1) {
    }
    role "consumers" warpgroups(2) teams(2) as %team {
      scf.for %k = %c0 to %n step %c1 {
        // expected-note @below {{arrives here}}
        tile.mbarrier.arrive %empty[%c0] leader : !tile.barrier<2>
      }
    }
  }
}

// -----

// `cluster`: each warp of the 4-warp kernel arrives on every CTA of the
// cluster of 2, so each CTA's barrier counts 8 arrivals.
tile.kernel @cluster_arrivals() threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{expects 4 arrivals per phase, but its block arrives 8 times on slot 0: write arrivals(8)}}
  %done = tile.alloc_barrier arrivals(4) : !tile.barrier<1>
  // expected-note @below {{arrives here}}
  tile.mbarrier.arrive %done[%c0] cluster : !tile.barrier<1>
}

// -----

// A gemm with C in registers arrives once per thread (256), not once.
tile.kernel @gemm_registers(%A: memref<?x?xbf16>, %n: index) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<256x64xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<128x256xf32>
  // expected-error @below {{expects 1 arrival per phase, but each phase of its loop arrives 256 times on slot 0: write arrivals(256)}}
  %done = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  scf.for %k = %c0 to %n step %c1 {
    %round = arith.remui %k, %c2 : index
    %parity = arith.cmpi ne, %round, %c0 : index
    // expected-note @below {{arrives here}}
    tile.gemm %As, %Bs, %acc barrier %done[%c0] {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x256xf32>, !tile.barrier<1>
    // expected-note @below {{the phase is waited for here}}
    tile.mbarrier.wait %done[%c0], %parity : !tile.barrier<1>
  }
}

// -----

// The same slot waited for with the same parity in every iteration.
tile.kernel @invariant_parity(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %s = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  scf.for %k = %c0 to %n step %c1 {
    tile.copy %A[%k, %c0] to %s[] barrier %full[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    // expected-error @below {{'tile.mbarrier.wait' op waits on slot 0 with the same parity in every iteration of its loop, but the slot's phases alternate parity: from the second iteration on the wait passes at once or hangs; flip the parity each time the loop comes back to the slot (e.g. (iteration / slots) mod 2)}}
    tile.mbarrier.wait %full[%c0], %false : !tile.barrier<1>
  }
}

// -----

// Bytes announced by hand that no copy delivers.
tile.kernel @expect_by_hand(%A: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %s = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(2) : !tile.barrier<1>
  // expected-error @below {{'tile.mbarrier.expect_tx' op raises the phase's expected bytes by 32768 that no copy delivers (each tile.copy with a barrier announces its own bytes), so the phase never completes; drop this op, or use tile.mbarrier.arrive}}
  tile.mbarrier.expect_tx %full[%c0], 32768 : !tile.barrier<1>
  tile.copy %A[%c0, %c0] to %s[] barrier %full[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  tile.mbarrier.wait %full[%c0], %false : !tile.barrier<1>
}

// -----

// A ring's slots a constant apart: the loop waits on slot i mod 2 and
// refills slot (i + 1) mod 2 (different slots whatever i is), under a
// guard, with three copies per phase where two are expected.
tile.kernel @ring_refill(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  // expected-error @below {{expects 2 arrivals per phase, but each iteration of its loop arrives 3 times on its slot: write arrivals(3), or arrive 2 times per phase}}
  %full = tile.alloc_barrier arrivals(2) : !tile.barrier<2>
  scf.for %i = %c0 to %n step %c1 {
    %slot = arith.remui %i, %c2 : index
    %round = arith.divui %i, %c2 : index
    %odd = arith.remui %round, %c2 : index
    %parity = arith.cmpi ne, %odd, %c0 : index
    tile.mbarrier.wait %full[%slot], %parity : !tile.barrier<2>
    %next = arith.addi %i, %c1 : index
    %more = arith.cmpi ult, %next, %n : index
    // expected-note @below {{arrives here}}
    scf.if %more {
      %refill = arith.remui %next, %c2 : index
      tile.copy %A[%next, %c0] to %s[] barrier %full[%refill] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
      tile.copy %A[%next, %c1] to %s[] barrier %full[%refill] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
      tile.copy %A[%next, %c2] to %s[] barrier %full[%refill] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
    }
  }
}
