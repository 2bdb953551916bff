//===- all-to-all.cpp - run all-to-all.mlir across GPUs, check, time ------===//
//
// Part p of PE r's X lands in slot r of PE p's Y: Y[q * part + i] on PE me
// = X of PE q at me * part + i. Checked on every PE (alone, or under
// `tile-run -n N`) and timed next to NCCL's grouped sends and receives to
// and from every PE (NCCL has no all-to-all call; bus bandwidth =
// algorithm bandwidth x (n - 1) / n, as NCCL-tests'); `--check` only
// checks. Collective.h does the work.
//
//===----------------------------------------------------------------------===//

#include "../common/Collective.h"
#include "all-to-all_launcher.h"

using namespace tile::examples;

namespace {
Source fromMyPartOfSlotOwner(int me, int, size_t part, size_t j) {
  return {int(j / part), me * part + j % part};
}
} // namespace

int main(int argc, char **argv) {
  return runCollective(argc, argv,
                       {"all-to-all", &all_to_all_kernels::module,
                        &all_to_all_kernels::all_to_all,
                        /*xPerPe=*/true,
                        /*yPerPe=*/true, fromMyPartOfSlotOwner, ncclAllToAll,
                        chunkConfigs(all_to_all_kernels::all_to_all_configs)});
}
