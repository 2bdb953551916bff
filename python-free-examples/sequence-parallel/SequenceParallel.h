//===- SequenceParallel.h - the two all-to-alls around attention -*- C++ -*-===//
//
// What pre-attention-all-to-all.cpp and post-attention-all-to-all.cpp share:
// the layouts of sequence-parallel.mlir (its file comment) as where each
// element of Y comes from. Both time NCCL's all-to-all on the same bytes
// (Collective.h's): NCCL has no layout change, so it moves the same bytes
// between contiguous parts, as a program would after transposing X itself.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_SEQUENCE_PARALLEL_H
#define TILE_EXAMPLES_SEQUENCE_PARALLEL_H

#include "../common/Collective.h"

namespace tile::examples::sequence_parallel {

/// Floats of one head group: a row of a rank's part.
constexpr size_t kGroup = 256;
/// The configurations of a family of sequence-parallel.mlir: ROWS rows of
/// each part per CTA.
template <typename Config, size_t N>
std::vector<CollectiveConfig> rowConfigs(const Config (&table)[N]) {
  return collectiveConfigs(table, [](const Config &config) {
    return size_t(config.ROWS) * kGroup;
  });
}

/// Before attention: Y[q * Sl + sl, c] of rank `me` (n*Sl x 256) is X of
/// rank q at [sl, me * 256 + c] (Sl x n*256), Sl = part / 256.
inline Source headsFromSequence(int me, int n, size_t part, size_t j) {
  size_t rows = part / kGroup, row = j / kGroup, c = j % kGroup;
  return {int(row / rows), (row % rows) * n * kGroup + me * kGroup + c};
}

/// After attention: Y[sl, p * 256 + c] of rank `me` (Sl x n*256) is X of
/// rank p at [me * Sl + sl, c] (n*Sl x 256).
inline Source sequenceFromHeads(int me, int n, size_t part, size_t j) {
  size_t rows = part / kGroup, width = n * kGroup;
  size_t sl = j / width, p = j % width / kGroup, c = j % kGroup;
  return {int(p), (me * rows + sl) * kGroup + c};
}

} // namespace tile::examples::sequence_parallel

#endif // TILE_EXAMPLES_SEQUENCE_PARALLEL_H
