//===- nvshmem-pe.cpp - NVSHMEM through the runtime on a GPU --------------===//
//
// tile-nvshmem-pe [--no-finalize] [--fail-on-pe <pe>] [<cubin> <kinfo>]
//
// One NVSHMEM PE: run it alone (one PE) or under tile-run -n N. It
// initialises NVSHMEM through the runtime, checks symmetric memory and host
// barriers and, given a cubin whose description links NVSHMEM, launches
// its kernel
//   ring(int *dst, const int *src, uint64_t *signal, uint64_t count,
//        int *peInfo)
// which writes nvshmem_my_pe() and nvshmem_n_pes() to peInfo, puts `count`
// ints of this PE's symmetric `src` into the next PE's `dst` with a signal
// (nvshmemx_putmem_signal_nbi_block) and waits for the previous PE's
// signal (nvshmem_signal_wait_until), as a collective launch (its
// description says so), after a grid too large for one is refused. Given
// test/Target/collective-launch.mlir's cubin instead, it launches tile's
// `barrier` kernel (tile.barrier_all level world) collectively. Prints one line per step, exits 0
// when every check passed, 77 (skipped) without NVSHMEM or a GPU.
// --no-finalize leaves NVSHMEM to be finalised at exit; --fail-on-pe makes
// that PE exit with status 3 once initialised, while the others wait for it
// in a barrier (tile-run must stop them).
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "tile/Runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace tile::rt;
using namespace tile_test;

