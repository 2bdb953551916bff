// Round trip of tile.warp_specialize: roles of any warp count (warps(N), or
// warpgroups(N) for 4 N warps, which the printer prefers), optional
// registers(R) and teams(T) as %team (the region's argument is the team's
// index). --verify-roundtrip checks the generic form too.
// RUN: tile-opt %s --verify-roundtrip

// The pipeliner's form: a one-warp producer padded to warpgroup 0 by its
// register budget, two consumer warpgroups.
tile.kernel @producer_consumers() threads(384) {
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
      %x = tile.alloc_fragment : !tile.fragment<64xf32, #tile.blocked<threads = 32, vector = 2>>
    }
    role "consumers" warpgroups(2) registers(232) {
      %y = tile.alloc_fragment : !tile.fragment<256xf32, #tile.blocked<threads = 256, vector = 1>>
    }
  }
}

// Ping-pong: the consumers are two teams of 128 threads.
tile.kernel @pingpong() threads(384) {
  tile.warp_specialize {
    role "producer" warps(1) registers(40) {
    }
    role "consumers" warpgroups(2) registers(232) teams(2) as %team {
      %y = tile.alloc_fragment : !tile.fragment<128xf32, #tile.blocked<threads = 128, vector = 1>>
    }
  }
}

// Blackwell-style roles: TMA and MMA warps (warps 0 and 1; warps 2-3 idle,
// since the epilogue's whole warpgroups start on a warpgroup boundary) and
// two epilogue warpgroups; an attribute dictionary after the roles.
tile.kernel @three_roles() threads(384) {
  tile.warp_specialize {
    role "tma" warps(1) {
      %x = tile.alloc_fragment : !tile.fragment<32xf32, #tile.blocked<threads = 32, vector = 1>>
    }
    role "mma" warps(1) {
    }
    role "epilogue" warpgroups(2) teams(2) as %half {
      %y = tile.alloc_fragment : !tile.fragment<128xf32, #tile.blocked<threads = 128, vector = 1>>
    }
  } {note = "x"}
}

// One role of the whole kernel, and roles of odd warp counts back to back.
tile.kernel @odd_warps() threads(256) {
  tile.warp_specialize {
    role "a" warps(3) {
      %x = tile.alloc_fragment : !tile.fragment<96xf32, #tile.blocked<threads = 96, vector = 1>>
    }
    role "b" warps(5) teams(5) as %t {
      %y = tile.alloc_fragment : !tile.fragment<32xf32, #tile.blocked<threads = 32, vector = 1>>
    }
  }
}

tile.kernel @one_role() threads(128) {
  tile.warp_specialize {
    role "all" warpgroups(1) {
    }
  }
}
