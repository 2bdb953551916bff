// tile.static_assert under tile-specialize{skip-invalid}: the configuration
// that breaks the rule is dropped with a warning, the others are kept and
// the op is gone after tile-record-grid; gemm.mlir's family refuses split-K
// with an epilogue.
// RUN: tile-opt %s --tile-specialize=skip-invalid --tile-record-grid 2>&1 | sed -e 's|^.*static-assert-skip.mlir|<this file>|'
// RUN: not tile-translate --tile-to-ptx --chip=sm_90a %S/../../../python-free-examples/gemm/gemm.mlir --tile-values=SPLITK=2,BIAS=1 -o /dev/null 2>&1 | grep -o "'tile.static_assert' op fails: .*"

tile.kernel @k(%a: memref<?xf32>)
    params(SPLIT: index = 1, BIAS: i1 = false)
    configs([SPLIT = 1, BIAS = true], [SPLIT = 2, BIAS = true])
    threads(128) {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %split_param = tile.param "SPLIT" : index
  %bias = tile.param "BIAS" : i1
  %split = arith.cmpi ugt, %split_param, %c1 : index
  %both = arith.andi %split, %bias : i1
  %ok = arith.xori %both, %true : i1
  tile.static_assert %ok, "SPLIT > 1 takes no BIAS"
}
