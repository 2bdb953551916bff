// Every verifier rule of tile.warp_specialize, one per split.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

tile.kernel @ws_nested(%n: index) threads(256) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'tile.warp_specialize' op must be directly in a 'tile.kernel' body}}
    tile.warp_specialize {
      role "all" warpgroups(2) {
      }
    }
  }
}

// -----

tile.kernel @no_roles() threads(128) {
  // expected-error @+1 {{'tile.warp_specialize' op expects at least one role (`role "name" warps(N) { ... }`)}}
  tile.warp_specialize {
  }
}

// -----

tile.kernel @same_name() threads(256) {
  // expected-error @+1 {{'tile.warp_specialize' op has two roles named 'a'; give each role its own name}}
  tile.warp_specialize {
    role "a" warpgroups(1) {
    }
    role "a" warpgroups(1) {
    }
  }
}

// -----

// warpgroups(N) counts 4 N warps: a count that 4 N would overflow (it
// wrapped to 2 warpgroups and compiled) is refused as it is parsed.
tile.kernel @warpgroups_overflow() threads(256) {
  tile.warp_specialize {
    // expected-error @+1 {{warpgroups(1073741826) is not a number of warpgroups a CTA holds: write warpgroups(N) with N in [1, 8] (1024 threads)}}
    role "a" warpgroups(1073741826) {
    }
  }
}

// -----

tile.kernel @no_warps() threads(128) {
  // expected-error @+1 {{'tile.warp_specialize' op role 'a' expects a positive warp count, got 0; write warps(N) with N >= 1}}
  tile.warp_specialize {
    role "a" warps(0) {
    }
    role "b" warpgroups(1) {
    }
  }
}

// -----

tile.kernel @threads_mismatch() threads(384) {
  // expected-error @+1 {{'tile.warp_specialize' op places its roles on 256 threads (warpgroup alignment included) but the kernel has 384; write threads(256) on the kernel or change the roles' warp counts}}
  tile.warp_specialize {
    role "producer" warps(1) {
    }
    role "consumers" warpgroups(1) {
    }
  }
}

// -----

// A role with registers is padded to whole warpgroups: 128 + 32 threads.
tile.kernel @padding_counts() threads(128) {
  // expected-error @+1 {{'tile.warp_specialize' op places its roles on 160 threads (warpgroup alignment included) but the kernel has 128; write threads(160) on the kernel or change the roles' warp counts}}
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
    }
    role "consumer" warps(1) {
    }
  }
}

// -----

tile.kernel @teams_uneven() threads(384) {
  // expected-error @+1 {{'tile.warp_specialize' op role 'consumers' has 8 warp(s), which teams(3) does not divide; give it a multiple of the team count in warps}}
  tile.warp_specialize {
    role "producer" warpgroups(1) {
    }
    role "consumers" warpgroups(2) teams(3) as %team {
    }
  }
}

// -----

tile.kernel @teams_no_argument() threads(384) {
  // expected-error @+1 {{'tile.warp_specialize' op role 'consumers' expects the team's index as its only argument (write `teams(2) as %team`)}}
  "tile.warp_specialize"() ({
    "tile.yield"() : () -> ()
  }, {
    "tile.yield"() : () -> ()
  }) {roleNames = ["producer", "consumers"], roleWarps = array<i32: 4, 8>, roleRegisters = array<i32: 0, 0>, roleTeams = array<i32: 1, 2>} : () -> ()
}

// -----

tile.kernel @argument_without_teams() threads(256) {
  // expected-error @+1 {{'tile.warp_specialize' op role 'producer' takes no arguments without teams (write `teams(T) as %team` for a team index)}}
  "tile.warp_specialize"() ({
  ^bb0(%x: index):
    "tile.yield"() : () -> ()
  }, {
    "tile.yield"() : () -> ()
  }) {roleNames = ["producer", "consumers"], roleWarps = array<i32: 4, 4>, roleRegisters = array<i32: 0, 0>, roleTeams = array<i32: 1, 1>} : () -> ()
}

// -----

