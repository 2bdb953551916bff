//===- GemmHost.h - launching gemm.mlir's kernel from C++ -------*- C++ -*-===//

#ifndef TILE_EXAMPLES_GEMM_GEMMHOST_H
#define TILE_EXAMPLES_GEMM_GEMMHOST_H

#include "../common/ExampleUtil.h"

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

  /// gemm.mlir (sm_90a: TMA + wgmma, persistent), or `variant`.cubin/.kinfo
  /// beside the program (other configurations of it compiled with
  /// tile-translate; persistent when the name starts with "p-"). `tileN` 128
  /// or 192 picks gemm-128x128.mlir's or gemm-128x192.mlir's kernel instead.
  static TileGemm hopper(const rt::Device &device,
                         const std::string &variant = "", int tileN = 256) {
    TileGemm gemm = hopperKernel(variant, tileN);
    if ((variant.empty() && tileN == 256) || variant.rfind("p-", 0) == 0)
      gemm.setPersistent(device);
    return gemm;
  }

  /// gemm-tma-store.mlir: gemm.mlir with the epilogue stored by TMA from
  /// shared memory (persistent; N must be a multiple of 4).
  static TileGemm hopperTmaStore(const rt::Device &device) {
    return persistent(device, GEMM_TMA_STORE_KERNEL_CUBIN,
                      GEMM_TMA_STORE_KERNEL_KINFO, "gemm_bf16_tma_store", 128);
  }

  /// gemm-cluster.mlir: gemm.mlir in clusters of two CTAs that share B by
  /// TMA multicast (persistent: as many clusters as the device runs at once).
  static TileGemm hopperCluster(const rt::Device &device) {
    return persistent(device, GEMM_CLUSTER_KERNEL_CUBIN,
                      GEMM_CLUSTER_KERNEL_KINFO, "gemm_bf16_cluster", 128);
  }

  /// gemm-pingpong.mlir: 64 x 256 tiles, two consumer teams taking turns
  /// (one's epilogue under the other's main loop); persistent.
  static TileGemm hopperPingpong(const rt::Device &device) {
    return persistent(device, GEMM_PINGPONG_KERNEL_CUBIN,
                      GEMM_PINGPONG_KERNEL_KINFO, "gemm_bf16_pingpong", 64);
  }

  /// gemm-sm80.mlir (mma.sync) compiled for sm_90 (its pipeline loads by
  /// TMA), or with `sm80` for sm_80 as PTX (the cp.async pipeline), which
  /// the driver compiles for the GPU at hand: the path for chips without
  /// wgmma, run on Hopper.
  static TileGemm mmaSync(bool sm80 = false) {
    return TileGemm(
        kernelFile(sm80 ? GEMM_MMA80_KERNEL_CUBIN : GEMM_MMA_KERNEL_CUBIN),
        kernelFile(sm80 ? GEMM_MMA80_KERNEL_KINFO : GEMM_MMA_KERNEL_KINFO),
        "gemm_bf16_mma", 128, 128);
  }

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
    if (!persistentCtas) {
      config = rt::launchConfigFor(info, {tilesN, tilesM, 1});
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

  bool persistent() const { return persistentCtas != 0; }

  void launch() { rt::launch(kernel, config, args); }
  const rt::KernelInfo &kernelInfo() const { return info; }
  /// The launch shape bind() chose.
  const rt::LaunchConfig &launchConfig() const { return config; }

private:
  /// A persistent tileM x 256 kernel `name` built beside the program.
  static TileGemm persistent(const rt::Device &device, const char *cubin,
                             const char *kinfo, const char *name,
                             unsigned tileM) {
    TileGemm gemm(kernelFile(cubin), kernelFile(kinfo), name, tileM, 256);
    gemm.setPersistent(device);
    return gemm;
  }

  /// The cubin of gemm.mlir, one of its 128 x N siblings, or a variant.
  static TileGemm hopperKernel(const std::string &variant, int tileN) {
    if (variant.empty() && tileN == 128)
      return TileGemm(kernelFile(GEMM_NARROW_KERNEL_CUBIN),
                      kernelFile(GEMM_NARROW_KERNEL_KINFO),
                      "gemm_bf16_128x128", 128, 128);
    if (variant.empty() && tileN == 192)
      return TileGemm(kernelFile(GEMM_192_KERNEL_CUBIN),
                      kernelFile(GEMM_192_KERNEL_KINFO),
                      "gemm_bf16_128x192", 128, 192);
    if (variant.empty())
      return TileGemm(kernelFile(GEMM_KERNEL_CUBIN),
                      kernelFile(GEMM_KERNEL_KINFO), "gemm_bf16", 128, 256);
    // A variant of gemm.mlir or of the 128 x tileN kernels, by kernel name.
    std::string name =
        tileN == 256 ? "gemm_bf16" : "gemm_bf16_128x" + std::to_string(tileN);
    return TileGemm(kernelFile(variant + ".cubin"),
                    kernelFile(variant + ".kinfo"), name, 128, tileN);
  }

  rt::Module module;
  std::vector<rt::KernelInfo> infos;
  rt::KernelInfo info;
  rt::Kernel kernel;
  rt::ArgPack args;
  std::vector<rt::DeviceBuffer> tensorMaps;
  rt::LaunchConfig config;
  unsigned tileM, tileN;
  bool aKM, bKN;
  // CTAs of a persistent launch at most (the SM count, or the CTAs of the
  // clusters that fit at once), 0 otherwise.
  unsigned persistentCtas = 0;
};

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_GEMMHOST_H
