//===- GemmCheck.h - a GEMM kernel against a CPU reference ------*- C++ -*-===//
//
// gemm-check's sweep, for any TileGemm: for each shape fresh random inputs,
// the output poisoned with NaN, then the relative Frobenius error against a
// float64 CPU product of the same (rounded) inputs, one line per shape.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GEMM_GEMMCHECK_H
#define TILE_EXAMPLES_GEMM_GEMMCHECK_H

#include "GemmHost.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <thread>

namespace tile::examples {

/// How a kernel takes and gives its operands, and the error it may make.
struct GemmCheckSpec {
  bool f32Inputs = false;  // otherwise bf16
  bool bf16Output = false; // otherwise fp32
  double tolerance = 1e-4;
  bool aKM = false, bKN = false; // A stored K x M, B stored K x N
  bool cTma = false;             // C stored by TMA: 16-byte rows of C
  // gemm.mlir's epilogue, applied in this order: + bias[n], GELU (tanh
  // form), + R[m, n] (bias and R bf16, random).
  bool bias = false, gelu = false, residual = false;
};

/// Squares, sizes that are not multiples of the tile in M, N or K, thin and
/// tall.
inline std::vector<GemmShape> gemmCheckShapes() {
  return {
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
}

namespace detail {
// Rows `rows` of C = A B^T in float64 on every CPU core, row after row.
inline std::vector<double> reference(const std::vector<float> &a,
                                     const std::vector<float> &b,
                                     const std::vector<int64_t> &rows,
                                     int64_t n, int64_t k) {
  std::vector<double> c(rows.size() * n);
  unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (size_t r = w; r < rows.size(); r += workers)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          const float *x = &a[rows[r] * k], *y = &b[j * k];
          for (int64_t l = 0; l < k; ++l)
            sum += double(x[l]) * double(y[l]);
          c[r * n + j] = sum;
        }
    });
  for (std::thread &t : threads)
    t.join();
  return c;
}

// The rows the reference checks: all of them, or for a product too large
// to multiply on the CPU in seconds (over 2^33 multiply-adds) one random
// row in each band of 64, so that every tile of rows is checked across all
// columns. The rows' seed is printed with the result.
inline uint64_t rowSeed() {
  static const uint64_t seed = std::random_device{}();
  return seed;
}
inline std::vector<int64_t> checkedRows(int64_t m, int64_t n, int64_t k) {
  std::vector<int64_t> rows;
  bool all = double(m) * n * k <= double(int64_t(1) << 33);
  static std::mt19937_64 rng(rowSeed());
  for (int64_t band = 0; band < m; band += all ? 1 : 64)
    rows.push_back(all ? band
                       : band + int64_t(rng() % uint64_t(std::min<int64_t>(
                                                     64, m - band))));
  return rows;
}

// `logical` (rows x cols, row-major) stored transposed when `transpose`.
inline std::vector<float> storage(const std::vector<float> &logical,
                                  int64_t rows, int64_t cols, bool transpose) {
  if (!transpose)
    return logical;
  std::vector<float> out(logical.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[c * rows + r] = logical[r * cols + c];
  return out;
}

// Device copy of `values` in the kernel's input type; `values` is rounded
// to what the device sees so that the reference multiplies the same numbers.
inline rt::DeviceBuffer upload(std::vector<float> &values, bool f32) {
  if (f32) {
    rt::DeviceBuffer buffer(values.size() * 4);
    buffer.upload(values);
    return buffer;
  }
  std::vector<uint16_t> bits = toBf16(values);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = rt::bf16ToFloat(bits[i]);
  rt::DeviceBuffer buffer(bits.size() * 2);
  buffer.upload(bits);
  return buffer;
}
} // namespace detail

