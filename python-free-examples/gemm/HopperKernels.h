//===- HopperKernels.h - gemm/'s kernels as TileGemms -----------*- C++ -*-===//
//
// The kernels this folder builds, by the file names tile_target_use_kernel
// defines: GEMM_KERNEL_{CUBIN,KINFO} and its siblings (see CMakeLists.txt).
// Only a program that uses all of those kernels may include this.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_HOPPERKERNELS_H
#define TILE_EXAMPLES_GEMM_HOPPERKERNELS_H

#include "GemmChoice.h"
#include "GemmHost.h"

#include <map>
#include <memory>

namespace tile::examples {

namespace detail {
/// The cubin of gemm.mlir, one of its 128 x N siblings, or a variant.
inline TileGemm hopperKernel(const std::string &variant, int tileN) {
  if (variant.empty() && (tileN == 128 || tileN == 64))
    return TileGemm(kernelFile(GEMM_NARROW_KERNEL_CUBIN),
                    kernelFile(GEMM_NARROW_KERNEL_KINFO),
                    "gemm_bf16_128x" + std::to_string(tileN), 128, tileN);
  if (variant.empty() && tileN == 192)
    return TileGemm(kernelFile(GEMM_192_KERNEL_CUBIN),
                    kernelFile(GEMM_192_KERNEL_KINFO), "gemm_bf16_128x192", 128,
                    192);
  if (variant.empty())
    return TileGemm(kernelFile(GEMM_KERNEL_CUBIN),
                    kernelFile(GEMM_KERNEL_KINFO), "gemm_bf16", 128, 256);
  // A variant of gemm.mlir or of the 128 x tileN kernels, by kernel name.
  std::string name =
      tileN == 256 ? "gemm_bf16" : "gemm_bf16_128x" + std::to_string(tileN);
  return TileGemm(kernelFile(variant + ".cubin"),
                  kernelFile(variant + ".kinfo"), name, 128, tileN);
}
} // namespace detail

/// gemm.mlir (sm_90a: TMA + wgmma, persistent), or `variant`.cubin/.kinfo
/// beside the program (other configurations of it compiled with
/// tile-translate; persistent when the name starts with "p-"). `tileN` 64, 128
/// or 192 picks a kernel of gemm-128x128.mlir or gemm-128x192.mlir instead.
inline TileGemm hopperGemm(const rt::Device &device,
                           const std::string &variant = "", int tileN = 256) {
  TileGemm gemm = detail::hopperKernel(variant, tileN);
  if ((variant.empty() && tileN == 256) || variant.rfind("p-", 0) == 0)
    gemm.setPersistent(device);
  return gemm;
}

/// gemm-tma-store.mlir: gemm.mlir with the epilogue stored by TMA from
/// shared memory (persistent; N must be a multiple of 4).
inline TileGemm hopperTmaStore(const rt::Device &device) {
  return persistentGemm(device, GEMM_TMA_STORE_KERNEL_CUBIN,
                        GEMM_TMA_STORE_KERNEL_KINFO, "gemm_bf16_tma_store",
                        128);
}

/// gemm-cluster.mlir: gemm.mlir in clusters of two CTAs that share B by
/// TMA multicast (persistent: as many clusters as the device runs at once).
inline TileGemm hopperCluster(const rt::Device &device) {
  return persistentGemm(device, GEMM_CLUSTER_KERNEL_CUBIN,
                        GEMM_CLUSTER_KERNEL_KINFO, "gemm_bf16_cluster", 128);
}

/// gemm-pingpong.mlir: 64 x 256 tiles, two consumer teams taking turns
/// (one's epilogue under the other's main loop); persistent.
inline TileGemm hopperPingpong(const rt::Device &device) {
  return persistentGemm(device, GEMM_PINGPONG_KERNEL_CUBIN,
                        GEMM_PINGPONG_KERNEL_KINFO, "gemm_bf16_pingpong", 64);
}

/// gemm-256x128.mlir: 256 x 128 tiles, two warpgroups of 128 x 128 (two
/// m64 wgmmas per K step each); persistent.
inline TileGemm hopper256x128(const rt::Device &device) {
  return persistentGemm(device, GEMM_256X128_KERNEL_CUBIN,
                        GEMM_256X128_KERNEL_KINFO, "gemm_bf16_256x128", 256,
                        128);
}

/// gemm-pingpong-128.mlir: 128 x 128 ping-pong team tiles; persistent.
inline TileGemm hopperPingpong128(const rt::Device &device) {
  return persistentGemm(device, GEMM_PINGPONG_128_KERNEL_CUBIN,
                        GEMM_PINGPONG_128_KERNEL_KINFO,
                        "gemm_bf16_pingpong_128", 128, 128);
}

/// gemm-streamk.mlir: whole waves of 128 x 256 (or, with `tileN` 128,
/// 128 x 128) tiles, then the K loops of the last tiles shared out evenly
/// between one CTA per SM (partial tiles added into C by TMA reductions,
/// so C's rows must be a multiple of 16 bytes: N % 4 == 0).
inline TileGemm hopperStreamK(const rt::Device &device, unsigned tileN = 256) {
  TileGemm gemm(kernelFile(GEMM_STREAMK_KERNEL_CUBIN),
                kernelFile(GEMM_STREAMK_KERNEL_KINFO),
                tileN == 128 ? "gemm_bf16_streamk_128x128" : "gemm_bf16_streamk",
                128, tileN);
  gemm.setStreamK(device);
  return gemm;
}

/// One of the kernels the choice by shape picks from (GemmChoice.h).
inline TileGemm hopperKernel(const rt::Device &device, GemmKernel kernel) {
  switch (kernel) {
  case GemmKernel::Tile128x256:
    return hopperGemm(device);
  case GemmKernel::Tile256x128:
    return hopper256x128(device);
  case GemmKernel::Tile128x128:
    return hopperGemm(device, "", 128);
  case GemmKernel::Tile128x64:
    return hopperGemm(device, "", 64);
  case GemmKernel::Pingpong128x128:
    return hopperPingpong128(device);
  case GemmKernel::StreamK:
    return hopperStreamK(device);
  case GemmKernel::StreamK128x128:
    return hopperStreamK(device, 128);
  case GemmKernel::Pingpong64x256:
    return hopperPingpong(device);
  }
  throw rt::Error("hopperKernel: unknown GemmKernel");
}

/// C = A B^T by the kernel chooseGemmKernel picks for the shape: what a
/// caller uses without naming a kernel. Each kernel is loaded on first use.
class HopperGemms {
public:
  explicit HopperGemms(const rt::Device &device) : device(device) {}