// A budget setmaxnreg cannot take is refused where it is written, at the
// role.
tile.kernel @register_count() threads(256) {
  tile.warp_specialize {
    // expected-error @+1 {{role 'producer' asks for 20 registers; setmaxnreg takes a multiple of 8 in [24, 256] (write registers(24))}}
    role "producer" warps(1) registers(20) {
    }
    role "consumers" warpgroups(1) registers(232) {
    }
  }
}

// -----

tile.kernel @register_count_odd() threads(256) {
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
    }
    // expected-error @+1 {{role 'consumers' asks for 230 registers; setmaxnreg takes a multiple of 8 in [24, 256] (write registers(232))}}
    role "consumers" warpgroups(1) registers(230) {
    }
  }
}

// -----

tile.kernel @register_count_high() threads(256) {
  tile.warp_specialize {
    // expected-error @+1 {{role 'producer' asks for 257 registers; setmaxnreg takes a multiple of 8 in [24, 256] (write registers(256))}}
    role "producer" warps(1) registers(257) {
    }
  }
}

// -----

// Built without the custom syntax (a pass, the generic form), the verifier
// checks the budget at the op.
tile.kernel @register_count_generic() threads(256) {
  // expected-error @+1 {{'tile.warp_specialize' op role 'consumers' asks for 230 registers; setmaxnreg takes a multiple of 8 in [24, 256] (write registers(232))}}
  "tile.warp_specialize"() <{roleNames = ["producer", "consumers"], roleRegisters = array<i32: 40, 230>, roleTeams = array<i32: 1, 1>, roleWarps = array<i32: 1, 4>}> ({
    "tile.yield"() : () -> ()
  }, {
    "tile.yield"() : () -> ()
  }) : () -> ()
}

// -----

// 512 threads start with 128 registers each: 128 x 40 + 384 x 232 is more
// than the CTA's 65536.
tile.kernel @register_total() threads(512) {
  // expected-error @+1 {{'tile.warp_specialize' op asks for 94208 registers; the CTA holds 65536 (512 threads x 128); lower some role's registers(...)}}
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
    }
    role "consumers" warpgroups(3) registers(232) {
    }
  }
}

// -----

// An increase nobody pays for: the role without a budget keeps 168.
tile.kernel @increase_alone() threads(384) {
  // expected-error @+1 {{'tile.warp_specialize' op asks for 80896 registers; the CTA holds 64512 (384 threads x 168); lower some role's registers(...)}}
  tile.warp_specialize {
    role "producer" warpgroups(1) {
    }
    role "consumers" warpgroups(2) registers(232) {
    }
  }
}

// -----

// Layouts in a role are for its threads (of its team, with teams).
tile.kernel @layout_threads() threads(384) {
  tile.warp_specialize {
    role "producer" warps(1) {
    }
    role "consumers" warpgroups(2) teams(2) as %team {
      // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 256 threads in a kernel of 128}}
      %x = tile.alloc_fragment : !tile.fragment<256xf32, #tile.blocked<threads = 256, vector = 1>>
    }
  }
}

// -----

tile.kernel @store_wait_split(%C: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.warp_specialize' op role 'producer' has asynchronous TMA stores but no tile.wait_tma_stores (only the threads that issue them can wait; add one in this role)}}
  tile.warp_specialize {
    role "producer" warps(1) {
      tile.copy %s[] to %C[%c0, %c0] {tma, async} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
    }
    role "consumers" warpgroups(1) {
      tile.wait_tma_stores pending(0)
    }
  }
}

// -----

tile.kernel @empty_region() threads(256) {
  // expected-error @+1 {{'tile.warp_specialize' op region #1 ('roles') failed to verify constraint: region with 1 blocks}}
  "tile.warp_specialize"() ({
    "tile.yield"() : () -> ()
  }, {
  }) {roleNames = ["producer", "consumers"], roleWarps = array<i32: 4, 4>, roleRegisters = array<i32: 0, 0>, roleTeams = array<i32: 1, 1>} : () -> ()
}

// -----

tile.kernel @bad_syntax() threads(256) {
  // expected-error @+2 {{expected 'warps' or 'warpgroups'}}
  tile.warp_specialize {
    role "producer" threads(32) {
    }
  }
}
