// tile-attach-target refuses a second chip (attach-target-unknown-chip.mlir:
// an unknown one).
// RUN: tile-opt %s --tile-attach-target=chip=sm_90a --verify-diagnostics -o /dev/null

// expected-error @+1 {{targets sm_80 already; compiling it for sm_90a would mix two chips (drop the module's tile.target or ask for sm_80)}}
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @k() threads(32) {
  }
}
