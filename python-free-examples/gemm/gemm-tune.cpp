//===- gemm-tune.cpp - every configuration of the GEMM family, by shape ---===//
//
// The measuring half of tuning ahead of time: for each shape, every
// configuration of gemm.mlir's family with an fp32 C and no epilogue (the
// plain product) is run once and checked against cuBLAS on the same random
// data (relative Frobenius error; a configuration that cannot take the
// shape, e.g. TMA stores on rows that are not 16-byte multiples, or that is
// wrong, is dropped for it), then the survivors and cuBLAS are timed
// interleaved over three rounds (medians). It writes a tuning table a
// reviewer can read in a diff (one line per shape: chip, SMs, shape, the
// fastest configuration, its time and cuBLAS's) and an SVG plot of the
// best ratio to cuBLAS by shape.
//
//   gemm-tune [--table FILE] [--svg FILE] [--shapes MxNxK,...]
//
// Without --shapes: the 58 shapes of tuneShapes() below. Exits 77 without
// a GPU. What it does not do yet (the tuning issue): compile configurations
// itself, tune other families, fit a rule for shapes between the table's,
// or feed the launcher's dispatch.
//
//===----------------------------------------------------------------------===//

#include "GemmBench.h"
#include "gemm_launcher.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

using namespace tile;
using namespace tile::examples;

namespace {

struct Shape {
  int64_t m, n, k;
  std::string what;
};

/// The shapes tuned by default: squares (powers of two and ragged), the
/// linear layers of GPT-2 small / medium / XL and LLaMA-7B at 1k-8k tokens,
/// skinny M, short and long K.
std::vector<Shape> tuneShapes() {
  std::vector<Shape> shapes;
  for (int64_t s : {512, 1024, 1536, 2048, 3000, 4096, 5000, 6144, 8192})
    shapes.push_back({s, s, s, "square"});
  struct Model {
    const char *name;
    int64_t d;
  };
  for (Model model : {Model{"gpt2", 768}, Model{"gpt2-medium", 1024},
                      Model{"gpt2-xl", 1600}})
    for (int64_t tokens : {1024, 4096, 8192}) {
      int64_t d = model.d;
      std::string at = std::string(model.name) + " " +
                       std::to_string(tokens) + " tokens ";
      shapes.push_back({tokens, 3 * d, d, at + "qkv"});
      shapes.push_back({tokens, d, d, at + "attn out"});
      shapes.push_back({tokens, 4 * d, d, at + "mlp up"});
      shapes.push_back({tokens, d, 4 * d, at + "mlp down"});
    }
  for (int64_t tokens : {2048, 8192}) {
    std::string at = "llama-7b " + std::to_string(tokens) + " tokens ";
    shapes.push_back({tokens, 4096, 4096, at + "attn"});
    shapes.push_back({tokens, 11008, 4096, at + "mlp up"});
    shapes.push_back({tokens, 4096, 11008, at + "mlp down"});
  }
  for (int64_t m : {16, 64, 128, 256, 512})
    shapes.push_back({m, 8192, 8192, "skinny M"});
  shapes.push_back({8192, 8192, 256, "short K"});
  shapes.push_back({1024, 1024, 16384, "long K"});
  return shapes;
}

bool parseShapes(const char *text, std::vector<Shape> &shapes) {
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    long long m = 0, n = 0, k = 0;
    if (std::sscanf(item.c_str(), "%lldx%lldx%lld", &m, &n, &k) != 3 ||
        m <= 0 || n <= 0 || k <= 0)
      return false;
    shapes.push_back({m, n, k, "given"});
  }
  return !shapes.empty();
}

double relFrobenius(const std::vector<float> &got,
                    const std::vector<float> &want) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double d = double(got[i]) - want[i];
    diff += d * d;
    norm += double(want[i]) * want[i];
  }
  return std::sqrt(diff / std::max(norm, 1e-30));
}

/// The plain-product configurations: fp32 C, no bias, residual or GELU.
std::vector<std::size_t> plainConfigs() {
  std::vector<std::size_t> configs;
  for (std::size_t i = 0; i < gemm_kernels::gemm_bf16_config_count; ++i) {
    const auto &c = gemm_kernels::gemm_bf16_configs[i];
    if (std::strcmp(c.OUT, "f32") == 0 && !c.BIAS && !c.GELU && !c.RESIDUAL)
      configs.push_back(i);
  }
  return configs;
}

