//===- OverlapRun.h - A GEMM overlapped with puts on a stream ---*- C++ -*-===//
//
// What the programs that overlap a GEMM with NVSHMEM's puts on a stream
// share (allgather-gemm, gemm-reduce-scatter), one PE a process:
//  - the device, this PE and their number; a compute stream and a comm
//    stream (NVSHMEM's puts on it go through the copy engine between GPUs
//    of a node, taking no SM from the GEMM); the signal words, one per PE
//    (zeroed once; each call sets them to a larger epoch) and one more for
//    the host's own exchanges;
//  - a call's start: the comm stream waits for the compute stream's
//    previous work, then every PE's comm stream meets in
//    nvshmemx_barrier_all_on_stream, so no PE writes a buffer a peer's
//    previous call still reads, and the compute stream waits for that;
//  - PE 0's seed and NCCL id for every PE, every PE's verdict for every
//    PE (all stop or go on together), and main()'s rules (usage, skip
//    without a GPU or NVSHMEM, errors to stderr and a non-zero exit).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_COMMON_OVERLAPRUN_H
#define TILE_EXAMPLES_COMMON_OVERLAPRUN_H

#include "Collective.h"

#include "tile/Runtime/Float.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

namespace tile::examples {

inline void checkCuda(cudaError_t result, const char *call) {
  if (result != cudaSuccess)
    throw rt::Error(std::string(call) +
                    " failed: " + cudaGetErrorString(result));
}

/// A layer's shape: rows of the tokens each PE owns, columns, K.
struct LayerShape {
  int64_t part, n, k;
  const char *what;
};

/// The check's shapes and, unless `checkOnly`, the benchmark's, in order.
inline std::vector<LayerShape>
layerShapes(const std::vector<LayerShape> &check,
            const std::vector<LayerShape> &bench, bool checkOnly) {
  std::vector<LayerShape> shapes = check;
  if (!checkOnly)
    shapes.insert(shapes.end(), bench.begin(), bench.end());
  return shapes;
}

/// The most rows (every PE's), columns and K among `shapes`: what the
/// buffers are sized for.
struct LayerExtent {
  int64_t rows = 0, n = 0, k = 0;
};
inline LayerExtent largestOf(const std::vector<LayerShape> &shapes, int pes) {
  LayerExtent most;
  for (const LayerShape &s : shapes) {
    most.rows = std::max(most.rows, s.part * pes);
    most.n = std::max(most.n, s.n);
    most.k = std::max(most.k, s.k);
  }
  return most;
}

/// How many calls a measurement times: about 20 TFLOP of work, 10 to 100.
inline int benchIterations(const LayerShape &s, int pes) {
  double flop = 2.0 * double(s.part) * pes * s.n * s.k;
  return int(std::clamp(2e13 / flop, 10.0, 100.0));
}

/// Element i of PE `pe`'s input for `seed`, rounded to bf16, as a float.
inline float bf16InputValue(uint64_t seed, int pe, size_t i) {
  return rt::bf16ToFloat(rt::floatToBf16(collective::inputValue(seed, pe, i)));
}

/// Check shapes with partial tiles (LayerShape: a PE's rows, the columns,
/// K): 200 and 136 rows (partial 128-row tiles), 264 and 136 columns
/// (partial 128- and 256-column tiles), K of 136 (not a multiple of 64).
inline const std::vector<LayerShape> kPartialTileCheckShapes = {
    {128, 256, 320, "check"},
    {200, 384, 192, "check"},
    {136, 264, 136, "check"}};

/// The rest of a benchmark row after tile's time, in microseconds from
/// milliseconds `ms` (interleavedMedianMs's, contender 0 tile's call): the
/// anchor, contender `local` (NCCL with cuBLAS; the contenders before it
/// run without NCCL), and tile's speedup over it, or dashes without NCCL;
/// then contenders 1 .. local - 1 alone, and NCCL's part alone (contender
/// local + 1) where timed; a newline.
inline void printAgainstAnchor(const std::vector<float> &ms, size_t local,
                               int anchorWidth) {
  if (ms.size() > local)
    std::printf(" %*.1f %6.2fx |", anchorWidth, ms[local] * 1e3,
                ms[local] / ms[0]);
  else
    std::printf(" %*s %7s |", anchorWidth, "-", "-");
  for (size_t i = 1; i < local; ++i)
    std::printf(" %9.1f", ms[i] * 1e3);
  if (ms.size() > local + 1)
    std::printf(" %9.1f", ms[local + 1] * 1e3);
  std::printf("\n");
}

/// Fills the first `count` bf16 elements of `buffer` with random values
/// in [-1, 1) from `seed`: what the benchmarks multiply. Memory as
/// allocated (zeros) lets the tensor cores draw less power and clock
/// higher than on real data, for tile and cuBLAS alike.
inline void fillRandomBf16(rt::DeviceMemory &buffer, size_t count,
                           uint64_t seed) {
  std::vector<uint16_t> host(count);
  for (size_t i = 0; i < count; ++i)
    host[i] = rt::floatToBf16(collective::inputValue(seed, 0, i));
  buffer.upload(host);
}

class OverlapRun {
public:
  explicit OverlapRun(rt::EmbeddedModule &module)
      : device(rt::Device::open(rt::nvshmemDeviceOrdinal())),
        me(rt::nvshmemMyPe()), n(rt::nvshmemNumPes()),
        flags(size_t(n) * 8 + 8), shared(sizeof(collective::FromPe0)),
        verdicts(size_t(n) * 8) {
    module.module();
    flags.fillBytes(0);
    checkCuda(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking),
              "cudaStreamCreateWithFlags");
    checkCuda(cudaStreamCreateWithFlags(&comm, cudaStreamNonBlocking),
              "cudaStreamCreateWithFlags");
    for (cudaEvent_t *event : {&onCompute, &onComm})
      checkCuda(cudaEventCreateWithFlags(event, cudaEventDisableTiming),
                "cudaEventCreateWithFlags");
    rt::nvshmemBarrierAll();
  }
  ~OverlapRun() {
    for (cudaEvent_t event : {onCompute, onComm})
      cudaEventDestroy(event);
    cudaStreamDestroy(compute);
    cudaStreamDestroy(comm);
  }
  OverlapRun(const OverlapRun &) = delete;
  OverlapRun &operator=(const OverlapRun &) = delete;

