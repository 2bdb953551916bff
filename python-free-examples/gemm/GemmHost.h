//===- GemmHost.h - launching the GEMM kernels from C++ ---------*- C++ -*-===//
//
// TileGemm runs any of the examples' GEMM kernels: one of a generated
// launcher (its typed function binds the operands), or one of a cubin file
// and its .kinfo. It names no kernel, so every program may include it; the
// factories for gemm/'s Hopper kernels, which do, are in HopperKernels.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_GEMMHOST_H
#define TILE_EXAMPLES_GEMM_GEMMHOST_H

#include "../common/ExampleUtil.h"

#include "tile/Runtime/Launcher.h"

#include <functional>
#include <memory>
#include <optional>

namespace tile::examples {

struct GemmShape {
  int64_t m, n, k;
  const char *what;
};

namespace detail {
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace detail

/// gemm-streamk.mlir's split of `tiles` tiles over `ctas` CTAs: how many of
/// the last ones are shared out by K steps (T mod P + P of them, at most
/// T; none when P divides T). The whole waves before them run as in
/// gemm.mlir.
inline int64_t streamKTiles(int64_t tiles, int64_t ctas) {
  int64_t ragged = tiles % ctas;
  return ragged ? std::min(ragged + ctas, tiles) : 0;
}

/// The epilogue operands of gemm.mlir's family: the bias (N values) and
/// the residual (M x N), both bf16; 0 where the configuration reads none.
struct GemmEpilogue {
  CUdeviceptr bias = 0, residual = 0;
};

/// Binds a GEMM kernel's operands (A, B, C and the epilogue's as memrefs)
/// for a grid: a generated launcher's typed function, or rt::BoundLaunch by
/// hand.
using GemmBinder = std::function<rt::BoundLaunch(
    rt::Dim3 grid, const rt::MemRefArg &a, const rt::MemRefArg &b,
    const rt::MemRefArg &c, const rt::MemRefArg &bias,
    const rt::MemRefArg &residual)>;
/// The same for a family dispatched by shape (a generated <family>_tuned):
/// it chooses the kernel and the grid it states.
using TunedGemmBinder = std::function<rt::BoundLaunch(
    const rt::MemRefArg &a, const rt::MemRefArg &b, const rt::MemRefArg &c,
    const rt::MemRefArg &bias, const rt::MemRefArg &residual)>;

/// C[M, N] (fp32) = A[M, K] (bf16) * B[N, K]^T (bf16), all row-major, by one
/// of the GEMM kernels, one tileM x tileN tile per CTA.
class TileGemm {
public:
  /// A kernel of a generated launcher: its module, its name and its typed
  /// function (typedGemm below). A family's kernel takes its tile from its
  /// configuration (BM, BN). `aKM`: A is stored K x M (the kernel
  /// transposes it); `bKN`: B is stored K x N. Otherwise A is M x K and B
  /// is N x K.
  TileGemm(rt::EmbeddedModule &embedded, const std::string &name,
           GemmBinder binder, unsigned tileM = 0, unsigned tileN = 0,
           bool aKM = false, bool bKN = false)
      : module(&embedded.module()), info(embedded.info(name)),
        binder(std::move(binder)), tileM(configured("BM", tileM)),
        tileN(configured("BN", tileN)), aKM(aKM), bKN(bKN) {}
  /// `name` of a cubin file and its description (a kernel compiled by
  /// hand), bound without a typed launcher: ranks are checked, element
  /// types are not.
  TileGemm(const std::string &cubin, const std::string &kinfo,
           const std::string &name, unsigned tileM, unsigned tileN,
           bool aKM = false, bool bKN = false)
      : owned(std::make_shared<rt::Module>(rt::Module::loadCubinFile(cubin))),
        module(owned.get()),
        info(rt::findKernel(rt::loadKernelInfo(kinfo), name)), tileM(tileM),
        tileN(tileN), aKM(aKM), bKN(bKN) {
    binder = [module = owned, info = info](
                 rt::Dim3 grid, const rt::MemRefArg &a, const rt::MemRefArg &b,
                 const rt::MemRefArg &c, const rt::MemRefArg &,
                 const rt::MemRefArg &) {
      rt::BoundLaunch launch(*module, info);
      launch.arg(a).arg(b).arg(c).grid(grid);
      return launch;
    };
  }

  /// A family through its tuning table: bind() lets `binder` choose the
  /// configuration for the shape (kernelInfo() then names it).
  explicit TileGemm(TunedGemmBinder binder)
      : module(nullptr), tunedBinder(std::move(binder)), tileM(0), tileN(0),
        aKM(false), bKN(false) {}

