//===- GemmHost.h - launching the GEMM kernels from C++ ---------*- C++ -*-===//
//
// TileGemm runs any of the examples' GEMM kernels given its cubin and .kinfo;
// it names no kernel file, so every program may include it. The factories
// for gemm/'s Hopper kernels, which do, are in HopperKernels.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_GEMMHOST_H
#define TILE_EXAMPLES_GEMM_GEMMHOST_H

#include "../common/ExampleUtil.h"
#include "GemmChoice.h"

namespace tile::examples {

/// C[M, N] (fp32) = A[M, K] (bf16) * B[N, K]^T (bf16), all row-major, by one
/// of the GEMM kernels: `name` in `cubin`, one tileM x tileN tile per CTA.
class TileGemm {
public:
  /// `aKM`: A is stored K x M (the kernel transposes it); `bKN`: B is
  /// stored K x N. Otherwise A is M x K and B is N x K.
  TileGemm(const std::string &cubin, const std::string &kinfo,
           const std::string &name, unsigned tileM, unsigned tileN,
           bool aKM = false, bool bKN = false)
      : module(rt::Module::loadCubinFile(cubin)),
        infos(rt::loadKernelInfo(kinfo)), info(rt::findKernel(infos, name)),
        kernel(module.kernel(name)), tileM(tileM), tileN(tileN), aKM(aKM),
        bKN(bKN) {}

  /// Binds the buffers (tensor maps are built here, once) for later runs.
  void bind(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t m, int64_t n,
            int64_t k) {
    args = rt::ArgPack();
    tensorMaps.clear();
    rt::MemRefArg aArg = aKM ? rt::MemRefArg{a, {k, m}, {m, 1}}
                             : rt::MemRefArg{a, {m, k}, {k, 1}};
    rt::MemRefArg bArg = bKN ? rt::MemRefArg{b, {k, n}, {n, 1}}
                             : rt::MemRefArg{b, {n, k}, {k, 1}};
    rt::packMemRefArgs(info, {aArg, bArg, {c, {m, n}, {n, 1}}}, args,
                       tensorMaps);
    unsigned tilesN = static_cast<unsigned>((n + tileN - 1) / tileN);
    unsigned tilesM = static_cast<unsigned>((m + tileM - 1) / tileM);
    if (streamK) {
      // One CTA per SM (no more than there are iterations); the stream-K
      // tiles add into C, whose rows from the group of 8 tile-rows holding
      // the first of them are zeroed before each launch.
      int64_t tiles = int64_t(tilesM) * tilesN;
      int64_t ctas = std::max<int64_t>(
          1, std::min<int64_t>(persistentCtas,
                               tiles * detail::ceilDiv(k, 64)));
      int64_t skTiles = streamKTiles(tiles, ctas);
      uint64_t firstRow = (tiles - skTiles) / (int64_t(tilesN) * 8) * 8 * tileM;
      zeroFrom = c + firstRow * uint64_t(n) * 4;
      zeroWords = skTiles ? (uint64_t(m) - firstRow) * uint64_t(n) : 0;
      config = rt::launchConfigFor(info, {unsigned(ctas), 1, 1});
      return;
    }
    if (!persistentCtas) {
      config = rt::launchConfigFor(info, mAlongX ? rt::Dim3{tilesM, tilesN, 1}
                                                 : rt::Dim3{tilesN, tilesM, 1});
      return;
    }
    // Persistent: a cluster of CTAs (1 without clusters) takes cluster.x
    // vertically adjacent tiles at a time; launch no more clusters than
    // setPersistent found room for, nor than there is work for.
    unsigned perCluster = info.cluster.x;
    unsigned work = (tilesM + perCluster - 1) / perCluster * tilesN;
    config = rt::launchConfigFor(
        info, {std::min(work, persistentCtas / perCluster) * perCluster, 1, 1});
  }

  /// The kernel loops over tiles (gemm.mlir does): launch one CTA per SM,
  /// or in clusters as many whole clusters as the device runs at once.
  TileGemm &setPersistent(const rt::Device &device) {
    persistentCtas = static_cast<unsigned>(device.smCount());
    unsigned perCluster = info.cluster.x;
    if (perCluster == 1)
      return *this;
    unsigned fit = rt::maxActiveClusters(
        kernel, rt::launchConfigFor(info, {perCluster, 1, 1}));
    if (!fit)
      throw rt::Error("kernel '" + info.name + "' cannot run one cluster of " +
                      std::to_string(perCluster) + " CTAs on this device");
    persistentCtas = std::min(persistentCtas / perCluster, fit) * perCluster;
    return *this;
  }

  /// The kernel runs whole waves of tiles and shares the K loops of the
  /// last tiles out between one CTA per SM, adding partial tiles into C
  /// (gemm-streamk.mlir): bind() sizes the grid and the part of C to zero,
  /// launch() zeroes it first.
  TileGemm &setStreamK(const rt::Device &device) {
    persistentCtas = static_cast<unsigned>(device.smCount());
    streamK = true;
    return *this;
  }

  bool persistent() const { return persistentCtas != 0; }

  /// Not persistent: one CTA per tile, by default grid.x over the tiles of
  /// N and grid.y over those of M; with this the other way round (for a
  /// kernel that reads its tile row from block_id x).
  TileGemm &setMAlongX() {
    mAlongX = true;
    return *this;
  }

  void launch() {
    if (zeroWords)
      rt::fillWordsAsync(zeroFrom, 0, zeroWords, config.stream);
    rt::launch(kernel, config, args);
  }
  const rt::KernelInfo &kernelInfo() const { return info; }
  /// The launch shape bind() chose.
  const rt::LaunchConfig &launchConfig() const { return config; }

private:
  rt::Module module;
  std::vector<rt::KernelInfo> infos;
  rt::KernelInfo info;
  rt::Kernel kernel;
  rt::ArgPack args;
  std::vector<rt::DeviceBuffer> tensorMaps;
  rt::LaunchConfig config;
  unsigned tileM, tileN;
  bool aKM, bKN;
  bool mAlongX = false;
  // CTAs of a persistent launch at most (the SM count, or the CTAs of the
  // clusters that fit at once), 0 otherwise.
  unsigned persistentCtas = 0;
  bool streamK = false;
  // Stream-K: the part of C zeroed before each launch.
  CUdeviceptr zeroFrom = 0;
  size_t zeroWords = 0;
};

/// A persistent tileM x tileN kernel `name` built beside the program.
inline TileGemm persistentGemm(const rt::Device &device, const char *cubin,
                               const char *kinfo, const char *name,
                               unsigned tileM, unsigned tileN = 256) {
  TileGemm gemm(kernelFile(cubin), kernelFile(kinfo), name, tileM, tileN);
  gemm.setPersistent(device);
  return gemm;
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_GEMMHOST_H
