//===- gemm-bench.cpp - the GEMM kernels next to cuBLAS -------------------===//
//
// Times tile's GEMM and cuBLAS (cublasGemmEx: bf16 inputs, fp32 compute,
// the same C = A B^T) on the same random data, interleaving the two and
// repeating, and prints TFLOP/s and the ratio per shape. tile's GEMM is
// gemm.mlir's family through its tuning table (gemm_bf16_tuned: the
// configuration tile-tune measured fastest at the shape, else the fastest
// by the table's cost models).
//
//   gemm-bench [--shapes S]  the plain product (fp32 C) at each shape of S
//                            (a shape file or MxNxK,...; default the tuned
//                            shapes, tuning/tune-shapes.txt), then the
//                            geometric mean and the worst ratio
//   gemm-bench --linear [--shapes S]
//                            the fused linear layers (bias, then bias and
//                            GELU; bf16 C) against cuBLAS's plain product
//                            with a bf16 C (default tuning/linear-shapes.txt)
//   gemm-bench M [N K]       one shape (N = K = M when only M is given)
//   gemm-bench S VARIANT     an S^3 product by one kernel: "plain"
//                            (gemm.mlir's 128 x 256, persistent), "cluster"
//                            (gemm-cluster.mlir: the same in 2-CTA clusters
//                            sharing B by TMA multicast), "cluster2"
//                            (gemm.mlir's CLUSTER=2 configuration), "mma" (gemm-sm80
//                            built for sm_90), "mma80" (built for sm_80), a
//                            cubin name beside the program (persistent when
//                            it starts with "p-"), "name@64" / "name@128" /
//                            "name@192" for a variant of the 128 x 64 /
//                            128 x 128 / 128 x 192 kernel
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
  TileGemm gemm = variant == "mma"       ? mmaSyncGemm()
                  : variant == "mma80"   ? mmaSyncGemm(/*sm80=*/true)
                  : variant == "plain"   ? hopperGemm(device)
                  : variant == "cluster" ? hopperCluster(device)
                  : variant == "cluster2" ? hopperFamilyCluster()
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

