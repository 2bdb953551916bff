// tile-attach-target records the chip on the module; run without a chip it
// keeps the module's target, or gives sm_90a.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_80
// RUN: tile-opt %s --split-input-file --tile-attach-target

tile.kernel @k() threads(32) {
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @k() threads(32) {
  }
}
