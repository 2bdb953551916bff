//===- allgather.cpp - run allgather.mlir across GPUs, check, time --------===//
//
// Every PE's X lands in its slot of every PE's Y: Y[q * part + i] = X of
// PE q at i. Checked on every PE (alone, or under `tile-run -n N`) and
// timed next to ncclAllGather (bus bandwidth = algorithm bandwidth x
// (n - 1) / n, as NCCL-tests'); `--check` only checks. Collective.h does
// the work.
//
//===----------------------------------------------------------------------===//

#include "../common/Collective.h"
#include "allgather_launcher.h"

using namespace tile::examples;

namespace {
Source fromSlotOwner(int, int, size_t part, size_t j) {
  return {int(j / part), j % part};
}

#if TILE_EXAMPLES_NCCL
ncclResult_t ncclAllgather(const NcclCall &c) {
  return ncclAllGather(c.x, c.y, c.part, ncclFloat, c.comm, c.stream);
}
#else
constexpr NcclCollective ncclAllgather = nullptr;
#endif
} // namespace

int main(int argc, char **argv) {
  return runCollective(argc, argv,
                       {"allgather", &allgather_kernels::module,
                        &allgather_kernels::allgather,
                        /*xPerPe=*/false,
                        /*yPerPe=*/true, fromSlotOwner, ncclAllgather,
                        chunkConfigs(allgather_kernels::allgather_configs)});
}