struct Row {
  Shape shape;
  std::string best;
  float bestUs = 0, cublasUs = 0;
  int tried = 0, dropped = 0;
};

void writeSvg(const std::string &path, const std::vector<Row> &rows,
              const std::string &device) {
  const int barW = 14, height = 320, top = 40, base = 260;
  int width = 60 + int(rows.size()) * barW;
  std::ofstream svg(path);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"" << height << "\" font-family=\"sans-serif\" "
      << "font-size=\"10\">\n";
  svg << "<text x=\"10\" y=\"20\" font-size=\"13\">gemm.mlir's best "
         "configuration / cuBLAS by shape (" << device << ")</text>\n";
  auto y = [&](double ratio) {
    return base - (base - top) * std::min(ratio, 1.5) / 1.5;
  };
  for (double r : {0.5, 1.0, 1.5}) {
    svg << "<line x1=\"50\" x2=\"" << width << "\" y1=\"" << y(r)
        << "\" y2=\"" << y(r) << "\" stroke=\""
        << (r == 1.0 ? "#000" : "#ccc") << "\"/>\n";
    svg << "<text x=\"10\" y=\"" << y(r) + 3 << "\">" << r << "x</text>\n";
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    double ratio = rows[i].bestUs > 0 ? rows[i].cublasUs / rows[i].bestUs : 0;
    int x = 55 + int(i) * barW;
    svg << "<rect x=\"" << x << "\" y=\"" << y(ratio) << "\" width=\""
        << barW - 3 << "\" height=\"" << base - y(ratio) << "\" fill=\""
        << (ratio >= 1.0 ? "#2a7" : ratio >= 0.9 ? "#db3" : "#c33")
        << "\"><title>" << rows[i].shape.m << "x" << rows[i].shape.n << "x"
        << rows[i].shape.k << " " << rows[i].shape.what << ": " << ratio
        << "</title></rect>\n";
  }
  svg << "<text x=\"55\" y=\"" << base + 20 << "\">shapes in table order "
      << "(hover for each); green >= 1.0x, yellow >= 0.9x</text>\n";
  svg << "</svg>\n";
}

} // namespace

