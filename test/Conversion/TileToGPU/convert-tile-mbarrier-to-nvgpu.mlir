// tile.mbarrier ops to nvgpu (convert-tile-to-gpu, which also creates and
// initialises the barrier ring; --cse only merges the repeated constants).
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --convert-tile-to-gpu --cse

// arrive: every thread.
tile.kernel @arrive(%i: index) threads(128) {
  %bar = tile.alloc_barrier arrivals(128) : !tile.barrier<2>
  tile.mbarrier.arrive %bar[%i] : !tile.barrier<2>
}

// -----

// arrive with leader: thread 0 only.
tile.kernel @arrive_leader(%i: index) threads(128) {
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.mbarrier.arrive %bar[%i] leader : !tile.barrier<2>
}

// -----

// expect_tx: thread 0 arrives announcing the bytes.
tile.kernel @expect_tx(%i: index) threads(128) {
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.mbarrier.expect_tx %bar[%i], 16384 : !tile.barrier<2>
}

// -----

// wait: try_wait.parity on the phase.
tile.kernel @wait(%i: index, %phase: i1) threads(128) {
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  tile.mbarrier.wait %bar[%i], %phase : !tile.barrier<2>
}