  /// Refuses peers whose `symmetric` memory this PE cannot load and store:
  /// between them NVSHMEM's put on a stream is a proxy kernel, which would
  /// find no SM once the GEMM (or a kernel waiting for the puts) spins.
  void requirePeersMapped(CUdeviceptr symmetric) const {
    for (int pe = 0; pe < n; ++pe)
      if (!rt::nvshmemPeerMapped(symmetric, pe))
        throw rt::Error("PE " + std::to_string(me) + " cannot reach PE " +
                        std::to_string(pe) +
                        "'s memory by load/store (another node?): the puts "
                        "need the copy engine between GPUs of one node");
  }

  /// The word of PE `pe`'s signals.
  CUdeviceptr word(int pe) const { return flags.ptr() + size_t(pe) * 8; }

  /// A call's start (see the file comment); the call's epoch, a value no
  /// signal word holds yet. The compute stream waits for the barrier too:
  /// the barrier is a kernel, and a persistent GEMM launched beside it
  /// would hold every SM until it ends (the puts that wait for the barrier
  /// would then start a GEMM late).
  uint64_t beginCall() {
    commWaitsCompute();
    rt::nvshmemBarrierAllOnStream(comm);
    computeWaitsComm();
    return ++epoch;
  }
  /// The comm stream's next work waits for the compute stream's so far.
  void commWaitsCompute() {
    checkCuda(cudaEventRecord(onCompute, compute), "cudaEventRecord");
    checkCuda(cudaStreamWaitEvent(comm, onCompute), "cudaStreamWaitEvent");
  }
  /// The compute stream's next work waits for the comm stream's so far.
  void computeWaitsComm() {
    checkCuda(cudaEventRecord(onComm, comm), "cudaEventRecord");
    checkCuda(cudaStreamWaitEvent(compute, onComm), "cudaStreamWaitEvent");
  }

  /// PE 0's `data` on every PE: PE 0 puts it to each.
  collective::FromPe0 shareFromPe0(collective::FromPe0 data) {
    if (me == 0) {
      shared.upload(&data, sizeof(data));
      for (int pe = 1; pe < n; ++pe)
        rt::nvshmemPutSignalOnStream(shared.ptr(), shared.ptr(), sizeof(data),
                                     word(n), 1, pe, comm);
      checkCuda(cudaStreamSynchronize(comm), "cudaStreamSynchronize");
    }
    rt::nvshmemBarrierAll();
    shared.download(&data, sizeof(data));
    if (data.magic != collective::FromPe0::kMagic)
      throw rt::Error("nothing from PE 0 in the shared buffer");
    return data;
  }

