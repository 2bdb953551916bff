//===- shift.cpp - run shift.mlir across GPUs, check, time ----------------===//
//
// Each PE puts its X into the next PE's Y: Y on PE r holds X of PE
// (r - 1) mod n. Checked on every PE (alone, or under `tile-run -n N`) and
// timed next to NCCL's send to the next PE and receive from the previous
// one (bus bandwidth = algorithm bandwidth, as NCCL-tests' sendrecv);
// `--check` only checks. Collective.h does the work.
//
//===----------------------------------------------------------------------===//

#include "../common/Collective.h"
#include "shift_launcher.h"

using namespace tile::examples;

namespace {
Source fromPrevious(int me, int n, size_t, size_t j) {
  return {(me + n - 1) % n, j};
}

#if TILE_EXAMPLES_NCCL
ncclResult_t ncclShift(const NcclCall &c) {
  // Errors of the calls in a group come back from ncclGroupEnd.
  ncclGroupStart();
  ncclSend(c.x, c.part, ncclFloat, (c.me + 1) % c.n, c.comm, c.stream);
  ncclRecv(c.y, c.part, ncclFloat, (c.me + c.n - 1) % c.n, c.comm, c.stream);
  return ncclGroupEnd();
}
#else
constexpr NcclCollective ncclShift = nullptr;
#endif
} // namespace

int main(int argc, char **argv) {
  return runCollective(argc, argv,
                       {"shift", &shift_kernels::module, &shift_kernels::shift,
                        /*xPerPe=*/false,
                        /*yPerPe=*/false, fromPrevious, ncclShift,
                        chunkConfigs(shift_kernels::shift_configs)});
}