  /// The kernel chosen for M x N x K, bound to the operands; launch() it.
  TileGemm &bind(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t m,
                 int64_t n, int64_t k) {
    TileGemm &gemm = kernel(choice(m, n, k));
    gemm.bind(a, b, c, m, n, k);
    return gemm;
  }
  GemmKernel choice(int64_t m, int64_t n, int64_t k) const {
    return chooseGemmKernel(m, n, k, device.smCount());
  }
  TileGemm &kernel(GemmKernel id) {
    std::unique_ptr<TileGemm> &slot = loaded[id];
    if (!slot)
      slot = std::make_unique<TileGemm>(hopperKernel(device, id));
    return *slot;
  }

private:
  const rt::Device &device;
  std::map<GemmKernel, std::unique_ptr<TileGemm>> loaded;
};

/// gemm-sm80.mlir (mma.sync) compiled for sm_90 (its pipeline loads by
/// TMA), or with `sm80` for sm_80 as PTX (the cp.async pipeline), which
/// the driver compiles for the GPU at hand: the path for chips without
/// wgmma, run on Hopper.
inline TileGemm mmaSyncGemm(bool sm80 = false) {
  return TileGemm(
      kernelFile(sm80 ? GEMM_MMA80_KERNEL_CUBIN : GEMM_MMA_KERNEL_CUBIN),
      kernelFile(sm80 ? GEMM_MMA80_KERNEL_KINFO : GEMM_MMA_KERNEL_KINFO),
      "gemm_bf16_mma", 128, 128);
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_HOPPERKERNELS_H
