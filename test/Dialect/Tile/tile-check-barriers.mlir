// Protocols tile-check-barriers accepts: each count matches, or is not
// certain from the IR (then the check stays silent). The shipped kernels
// with hand-written barriers pass it too.
// RUN: tile-opt %s --split-input-file --tile-check-barriers --verify-diagnostics -o /dev/null && echo 'accepted'
// RUN: for f in gemm-sm100/gemm-explicit gpt/attention copy/copy gemm/gemm-variants; do tile-opt %S/../../../python-free-examples/$f.mlir --tile-check-barriers -o /dev/null && echo "$f accepted"; done

// A ring of 3 slots: slot k mod 3, parity (k / 3) mod 2; two copies per
// phase on a barrier of 2 arrivals.
tile.kernel @ring(%A: memref<?x?xbf16>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(2) : !tile.barrier<3>
  scf.for %k = %c0 to %n step %c1 {
    %slot = arith.remui %k, %c3 : index
    %round = arith.divui %k, %c3 : index
    %odd = arith.remui %round, %c2 : index
    %parity = arith.cmpi ne, %odd, %c0 : index
    tile.copy %A[%c0, %k] to %As[] barrier %full[%slot] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<3>
    tile.copy %A[%c1, %k] to %Bs[] barrier %full[%slot] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<3>
    tile.mbarrier.wait %full[%slot], %parity : !tile.barrier<3>
  }
}

// -----

// Producer and consumer roles: the producer's copies fill `full` (one per
// phase), each consumer team's leader releases `empty` (two teams: two per
// phase). The producer's first wait on `empty` passes at once (parity 1 on
// a fresh barrier); the consumers arrive after their wait, which in a loop
// body joins the next iteration's phase.
tile.kernel @roles(%A: memref<?x?xbf16>, %n: index) threads(384) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %As = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %empty = tile.alloc_barrier arrivals(2) : !tile.barrier<1>
  tile.warp_specialize {
    role "producer" warpgroups(1) {
      scf.for %k = %c0 to %n step %c1 {
        %odd = arith.remui %k, %c2 : index
        %parity = arith.cmpi eq, %odd, %c0 : index
        tile.mbarrier.wait %empty[%c0], %parity : !tile.barrier<1>
        tile.copy %A[%c0, %k] to %As[] barrier %full[%c0] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
      }
    }
    role "consumers" warpgroups(2) teams(2) as %team {
      scf.for %k = %c0 to %n step %c1 {
        %odd = arith.remui %k, %c2 : index
        %parity = arith.cmpi ne, %odd, %c0 : index
        tile.mbarrier.wait %full[%c0], %parity : !tile.barrier<1>
        tile.mbarrier.arrive %empty[%c0] leader : !tile.barrier<1>
      }
    }
  }
}

// -----

// Branches that arrive alike count once; a wait twice per iteration with
// both parities is two phases.
tile.kernel @branches(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %true = arith.constant true
  %s = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  scf.for %k = %c0 to %n step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      tile.copy %A[%c0, %c0] to %s[] barrier %full[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    } else {
      tile.copy %A[%k, %c0] to %s[] barrier %full[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    }
    tile.mbarrier.wait %full[%c0], %false : !tile.barrier<1>
    tile.copy %A[%k, %c1] to %s[] barrier %full[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    tile.mbarrier.wait %full[%c0], %true : !tile.barrier<1>
  }
}

// -----

// Each team's leader on its own slot (the team's index): one arrival per
// slot and iteration.
tile.kernel @slot_per_team(%n: index) threads(384) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %empty = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.warp_specialize {
    role "producer" warpgroups(1) {
    }
    role "consumers" warpgroups(2) teams(2) as %team {
      scf.for %k = %c0 to %n step %c1 {
        tile.mbarrier.arrive %empty[%team] leader : !tile.barrier<2>
      }
    }
  }
}

// -----

// A barrier completed once, before the loop, waited for in every iteration
// with the one parity (it passes); a loop whose four copies one wait after
// it collects.
tile.kernel @once_and_after(%A: memref<?x?xf32>, %n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %false = arith.constant false
  %s = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  %ready = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %all = tile.alloc_barrier arrivals(4) : !tile.barrier<1>
  tile.copy %A[%c0, %c0] to %s[] barrier %ready[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  scf.for %k = %c0 to %n step %c1 {
    tile.mbarrier.wait %ready[%c0], %false : !tile.barrier<1>
  }
  scf.for %k = %c0 to %c4 step %c1 {
    tile.copy %A[%k, %c0] to %s[] barrier %all[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  }
  tile.mbarrier.wait %all[%c0], %false : !tile.barrier<1>
}

// -----

// Not certain, so not reported: fewer arrivals than expected under a
// condition (later runs may complete the phase) and from each of two loops
// (together they may), and arrivals on slots named by two values that may
// be one.
tile.kernel @uncertain(%A: memref<?x?xf32>, %n: index, %i: index, %j: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %s = tile.alloc_shared : memref<64x128xf32, #gpu.address_space<workgroup>>
  %a = tile.alloc_barrier arrivals(2) : !tile.barrier<1>
  %b = tile.alloc_barrier arrivals(2) : !tile.barrier<1>
  %c = tile.alloc_barrier arrivals(2) : !tile.barrier<2>
  scf.for %k = %c0 to %n step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      tile.copy %A[%c0, %c0] to %s[] barrier %a[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    }
    tile.copy %A[%k, %c0] to %s[] barrier %b[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    tile.copy %A[%k, %c0] to %s[] barrier %c[%i] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
    tile.copy %A[%k, %c1] to %s[] barrier %c[%j] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
  }
  scf.for %k = %c0 to %n step %c1 {
    tile.copy %A[%k, %c1] to %s[] barrier %b[%c0] : memref<?x?xf32>, memref<64x128xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  }
}

// -----

// An arrival under a condition that depends on the thread (one warp of the
// kernel's four arrives, 32 arrivals) is not a phase that happens or not:
// not reported.
tile.kernel @one_warp_arrives() threads(128) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %false = arith.constant false
  %b = tile.alloc_barrier arrivals(32) : !tile.barrier<1>
  %tid = gpu.thread_id x
  %first = arith.cmpi ult, %tid, %c32 : index
  scf.if %first {
    tile.mbarrier.arrive %b[%c0] : !tile.barrier<1>
  }
  tile.mbarrier.wait %b[%c0], %false : !tile.barrier<1>
}