namespace {
/// One line per shape: the tuned configuration of `variant` against cuBLAS
/// (C of the variant's type), then the geometric mean and the worst ratio.
int benchTuned(const std::vector<rt::ProblemShape> &shapes,
               const char *variant, const rt::ParamValues &fixed,
               bool bf16Out) {
  CublasGemm cublas;
  TileGemm gemm = bf16Out ? tunedGemm<rt::bf16>(fixed) : tunedGemm(fixed);
  std::printf("%s against cuBLAS (C %s):\n", variant,
              bf16Out ? "bf16" : "fp32");
  std::printf("%6s %6s %6s  %-30s %9s %9s %6s  %s\n", "M", "N", "K", "shape",
              "TF/s", "cuBLAS", "ratio", "configuration");
  double logSum = 0, worst = 1e30;
  const rt::ProblemShape *worstShape = nullptr;
  int measured = 0, untaken = 0;
  for (const rt::ProblemShape &s : shapes) {
    int64_t m = s.sizes[0], n = s.sizes[1], k = s.sizes[2];
    BenchOperands ops(m, n, k);
    rt::DeviceBuffer bias(size_t(n) * 2);
    bias.upload(toBf16(randomFloats(n)));
    GemmEpilogue epilogue;
    for (const rt::ParamValue &v : fixed)
      if (v.name == "BIAS" && v.value == "1")
        epilogue.bias = bias.ptr();
    try {
      gemm.bind(ops.a.ptr(), ops.b.ptr(), ops.c.ptr(), m, n, k, epilogue);
    } catch (const rt::Error &error) {
      // No configuration can take it (TMA needs rows of a multiple of 16
      // bytes): said, counted, and the next shape measured.
      std::string why = error.what();
      std::printf("%6lld %6lld %6lld  %-30.30s no configuration takes it: "
                  "%s\n",
                  (long long)m, (long long)n, (long long)k, s.what.c_str(),
                  why.substr(why.rfind('\n') + 1).c_str());
      ++untaken;
      continue;
    }
    ++measured;
    cudaDataType out = bf16Out ? CUDA_R_16BF : CUDA_R_32F;
    int64_t cube = int64_t(std::cbrt(double(m) * n * k));
    std::vector<float> ms = interleavedMedianMs(
        {[&] { gemm.launch(); },
         [&] { cublas.run(ops.a.ptr(), ops.b.ptr(), ops.c.ptr(), m, n, k, out); }},
        benchIterations(cube));
    double ratio = ms[1] / ms[0];
    logSum += std::log(ratio);
    if (ratio < worst) {
      worst = ratio;
      worstShape = &s;
    }
    std::string config;
    for (const auto &[name, value] : gemm.kernelInfo().config)
      if (name == "BM" || name == "BN" || name == "STAGES" ||
          name == "PINGPONG" || name == "TMASTORE" ||
          name == "SPLITK" || name == "CLUSTER")
        config += (config.empty() ? "" : ",") + name + "=" +
                  std::to_string(value);
    std::printf("%6lld %6lld %6lld  %-30.30s %9.1f %9.1f %6.2f  %s\n",
                (long long)m, (long long)n, (long long)k, s.what.c_str(),
                tflops(m, n, k, ms[0]), tflops(m, n, k, ms[1]), ratio,
                config.c_str());
    std::fflush(stdout);
  }
  if (measured > 1)
    std::printf("%s: geometric mean of the ratios %.3f over %d shapes; "
                "worst %.3f (%lld x %lld x %lld, %s)%s\n",
                variant, std::exp(logSum / double(measured)), measured, worst,
                (long long)worstShape->sizes[0],
                (long long)worstShape->sizes[1],
                (long long)worstShape->sizes[2], worstShape->what.c_str(),
                untaken ? "; some shapes no configuration takes" : "");
  return untaken ? 1 : 0;
}
} // namespace

int main(int argc, char **argv) {
  requireGpu("gemm-bench");
  try {
    rt::Device device = rt::Device::open();
    std::vector<std::string> args(argv + 1, argv + argc);
    bool linear = !args.empty() && args[0] == "--linear";
    if (linear)
      args.erase(args.begin());
    std::string source = std::string(GEMM_TUNING_DIR) +
                         (linear ? "/linear-shapes.txt" : "/tune-shapes.txt");
    if (args.size() == 2 && args[0] == "--shapes") {
      source = args[1];
      args.clear();
    }
    if (!linear && args.size() == 2 && std::atoll(args[0].c_str()) > 0 &&
        std::atoll(args[1].c_str()) <= 0)
      return benchVariant(device, std::atoll(args[0].c_str()), args[1]);
    if (!linear && (args.size() == 1 || args.size() == 3)) {
      source = args[0] + "x" + (args.size() == 3 ? args[1] : args[0]) + "x" +
               (args.size() == 3 ? args[2] : args[0]);
      args.clear();
    }
    if (!args.empty()) {
      std::fprintf(stderr, "usage: gemm-bench [--linear] [--shapes FILE|"
                           "MxNxK,...] | M [N K] | S VARIANT\n");
      return 2;
    }
    std::vector<rt::ProblemShape> shapes = rt::loadProblemShapes(source, 3);
    std::printf("gemm-bench on %s (%d SMs): C = A B^T, bf16 in; gemm.mlir's "
                "family through its tuning table\n",
                device.name().c_str(), device.smCount());
    if (!linear)
      return benchTuned(shapes, "plain product", {}, false);
    int bias = benchTuned(shapes, "linear layer (bias)",
                          {{"BIAS", 1}, {"GELU", 0}, {"RESIDUAL", 0}}, true);
    int gelu = benchTuned(shapes, "linear layer (bias, GELU)",
                          {{"BIAS", 1}, {"GELU", 1}, {"RESIDUAL", 0}}, true);
    return bias | gelu;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "gemm-bench: %s\n", error.what());
    return 1;
  }
}
