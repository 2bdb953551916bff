// convert-tile-mbarrier-to-gpu alone. The barrier rings stay tile ops (the
// casts stand for convert-tile-memory-to-gpu's nvgpu.mbarrier.create).
// RUN: tile-opt %s --split-input-file --convert-tile-mbarrier-to-gpu

// arrive: every thread.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @arrive(%i: index) threads(128) {
    %bar = tile.alloc_barrier arrivals(128) : !tile.barrier<2>
    tile.mbarrier.arrive %bar[%i] : !tile.barrier<2>
  }
}

// -----

// arrive with leader: thread 0 only.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @arrive_leader(%i: index) threads(128) {
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
    tile.mbarrier.arrive %bar[%i] leader : !tile.barrier<2>
  }
}

// -----

// expect_tx: thread 0 arrives announcing the bytes.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @expect_tx(%i: index) threads(128) {
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
    tile.mbarrier.expect_tx %bar[%i], 16384 : !tile.barrier<2>
  }
}

// -----

// wait: try_wait.parity on the phase.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @wait(%i: index, %phase: i1) threads(128) {
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
    tile.mbarrier.wait %bar[%i], %phase : !tile.barrier<2>
  }
}
