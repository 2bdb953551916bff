//===- gemm-bench.cpp - the GEMM kernels next to cuBLAS -------------------===//
//
// Times tile's GEMM and cuBLAS (cublasGemmEx: bf16 inputs, fp32 compute and
// output, the same C = A B^T) on the same random data, interleaving the two
// and repeating, and prints TFLOP/s and the ratio per shape.
//
//   gemm-bench              the sweep (GemmChoice.h's shapes), each run by
//                           the kernel the choice by shape picks; then the
//                           geometric mean and the worst ratio
//   gemm-bench --all        the same, with every kernel the choice picks
//                           from timed too (the table the rule is tuned on)
//   gemm-bench M [N K]      one shape (N = K = M when only M is given)
//   gemm-bench S VARIANT    an S^3 product by one kernel: "mma" (gemm-sm80
//                           built for sm_90), "mma80" (built for sm_80), a
//                           cubin name beside the program (persistent when
//                           it starts with "p-"), "name@64" / "name@128" /
//                           "name@192" for a variant of the 128 x 64 /
//                           128 x 128 / 128 x 192 kernel
//
//===----------------------------------------------------------------------===//

#include "GemmBench.h"
#include "HopperKernels.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace tile;
using namespace tile::examples;

namespace {
// One kernel named on the command line, against cuBLAS at s^3.
int benchVariant(const rt::Device &device, int64_t s, std::string variant) {
  int tileN = 256;
  if (size_t at = variant.find('@'); at != std::string::npos) {
    tileN = std::atoi(variant.c_str() + at + 1);
    variant = variant.substr(0, at);
  }
  TileGemm gemm = variant == "mma"     ? mmaSyncGemm()
                  : variant == "mma80" ? mmaSyncGemm(/*sm80=*/true)
                                       : hopperGemm(device, variant, tileN);
  CublasGemm cublas;
  BenchOperands ops(s, s, s);
  gemm.bind(ops.a.ptr(), ops.b.ptr(), ops.c.ptr(), s, s, s);
  std::vector<float> ms = interleavedMedianMs(
      {[&] { gemm.launch(); },
       [&] { cublas.run(ops.a.ptr(), ops.b.ptr(), ops.c.ptr(), s, s, s); }},
      benchIterations(s));
  std::printf("%6lld^3 %s: %.1f TF/s, cuBLAS %.1f TF/s, ratio %.2f\n",
              (long long)s, variant.c_str(), tflops(s, s, s, ms[0]),
              tflops(s, s, s, ms[1]), ms[1] / ms[0]);
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  requireGpu("gemm-bench");
  try {
    rt::Device device = rt::Device::open();
    bool all = argc > 1 && !std::strcmp(argv[1], "--all");
    std::vector<GemmShape> shapes = gemmSweepShapes();
    if (argc == 3 && std::atoll(argv[1]) > 0 && std::atoll(argv[2]) <= 0)
      return benchVariant(device, std::atoll(argv[1]), argv[2]);
    if (!all && argc > 1) {
      int64_t m = std::atoll(argv[1]);
      int64_t n = argc > 3 ? std::atoll(argv[2]) : m;
      int64_t k = argc > 3 ? std::atoll(argv[3]) : m;
      if (m <= 0 || n <= 0 || k <= 0 || argc == 3 || argc > 4) {
        std::fprintf(stderr, "usage: gemm-bench [--all | M [N K] | S VARIANT]\n");
        return 2;
      }
      shapes = {{m, n, k, "from the command line"}};
    }

    HopperGemms gemms(device);
    CublasGemm cublas;
    std::printf("gemm-bench on %s (%d SMs): C = A B^T, bf16 in, fp32 out; "
                "the kernel the choice by shape picks, against cuBLAS\n",
                device.name().c_str(), device.smCount());
    std::printf("%6s %6s %6s  %-18s %-17s %9s %9s %6s", "M", "N", "K", "shape",
                "chosen kernel", "TF/s", "cuBLAS", "ratio");
    if (all)
      for (const GemmKernelTraits &traits : kGemmKernels)
        std::printf(" %16s", traits.name);
    std::printf("\n");

    double logSum = 0, worst = 1e30;
    const GemmShape *worstShape = nullptr;
    for (const GemmShape &s : shapes) {
      BenchOperands ops(s.m, s.n, s.k);
      CUdeviceptr da = ops.a.ptr(), db = ops.b.ptr(), dc = ops.c.ptr();
      GemmKernel chosen = gemms.choice(s.m, s.n, s.k);
      // Contenders: the choice, cuBLAS, then (--all) every kernel, all
      // bound to the operands first (tensor maps are built there).
      TileGemm &choice = gemms.bind(da, db, dc, s.m, s.n, s.k);
      std::vector<std::function<void()>> contenders{
          [&] { choice.launch(); },
          [&] { cublas.run(da, db, dc, s.m, s.n, s.k); }};
      // (-1: a kernel that cannot take the shape, printed as "-".)
      std::vector<int> column;
      if (all)
        for (const GemmKernelTraits &traits : kGemmKernels) {
          if (!gemmKernelTakes(traits, s.m, s.n, s.k)) {
            column.push_back(-1);
            continue;
          }
          column.push_back(int(contenders.size()));
          TileGemm &gemm = gemms.kernel(traits.kernel);
          gemm.bind(da, db, dc, s.m, s.n, s.k);
          contenders.push_back([&gemm] { gemm.launch(); });
        }
      int64_t cube = int64_t(std::cbrt(double(s.m) * s.n * s.k));
      std::vector<float> ms =
          interleavedMedianMs(contenders, benchIterations(cube));
      double ratio = ms[1] / ms[0];
      logSum += std::log(ratio);
      if (ratio < worst) {
        worst = ratio;
        worstShape = &s;
      }
      std::printf("%6lld %6lld %6lld  %-18s %-17s %9.1f %9.1f %6.2f",
                  (long long)s.m, (long long)s.n, (long long)s.k, s.what,
                  gemmKernelTraits(chosen).name, tflops(s.m, s.n, s.k, ms[0]),
                  tflops(s.m, s.n, s.k, ms[1]), ratio);
      for (int i : column)
        if (i < 0)
          std::printf(" %16s", "-");
        else
          std::printf(" %16.1f", tflops(s.m, s.n, s.k, ms[i]));
      std::printf("\n");
    }
    if (shapes.size() > 1)
      std::printf("geometric mean of the ratios %.3f over %zu shapes; worst "
                  "%.3f (%lld x %lld x %lld, %s)\n",
                  std::exp(logSum / double(shapes.size())), shapes.size(),
                  worst, (long long)worstShape->m, (long long)worstShape->n,
                  (long long)worstShape->k, worstShape->what);
    return 0;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "gemm-bench: %s\n", error.what());
    return 1;
  }
}
