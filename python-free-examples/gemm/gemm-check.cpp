//===- gemm-check.cpp - the GEMM kernels against a CPU reference ----------===//
//
// For many shapes (squares, sizes that are not multiples of the tile in M, N
// or K, thin and tall) and every GEMM kernel shipped: fresh random inputs,
// output poisoned with NaN, then the relative Frobenius error against a
// float64 CPU product of the same (rounded) inputs. Exits non-zero on any
// failure.
//
//===----------------------------------------------------------------------===//

#include "GemmHost.h"

#include <cmath>
#include <cstring>
#include <functional>
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

namespace {
struct Variant {
  const char *label;
  std::function<TileGemm()> make;
  bool f32Inputs; // otherwise bf16
  bool bf16Output; // otherwise fp32
  double tolerance;
  bool aKM = false, bKN = false; // A stored K x M, B stored K x N
  bool cTma = false; // C stored by TMA: N % 4 == 0 (16-byte rows)
};

// `logical` (rows x cols, row-major) stored transposed when `transpose`.
std::vector<float> storage(const std::vector<float> &logical, int64_t rows,
                           int64_t cols, bool transpose) {
  if (!transpose)
    return logical;
  std::vector<float> out(logical.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[c * rows + r] = logical[r * cols + c];
  return out;
}

// Device copy of `values` in the variant's input type; `values` is rounded
// to what the device sees so that the reference multiplies the same numbers.
rt::DeviceBuffer upload(std::vector<float> &values, bool f32) {
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
} // namespace

int main(int argc, char **argv) {
  requireGpu("gemm-check");
  // gemm-check [label-substring [M N K]]: only the matching kernels, and
  // only that shape.
  const char *only = argc > 1 ? argv[1] : nullptr;
  try {
    rt::Device device = rt::Device::open();
    auto variant = [](const char *name, bool aKM = false, bool bKN = false) {
      return [=] {
        return TileGemm(kernelFile(GEMM_VARIANTS_KERNEL_CUBIN),
                        kernelFile(GEMM_VARIANTS_KERNEL_KINFO), name, 128, 256,
                        aKM, bKN);
      };
    };
    const Variant variants[] = {
        {"gemm.mlir (sm_90a: TMA, mbarriers, wgmma; bf16 -> fp32)",
         [&] { return TileGemm::hopper(device); }, false, false, 1e-4},
        {"gemm-128x128.mlir (128 x 128 tiles, 5 stages)",
         [&] { return TileGemm::hopper(device, "", 128); }, false, false, 1e-4},
        {"gemm-128x192.mlir (128 x 192 tiles, 5 stages)",
         [&] { return TileGemm::hopper(device, "", 192); }, false, false, 1e-4},
        {"gemm-tma-store.mlir (epilogue through shared memory and TMA stores)",
         [&] { return TileGemm::hopperTmaStore(device); }, false, false, 1e-4,
         false, false, /*cTma=*/true},
        {"gemm-cluster.mlir (clusters of 2 CTAs, B by TMA multicast)",
         [&] { return TileGemm::hopperCluster(device); }, false, false, 1e-4},
        {"gemm-pingpong.mlir (64 x 256 tiles, ping-pong consumer teams)",
         [&] { return TileGemm::hopperPingpong(device); }, false, false, 1e-4},
        {"gemm-sm80.mlir built for sm_90 (TMA pipeline, ldmatrix, mma.sync)",
         [] { return TileGemm::mmaSync(); }, false, false, 1e-4},
        {"gemm-sm80.mlir built for sm_80, PTX (cp.async pipeline, mma.sync)",
         [] { return TileGemm::mmaSync(/*sm80=*/true); }, false, false, 1e-4},
        {"gemm-variants.mlir @gemm_tf32 (fp32 inputs, tf32 wgmma)",
         variant("gemm_tf32"), true, false, 2e-3},
        {"gemm-variants.mlir @gemm_bf16_out (bf16 -> bf16 epilogue)",
         variant("gemm_bf16_out"), false, true, 1e-2},
        {"gemm-variants.mlir @gemm_nn (A: M x K, B: K x N)",
         variant("gemm_nn", false, true), false, false, 1e-4, false, true},
        {"gemm-variants.mlir @gemm_tn (A: K x M, B: N x K)",
         variant("gemm_tn", true, false), false, false, 1e-4, true, false},
        {"gemm-variants.mlir @gemm_tt (A: K x M, B: K x N)",
         variant("gemm_tt", true, true), false, false, 1e-4, true, true},
        {"gemm-variants.mlir @gemm_rs (A from registers)",
         variant("gemm_rs"), false, false, 1e-4},
        {"gemm-variants.mlir @gemm_bar (each product completes on a barrier)",
         variant("gemm_bar"), false, false, 1e-4},
        {"gemm-variants.mlir @gemm_mma_explicit (mma.sync asked for on sm_90a)",
         variant("gemm_mma_explicit"), false, false, 1e-4},
        {"gemm-variants.mlir @gemm_mma_tt (mma.sync, A: K x M, B: K x N)",
         variant("gemm_mma_tt", true, true), false, false, 1e-4, true, true},
    };
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
    bool ok = true;
    std::vector<Shape> chosen(std::begin(shapes), std::end(shapes));
    if (argc > 4)
      chosen = {{std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]),
                 "from the command line"}};
    for (const Variant &v : variants) {
      if (only && !std::strstr(v.label, only))
        continue;
      TileGemm gemm = v.make();
      std::printf("gemm-check on %s: %s\n", device.name().c_str(), v.label);
      for (const Shape &s : chosen) {
        // TMA needs 16-byte global rows: M or N % 8 for K x M / K x N,
        // N % 4 for an fp32 C stored by TMA.
        if ((v.aKM && s.m % 8) || (v.bKN && s.n % 8) || (v.cTma && s.n % 4)) {
          std::printf("  M=%-5lld N=%-5lld K=%-5lld %-22s skipped (TMA needs "
                      "16-byte rows)\n",
                      (long long)s.m, (long long)s.n, (long long)s.k, s.what);
          continue;
        }
        std::vector<float> a = randomFloats(s.m * s.k);
        std::vector<float> b = randomFloats(s.n * s.k);
        std::vector<float> aStored = storage(a, s.m, s.k, v.aKM);
        std::vector<float> bStored = storage(b, s.n, s.k, v.bKN);
        rt::DeviceBuffer da = upload(aStored, v.f32Inputs);
        rt::DeviceBuffer db = upload(bStored, v.f32Inputs);
        // The reference multiplies what the device sees (rounded).
        a = storage(aStored, s.k, s.m, v.aKM);
        b = storage(bStored, s.k, s.n, v.bKN);
        size_t outBytes = size_t(s.m) * s.n * (v.bf16Output ? 2 : 4);
        rt::DeviceBuffer dc(outBytes);
        poison(dc);
        gemm.bind(da.ptr(), db.ptr(), dc.ptr(), s.m, s.n, s.k);
        gemm.launch();
        rt::synchronize();
        std::vector<float> c(size_t(s.m) * s.n);
        if (v.bf16Output) {
          std::vector<uint16_t> bits(c.size());
          dc.download(bits);
          for (size_t i = 0; i < c.size(); ++i)
            c[i] = rt::bf16ToFloat(bits[i]);
        } else {
          dc.download(c);
        }
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
        bool pass = bad == 0 && err < v.tolerance;
        if (!pass && only) {
          for (int64_t j = 0; j < std::min<int64_t>(s.n, 4); ++j)
            std::printf("    C[0][%lld] = %g, expected %g\n", (long long)j,
                        c[j], ref[j]);
        }
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
