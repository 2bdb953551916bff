// Selection refuses what tile-specialize has not handled: a family, a
// helper call, a tile with `?` dimensions.
// RUN: tile-opt %s --split-input-file --tile-attach-target=chip=sm_90a --tile-select-instructions --verify-diagnostics -o /dev/null

// expected-error @+1 {{'tile.kernel' op is a kernel family whose parameters are not set (BM, BN): run tile-specialize first (tile-to-nvvm and tile-translate do), or pass it values}}
tile.kernel @k() params(BM: index = 128, BN: index = 64) threads(128) {
}

// -----

func.func private @helper(%x: index) -> index {
  func.return %x : index
}
tile.kernel @k() threads(128) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'func.call' op calls a helper, which tile-specialize inlines: run it first (tile-to-nvvm and tile-translate do)}}
  %y = func.call @helper(%c0) : (index) -> index
}

// -----

tile.kernel @k() threads(128) {
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'tile.alloc_fragment' op has a tile with `?` dimensions ('!tile.fragment<?xf32>'): tile-specialize makes its shape static; run it first}}
  %x = tile.alloc_fragment [%c64] : !tile.fragment<?xf32>
}

// -----

// expected-error @+1 {{'tile.kernel' op takes an argument of a kernel family's element type (!tile.type_param) but declares no such parameter; declare it in params(NAME: type = ...) and run tile-specialize}}
tile.kernel @k(%a: memref<?x!tile.type_param<"T", f32>>) threads(128) {
}
