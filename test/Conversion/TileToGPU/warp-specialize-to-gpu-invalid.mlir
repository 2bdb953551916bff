// The split rewrites the thread ids and barriers of lowered ops
// (gpu.thread_id, gpu.block_dim, gpu.barrier), so it must run after the ops
// in its regions are lowered (run first, it refuses), and it refuses thread
// ids and barriers spelled any other way, which it could not rewrite.
// RUN: tile-opt %s --split-input-file --tile-attach-target --convert-tile-kernel-to-gpu --convert-tile-warp-specialize-to-gpu --verify-diagnostics -o /dev/null

tile.kernel @too_early(%A: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "producer" warps(1) {
      // expected-error @below {{'tile.copy' op must be lowered before the tile.warp_specialize around it (convert-tile-warp-specialize-to-gpu runs last)}}
      tile.copy %A[%c0, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
    }
    role "consumers" warpgroups(1) {
    }
  }
}

// -----

tile.kernel @raw_barrier(%A: memref<?xi32>) threads(256) {
  tile.warp_specialize {
    role "producer" warps(1) {
      // expected-error @below {{'nvvm.barrier0' op reads the thread id or synchronises the CTA other than through gpu.thread_id, gpu.block_dim or gpu.barrier, which the warp split cannot rewrite for its role; lowerings inside a tile.warp_specialize must use those}}
      nvvm.barrier0
    }
    role "consumers" warpgroups(1) {
    }
  }
}

// -----

tile.kernel @raw_thread_id(%A: memref<?xi32>) threads(256) {
  tile.warp_specialize {
    role "producer" warps(1) {
    }
    role "consumers" warpgroups(1) {
      // expected-error @below {{'llvm.inline_asm' op reads the thread id or synchronises the CTA}}
      %t = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
    }
  }
}