  /// Binds the buffers (tensor maps are built here, once) for later runs;
  /// `epilogue` for a configuration of gemm.mlir that reads a bias or a
  /// residual.
  void bind(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t m, int64_t n,
            int64_t k, const GemmEpilogue &epilogue = {}) {
    bound.reset();
    rt::MemRefArg aArg = aKM ? rt::MemRefArg{a, {k, m}, {m, 1}}
                             : rt::MemRefArg{a, {m, k}, {k, 1}};
    rt::MemRefArg bArg = bKN ? rt::MemRefArg{b, {k, n}, {n, 1}}
                             : rt::MemRefArg{b, {n, k}, {k, 1}};
    rt::MemRefArg cArg{c, {m, n}, {n, 1}};
    rt::MemRefArg biasArg{epilogue.bias, {epilogue.bias ? n : 0}, {1}};
    rt::MemRefArg residualArg{
        epilogue.residual, {epilogue.residual ? m : 0, n}, {n, 1}};
    if (tunedBinder) {
      bound.emplace(tunedBinder(aArg, bArg, cArg, biasArg, residualArg));
      info = bound->info();
      return;
    }
    bound.emplace(
        binder(grid(m, n, k, c), aArg, bArg, cArg, biasArg, residualArg));
  }

  /// The kernel loops over tiles (gemm.mlir does): launch one CTA per SM,
  /// or in clusters as many whole clusters as the device runs at once.
  TileGemm &setPersistent(const rt::Device &device) {
    persistentCtas = static_cast<unsigned>(device.smCount());
    unsigned perCluster = info.cluster.x;
    if (perCluster == 1)
      return *this;
    unsigned fit = rt::maxActiveClusters(
        module->kernel(info.name),
        rt::launchConfigFor(info, {perCluster, 1, 1}));
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
    if (!bound)
      throw rt::Error("kernel '" + info.name + "' launched before bind()");
    if (zeroWords)
      rt::fillWordsAsync(zeroFrom, 0, zeroWords, bound->config().stream);
    bound->launch();
  }
  const rt::KernelInfo &kernelInfo() const { return info; }
  /// The launch shape bind() chose.
  const rt::LaunchConfig &launchConfig() const { return bound->config(); }

private:
  /// The grid for an M x N x K product (and, for stream-K, the part of C
  /// to zero before each launch).
  rt::Dim3 grid(int64_t m, int64_t n, int64_t k, CUdeviceptr c) {
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
      return {unsigned(ctas), 1, 1};
    }
    if (!persistentCtas)
      return mAlongX ? rt::Dim3{tilesM, tilesN, 1} : rt::Dim3{tilesN, tilesM, 1};
    // Persistent: a cluster of CTAs (1 without clusters) takes cluster.x
    // vertically adjacent tiles at a time; launch no more clusters than
    // setPersistent found room for, nor than there is work for.
    unsigned perCluster = info.cluster.x;
    unsigned work = (tilesM + perCluster - 1) / perCluster * tilesN;
    return {std::min(work, persistentCtas / perCluster) * perCluster, 1, 1};
  }

  /// A tile size from the family's configuration, else `given`.
  unsigned configured(const char *param, unsigned given) const {
    for (const auto &[name, value] : info.config)
      if (name == param)
        return unsigned(value);
    if (!given)
      throw rt::Error("kernel '" + info.name + "' has no " + param +
                      " in its configuration: give its tile size");
    return given;
  }

  std::shared_ptr<rt::Module> owned; // a cubin file's module
  const rt::Module *module;
  rt::KernelInfo info;
  GemmBinder binder;
  TunedGemmBinder tunedBinder;
  std::optional<rt::BoundLaunch> bound;
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

/// A persistent tileM x tileN kernel `name` of a cubin built beside the
/// program.
inline TileGemm persistentGemm(const rt::Device &device, const char *cubin,
                               const char *kinfo, const char *name,
                               unsigned tileM, unsigned tileN = 256) {
  TileGemm gemm(kernelFile(cubin), kernelFile(kinfo), name, tileM, tileN);
  gemm.setPersistent(device);
  return gemm;
}

/// A binder for a generated launcher's GEMM function `launch(grid, A, B, C,
/// stream)` (A and B of element type AB, C of element type CT, rank 2).
template <typename AB, typename CT, typename Launch>
GemmBinder typedGemm(Launch launch) {
  return [launch](rt::Dim3 grid, const rt::MemRefArg &a,
                  const rt::MemRefArg &b, const rt::MemRefArg &c,
                  const rt::MemRefArg &, const rt::MemRefArg &) {
    return launch(grid, rt::MemRef<AB, 2>::of(a), rt::MemRef<AB, 2>::of(b),
                  rt::MemRef<CT, 2>::of(c), CUstream{});
  };
}

/// The same for a function that also takes the epilogue's operands,
/// `launch(grid, A, B, C, bias, R, stream)` (gemm.mlir's family: bias and
/// R bf16, of rank 1 and 2).
template <typename AB, typename CT, typename Launch>
GemmBinder typedEpilogueGemm(Launch launch) {
  return [launch](rt::Dim3 grid, const rt::MemRefArg &a,
                  const rt::MemRefArg &b, const rt::MemRefArg &c,
                  const rt::MemRefArg &bias, const rt::MemRefArg &residual) {
    return launch(grid, rt::MemRef<AB, 2>::of(a), rt::MemRef<AB, 2>::of(b),
                  rt::MemRef<CT, 2>::of(c), rt::MemRef<rt::bf16, 1>::of(bias),
                  rt::MemRef<rt::bf16, 2>::of(residual), CUstream{});
  };
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_GEMMHOST_H
