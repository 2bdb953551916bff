// tile.warp_specialize, written by hand, lowered after its contents: an
// scf.if on thread id < 128 (the one-warp producer role sets registers, so
// it is padded to warpgroup 0). The producer warpgroup lowers its registers
// (setmaxregister decrease 40) and only its warp 0 (thread id < 32) runs the
// producer region, here a TMA load electing thread 0. The consumers raise
// theirs (increase 232); their thread ids are thread_id - 128 (the copies'
// distribution and the thread that issues their TMA store read that
// value), and the CTA barrier that makes their writes to shared memory
// visible before the store becomes named barrier 1 (allocated: the only
// role that synchronises) for their 256 threads
// (nvvm.barrier id = 1, 256) rather than gpu.barrier, which the producer
// warp would never reach.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --canonicalize --cse

tile.kernel @roles(%A: memref<?x?xf32>, %C: memref<?x?xf32>) threads(384) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %out = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  %full = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %false = arith.constant false
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
      tile.copy %A[%c0, %c0] to %s[] barrier %full[%c0] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
    }
    role "consumers" warpgroups(2) registers(232) {
      tile.mbarrier.wait %full[%c0], %false : !tile.barrier<1>
      %x = tile.alloc_fragment : !tile.fragment<8x32xf32, #tile.blocked<threads = 256, vector = 1>>
      tile.copy %s[] to %x[] : memref<8x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x32xf32, #tile.blocked<threads = 256, vector = 1>>
      tile.copy %x[] to %out[] : !tile.fragment<8x32xf32, #tile.blocked<threads = 256, vector = 1>>, memref<8x32xf32, #gpu.address_space<workgroup>>
      tile.copy %out[] to %C[%c0, %c0] {tma} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    }
  }
}

// The same with the conversions one at a time, the split last: no tile op
// is left (only the kernel attributes the runtime reads), the roles' six
// barriers are named ones and the only gpu.barrier is the CTA-wide one after
// the mbarrier initialisation.
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --tile-assign-tma-parameters --convert-tile-copy-to-gpu --tile-allocate-tensor-memory --tile-assign-shared-offsets --convert-tile-memory-to-gpu --convert-tile-mbarrier-to-gpu --convert-tile-warp-specialize-to-gpu | grep -oE 'nvvm.setmaxregister +(increase|decrease) [0-9]+|nvvm.barrier id|gpu.barrier|tile\.[a-z_]+ ' | sort | uniq -c

// Without registers(...) nothing calls setmaxnreg; the producer's plain copy
// to shared memory ends with a named barrier for its one warp (32 threads):
// it is the only role that synchronises, so it gets id 1. The consumers,
// whole warpgroups, start at warpgroup 1 all the same.
tile.kernel @no_registers(%A: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "producer" warps(1) {
      tile.copy %A[%c0, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
    role "consumers" warpgroups(1) {
    }
  }
}

// Asynchronous TMA stores and their wait in the consumers: the thread that
// issues the store and the one that waits are the same, consumer thread 0
// (thread_id - 128 == 0).
// RUN: tile-opt %s --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --canonicalize --cse | sed -n '/@async_stores/,/gpu.return/p' | grep -E 'thread_id|cmpi eq|tma.async.store|scf.if|bulk' | sed -E 's/^ +//; s/ : memref.*//'
tile.kernel @async_stores(%C: memref<?x?xf32>) threads(384) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "producer" warps(1) {
    }
    role "consumers" warpgroups(2) {
      tile.copy %s[] to %C[%c0, %c0] {tma, async} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
      tile.wait_tma_stores pending(0)
    }
  }
}
