//===- gemm-bench.cpp - gemm.mlir next to cuBLAS --------------------------===//
//
// Times the tile kernel and cuBLAS (cublasGemmEx: bf16 inputs, fp32 compute
// and output, the same C = A B^T) on the same random data, interleaving the
// two and repeating, and prints TFLOP/s and the ratio per size.
//
//===----------------------------------------------------------------------===//

#include "GemmHost.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <cublas_v2.h>

using namespace tile;
using namespace tile::examples;

static void checkCublas(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw rt::Error(std::string(call) +
                    " failed: " + cublasGetStatusName(status));
}

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
    TileGemm gemm =
        variant == "mma"     ? TileGemm::mmaSync()
        : variant == "mma80" ? TileGemm::mmaSync(/*sm80=*/true)
                             : TileGemm::hopper(device, variant, variantTileN);
    // Without a variant, the 128 x 192 and 128 x 128 kernels,
    // gemm-cluster.mlir, gemm-pingpong.mlir and gemm-tma-store.mlir run too
    // and the fastest counts (a six-entry autotuner).
    std::vector<TileGemm> others;
    if (variant.empty()) {
      others.push_back(TileGemm::hopper(device, "", 192));
      others.push_back(TileGemm::hopper(device, "", 128));
      others.push_back(TileGemm::hopperCluster(device));
      others.push_back(TileGemm::hopperPingpong(device));
    }
    cublasHandle_t handle;
    checkCublas(cublasCreate(&handle), "cublasCreate");
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
      others.push_back(TileGemm::hopperTmaStore(device));
    for (int64_t s : sizes) {
      int64_t m = s, n = s, k = s;
      std::vector<uint16_t> a = toBf16(randomFloats(m * k));
      std::vector<uint16_t> b = toBf16(randomFloats(n * k));
      rt::DeviceBuffer da(a.size() * 2), db(b.size() * 2),
          dc(size_t(m) * n * 4);
      da.upload(a);
      db.upload(b);
      gemm.bind(da.ptr(), db.ptr(), dc.ptr(), m, n, k);
      for (TileGemm &other : others)
        other.bind(da.ptr(), db.ptr(), dc.ptr(), m, n, k);
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
      float alpha = 1, beta = 0;
      auto cublas = [&] {
        // Row-major C = A B^T is column-major C^T = B^T(op T on B's KxN) A.
        checkCublas(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(n),
                                 int(m), int(k), &alpha, (void *)db.ptr(),
                                 CUDA_R_16BF, int(k), (void *)da.ptr(),
                                 CUDA_R_16BF, int(k), &beta, (void *)dc.ptr(),
                                 CUDA_R_32F, int(n), CUBLAS_COMPUTE_32F,
                                 CUBLAS_GEMM_DEFAULT),
                    "cublasGemmEx");
      };
      rt::Timer timer;
      int iters = s >= 8192 ? 10 : 30;
      // Interleave the contenders: clocks and power drift within a run.
      std::vector<float> tileMs, cublasMs;
      std::vector<std::vector<float>> otherMs(others.size());
      for (int round = 0; round < 3; ++round) {
        tileMs.push_back(timer.timeMs([&] { gemm.launch(); }, 3, iters));
        for (size_t i = 0; i < others.size(); ++i)
          otherMs[i].push_back(
              timer.timeMs([&] { others[i].launch(); }, 3, iters));
        cublasMs.push_back(timer.timeMs(cublas, 3, iters));
      }
      auto median = [](std::vector<float> &v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
      };
      double flops = 2.0 * m * n * k;
      double tileTf = flops / (median(tileMs) * 1e9),
             cublasTf = flops / (median(cublasMs) * 1e9);
      double otherTf[5] = {0, 0, 0, 0, 0};
      for (size_t i = 0; i < others.size(); ++i)
        otherTf[i] = flops / (median(otherMs[i]) * 1e9);
      double best = std::max(
          {tileTf, otherTf[0], otherTf[1], otherTf[2], otherTf[3], otherTf[4]});
      std::printf("%6lld %6lld %6lld %12.1f %12.1f %12.1f %12.1f %12.1f %12.1f "
                  "%12.1f %7.2f\n",
                  (long long)m, (long long)n, (long long)k, tileTf, otherTf[0],
                  otherTf[1], otherTf[2], otherTf[3], otherTf[4], cublasTf,
                  best / cublasTf);
    }
    cublasDestroy(handle);
    return 0;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "gemm-bench: %s\n", error.what());
    return 1;
  }
}