  /// PE 0's seed (from the clock) and, unless `checkOnly`, NCCL's unique
  /// id, on every PE.
  collective::FromPe0 startRun(bool checkOnly) {
    collective::FromPe0 data;
    if (me == 0) {
      data.seed = collective::splitmix64(uint64_t(time(nullptr)));
#if TILE_EXAMPLES_NCCL
      ncclUniqueId id;
      if (!checkOnly && ncclGetUniqueId(&id) == ncclSuccess) {
        std::memcpy(data.ncclId, &id, sizeof(id));
        data.hasNcclId = 1;
      }
#else
      (void)checkOnly;
#endif
    }
    return shareFromPe0(data);
  }

#if TILE_EXAMPLES_NCCL
  /// NCCL's communicator over the PEs from PE 0's id (none: PE 0 says
  /// that tile is timed alone).
  void startNccl(const collective::FromPe0 &data, collective::Nccl &nccl) {
    if (data.hasNcclId) {
      ncclUniqueId id;
      std::memcpy(&id, data.ncclId, sizeof(id));
      if (ncclCommInitRank(&nccl.comm, n, id, me) != ncclSuccess)
        nccl.comm = nullptr;
    }
    if (me == 0 && !nccl.comm)
      std::printf("NCCL did not start: timing tile alone\n");
  }
#endif

  /// Whether `ok` holds on every PE (each puts its verdict to every PE),
  /// so that all go on, or stop, together.
  bool onEveryPe(bool ok) {
    uint64_t mine = ok ? 1 : 0;
    CUdeviceptr slot = verdicts.ptr() + size_t(me) * 8;
    checkCuda(cudaMemcpy(reinterpret_cast<void *>(slot), &mine, 8,
                         cudaMemcpyHostToDevice),
              "cudaMemcpy");
    for (int pe = 0; pe < n; ++pe)
      if (pe != me)
        rt::nvshmemPutSignalOnStream(slot, slot, 8, word(n), 1, pe, comm);
    checkCuda(cudaStreamSynchronize(comm), "cudaStreamSynchronize");
    rt::nvshmemBarrierAll();
    std::vector<uint64_t> all(n);
    verdicts.download(all);
    rt::nvshmemBarrierAll(); // read before the next round's puts land
    return std::all_of(all.begin(), all.end(),
                       [](uint64_t v) { return v == 1; });
  }

  rt::Device device;
  int me, n;
  rt::SymmetricBuffer flags, shared, verdicts;
  cudaStream_t compute = nullptr, comm = nullptr;
  cudaEvent_t onCompute = nullptr, onComm = nullptr;
  uint64_t epoch = 0;
};

/// Checks each of `count` configurations with `check(config, shape,
/// seed)` on every check shape, twice (seeds from PE 0's), every PE's
/// verdict shared; PE 0 prints a line for each (`name(config)`, then
/// `shapesText`). Whether all passed.
template <typename Name, typename Check>
bool checkEveryConfiguration(OverlapRun &run, uint64_t seed, size_t count,
                             const std::vector<LayerShape> &shapes,
                             const char *shapesText, Name name, Check check) {
  bool ok = true;
  for (size_t config = 0; config < count; ++config) {
    bool pass = true;
    for (const LayerShape &s : shapes)
      for (uint64_t repeat = 0; repeat < 2; ++repeat)
        pass &= check(config, s,
                      collective::splitmix64(seed + config * 7919 +
                                             uint64_t(s.part) * 31 + repeat));
    pass = run.onEveryPe(pass);
    if (run.me == 0)
      std::printf("  %-40s %s, twice each: %s\n", name(config), shapesText,
                  pass ? "ok" : "FAILED");
    ok &= pass;
  }
  return ok;
}

/// The fastest of `count` configurations of `call(config)` on the compute
/// stream (interleaved medians, `iters` calls each).
template <typename Call>
size_t fastestConfiguration(OverlapRun &run, size_t count, int iters,
                            Call call) {
  std::vector<std::function<void()>> configs;
  for (size_t config = 0; config < count; ++config)
    configs.push_back([&call, config] { call(config); });
  std::vector<float> each =
      collective::interleavedMedianMs(run.compute, configs, iters);
  return size_t(std::min_element(each.begin(), each.end()) - each.begin());
}

/// main() of such a program: `program [--check]`, skipped (77) without a
/// GPU or NVSHMEM, `runAll(checkOnly)`'s exit status, or 1 with its error.
inline int overlapMain(int argc, char **argv, const char *program,
                       int (*runAll)(bool checkOnly)) {
  // Line by line: under tile-run several processes share the output.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  bool checkOnly = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  if (argc > 2 || (argc == 2 && !checkOnly)) {
    std::fprintf(stderr, "usage: %s [--check]\n", program);
    return 2;
  }
  requireGpu(program);
  std::string why;
  if (!rt::nvshmemAvailable(&why)) {
    std::printf("%s: skipped, no NVSHMEM: %s\n", program, why.c_str());
    return kSkipped;
  }
  try {
    return runAll(checkOnly);
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "%s: PE %d: %s\n", program,
                 rt::nvshmemInitialized() ? rt::nvshmemMyPe() : -1,
                 error.what());
    return 1;
  }
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_COMMON_OVERLAPRUN_H