/// Runs `gemm` on shape `s` and prints its line; false when it failed.
/// `showValues`: a failure prints C's first elements and the expected ones.
inline bool checkGemm(TileGemm &gemm, const GemmCheckSpec &v,
                      const GemmShape &s, bool showValues = false) {
  // TMA needs 16-byte global rows: M or N % 8 for K x M / K x N,
  // N % 4 for an fp32 C stored by TMA, N % 8 for bf16.
  if ((v.aKM && s.m % 8) || (v.bKN && s.n % 8) ||
      (v.cTma && s.n % (v.bf16Output ? 8 : 4))) {
    std::printf("  M=%-5lld N=%-5lld K=%-5lld %-22s skipped (TMA needs "
                "16-byte rows)\n",
                (long long)s.m, (long long)s.n, (long long)s.k, s.what);
    return true;
  }
  std::vector<float> a = randomFloats(s.m * s.k);
  std::vector<float> b = randomFloats(s.n * s.k);
  std::vector<float> aStored = detail::storage(a, s.m, s.k, v.aKM);
  std::vector<float> bStored = detail::storage(b, s.n, s.k, v.bKN);
  rt::DeviceBuffer da = detail::upload(aStored, v.f32Inputs);
  rt::DeviceBuffer db = detail::upload(bStored, v.f32Inputs);
  // The reference multiplies what the device sees (rounded).
  a = detail::storage(aStored, s.k, s.m, v.aKM);
  b = detail::storage(bStored, s.k, s.n, v.bKN);
  // The epilogue's operands, rounded to bf16 as the device sees them.
  std::vector<float> bias, residual;
  std::optional<rt::DeviceBuffer> dbias, dresidual;
  GemmEpilogue epilogue;
  if (v.bias) {
    bias = randomFloats(s.n);
    dbias.emplace(detail::upload(bias, false));
    epilogue.bias = dbias->ptr();
  }
  if (v.residual) {
    residual = randomFloats(s.m * s.n);
    dresidual.emplace(detail::upload(residual, false));
    epilogue.residual = dresidual->ptr();
  }
  size_t outBytes = size_t(s.m) * s.n * (v.bf16Output ? 2 : 4);
  rt::DeviceBuffer dc(outBytes);
  poison(dc);
  gemm.bind(da.ptr(), db.ptr(), dc.ptr(), s.m, s.n, s.k, epilogue);
  gemm.launch();
  rt::synchronize();
  std::vector<float> c(size_t(s.m) * s.n);
  if (v.bf16Output)
    c = dc.downloadBf16(c.size());
  else
    dc.download(c);
  std::vector<int64_t> rows = detail::checkedRows(s.m, s.n, s.k);
  std::vector<double> ref = detail::reference(a, b, rows, s.n, s.k);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int64_t j = 0; j < s.n; ++j) {
      double &y = ref[r * s.n + j];
      if (v.bias)
        y += bias[j];
      if (v.gelu)
        y = 0.5 * y *
            (1 + std::tanh(0.7978845608028654 * (y + 0.044715 * y * y * y)));
      if (v.residual)
        y += residual[rows[r] * s.n + j];
    }
  double num = 0, den = 0;
  size_t bad = 0;
  for (float x : c)
    bad += !std::isfinite(x);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int64_t j = 0; j < s.n; ++j) {
      double want = ref[r * s.n + j];
      double d = double(c[rows[r] * s.n + j]) - want;
      num += d * d;
      den += want * want;
    }
  double err = std::sqrt(num / std::max(den, 1e-300));
  bool pass = bad == 0 && err < v.tolerance;
  if (!pass && showValues) {
    for (int64_t j = 0; j < std::min<int64_t>(s.n, 4); ++j)
      std::printf("    C[%lld][%lld] = %g, expected %g\n",
                  (long long)rows[0], (long long)j, c[rows[0] * s.n + j],
                  ref[j]);
  }
  std::string sampled =
      rows.size() < size_t(s.m)
          ? " (one row in 64, rows seed " + std::to_string(detail::rowSeed()) +
                ")"
          : "";
  std::printf("  M=%-5lld N=%-5lld K=%-5lld %-22s rel. Frobenius error "
              "%.2e%s%s %s\n",
              (long long)s.m, (long long)s.n, (long long)s.k, s.what, err,
              sampled.c_str(),
              bad ? " (unwritten/NaN elements)" : "", pass ? "ok" : "FAILED");
  return pass;
}

/// checkGemm on every shape (all of them, even after a failure); true when
/// all passed.
inline bool checkGemmShapes(TileGemm &gemm, const GemmCheckSpec &v,
                            const std::vector<GemmShape> &shapes,
                            bool showValues = false) {
  bool ok = true;
  for (const GemmShape &s : shapes)
    ok &= checkGemm(gemm, v, s, showValues);
  return ok;
}

} // namespace tile::examples

#endif // TILE_EXAMPLES_GEMM_GEMMCHECK_H
