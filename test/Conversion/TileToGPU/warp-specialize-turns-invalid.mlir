// What the warp split refuses of warpgroups' turns, each with a located
// error.
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --verify-diagnostics -o /dev/null

// No split: the turns' barriers are a role's, and a software-pipelined
// loop would synchronise the whole CTA inside them.
tile.kernel @no_split() threads(256) {
  // expected-error @below {{'tile.take_turn' op must be inside the consumers of a warp_specialized tile.pipelined_for (warpgroups take turns only there; a software-pipelined loop synchronises the whole CTA every iteration)}}
  tile.take_turn
  tile.pass_turn
}

// -----

// A pass under a condition, its take outside: a warpgroup that skips the
// condition keeps the turn for ever.
tile.kernel @conditional(%flag: i1) threads(256) {
  tile.warp_specialize {
    role "consumers" warpgroups(2) {
      tile.take_turn
      scf.if %flag {
        // expected-error @below {{'tile.pass_turn' op leaves the turns unbalanced in its 'scf.if': turns inside a loop or a condition come in pairs (a take then a pass, or a pass then a take), so that every path leaves the turn as it found it}}
        tile.pass_turn
      }
    }
  }
}

// -----

// Turns in a while loop: only counted loops and conditions are followed.
tile.kernel @while_loop(%flag: i1) threads(256) {
  tile.warp_specialize {
    role "consumers" warpgroups(2) {
      scf.while : () -> () {
        scf.condition(%flag)
      } do {
        // expected-error @below {{'tile.take_turn' op must not be inside 'scf.while': turns may sit in the role's code, its scf.for loops and its scf.if conditions}}
        tile.take_turn
        tile.pass_turn
        scf.yield
      }
    }
  }
}

// -----

// A pass before any take.
tile.kernel @out_of_order() threads(256) {
  tile.warp_specialize {
    role "consumers" warpgroups(2) {
      // expected-error @below {{'tile.pass_turn' op is out of order: a role's turns alternate, tile.take_turn then tile.pass_turn, from a take to a pass (the take expected here)}}
      tile.pass_turn
      tile.take_turn
    }
  }
}

// -----

// A take never passed on: the other warpgroup would wait for ever.
tile.kernel @never_passed() threads(256) {
  tile.warp_specialize {
    role "consumers" warpgroups(2) {
      tile.take_turn
      tile.pass_turn
      // expected-error @below {{'tile.take_turn' op is never passed on: the other warpgroups would wait for the turn for ever; end the role's turns with a tile.pass_turn}}
      tile.take_turn
    }
  }
}

// -----

// A copy to shared memory ends with a barrier of the role: inside the
// turns, the warpgroup waiting for its turn would never reach it.
tile.kernel @barrier_inside(%A: memref<?x?xf32>) threads(256) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "consumers" warpgroups(2) {
      tile.take_turn
      // expected-error @below {{'gpu.barrier' op synchronises the CTA (or the role) between warpgroups' turns (tile.take_turn ... tile.pass_turn): a warpgroup waiting for its turn would never reach it; move the op that needs it out of the turns}}
      tile.copy %A[%c0, %c0] to %s[] : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
      tile.pass_turn
    }
  }
}

// -----

// Teams of warpgroups (ping-pong over tiles) do not take turns inside a
// team yet.
tile.kernel @teams() threads(512) {
  tile.warp_specialize {
    role "consumers" warpgroups(4) teams(2) as %team {
      // expected-error @below {{'tile.take_turn' op needs one team of two or more whole warpgroups to take turns; role 'consumers' has 2 team(s) of 256 threads}}
      tile.take_turn
      tile.pass_turn
    }
  }
}
