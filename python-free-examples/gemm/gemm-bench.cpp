//===- gemm-bench.cpp - gemm.mlir next to cuBLAS --------------------------===//
//
// Times the tile kernel and cuBLAS (cublasGemmEx: bf16 inputs, fp32 compute
// and output, the same C = A B^T) on the same random data, interleaving the
// two and repeating, and prints TFLOP/s and the ratio per size.
//
//===----------------------------------------------------------------------===//

#include "GemmBench.h"
#include "HopperKernels.h"

#include <algorithm>
#include <cstdlib>

using namespace tile;
using namespace tile::examples;

int main(int argc, char **argv) {
  requireGpu("gemm-bench");
  try {
    rt::Device device = rt::Device::open();
    // gemm-bench [size] [kernel variant: "mma" for gemm-sm80.mlir built for
    // sm_90, "mma80" for it built for sm_80, or a cubin name beside the
    // program, "name@128" or "name@192" for a variant of the 128 x 128 or
    // 128 x 192 kernel]
    std::string variant = argc > 2 ? argv[2] : "";
    int variantTileN = 256;
    if (size_t at = variant.find('@'); at != std::string::npos) {
      variantTileN = std::atoi(variant.c_str() + at + 1);
      variant = variant.substr(0, at);
    }
    TileGemm gemm = variant == "mma" ? mmaSyncGemm()
                    : variant == "mma80"
                        ? mmaSyncGemm(/*sm80=*/true)
                        : hopperGemm(device, variant, variantTileN);
    // Without a variant, the 128 x 192 and 128 x 128 kernels,
    // gemm-cluster.mlir, gemm-pingpong.mlir and gemm-tma-store.mlir run too
    // and the fastest counts (a six-entry autotuner).
    std::vector<TileGemm> others;
    if (variant.empty()) {
      others.push_back(hopperGemm(device, "", 192));
      others.push_back(hopperGemm(device, "", 128));
      others.push_back(hopperCluster(device));
      others.push_back(hopperPingpong(device));
    }
    CublasGemm cublas;
    std::printf("gemm-bench on %s: C = A B^T, bf16 in, fp32 out; "
                "kernel %s; ratio: the faster tile kernel\n",
                device.name().c_str(),
                argc > 2 ? argv[2] : "gemm.mlir (persistent, warp-specialised)");
    std::printf("%6s %6s %6s %12s %12s %12s %12s %12s %12s %12s %7s\n", "M",
                "N", "K", "128x256 TF/s", "128x192 TF/s", "128x128 TF/s",
                "cluster TF/s", "pingpong TF/s", "TMA-st TF/s", "cuBLAS TF/s",
                "ratio");
    std::vector<int64_t> sizes = {1024, 2048, 3072, 4096, 6144, 8192};
    if (argc > 1 && std::atoll(argv[1]) > 0)
      sizes = {std::atoll(argv[1])};
    // gemm-tma-store.mlir stores C by TMA: N % 4 == 0 (16-byte rows).
    if (variant.empty() &&
        std::all_of(sizes.begin(), sizes.end(),
                    [](int64_t s) { return s % 4 == 0; }))
      others.push_back(hopperTmaStore(device));
    for (int64_t s : sizes) {
      int64_t m = s, n = s, k = s;
      BenchOperands ops(m, n, k);
      CUdeviceptr da = ops.a.ptr(), db = ops.b.ptr(), dc = ops.c.ptr();
      gemm.bind(da, db, dc, m, n, k);
      for (TileGemm &other : others)
        other.bind(da, db, dc, m, n, k);
      // The persistent kernels' grids (clusters: as many as run at once).
      if (s == sizes.front()) {
        std::vector<const TileGemm *> all{&gemm};
        for (const TileGemm &other : others)
          all.push_back(&other);
        for (const TileGemm *g : all)
          if (g->persistent())
            std::printf("(%s: grid of %u CTAs, clusters of %u)\n",
                        g->kernelInfo().name.c_str(), g->launchConfig().grid.x,
                        g->launchConfig().cluster.x);
      }
      // Interleave the contenders: clocks and power drift within a run.
      std::vector<std::function<void()>> contenders{[&] { gemm.launch(); }};
      for (TileGemm &other : others)
        contenders.push_back([&other] { other.launch(); });
      contenders.push_back([&] { cublas.run(da, db, dc, m, n, k); });
      std::vector<float> ms =
          interleavedMedianMs(contenders, benchIterations(s));
      double tileTf = tflops(m, n, k, ms.front()),
             cublasTf = tflops(m, n, k, ms.back());
      double otherTf[5] = {0, 0, 0, 0, 0};
      for (size_t i = 0; i < others.size(); ++i)
        otherTf[i] = tflops(m, n, k, ms[i + 1]);
      double best = std::max(
          {tileTf, otherTf[0], otherTf[1], otherTf[2], otherTf[3], otherTf[4]});
      std::printf("%6lld %6lld %6lld %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f "
                  "%12.1f %7.2f\n",
                  (long long)m, (long long)n, (long long)k, tileTf, otherTf[0],
                  otherTf[1], otherTf[2], otherTf[3], otherTf[4], cublasTf,
                  best / cublasTf);
    }
    return 0;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "gemm-bench: %s\n", error.what());
    return 1;
  }
}
