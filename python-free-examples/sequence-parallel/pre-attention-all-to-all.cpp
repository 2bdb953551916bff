//===- pre-attention-all-to-all.cpp - sequence shards to head shards ------===//
//
// sequence-parallel.mlir's @seq_to_heads across GPUs: every rank's rows of
// every head in, the whole sequence of this rank's head group out. Checked
// on every PE (alone, or under `tile-run -n N`) and timed next to NCCL's
// all-to-all on the same bytes; `--check` only checks. Collective.h does
// the work.
//
//===----------------------------------------------------------------------===//

#include "SequenceParallel.h"
#include "sequence-parallel_launcher.h"

using namespace tile::examples;

int main(int argc, char **argv) {
  return runCollective(argc, argv,
                       {"pre-attention-all-to-all",
                        &sequence_parallel_kernels::module,
                        &sequence_parallel_kernels::seq_to_heads,
                        /*xPerPe=*/true, /*yPerPe=*/true,
                        sequence_parallel::headsFromSequence,
                        ncclAllToAll,
                        sequence_parallel::rowConfigs(
                            sequence_parallel_kernels::seq_to_heads_configs)});
}
