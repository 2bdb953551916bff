//===- GemmBench.h - timing GEMM kernels next to cuBLAS ---------*- C++ -*-===//
//
// gemm-bench's way of comparing: cuBLAS's cublasGemmEx (bf16 inputs, fp32
// compute and output, the same C = A B^T) on the same random data as the
// tile kernels, all contenders interleaved over three rounds, medians
// compared. Needs cuBLAS (link cublas and cudart).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_GEMMBENCH_H
#define TILE_EXAMPLES_GEMM_GEMMBENCH_H

#include "GemmHost.h"

#include <algorithm>
#include <cublas_v2.h>
#include <functional>

namespace tile::examples {

inline void checkCublas(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw rt::Error(std::string(call) +
                    " failed: " + cublasGetStatusName(status));
}

/// cuBLAS's C = A B^T for row-major bf16 A (M x K), B (N x K), fp32 C.
class CublasGemm {
public:
  CublasGemm() { checkCublas(cublasCreate(&handle), "cublasCreate"); }
  ~CublasGemm() { cublasDestroy(handle); }
  CublasGemm(const CublasGemm &) = delete;
  CublasGemm &operator=(const CublasGemm &) = delete;

  /// Runs the next products on `stream` (the default stream until set).
  void setStream(cudaStream_t stream) {
    checkCublas(cublasSetStream(handle, stream), "cublasSetStream");
  }

  /// C is fp32, or `outType` (CUDA_R_16BF: bf16, rounded from fp32).
  void run(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t m, int64_t n,
           int64_t k, cudaDataType outType = CUDA_R_32F) {
    float alpha = 1, beta = 0;
    // Row-major C = A B^T is column-major C^T = B^T(op T on B's KxN) A.
    checkCublas(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(m),
                             int(k), &alpha, (void *)b, CUDA_R_16BF, int(k),
                             (void *)a, CUDA_R_16BF, int(k), &beta, (void *)c,
                             outType, int(n), CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
  }

private:
  cublasHandle_t handle;
};

/// A (M x K) and B (N x K) of random bf16 values, and room for an fp32 C.
struct BenchOperands {
  BenchOperands(int64_t m, int64_t n, int64_t k)
      : a(size_t(m) * k * 2), b(size_t(n) * k * 2), c(size_t(m) * n * 4) {
    a.upload(toBf16(randomFloats(m * k)));
    b.upload(toBf16(randomFloats(n * k)));
  }
  rt::DeviceBuffer a, b, c;
};

/// Timed calls per measurement for an s x s x s product.
inline int benchIterations(int64_t s) { return s >= 8192 ? 10 : 30; }

/// The median milliseconds per call of each contender, measured in turn
/// (3 warm-up calls, then `iters` timed) over three rounds
/// (rt::interleavedMedianMs).
inline std::vector<float>
interleavedMedianMs(const std::vector<std::function<void()>> &contenders,
                    int iters) {
  return rt::interleavedMedianMs(contenders, 3, iters);
}

/// TFLOP/s of an M x N x K product taking `ms` milliseconds.
inline double tflops(int64_t m, int64_t n, int64_t k, float ms) {
  return 2.0 * m * n * k / (ms * 1e9);
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_GEMMBENCH_H
