//===- gemm-sm100.cpp - the sm_100a GEMMs: checked, then next to cuBLAS ---===//
//
// The Blackwell GEMMs, C[M, N] (fp32) = A[M, K] (bf16) * B[N, K]^T (bf16):
// gemm/gemm.mlir built for sm_100a (128 x 256 tiles, persistent: one CTA per
// SM), gemm/gemm.mlir with TMASTORE likewise (C through shared memory and TMA)
// and gemm-explicit.mlir (one CTA per 128 x 256 tile). Skipped (exit 77)
// on anything but an sm_100 GPU (B200/GB200). First gemm-check's sweep for
// both (GemmCheck.h); then, when built with cuBLAS and all shapes passed,
// gemm-bench's comparison (GemmBench.h) at 4096^3 and 8192^3.
//
//===----------------------------------------------------------------------===//

#include "../gemm/GemmCheck.h"

#include <tuple>
#ifdef TILE_HAVE_CUBLAS
#include "../gemm/GemmBench.h"
#endif

using namespace tile;
using namespace tile::examples;

#ifdef TILE_HAVE_CUBLAS
namespace {
// Both kernels and cuBLAS on the same data, interleaved; ratio: the
// persistent kernel against cuBLAS.
void bench(TileGemm &persistent, TileGemm &explicitStyle) {
  CublasGemm cublas;
  std::printf("%6s %6s %6s %16s %14s %12s %7s\n", "M", "N", "K",
              "persistent TF/s", "explicit TF/s", "cuBLAS TF/s", "ratio");
  for (int64_t s : {4096, 8192}) {
    int64_t m = s, n = s, k = s;
    BenchOperands ops(m, n, k);
    CUdeviceptr da = ops.a.ptr(), db = ops.b.ptr(), dc = ops.c.ptr();
    persistent.bind(da, db, dc, m, n, k);
    explicitStyle.bind(da, db, dc, m, n, k);
    std::vector<float> ms = interleavedMedianMs(
        {[&] { persistent.launch(); }, [&] { explicitStyle.launch(); },
         [&] { cublas.run(da, db, dc, m, n, k); }},
        benchIterations(s));
    double persistentTf = tflops(m, n, k, ms[0]),
           explicitTf = tflops(m, n, k, ms[1]),
           cublasTf = tflops(m, n, k, ms[2]);
    std::printf("%6lld %6lld %6lld %16.1f %14.1f %12.1f %7.2f\n", (long long)m,
                (long long)n, (long long)k, persistentTf, explicitTf, cublasTf,
                persistentTf / cublasTf);
  }
}
} // namespace
#endif

int main() {
  requireGpu("gemm-sm100");
  try {
    rt::Device device = rt::Device::open();
    // sm_100a code runs on compute capability 10.0 only (not on 10.3, B300).
    int cc = device.computeCapability();
    if (cc != 100) {
      std::printf("gemm-sm100: skipped, needs an sm_100 GPU (B200/GB200); "
                  "found %s (sm_%d)\n",
                  device.name().c_str(), cc);
      return kSkipped;
    }
    TileGemm persistent =
        persistentGemm(device, GEMM_SM100_KERNEL_CUBIN, GEMM_SM100_KERNEL_KINFO,
                       "gemm_bf16", 128);
    TileGemm tmaStore = persistentGemm(device, GEMM_SM100_TMA_STORE_KERNEL_CUBIN,
                                       GEMM_SM100_TMA_STORE_KERNEL_KINFO,
                                       "gemm_bf16", 128);
    // Grid (ceil(M / 128), ceil(N / 256)): block_id x picks the tile row.
    TileGemm explicitStyle(kernelFile(GEMM_EXPLICIT_KERNEL_CUBIN),
                           kernelFile(GEMM_EXPLICIT_KERNEL_KINFO),
                           "gemm_explicit", 128, 256);
    explicitStyle.setMAlongX();
    std::string persistentLabel =
        "gemm.mlir built for sm_100a (128 x 256 tiles, persistent on " +
        std::to_string(device.smCount()) + " SMs, warp-specialised)";
    GemmCheckSpec plain, cByTma;
    cByTma.cTma = true;
    const std::tuple<std::string, TileGemm *, GemmCheckSpec> kernels[] = {
        {persistentLabel, &persistent, plain},
        {"gemm.mlir TMASTORE built for sm_100a (C through shared memory and "
         "TMA stores)",
         &tmaStore, cByTma},
        {"gemm-explicit.mlir (one CTA per 128 x 256 tile, tensor memory and "
         "barriers by hand)",
         &explicitStyle, plain},
    };
    bool ok = true;
    for (const auto &[label, gemm, spec] : kernels) {
      std::printf("gemm-sm100 on %s: %s; C = A B^T, bf16 in, fp32 out\n",
                  device.name().c_str(), label.c_str());
      ok &= checkGemmShapes(*gemm, spec, gemmCheckShapes());
    }
    std::printf("%s\n",
                ok ? "gemm-sm100: all shapes passed" : "gemm-sm100: FAILED");
#ifdef TILE_HAVE_CUBLAS
    if (ok)
      bench(persistent, explicitStyle);
#endif
    return ok ? 0 : 1;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "gemm-sm100: %s\n", error.what());
    return 1;
  }
}