int main(int argc, char **argv) {
  requireGpu("gemm-tune");
  std::string tablePath = "gemm-tune.txt", svgPath = "gemm-tune.svg";
  std::vector<Shape> shapes;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--table" && i + 1 < argc)
      tablePath = argv[++i];
    else if (arg == "--svg" && i + 1 < argc)
      svgPath = argv[++i];
    else if (arg == "--shapes" && i + 1 < argc) {
      if (!parseShapes(argv[++i], shapes)) {
        std::fprintf(stderr, "gemm-tune: --shapes takes MxNxK,... with "
                             "positive sizes\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: gemm-tune [--table FILE] [--svg FILE] "
                           "[--shapes MxNxK,...]\n");
      return 2;
    }
  }
  if (shapes.empty())
    shapes = tuneShapes();
  try {
    rt::Device device = rt::Device::open();
    int sms = device.smCount();
    std::vector<std::size_t> configs = plainConfigs();
    CublasGemm cublas;
    std::vector<Row> rows;
    rt::Timer wall;
    for (size_t s = 0; s < shapes.size(); ++s) {
      const Shape &shape = shapes[s];
      int64_t m = shape.m, n = shape.n, k = shape.k;
      BenchOperands ops(m, n, k);
      rt::DeviceBuffer ref(size_t(m) * n * 4);
      cublas.run(ops.a.ptr(), ops.b.ptr(), ref.ptr(), m, n, k);
      std::vector<float> want(size_t(m) * n), got(size_t(m) * n);
      ref.download(want);
      auto a = rt::MemRef<rt::bf16, 2>::rowMajor(ops.a.ptr(), {m, k});
      auto b = rt::MemRef<rt::bf16, 2>::rowMajor(ops.b.ptr(), {n, k});
      auto c = rt::MemRef<float, 2>::rowMajor(ops.c.ptr(), {m, n});
      auto noBias = rt::MemRef<rt::bf16, 1>::rowMajor(0, {0});
      auto noResidual = rt::MemRef<rt::bf16, 2>::rowMajor(0, {0, n});
      Row row{shape, "", 0, 0, 0, 0};
      std::vector<rt::BoundLaunch> survivors;
      std::vector<std::string> names;
      for (std::size_t i : configs) {
        ++row.tried;
        try {
          rt::BoundLaunch launch =
              gemm_kernels::gemm_bf16(i, a, b, c, noBias, noResidual);
          ops.c.fillWords(0x7fc00001);
          launch.launch();
          ops.c.download(got);
          double error = relFrobenius(got, want);
          if (!(error < 1e-2)) {
            ++row.dropped;
            std::printf("  %s: wrong (rel. Frobenius error %.2e), dropped\n",
                        gemm_kernels::gemm_bf16_configs[i].kernel, error);
            continue;
          }
          survivors.push_back(std::move(launch));
          names.push_back(gemm_kernels::gemm_bf16_configs[i].kernel);
        } catch (const rt::Error &e) {
          ++row.dropped; // cannot take the shape (e.g. TMA row alignment)
        }
      }
      std::vector<std::function<void()>> contenders;
      for (rt::BoundLaunch &launch : survivors)
        contenders.push_back([&launch] { launch.launch(); });
      contenders.push_back(
          [&] { cublas.run(ops.a.ptr(), ops.b.ptr(), ops.c.ptr(), m, n, k); });
      double flops = 2.0 * m * n * k;
      int iters = flops > 5e11 ? 10 : flops > 5e10 ? 30 : 100;
      std::vector<float> ms = interleavedMedianMs(contenders, iters);
      row.cublasUs = ms.back() * 1000;
      for (size_t i = 0; i < survivors.size(); ++i)
        if (row.best.empty() || ms[i] * 1000 < row.bestUs) {
          row.best = names[i];
          row.bestUs = ms[i] * 1000;
        }
      std::printf("[%zu/%zu] %lldx%lldx%lld %s: %s %.1f us, cuBLAS %.1f us, "
                  "ratio %.2f (%d of %d configurations timed)\n",
                  s + 1, shapes.size(), (long long)m, (long long)n,
                  (long long)k, shape.what.c_str(),
                  row.best.empty() ? "none" : row.best.c_str(), row.bestUs,
                  row.cublasUs,
                  row.bestUs > 0 ? row.cublasUs / row.bestUs : 0.0,
                  row.tried - row.dropped, row.tried);
      std::fflush(stdout);
      rows.push_back(row);
    }

    char date[16] = "";
    std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
    std::ofstream table(tablePath);
    table << "# gemm-tune: gemm.mlir's plain-product configurations against "
             "cuBLAS (cublasGemmEx,\n# bf16 in, fp32 out), interleaved, "
             "medians of three rounds.\n# device: " << device.name()
          << ", " << sms << " SMs; date: " << date << "\n"
          << "# kernel chip sms M N K configuration time_us cublas_us "
             "ratio  # shape\n";
    double logSum = 0;
    int counted = 0;
    float worst = 1e9f;
    for (const Row &row : rows) {
      float ratio = row.bestUs > 0 ? row.cublasUs / row.bestUs : 0;
      char line[512];
      std::snprintf(line, sizeof(line),
                    "gemm_bf16 sm_90a %d %lld %lld %lld %s %.1f %.1f %.3f  # %s\n",
                    sms, (long long)row.shape.m, (long long)row.shape.n,
                    (long long)row.shape.k,
                    row.best.empty() ? "-" : row.best.c_str(), row.bestUs,
                    row.cublasUs, ratio, row.shape.what.c_str());
      table << line;
      if (ratio > 0) {
        logSum += std::log(ratio);
        ++counted;
        worst = std::min(worst, ratio);
      }
    }
    double geomean = counted ? std::exp(logSum / counted) : 0;
    table << "# geometric mean " << geomean << " of cuBLAS over " << counted
          << " shapes, worst " << worst << "\n";
    writeSvg(svgPath, rows, device.name());
    std::printf("gemm-tune: %zu shapes; best of the family / cuBLAS: "
                "geometric mean %.3f, worst %.3f; table %s, plot %s\n",
                rows.size(), geomean, worst, tablePath.c_str(),
                svgPath.c_str());
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gemm-tune: %s\n", e.what());
    return 1;
  }
}
