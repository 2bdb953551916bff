// A family choosing its grid by a parameter with arith.select: the family
// verifies (both arms are grid expressions, the condition is computed from
// parameters alone), tile-specialize folds the select in each kernel, and
// tile-record-grid writes the arm chosen: min(tiles, SMs) for the
// persistent kernel, a CTA per tile for the other.
// RUN: tile-opt %s --tile-specialize --tile-record-grid

tile.kernel @tiles(%A: memref<?x?xf32>) params(PERSISTENT: i1 = false)
    configs([PERSISTENT = true], [PERSISTENT = false]) threads(128) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %tiles = arith.ceildivui %M, %c64 : index
  %sms = tile.num_sms : index
  %resident = arith.minui %tiles, %sms : index
  %persistent = tile.param "PERSISTENT" : i1
  %ctas = arith.select %persistent, %resident, %tiles : index
  tile.grid %ctas
}
