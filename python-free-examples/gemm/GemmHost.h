//===- GemmHost.h - launching gemm.mlir's kernel from C++ -------*- C++ -*-===//

#ifndef TILE_EXAMPLES_GEMM_GEMMHOST_H
#define TILE_EXAMPLES_GEMM_GEMMHOST_H

#include "../common/ExampleUtil.h"

namespace tile::examples {

/// C[M, N] (fp32) = A[M, K] (bf16) * B[N, K]^T (bf16), all row-major, with
/// the tile sizes gemm.mlir uses: 128 x 256 per CTA.
class TileGemm {
public:
  static constexpr unsigned kTileM = 128, kTileN = 256;

  /// The kernel built from gemm.mlir, or `variant`.cubin/.kinfo beside the
  /// program (other tile configurations compiled with tile-translate).
  explicit TileGemm(const std::string &variant = "")
      : module(rt::Module::loadCubinFile(
            variant.empty() ? kernelFile(GEMM_KERNEL_CUBIN)
                            : kernelFile(variant + ".cubin"))),
        infos(rt::loadKernelInfo(variant.empty()
                                     ? kernelFile(GEMM_KERNEL_KINFO)
                                     : kernelFile(variant + ".kinfo"))),
        info(rt::findKernel(infos, "gemm_bf16")),
        kernel(module.kernel("gemm_bf16")) {}

  /// Binds the buffers (tensor maps are built here, once) for later runs.
  void bind(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t m, int64_t n,
            int64_t k) {
    args = rt::ArgPack();
    tensorMaps.clear();
    rt::packMemRefArgs(info,
                       {{a, {m, k}, {k, 1}}, {b, {n, k}, {k, 1}},
                        {c, {m, n}, {n, 1}}},
                       args, tensorMaps);
    config = rt::launchConfigFor(
        info, {static_cast<unsigned>((n + kTileN - 1) / kTileN),
               static_cast<unsigned>((m + kTileM - 1) / kTileM), 1});
  }

  void launch() { rt::launch(kernel, config, args); }
  const rt::KernelInfo &kernelInfo() const { return info; }

private:
  rt::Module module;
  std::vector<rt::KernelInfo> infos;
  const rt::KernelInfo &info;
  rt::Kernel kernel;
  rt::ArgPack args;
  std::vector<rt::DeviceBuffer> tensorMaps;
  rt::LaunchConfig config;
};

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_GEMMHOST_H