namespace {

constexpr size_t kCount = 4096;

int pattern(int pe, size_t i) { return pe * 100000 + int(i); }

void runRing(int pe, int numPes, const std::string &cubin,
             const std::string &kinfo, SymmetricBuffer &dst,
             SymmetricBuffer &src, SymmetricBuffer &signal) {
  std::vector<KernelInfo> infos = loadKernelInfo(kinfo);
  expect(needsNvshmem(infos), "the description has a link record");
  Module module = Module::loadCubinFile(cubin, infos);
  expect(module.usesNvshmem(), "the module was linked with NVSHMEM");
  Kernel ring = module.kernel("ring");
  const KernelInfo &ringInfo = findKernel(infos, "ring");
  // It waits with nvshmem_signal_wait_until: a collective launch.
  expect(ringInfo.collectiveLaunch, "the description asks a collective launch");
  DeviceBuffer peInfo(2 * sizeof(int));
  peInfo.fillBytes(0xff);

  ArgPack args;
  args.addPointer(dst.ptr())
      .addPointer(src.ptr())
      .addPointer(signal.ptr())
      .addScalar<uint64_t>(kCount)
      .addPointer(peInfo.ptr());
  // More CTAs than the GPU holds at once: refused before anything runs
  // (nothing is launched, so no PE waits for this one's put).
  std::string refusal;
  try {
    launch(ring, launchConfigFor(ringInfo, Dim3{1u << 24, 1, 1}), args);
  } catch (const Error &error) {
    refusal = error.what();
  }
  expect(refusal.find("must be resident at once") != std::string::npos,
         "a collective launch of 2^24 CTAs is refused: '" + refusal + "'");
  std::printf("PE %d: collective launch of 2^24 CTAs refused: %s\n", pe,
              refusal.c_str());
  launch(ring, launchConfigFor(ringInfo, Dim3{1, 1, 1}), args);
  synchronize();
  nvshmemBarrierAll();

  std::vector<int> info(2);
  peInfo.download(info);
  expect(info[0] == pe && info[1] == numPes,
         "device nvshmem_my_pe/n_pes: " + std::to_string(info[0]) + "/" +
             std::to_string(info[1]));
  int left = (pe + numPes - 1) % numPes;
  std::vector<int> received(kCount);
  dst.download(received);
  size_t wrong = 0;
  for (size_t i = 0; i < kCount; ++i)
    wrong += received[i] != pattern(left, i);
  expect(wrong == 0, std::to_string(wrong) + " of " + std::to_string(kCount) +
                         " ints not received from PE " + std::to_string(left));
  std::printf("PE %d: kernel ring: device sees PE %d of %d; received %zu "
              "ints from PE %d%s\n",
              pe, info[0], info[1], kCount - wrong, left,
              wrong ? " (WRONG)" : "");
}

/// The `barrier` kernel of test/Target/collective-launch.mlir (tile's
/// tile.barrier_all level world, compiled with tile-translate
/// --tile-to-cubin): described as both a dependent and a collective
/// launch, it must launch collectively (launch() does not also make it a
/// dependent launch), twice in a row on every PE, after a grid too large
/// for one is refused.
void runBarrier(int pe, const std::string &cubin,
                const std::vector<KernelInfo> &infos, SymmetricBuffer &src) {
  Module module = Module::loadCubinFile(cubin, infos);
  Kernel barrier = module.kernel("barrier");
  const KernelInfo &info = findKernel(infos, "barrier");
  expect(info.collectiveLaunch && info.dependentLaunch,
         "tile's barrier kernel is described as collective and dependent");
  ArgPack args;
  args.addMemRef(src.ptr(), {int64_t(kCount)}, {1});
  bool refused = false;
  try {
    launch(barrier, launchConfigFor(info, Dim3{1u << 24, 1, 1}), args);
  } catch (const Error &) {
    refused = true;
  }
  expect(refused, "a collective launch of 2^24 CTAs of barrier is refused");
  for (int i = 0; i < 2; ++i)
    launch(barrier, launchConfigFor(info, Dim3{1, 1, 1}), args);
  synchronize();
  std::printf("PE %d: kernel barrier (tile.barrier_all level world) launched "
              "collectively twice; 2^24 CTAs %s\n",
              pe, refused ? "refused" : "NOT refused");
}

/// The kernels the description names: ring, barrier, or both.
bool describes(const std::vector<KernelInfo> &infos, const std::string &name) {
  return std::any_of(infos.begin(), infos.end(),
                     [&](const KernelInfo &info) { return info.name == name; });
}

struct Options {
  bool finalize = true;
  int failingPe = -1;
  std::string cubin, kinfo;
};

void run(const Options &options) {
  const std::string &cubin = options.cubin, &kinfo = options.kinfo;
  Device device = Device::open(nvshmemDeviceOrdinal());
  bool ncclChosen = std::getenv("NVSHMEM_DISABLE_NCCL") != nullptr;
  nvshmemInit();
  // The runtime keeps NVSHMEM from starting NCCL unless the user chose.
  const char *nccl = std::getenv("NVSHMEM_DISABLE_NCCL");
  expect(ncclChosen || (nccl && std::string(nccl) == "1"),
         "NVSHMEM_DISABLE_NCCL=1 set by nvshmemInit");
  int pe = nvshmemMyPe(), numPes = nvshmemNumPes();
  if (pe == options.failingPe) {
    std::printf("PE %d: failing on purpose\n", pe);
    std::fflush(stdout);
    std::_Exit(3);
  }
  std::printf("PE %d of %d: device %d (%s), NVSHMEM %s from %s\n", pe, numPes,
              device.ordinal(), device.name().c_str(), nvshmemVersion().c_str(),
              nvshmemInstall().libraryDir.c_str());
  {
    SymmetricBuffer src(kCount * sizeof(int)), dst(kCount * sizeof(int));
    SymmetricBuffer signal(sizeof(uint64_t));
    std::vector<int> mine(kCount);
    for (size_t i = 0; i < kCount; ++i)
      mine[i] = pattern(pe, i);
    src.upload(mine);
    dst.fillBytes(0xff);
    signal.fillBytes(0);
    nvshmemBarrierAll();
    std::vector<int> back(kCount);
    src.download(back);
    expect(back == mine, "symmetric buffer round trip");
    std::printf("PE %d: symmetric buffers at 0x%llx (%zu bytes), round trip "
                "%s, barrier passed\n",
                pe, (unsigned long long)src.ptr(), src.size(),
                back == mine ? "ok" : "WRONG");
    if (!cubin.empty()) {
      std::vector<KernelInfo> infos = loadKernelInfo(kinfo);
      expect(describes(infos, "ring") || describes(infos, "barrier"),
             "the description has a ring or a barrier kernel");
      if (describes(infos, "ring"))
        runRing(pe, numPes, cubin, kinfo, dst, src, signal);
      if (describes(infos, "barrier"))
        runBarrier(pe, cubin, infos, src);
    }
    nvshmemBarrierAll();
  } // Frees the buffers: collective, like their allocation.
  if (!options.finalize) {
    std::printf("PE %d: done, NVSHMEM finalised at exit: %s\n", pe,
                failures ? "FAILED" : "ok");
    return;
  }
  nvshmemFinalize();
  expect(!nvshmemInitialized(), "finalised");
  std::printf("PE %d: finalised: %s\n", pe, failures ? "FAILED" : "ok");
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--no-finalize")
      options.finalize = false;
    else if (arg == "--fail-on-pe" && i + 1 < argc)
      options.failingPe = std::atoi(argv[++i]);
    else
      files.push_back(arg);
  }
  if (files.size() != 0 && files.size() != 2) {
    std::fprintf(stderr,
                 "usage: %s [--no-finalize] [--fail-on-pe <pe>] "
                 "[<cubin> <kinfo>]\n",
                 argv[0]);
    return 2;
  }
  if (files.size() == 2) {
    options.cubin = files[0];
    options.kinfo = files[1];
  }
  std::string why;
  if (!nvshmemAvailable(&why)) {
    std::printf("skipped: %s\n", why.c_str());
    return 77;
  }
  if (!driverAvailable(&why)) {
    std::printf("skipped: no GPU: %s\n", why.c_str());
    return 77;
  }
  try {
    run(options);
  } catch (const std::exception &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return failures ? 1 : 0;
}
