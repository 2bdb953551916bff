// Turns pass between whole warpgroups: the threads that run them must be
// two or more.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

tile.kernel @one_warpgroup() threads(128) {
  // expected-error @below {{'tile.take_turn' op passes turns between warpgroups, but the 128 threads that run it are not two or more whole warpgroups; give the kernel (or the role) a multiple of 128 threads, at least 256}}
  tile.take_turn
}

// -----

tile.kernel @ragged() threads(320) {
  // expected-error @below {{'tile.pass_turn' op passes turns between warpgroups, but the 320 threads that run it are not two or more whole warpgroups; give the kernel (or the role) a multiple of 128 threads, at least 256}}
  tile.pass_turn
}

// -----

tile.kernel @role() threads(128) {
  tile.warp_specialize {
    role "one" warpgroups(1) {
      // expected-error @below {{'tile.take_turn' op passes turns between warpgroups, but the 128 threads that run it are not two or more whole warpgroups; give the kernel (or the role) a multiple of 128 threads, at least 256}}
      tile.take_turn
    }
  }
}

// -----

func.func @outside() {
  // expected-error @below {{'tile.take_turn' op must be nested in a 'tile.kernel'}}
  tile.take_turn
  return
}
