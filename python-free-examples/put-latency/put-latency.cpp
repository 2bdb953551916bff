//===- put-latency.cpp - a put's latency between two GPUs -----------------===//
//
// put-latency.mlir's ping-pong between PE 0 and PE 1 (run under
// `tile-run -n 2`; alone it skips): for each configuration (message size,
// NVSHMEM's call or tile's p2p stores) it first checks the exchange on
// fresh random floats (PE 0 and PE 1 each send theirs, then send back what
// they got, and must get their own back; the halves that receive are
// poisoned before each launch), then times launches of kRounds round
// trips and prints the round trip and half of it, a put's one-way
// latency with its signal. `--check` only checks.
//
//===----------------------------------------------------------------------===//

#include "../common/ExampleUtil.h"
#include "put-latency_launcher.h"

#include "tile/Runtime/Launcher.h"

#include <algorithm>
#include <cstring>
#include <exception>

using namespace tile;
using namespace tile::examples;

namespace {
constexpr int64_t kRounds = 2000;

class PingPong {
public:
  PingPong()
      : device(rt::Device::open(rt::nvshmemDeviceOrdinal())),
        module(put_latency_kernels::module().module()), me(rt::nvshmemMyPe()),
        n(rt::nvshmemNumPes()), buf(2 * maxFloats() * 4), flags(2 * 8) {
    flags.fillBytes(0);
    rt::nvshmemBarrierAll();
  }

  static size_t maxFloats() {
    int64_t most = 0;
    for (const auto &config : put_latency_kernels::ping_pong_configs)
      most = std::max(most, config.FLOATS);
    return size_t(most);
  }

  /// `rounds` round trips of configuration `config`, the next words.
  void launch(size_t config, int64_t rounds) {
    size_t floats = 2 * maxFloats();
    put_latency_kernels::ping_pong(
        config, {1, 1, 1},
        rt::MemRef<float, 1>::rowMajor(buf.ptr(), {int64_t(floats)}),
        rt::MemRef<int64_t, 1>::rowMajor(flags.ptr(), {2}), base, rounds)
        .launch();
    base += rounds;
  }

  /// One round trip sending `first` with the receiving half poisoned;
  /// returns what arrived in it.
  std::vector<float> exchange(size_t config, const std::vector<float> &first) {
    std::vector<float> all(2 * maxFloats());
    std::memset(all.data(), 0xFF, all.size() * sizeof(float));
    std::copy(first.begin(), first.end(), all.begin());
    buf.upload(all);
    rt::nvshmemBarrierAll();
    launch(config, 1);
    rt::synchronize();
    rt::nvshmemBarrierAll();
    buf.download(all);
    return std::vector<float>(all.begin() + first.size(),
                              all.begin() + 2 * first.size());
  }

  /// PE 0 and PE 1 send fresh floats, then send back what they got: each
  /// must get its own back.
  bool check(size_t config) {
    size_t floats = size_t(put_latency_kernels::ping_pong_configs[config].FLOATS);
    std::vector<float> mine = randomFloats(floats);
    std::vector<float> back = exchange(config, exchange(config, mine));
    if (me > 1)
      return true;
    size_t wrong = 0;
    for (size_t i = 0; i < floats; ++i)
      wrong += back[i] != mine[i];
    if (wrong)
      std::printf("  PE %d, %s: %zu of %zu floats wrong after the round "
                  "trips (first: %g, want %g)\n",
                  me, put_latency_kernels::ping_pong_configs[config].kernel,
                  wrong, floats, back[0], mine[0]);
    return wrong == 0;
  }

  rt::Device device;
  const rt::Module &module;
  int me, n;
  rt::SymmetricBuffer buf, flags;
  int64_t base = 0;
};
} // namespace

int main(int argc, char **argv) {
  requireGpu("put-latency");
  std::string why;
  if (!rt::nvshmemAvailable(&why)) {
    std::printf("put-latency: skipped, no NVSHMEM: %s\n", why.c_str());
    return kSkipped;
  }
  bool checkOnly = argc > 1 && std::string(argv[1]) == "--check";
  try {
    PingPong run;
    if (run.n < 2) {
      std::printf("put-latency: skipped, needs 2 PEs (run it under "
                  "`tile-run -n 2`)\n");
      return kSkipped;
    }
    if (run.me == 0)
      std::printf("put-latency: %d PEs, PE 0 on device %d (%s), NVSHMEM %s\n",
                  run.n, run.device.ordinal(), run.device.name().c_str(),
                  rt::nvshmemVersion().c_str());
    bool ok = true;
    for (size_t c = 0; c < put_latency_kernels::ping_pong_config_count; ++c)
      ok &= run.check(c);
    if (run.me <= 1)
      std::printf("put-latency: PE %d: %s\n", run.me,
                  ok ? "all checks passed" : "FAILED");
    if (!ok) {
      std::fflush(stdout);
      std::_Exit(1);
    }
    if (checkOnly)
      return 0;
    if (run.me == 0)
      std::printf("  %-22s %8s | round trip us | one-way us (%lld round "
                  "trips a launch, median of 5 launches)\n",
                  "configuration", "bytes", (long long)kRounds);
    for (size_t c = 0; c < put_latency_kernels::ping_pong_config_count; ++c) {
      rt::nvshmemBarrierAll();
      rt::Timer timer;
      float ms = timer.timeMs([&] { run.launch(c, kRounds); }, 1, 5);
      const auto &config = put_latency_kernels::ping_pong_configs[c];
      if (run.me == 0)
        std::printf("  %-22s %8lld | %13.2f | %10.2f\n", config.kernel,
                    (long long)(config.FLOATS * 4), ms * 1e3 / kRounds,
                    ms * 1e3 / kRounds / 2);
    }
    rt::nvshmemBarrierAll();
    return 0;
  } catch (const std::exception &error) {
    std::printf("put-latency: PE %d: %s\n",
                rt::nvshmemInitialized() ? rt::nvshmemMyPe() : -1,
                error.what());
  }
  std::fflush(stdout);
  std::_Exit(1);
}
