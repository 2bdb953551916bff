//===- Collective.h - Collectives across GPUs: check and time ---*- C++ -*-===//
//
// What the collective examples (shift, allgather, all-to-all and the
// sequence-parallel all-to-alls) share. Each
// program describes its collective (CollectiveSpec) and calls
// runCollective, which
//  - skips (77) without a GPU or without NVSHMEM, saying what is missing;
//  - starts NVSHMEM through the runtime: alone as one PE, under
//    `tile-run -n N` as one of N (PE 0 prints; the others print failures);
//  - checks every configuration of the kernel family (the chunk of a part
//    one CTA moves) on 1, 37 and 64 chunks a part and on 4 MiB parts, twice
//    each: X random floats from a generator any PE can evaluate for any PE
//    (seeded by the run, the size, the launch and the PE), Y poisoned, one
//    CTA a chunk, a larger epoch each launch (the signal words are zeroed
//    once), then every element of Y compared with the element of X it
//    must hold;
//  - unless `--check` is given, times every configuration that divides the
//    size next to NCCL's version of the collective, interleaved over three
//    rounds with every PE starting each measurement together (medians),
//    8 KiB to 256 MiB of X per PE, with NCCL-tests' bus bandwidths: the
//    fastest configuration, NCCL, then each configuration's time.
// The run's seed and NCCL's unique id travel from PE 0 to the other PEs
// through the program's own kernel (CollectiveRun::shareFromPe0).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_COMMON_COLLECTIVE_H
#define TILE_EXAMPLES_COMMON_COLLECTIVE_H

#include "ExampleUtil.h"

#include "tile/Runtime/Launcher.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#if TILE_EXAMPLES_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

