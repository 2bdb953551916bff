//===- post-attention-all-to-all.cpp - head shards back to sequence shards ===//
//
// sequence-parallel.mlir's @heads_to_seq across GPUs: this rank's head
// group for the whole sequence in, this rank's rows of every head group
// out (the transpose back). Checked on every PE (alone, or under `tile-run
// -n N`) and timed next to NCCL's all-to-all on the same bytes; `--check`
// only checks. Collective.h does the work.
//
//===----------------------------------------------------------------------===//

#include "SequenceParallel.h"
#include "sequence-parallel_launcher.h"

using namespace tile::examples;

int main(int argc, char **argv) {
  return runCollective(argc, argv,
                       {"post-attention-all-to-all",
                        &sequence_parallel_kernels::module,
                        &sequence_parallel_kernels::heads_to_seq,
                        /*xPerPe=*/true, /*yPerPe=*/true,
                        sequence_parallel::sequenceFromHeads,
                        ncclAllToAll,
                        sequence_parallel::rowConfigs(
                            sequence_parallel_kernels::heads_to_seq_configs)});
}
