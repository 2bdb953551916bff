// tile.static_assert: a family's rule, folded by tile-specialize (a
// configuration that breaks it is refused with the message, or skipped
// with skip-invalid), erased by tile-record-grid (which refuses a
// condition still unknown).
// RUN: tile-opt %s --split-input-file --tile-specialize --tile-record-grid --verify-diagnostics -o /dev/null

// expected-error @+1 {{'tile.kernel' op fails to specialise for configuration [SPLIT = 2, BIAS = 1] (@k__SPLIT2_BIAS1); the error above names what is wrong}}
tile.kernel @k(%a: memref<?xf32>)
    params(SPLIT: index = 1, BIAS: i1 = false)
    configs([SPLIT = 1, BIAS = true], [SPLIT = 2, BIAS = false],
            [SPLIT = 2, BIAS = true])
    threads(128) {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %split_param = tile.param "SPLIT" : index
  %bias = tile.param "BIAS" : i1
  %split = arith.cmpi ugt, %split_param, %c1 : index
  %both = arith.andi %split, %bias : i1
  %ok = arith.xori %both, %true : i1
  // expected-error @+1 {{'tile.static_assert' op fails: SPLIT > 1 takes no BIAS}}
  tile.static_assert %ok, "SPLIT > 1 takes no BIAS"
}

// -----

tile.kernel @k(%a: memref<?xf32>, %n: index) threads(128) {
  %c1 = arith.constant 1 : index
  %big = arith.cmpi ugt, %n, %c1 : index
  // expected-error @+1 {{'tile.static_assert' op has a condition that is not known after tile-specialize: compute it from the family's parameters and constants only}}
  tile.static_assert %big, "n > 1"
}

// -----

func.func @f(%x: i1) {
  // expected-error @+1 {{'tile.static_assert' op states a rule of a kernel family: put it inside the tile.kernel}}
  tile.static_assert %x, "outside"
  return
}
