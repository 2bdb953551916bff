//===- gemm-check.cpp - gemm.mlir against a CPU reference -----------------===//
//
// For many shapes (squares, sizes that are not multiples of the 128 x 256 x
// 64 tile in M, N or K, thin and tall): fresh random bf16 inputs, output
// poisoned with NaN, then the relative Frobenius error against a float64
// CPU product. Exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#include "GemmHost.h"

#include <cmath>
#include <thread>

using namespace tile;
using namespace tile::examples;

// C = A B^T in float64 on every CPU core.
static std::vector<double> reference(const std::vector<float> &a,
                                     const std::vector<float> &b, int64_t m,
                                     int64_t n, int64_t k) {
  std::vector<double> c(m * n);
  unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (int64_t i = w; i < m; i += workers)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          const float *x = &a[i * k], *y = &b[j * k];
          for (int64_t l = 0; l < k; ++l)
            sum += double(x[l]) * double(y[l]);
          c[i * n + j] = sum;
        }
    });
  for (std::thread &t : threads)
    t.join();
  return c;
}

int main() {
  requireGpu("gemm-check");
  try {
    rt::Device device = rt::Device::open();
    bool ok = true;
    for (int which = 0; which < 2; ++which) {
      TileGemm gemm = which == 0 ? TileGemm::hopper() : TileGemm::mmaSync();
      std::printf("gemm-check on %s: %s\n", device.name().c_str(),
                  which == 0 ? "gemm.mlir (sm_90a: TMA, mbarriers, wgmma)"
                             : "gemm-sm80.mlir built for sm_90 (cp.async, "
                               "ldmatrix, mma.sync)");
      struct Shape {
        int64_t m, n, k;
        const char *what;
      };
      const Shape shapes[] = {
          {128, 256, 64, "one tile"},
          {256, 256, 256, "square"},
          {1024, 1024, 1024, "square"},
          {2048, 2048, 512, "square-ish"},
          {200, 300, 72, "M, N, K all ragged"},
          {1000, 1000, 1000, "ragged square"},
          {129, 257, 136, "one past the tile"},
          {127, 255, 56, "one short of the tile"},
          {4096, 24, 512, "tall and thin"},
          {24, 4096, 512, "short and wide"},
          {64, 64, 4096, "long K"},
          {8, 8, 8, "tiny"},
      };
      for (const Shape &s : shapes) {
        // Quantise to bf16 once so the reference sees the kernel's inputs.
        std::vector<float> a = randomFloats(s.m * s.k),
                           b = randomFloats(s.n * s.k);
        std::vector<uint16_t> a16 = toBf16(a), b16 = toBf16(b);
        for (size_t i = 0; i < a.size(); ++i)
          a[i] = rt::bf16ToFloat(a16[i]);
        for (size_t i = 0; i < b.size(); ++i)
          b[i] = rt::bf16ToFloat(b16[i]);
        rt::DeviceBuffer da(a16.size() * 2), db(b16.size() * 2),
            dc(size_t(s.m) * s.n * 4);
        da.upload(a16);
        db.upload(b16);
        poison(dc);
        gemm.bind(da.ptr(), db.ptr(), dc.ptr(), s.m, s.n, s.k);
        gemm.launch();
        rt::synchronize();
        std::vector<float> c(size_t(s.m) * s.n);
        dc.download(c);
        std::vector<double> ref = reference(a, b, s.m, s.n, s.k);
        double num = 0, den = 0;
        size_t bad = 0;
        for (size_t i = 0; i < c.size(); ++i) {
          if (!std::isfinite(c[i]))
            ++bad;
          double d = double(c[i]) - ref[i];
          num += d * d;
          den += ref[i] * ref[i];
        }
        double err = std::sqrt(num / std::max(den, 1e-300));
        bool pass = bad == 0 && err < 1e-4;
        std::printf("  M=%-5lld N=%-5lld K=%-5lld %-22s rel. Frobenius error "
                    "%.2e%s %s\n",
                    (long long)s.m, (long long)s.n, (long long)s.k, s.what, err,
                    bad ? " (unwritten/NaN elements)" : "",
                    pass ? "ok" : "FAILED");
        ok &= pass;
      }
    }
    std::printf("%s\n",
                ok ? "gemm-check: all shapes passed" : "gemm-check: FAILED");
    return ok ? 0 : 1;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "gemm-check: %s\n", error.what());
    return 1;
  }
}
