//===- HopperKernels.h - gemm/'s kernels as TileGemms -----------*- C++ -*-===//
//
// The kernels this folder builds, through the launchers generated with them
// (tile_add_kernel(... LAUNCHER), see CMakeLists.txt): the families'
// configurations are picked from the generated tables by their values,
// and every kernel is bound by its typed function. Only a program that
// links all of those launchers may include this.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_HOPPERKERNELS_H
#define TILE_EXAMPLES_GEMM_HOPPERKERNELS_H

#include "GemmHost.h"
#include "LinearConfig.h"

#include "gemm-cluster_launcher.h"
#include "gemm-mma-sm80_launcher.h"
#include "gemm-mma-sm90_launcher.h"
#include "gemm-streamk_launcher.h"
#include "gemm-tiles_launcher.h"
#include "gemm_launcher.h"

#include <memory>
#include <string>

namespace tile::examples {

namespace detail {
/// The index of the first configuration `pick` accepts in a generated
/// launcher's table.
template <typename Config, std::size_t N, typename Pick>
std::size_t findConfig(const Config (&configs)[N], Pick pick) {
  for (std::size_t i = 0; i < N; ++i)
    if (pick(configs[i]))
      return i;
  throw rt::Error("no configuration of the family matches");
}

/// The configuration `pick` accepts in a family's generated table, bound
/// through the family's dispatcher `dispatch(config, grid, A, B, C,
/// stream)`; its tile from the configuration (BM, BN), else `tileM`/`tileN`.
template <typename Config, std::size_t N, typename Pick, typename Dispatch>
TileGemm familyGemm(rt::EmbeddedModule &module, const Config (&configs)[N],
                    Pick pick, Dispatch dispatch, unsigned tileM = 0,
                    unsigned tileN = 0) {
  std::size_t i = findConfig(configs, pick);
  return TileGemm(module, configs[i].kernel,
                  typedGemm<rt::bf16, float>(
                      [i, dispatch](rt::Dim3 grid, auto a, auto b, auto c,
                                    CUstream stream) {
                        return dispatch(i, grid, a, b, c, stream);
                      }),
                  tileM, tileN);
}

/// The configuration of gemm.mlir's family that `pick` accepts, with C of
/// element type CT (float or rt::bf16); persistent.
template <typename CT, typename Pick>
TileGemm epilogueGemm(const rt::Device &device, Pick pick) {
  std::size_t i = findConfig(gemm_kernels::gemm_bf16_configs, pick);
  TileGemm gemm(gemm_kernels::module(), gemm_kernels::gemm_bf16_configs[i].kernel,
                typedEpilogueGemm<rt::bf16, CT>(
                    [i](rt::Dim3 grid, auto a, auto b, auto c, auto bias,
                        auto residual, CUstream stream) {
                      return gemm_kernels::gemm_bf16(i, grid, a, b, c, bias,
                                                     residual, stream);
                    }));
  gemm.setPersistent(device);
  return gemm;
}

/// A GEMM bound by `launch(A, B, C, bias, R)`, a generated launcher
/// function of gemm.mlir's family that states its own grid (C of element
/// type CT).
template <typename CT, typename Launch> TileGemm launcherGemm(Launch launch) {
  using Matrix = rt::MemRef<rt::bf16, 2>;
  return TileGemm([launch](const rt::MemRefArg &a, const rt::MemRefArg &b,
                           const rt::MemRefArg &c, const rt::MemRefArg &bias,
                           const rt::MemRefArg &residual) {
    return launch(Matrix::of(a), Matrix::of(b), rt::MemRef<CT, 2>::of(c),
                  rt::MemRef<rt::bf16, 1>::of(bias), Matrix::of(residual));
  });
}

/// The configuration of gemm.mlir's family with this tile and schedule
/// (fp32 C, no epilogue).
inline TileGemm persistentGemm(const rt::Device &device, int64_t bm, int64_t bn,
                               bool pingpong, bool tmaStore = false) {
  return epilogueGemm<float>(device, [&](const auto &c) {
    return c.BM == bm && c.BN == bn && c.PINGPONG == pingpong &&
           c.TMASTORE == tmaStore && std::string(c.OUT) == "f32" && !c.BIAS &&
           !c.GELU && !c.RESIDUAL && c.SPLITK == 1 && c.CLUSTER == 1;
  });
}
} // namespace detail

/// gemm.mlir's split-K configuration (128 x 128 tiles, each K loop in 3
/// parts added into C, which its launch zeroes first: the kernel's
/// tile.zero_before_launch).
inline TileGemm hopperSplitK(const rt::Device &device) {
  return detail::epilogueGemm<float>(
      device, [](const auto &c) { return c.SPLITK == 3; });
}

/// gemm.mlir's CLUSTER=2 configuration (128 x 256 tiles in clusters of two
/// CTAs that share B by TMA multicast), launched with the grid it states.
inline TileGemm hopperFamilyCluster() {
  std::size_t i = detail::findConfig(
      gemm_kernels::gemm_bf16_configs, [](const auto &c) {
        return c.CLUSTER == 2 && c.BM == 128 && c.BN == 256 && !c.BIAS &&
               !c.GELU && !c.RESIDUAL && !c.TMASTORE && c.SPLITK == 1 &&
               std::string(c.OUT) == "f32";
      });
  return detail::launcherGemm<float>(
      [i](auto... args) { return gemm_kernels::gemm_bf16(i, args...); });
}

/// gemm.mlir's family at 128 x 256 (sm_90a: TMA + wgmma, persistent), or
/// `variant`.cubin/.kinfo beside the program (a configuration compiled by
/// hand with tile-translate --tile-values: @gemm_bf16 of gemm.mlir, or
/// @gemm_bf16_tile of gemm-tiles.mlir when `tileN` is not 256; persistent
/// when the name starts with "p-"). `tileN` 64, 128 or 192 alone picks a
/// configuration of gemm-tiles.mlir (one CTA per tile) instead.
inline TileGemm hopperGemm(const rt::Device &device,
                           const std::string &variant = "", int tileN = 256) {
  if (variant.empty() && tileN == 256)
    return detail::persistentGemm(device, 128, 256, false);
  if (variant.empty())
    return detail::familyGemm(
        gemm_tile_kernels::module(), gemm_tile_kernels::gemm_bf16_tile_configs,
        [&](const auto &c) { return c.BN == tileN; },
        &gemm_tile_kernels::gemm_bf16_tile);
  TileGemm gemm(kernelFile(variant + ".cubin"), kernelFile(variant + ".kinfo"),
                tileN == 256 ? "gemm_bf16" : "gemm_bf16_tile", 128,
                unsigned(tileN));
  if (variant.rfind("p-", 0) == 0)
    gemm.setPersistent(device);
  return gemm;
}

/// gemm.mlir's TMASTORE configuration: the epilogue stored by TMA from
/// shared memory (persistent; N must be a multiple of 4).
inline TileGemm hopperTmaStore(const rt::Device &device) {
  return detail::persistentGemm(device, 128, 256, false, /*tmaStore=*/true);
}

/// A linear layer's configuration of gemm.mlir: C = epilogue(A B^T) in
/// bf16, 128 x 128 tiles, the bias (and GELU, and a residual) fused, C by
/// TMA where `tmaStore` (N % 8 == 0).
inline TileGemm hopperLinear(const rt::Device &device, bool gelu,
                             bool residual, bool tmaStore) {
  const gemm_kernels::gemm_bf16_config *chosen =
      &gemm_kernels::gemm_bf16_configs[linearConfig(
          gemm_kernels::gemm_bf16_configs,
          gemm_kernels::gemm_bf16_config_count, gelu, residual, tmaStore)];
  return detail::epilogueGemm<rt::bf16>(
      device, [&](const auto &c) { return &c == chosen; });
}

/// gemm-cluster.mlir: gemm.mlir in clusters of two CTAs that share B by
/// TMA multicast (persistent: as many clusters as the device runs at once).
inline TileGemm hopperCluster(const rt::Device &device) {
  TileGemm gemm(gemm_cluster_kernels::module(), "gemm_bf16_cluster",
                typedGemm<rt::bf16, float>(gemm_cluster_kernels::gemm_bf16_cluster),
                128, 256);
  gemm.setPersistent(device);
  return gemm;
}

/// gemm.mlir's ping-pong configuration at 64 x 256: two consumer teams
/// taking turns (one's epilogue under the other's main loop); persistent.
inline TileGemm hopperPingpong(const rt::Device &device) {
  return detail::persistentGemm(device, 64, 256, true);
}

/// gemm.mlir at 256 x 128 tiles: two warpgroups of 128 x 128 (two m64
/// wgmmas per K step each); persistent.
inline TileGemm hopper256x128(const rt::Device &device) {
  return detail::persistentGemm(device, 256, 128, false);
}

/// gemm.mlir's ping-pong configuration at 128 x 128 team tiles; persistent.
inline TileGemm hopperPingpong128(const rt::Device &device) {
  return detail::persistentGemm(device, 128, 128, true);
}

/// gemm-streamk.mlir: whole waves of 128 x 256 (or, with `tileN` 128,
/// 128 x 128) tiles, then the K loops of the last tiles shared out evenly
/// between one CTA per SM (partial tiles added into C by TMA reductions,
/// so C's rows must be a multiple of 16 bytes: N % 4 == 0).
inline TileGemm hopperStreamK(const rt::Device &device, unsigned tileN = 256) {
  TileGemm gemm = detail::familyGemm(
      gemm_streamk_kernels::module(),
      gemm_streamk_kernels::gemm_bf16_streamk_configs,
      [&](const auto &c) { return c.BN == int64_t(tileN); },
      &gemm_streamk_kernels::gemm_bf16_streamk, /*tileM=*/128);
  gemm.setStreamK(device);
  return gemm;
}

/// gemm.mlir's family through its tuning table (tuning/gemm_bf16-h200.txt,
/// tile-tune's): bind() launches the configuration the table gives the
/// shape (gemm_kernels::gemm_bf16_tuned), with C of element type CT and
/// the epilogue `fixed` names (none: the plain product). What a caller
/// uses without naming a kernel.
template <typename CT = float>
TileGemm tunedGemm(rt::ParamValues fixed = {}) {
  return detail::launcherGemm<CT>([fixed](auto... args) {
    return gemm_kernels::gemm_bf16_tuned(fixed, args...);
  });
}

/// gemm-sm80.mlir (mma.sync) compiled for sm_90 (its pipeline loads by
/// TMA), or with `sm80` for sm_80 as PTX (the cp.async pipeline), which
/// the driver compiles for the GPU at hand: the path for chips without
/// wgmma, run on Hopper.
inline TileGemm mmaSyncGemm(bool sm80 = false) {
  if (sm80)
    return TileGemm(gemm_mma_sm80_kernels::module(), "gemm_bf16_mma",
                    typedGemm<rt::bf16, float>(
                        gemm_mma_sm80_kernels::gemm_bf16_mma),
                    128, 128);
  return TileGemm(gemm_mma_sm90_kernels::module(), "gemm_bf16_mma",
                  typedGemm<rt::bf16, float>(gemm_mma_sm90_kernels::gemm_bf16_mma),
                  128, 128);
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_HOPPERKERNELS_H