namespace tile::examples {

/// Where an element of Y comes from: element `index` of PE `pe`'s X.
struct Source {
  int pe;
  size_t index;
};

#if TILE_EXAMPLES_NCCL
/// One call of NCCL's version of a collective on the kernel's X and Y.
struct NcclCall {
  ncclComm_t comm;
  float *x, *y;
  /// Floats a part.
  size_t part;
  int me, n;
  cudaStream_t stream;
};
/// NCCL's version of a collective.
using NcclCollective = ncclResult_t (*)(const NcclCall &call);

/// NCCL's all-to-all: part p of X to PE p, part p of Y from PE p, as
/// grouped sends and receives (NCCL has no all-to-all call).
inline ncclResult_t ncclAllToAll(const NcclCall &c) {
  // Errors of the calls in a group come back from ncclGroupEnd.
  ncclGroupStart();
  for (int peer = 0; peer < c.n; ++peer) {
    ncclSend(c.x + peer * c.part, c.part, ncclFloat, peer, c.comm, c.stream);
    ncclRecv(c.y + peer * c.part, c.part, ncclFloat, peer, c.comm, c.stream);
  }
  return ncclGroupEnd();
}
#else
using NcclCollective = std::nullptr_t;
constexpr NcclCollective ncclAllToAll = nullptr;
#endif

/// A collective kernel family's generated launcher (tile_add_kernel(...
/// LAUNCHER)): the configuration (an index into the family's table), then
/// X, Y, the signal words and the epoch.
using CollectiveLauncher = rt::BoundLaunch (*)(std::size_t config,
                                               rt::Dim3 grid,
                                               rt::MemRef<float, 1> x,
                                               rt::MemRef<float, 1> y,
                                               rt::MemRef<int64_t, 1> flags,
                                               int64_t epoch, CUstream stream);

/// One configuration of a collective's family: what the tables print and
/// the floats of each part one CTA moves.
struct CollectiveConfig {
  std::string name;
  size_t chunkFloats;
};

/// The configurations of a family's generated table (`<family>_configs`),
/// named by their kernels' suffixes ("CHUNK1024_THREADS128"), each moving
/// `chunkFloats(config)` floats of a part per CTA.
template <typename Config, size_t N, typename ChunkFloats>
std::vector<CollectiveConfig> collectiveConfigs(const Config (&table)[N],
                                                ChunkFloats chunkFloats) {
  std::vector<CollectiveConfig> configs;
  for (const Config &config : table) {
    std::string kernel = config.kernel;
    size_t at = kernel.rfind("__");
    configs.push_back({at == std::string::npos ? kernel : kernel.substr(at + 2),
                       size_t(chunkFloats(config))});
  }
  return configs;
}

/// The configurations of a family over CHUNK, the floats of a part one CTA
/// moves (allgather.mlir, shift.mlir, all-to-all.mlir).
template <typename Config, size_t N>
std::vector<CollectiveConfig> chunkConfigs(const Config (&table)[N]) {
  return collectiveConfigs(
      table, [](const Config &config) { return size_t(config.CHUNK); });
}

/// A collective: its kernel family and what it computes. With
/// configuration c a part is `chunks` x `configs[c].chunkFloats` floats;
/// the kernel runs one CTA a chunk of a part.
struct CollectiveSpec {
  /// The program's name.
  const char *name;
  /// The family's module and launcher, generated with it.
  rt::EmbeddedModule &(*module)();
  CollectiveLauncher launcher;
  /// Whether X (Y) holds one part per PE (part q at q * part) or one part.
  /// Y's parts from every PE also make NCCL-tests' bus bandwidth
  /// algBw * (n - 1) / n (all-gather, all-to-all) rather than algBw.
  bool xPerPe, yPerPe;
  /// Where element j of PE `me`'s Y comes from, with n PEs.
  Source (*source)(int me, int n, size_t part, size_t j);
  /// Built without NCCL: nullptr.
  NcclCollective nccl;
  /// The family's configurations, in the order of its table.
  std::vector<CollectiveConfig> configs;
};

namespace collective {

inline uint64_t splitmix64(uint64_t v) {
  v += 0x9e3779b97f4a7c15ull;
  v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
  v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
  return v ^ (v >> 31);
}

/// Element i of PE `pe`'s X for `seed`, in [-1, 1): every PE computes the
/// same, so each knows what every other one sent.
inline float inputValue(uint64_t seed, int pe, size_t i) {
  uint64_t h = splitmix64(splitmix64(seed ^ uint64_t(pe)) + i);
  return float(h >> 40) * 0x1p-23f - 1.0f;
}

/// "4 KiB", "256 MiB".
inline std::string sizeText(size_t bytes) {
  if (bytes >= (size_t(1) << 20) && bytes % (size_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

/// The median milliseconds per call of each contender on `stream`, in turn
/// over three rounds, every PE starting each measurement together.
inline std::vector<float>
interleavedMedianMs(CUstream stream,
                    const std::vector<std::function<void()>> &contenders,
                    int iters) {
  rt::Timer timer(stream);
  std::vector<std::vector<float>> ms(contenders.size());
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < contenders.size(); ++i) {
      rt::nvshmemBarrierAll();
      ms[i].push_back(timer.timeMs(contenders[i], 3, iters));
    }
  std::vector<float> medians;
  for (std::vector<float> &v : ms) {
    std::sort(v.begin(), v.end());
    medians.push_back(v[1]);
  }
  return medians;
}

/// What PE 0 tells the others.
struct FromPe0 {
  static constexpr uint64_t kMagic = 0x746c652d636f6c6cull;
  uint64_t magic = kMagic;
  uint64_t seed = 0;
  uint64_t hasNcclId = 0;
  unsigned char ncclId[128] = {};
};

/// Chunks a part each configuration is checked on, and parts of
/// kCheckPartFloats (4 MiB) too.
constexpr size_t kCheckChunks[] = {1, 37, 64};
constexpr size_t kCheckPartFloats = size_t(1) << 20;
constexpr size_t kBenchMinBytes = size_t(8) << 10;
constexpr size_t kBenchMaxBytes = size_t(256) << 20;

#if TILE_EXAMPLES_NCCL
inline void checkNccl(ncclResult_t result, const char *call) {
  if (result != ncclSuccess)
    throw rt::Error(std::string(call) +
                    " failed: " + ncclGetErrorString(result));
}

/// A communicator over the PEs (rank = PE) and the stream it and the
/// kernel are timed on.
struct Nccl {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  Nccl() = default;
  Nccl(const Nccl &) = delete;
  Nccl &operator=(const Nccl &) = delete;
  ~Nccl() {
    if (comm)
      ncclCommDestroy(comm);
    if (stream)
      cudaStreamDestroy(stream);
  }
};
#endif

/// One PE's state: its device, the kernel family, X, Y and the signal
/// words (all symmetric, as large as the checks, and the table unless
/// `checkOnly`, need) and the last epoch.
class CollectiveRun {
public:
  CollectiveRun(const CollectiveSpec &what, bool checkOnly)
      : spec(what), device(rt::Device::open(rt::nvshmemDeviceOrdinal())),
        // Loading links the kernel with NVSHMEM and starts it, which the
        // symmetric buffers below need.
        module(spec.module().module()), me(rt::nvshmemMyPe()),
        n(rt::nvshmemNumPes()), x(largest(checkOnly, &CollectiveRun::xFloats) * 4),
        y(largest(checkOnly, &CollectiveRun::yFloats) * 4),
        flags(largest(checkOnly, [](const CollectiveRun &run, size_t chunks,
                                    size_t) { return run.n * chunks; }) *
              8) {
    flags.fillBytes(0);
    rt::nvshmemBarrierAll();
  }

  size_t configCount() const { return spec.configs.size(); }
  size_t chunkFloats(size_t config) const {
    return spec.configs[config].chunkFloats;
  }

  /// Chunks a part of configuration `config` for `bytes` of X per PE: 0
  /// where its chunks do not divide the parts.
  size_t chunksFor(size_t bytes, size_t config) const {
    size_t chunk = xFloats(1, config) * 4;
    return bytes % chunk ? 0 : bytes / chunk;
  }
  /// The chunks a part configuration `config` is checked on.
  std::vector<size_t> checkChunks(size_t config) const {
    std::vector<size_t> chunks(std::begin(kCheckChunks),
                               std::end(kCheckChunks));
    size_t large = std::max<size_t>(1, kCheckPartFloats / chunkFloats(config));
    if (std::find(chunks.begin(), chunks.end(), large) == chunks.end())
      chunks.push_back(large);
    return chunks;
  }

  size_t xFloats(size_t chunks, size_t config) const {
    return (spec.xPerPe ? n : 1) * chunks * chunkFloats(config);
  }
  size_t yFloats(size_t chunks, size_t config) const {
    return (spec.yPerPe ? n : 1) * chunks * chunkFloats(config);
  }

  /// Launches configuration `config` on `chunks` chunks a part with the
  /// next epoch: bound once per configuration, size and stream, only the
  /// epoch set anew.
  void launch(size_t config, size_t chunks) {
    auto key = std::make_tuple(config, chunks, stream);
    auto it = bound.find(key);
    if (it == bound.end())
      it = bound
               .emplace(key, spec.launcher(
                                 config, {unsigned(chunks), 1, 1},
                                 rt::MemRef<float, 1>::rowMajor(
                                     x.ptr(), {int64_t(xFloats(chunks, config))}),
                                 rt::MemRef<float, 1>::rowMajor(
                                     y.ptr(), {int64_t(yFloats(chunks, config))}),
                                 rt::MemRef<int64_t, 1>::rowMajor(
                                     flags.ptr(), {int64_t(n * chunks)}),
                                 0, stream))
               .first;
    it->second.set(3, int64_t(++epoch)).launch();
  }

  /// Fills X with `values`, poisons Y (0xFF: NaN), runs configuration
  /// `config` on `chunks` chunks a part on every PE and returns this PE's
  /// Y.
  std::vector<float> exchange(const std::vector<float> &values, size_t config,
                              size_t chunks) {
    x.upload(values);
    poison(y);
    rt::nvshmemBarrierAll(); // no peer writes Y before it is poisoned
    launch(config, chunks);
    rt::synchronize();
    rt::nvshmemBarrierAll(); // and none is still writing when it is read
    std::vector<float> out(yFloats(chunks, config));
    y.download(out);
    return out;
  }

  /// PE 0's `data` on every PE, carried by the kernel: n - 1 launches of
  /// the first configuration on one chunk, each PE that has the data
  /// placing it in its X where the collective takes the start of every
  /// PE's Y from (`spec.source`). A PE without it finds it at the start of
  /// Y once the PE that part of Y comes from has it: PE 0 itself for
  /// all-gather and the all-to-alls, the previous PE for shift (hence
  /// n - 1 rounds).
  FromPe0 shareFromPe0(FromPe0 data) {
    static_assert(sizeof(FromPe0) % sizeof(float) == 0, "whole floats");
    constexpr size_t kWords = sizeof(FromPe0) / sizeof(float);
    if (chunkFloats(0) < kWords)
      throw rt::Error("a chunk of the first configuration holds fewer than "
                      "the " + std::to_string(kWords) +
                      " floats PE 0 tells the others");
    bool have = me == 0;
    for (int round = 1; round < n; ++round) {
      std::vector<float> values(xFloats(1, 0), 0.0f);
      if (have) {
        float words[kWords];
        std::memcpy(words, &data, sizeof(data));
        for (int to = 0; to < n; ++to)
          for (size_t j = 0; j < kWords; ++j)
            if (Source from = spec.source(to, n, chunkFloats(0), j);
                from.pe == me)
              values[from.index] = words[j];
      }
      std::vector<float> got = exchange(values, 0, 1);
      FromPe0 heard;
      std::memcpy(&heard, got.data(), sizeof(heard));
      if (!have && heard.magic == FromPe0::kMagic) {
        data = heard;
        have = true;
      }
    }
    if (!have)
      throw rt::Error("nothing from PE 0 after " + std::to_string(n - 1) +
                      " launches of the kernel");
    return data;
  }

  /// One launch of configuration `config` on `chunks` chunks a part with
  /// inputs from `seed`; prints this PE's mismatches.
  bool check(size_t config, size_t chunks, uint64_t seed) {
    std::vector<float> values(xFloats(chunks, config));
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = inputValue(seed, me, i);
    std::vector<float> got = exchange(values, config, chunks);
    size_t part = chunks * chunkFloats(config), wrong = 0, first = 0;
    for (size_t j = 0; j < got.size(); ++j) {
      Source from = spec.source(me, n, part, j);
      if (got[j] != inputValue(seed, from.pe, from.index) && wrong++ == 0)
        first = j;
    }
    if (wrong) {
      Source from = spec.source(me, n, part, first);
      std::printf("  PE %d, %s, %zu chunks a part: MISMATCH in %zu of %zu "
                  "floats; first Y[%zu] = %g, want %g (X[%zu] of PE %d)\n",
                  me, spec.configs[config].name.c_str(), chunks, wrong,
                  got.size(), first, got[first],
                  inputValue(seed, from.pe, from.index), from.index, from.pe);
    }
    return wrong == 0;
  }

  bool checkAll(uint64_t runSeed) {
    bool ok = true;
    for (size_t config = 0; config < configCount(); ++config) {
      bool pass = true;
      std::string text;
      std::vector<size_t> sizes = checkChunks(config);
      for (size_t chunks : sizes) {
        for (uint64_t repeat = 0; repeat < 2; ++repeat)
          pass &= check(config, chunks,
                        splitmix64(splitmix64(runSeed + config * 7919 +
                                              chunks) +
                                   repeat));
        text += (text.empty() ? "" : ", ") + std::to_string(chunks);
      }
      if (me == 0)
        std::printf("  %-24s %s chunks a part (up to %s of X per PE), 2 "
                    "launches each: %s\n",
                    spec.configs[config].name.c_str(), text.c_str(),
                    sizeText(xFloats(*std::max_element(
                                         sizes.begin(), sizes.end()),
                                     config) *
                             4)
                        .c_str(),
                    pass ? "ok" : "FAILED");
      ok &= pass;
    }
    return ok;
  }

  std::vector<float>
  interleavedMedianMs(const std::vector<std::function<void()>> &contenders,
                      int iters) {
    return collective::interleavedMedianMs(stream, contenders, iters);
  }

  /// One row of the table for `xBytes` of X per PE: microseconds,
  /// algorithm and bus bandwidth (GB/s) of the fastest configuration that
  /// divides the size and of NCCL's call (if any), then every
  /// configuration's microseconds ("-" where it does not divide the size).
  /// With NCCL the fastest is picked from one measurement of them all
  /// (each median the slowest PE's, which `slowest` makes every PE's) and
  /// timed again against NCCL in a second, so that the smallest of many
  /// noisy medians is not what NCCL's one median is compared with.
  void benchmark(size_t xBytes, const std::function<void(size_t part)> &nccl,
                 const std::function<void(std::vector<float> &)> &slowest) {
    int iters = int(std::clamp<size_t>((size_t(1) << 31) / xBytes, 20, 200));
    std::vector<std::function<void()>> contenders;
    std::vector<size_t> timed;
    for (size_t config = 0; config < configCount(); ++config)
      if (size_t chunks = chunksFor(xBytes, config)) {
        timed.push_back(config);
        contenders.push_back([this, config, chunks] { launch(config, chunks); });
      }
    size_t part = xBytes / 4 / (spec.xPerPe ? n : 1);
    if (nccl)
      contenders.push_back([&] { nccl(part); });
    std::vector<float> ms = interleavedMedianMs(contenders, iters);
    if (slowest)
      slowest(ms);
    size_t best = size_t(
        std::min_element(ms.begin(), ms.begin() + timed.size()) - ms.begin());
    std::vector<float> again = {ms[best]};
    if (nccl) {
      again = interleavedMedianMs({contenders[best], contenders.back()}, iters);
      slowest(again);
    }
    if (me != 0)
      return;
    size_t yBytes = part * 4 * (spec.yPerPe ? n : 1);
    double busFactor = spec.yPerPe ? double(n - 1) / n : 1.0;
    auto print = [&](float t) {
      double algBw = yBytes / (t * 1e6);
      std::printf(" | %9.1f %8.1f %8.1f", t * 1e3, algBw, algBw * busFactor);
    };
    std::printf("  %9s", sizeText(xBytes).c_str());
    print(again[0]);
    std::printf(" %-22s", spec.configs[timed[best]].name.c_str());
    if (nccl)
      print(again.back());
    std::printf(" |");
    for (size_t config = 0, next = 0; config < configCount(); ++config)
      if (next < timed.size() && timed[next] == config)
        std::printf(" %8.1f", ms[next++] * 1e3);
      else
        std::printf(" %8s", "-");
    std::printf("\n");
  }

  const CollectiveSpec &spec;
  rt::Device device;
  const rt::Module &module;
  int me, n;
  rt::SymmetricBuffer x, y, flags;
  uint64_t epoch = 0;
  CUstream stream = nullptr;
  // The launches bound so far, by configuration, chunks a part and stream.
  std::map<std::tuple<size_t, size_t, CUstream>, rt::BoundLaunch> bound;

private:
  /// The most `count(chunks, config)` over every configuration and every
  /// size it is checked on (and, unless `checkOnly`, timed on).
  template <typename Count>
  size_t largest(bool checkOnly, Count count) const {
    size_t most = 0;
    for (size_t config = 0; config < configCount(); ++config) {
      std::vector<size_t> sizes = checkChunks(config);
      if (!checkOnly)
        sizes.push_back(
            std::max<size_t>(1, kBenchMaxBytes / (xFloats(1, config) * 4)));
      for (size_t chunks : sizes)
        most = std::max(most, size_t(std::invoke(count, *this, chunks, config)));
    }
    return most;
  }
};

#if TILE_EXAMPLES_NCCL
/// NCCL over the PEs (rank = PE) from PE 0's unique id, on a stream of its
/// own that the kernel is then timed on too. Says why not, on PE 0, and
/// leaves `nccl.comm` null if it cannot start (two PEs on one GPU, say).
inline void startNccl(CollectiveRun &run, const FromPe0 &shared, Nccl &nccl) {
  int version = 0;
  ncclGetVersion(&version);
  std::string why = "no unique id from PE 0";
  if (cudaStreamCreate(&nccl.stream) != cudaSuccess)
    why = "no stream";
  else if (shared.hasNcclId) {
    run.stream = nccl.stream;
    ncclUniqueId id;
    std::memcpy(&id, shared.ncclId, sizeof(id));
    ncclResult_t result = ncclCommInitRank(&nccl.comm, run.n, id, run.me);
    if (result != ncclSuccess) {
      nccl.comm = nullptr;
      why = std::string("ncclCommInitRank: ") + ncclGetErrorString(result);
    }
  }
  if (run.me == 0)
    std::printf("NCCL %d.%d.%d: %s\n", version / 10000, version / 100 % 100,
                version % 100,
                nccl.comm ? "ready" : (why + "; timing tile alone").c_str());
}
#endif

/// The checks, then (unless `checkOnly`) the table; returns the exit status.
inline int checkAndTime(CollectiveRun &run, bool checkOnly) {
  const CollectiveSpec &spec = run.spec;
  if (run.me == 0)
    std::printf("%s: %d PE%s, PE 0 on device %d (%s), NVSHMEM %s\n", spec.name,
                run.n, run.n == 1 ? "" : "s", run.device.ordinal(),
                run.device.name().c_str(), rt::nvshmemVersion().c_str());
  FromPe0 mine;
  if (run.me == 0)
    mine.seed = splitmix64(std::random_device{}()) ^ uint64_t(time(nullptr));
#if TILE_EXAMPLES_NCCL
  ncclUniqueId id;
  static_assert(sizeof(id) == sizeof(mine.ncclId), "ncclUniqueId's size");
  if (!checkOnly && run.me == 0 && ncclGetUniqueId(&id) == ncclSuccess) {
    std::memcpy(mine.ncclId, &id, sizeof(id));
    mine.hasNcclId = 1;
  }
#endif
  FromPe0 shared = run.shareFromPe0(mine);

  bool ok = run.checkAll(shared.seed);
  std::string who = run.n == 1 ? "" : "PE " + std::to_string(run.me) + ": ";
  if (run.me == 0 || !ok)
    std::printf("%s: %s%s\n", spec.name, who.c_str(),
                ok ? "all checks passed" : "FAILED");
  if (checkOnly || !ok)
    return ok ? 0 : 1;

  std::function<void(size_t)> ncclCall;
  std::function<void(std::vector<float> &)> slowest;
#if TILE_EXAMPLES_NCCL
  Nccl nccl;
  startNccl(run, shared, nccl);
  rt::DeviceBuffer medians(64 * sizeof(float));
  if (nccl.comm) {
    ncclCall = [&](size_t part) {
      checkNccl(spec.nccl({nccl.comm, reinterpret_cast<float *>(run.x.ptr()),
                           reinterpret_cast<float *>(run.y.ptr()), part, run.me,
                           run.n, nccl.stream}),
                spec.name);
    };
    // Each median becomes the largest over the PEs (NCCL's all-reduce).
    slowest = [&](std::vector<float> &ms) {
      if (ms.size() * sizeof(float) > medians.size())
        throw rt::Error("more medians than the all-reduce's buffer holds");
      medians.upload(ms);
      float *at = reinterpret_cast<float *>(medians.ptr());
      checkNccl(ncclAllReduce(at, at, ms.size(), ncclFloat, ncclMax,
                              nccl.comm, nccl.stream),
                "ncclAllReduce");
      if (cudaStreamSynchronize(nccl.stream) != cudaSuccess)
        throw rt::Error("cudaStreamSynchronize failed after ncclAllReduce");
      medians.download(ms);
    };
  }
#else
  if (run.me == 0)
    std::printf("built without NCCL: timing tile alone\n");
#endif
  if (run.me == 0) {
    std::printf("  X per PE  |   tile us    algbw    busbw (fastest configuration)"
                "%s  (GB/s) | us of each configuration:",
                ncclCall ? " |   NCCL us    algbw    busbw" : "");
    for (const CollectiveConfig &config : spec.configs)
      std::printf(" %s", config.name.c_str());
    std::printf("\n");
  }
  // Sizes of X per PE from 8 KiB to 256 MiB, each rounded down to whole
  // chunks of the largest configuration whose chunk fits (with n PEs not a
  // power of two an all-to-all's X is n parts). The chunks are powers of
  // two, so every configuration with a smaller chunk divides it too.
  std::vector<size_t> units;
  for (size_t config = 0; config < run.configCount(); ++config)
    units.push_back(run.xFloats(1, config) * 4);
  std::sort(units.rbegin(), units.rend());
  for (size_t bytes = kBenchMinBytes, last = 0; bytes <= kBenchMaxBytes;
       bytes *= 2)
    for (size_t unit : units)
      if (bytes >= unit) {
        if (size_t xBytes = bytes / unit * unit; xBytes != last)
          run.benchmark(last = xBytes, ncclCall, slowest);
        break;
      }
  return 0;
}

} // namespace collective

/// The program: see the file comment.
inline int runCollective(int argc, char **argv, const CollectiveSpec &spec) {
  requireGpu(spec.name);
  std::string why;
  if (!rt::nvshmemAvailable(&why)) {
    std::printf("%s: skipped, no NVSHMEM: %s\n", spec.name, why.c_str());
    return kSkipped;
  }
  bool checkOnly = argc > 1 && std::string(argv[1]) == "--check";
  std::unique_ptr<collective::CollectiveRun> run;
  try {
    run = std::make_unique<collective::CollectiveRun>(spec, checkOnly);
    if (collective::checkAndTime(*run, checkOnly) == 0) {
      run.reset(); // frees the symmetric buffers: with every PE
      return 0;
    }
  } catch (const std::exception &error) {
    std::printf("%s: PE %d: %s\n", spec.name,
                rt::nvshmemInitialized() ? rt::nvshmemMyPe() : -1,
                error.what());
  }
  // A PE that failed leaves at once: the others may be waiting for it, and
  // freeing symmetric memory would wait for them (tile-run stops them).
  std::fflush(stdout);
  std::_Exit(1);
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_COMMON_COLLECTIVE_H
