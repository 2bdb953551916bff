//===- Problems.cpp - how tile-tune feeds, checks and compares a family ---===//

#include "Problems.h"

#include "tile/Runtime/Float.h"
#include "tile/Runtime/Runtime.h"

#include <cublas_v2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

using namespace tile;

namespace tile::tune {
namespace {

//===----------------------------------------------------------------------===//
// Problems: how a family is fed, checked and compared
//===----------------------------------------------------------------------===//

void checkCublas(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw rt::Error(std::string(call) + " failed: " +
                    cublasGetStatusName(status));
}

std::vector<float> randomFloats(size_t count, uint64_t seed) {
  std::vector<float> values(count);
  for (float &v : values) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    v = float(int64_t(seed >> 40) % 2001 - 1000) / 1000.0f;
  }
  return values;
}

std::vector<uint16_t> toBf16(const std::vector<float> &values) {
  std::vector<uint16_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    bits[i] = rt::floatToBf16(values[i]);
  return bits;
}

int64_t paramOr(const rt::KernelInfo &kernel, const std::string &name,
                int64_t otherwise) {
  for (const auto &[n, v] : kernel.config)
    if (n == name)
      return v;
  return otherwise;
}


rt::MemRefArg rowMajor(CUdeviceptr p, std::vector<int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * sizes[i];
  return rt::MemRefArg{p, sizes, strides};
}

double relativeError(const std::vector<float> &got,
                     const std::vector<float> &want) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double d = double(got[i]) - want[i];
    diff += d * d;
    norm += double(want[i]) * want[i];
  }
  return std::sqrt(diff / std::max(norm, 1e-30));
}

/// A GEMM family: C[M, N] = epilogue(A[M, K] B[N, K]^T), arguments (A, B,
/// C, bias, R) as gemm.mlir's; the epilogue from the kernel's BIAS, GELU
/// and RESIDUAL parameters, C's type from its description. The reference
/// is cuBLAS's plain product (cublasGemmEx, bf16 in, fp32 compute, C of
/// the kernel's type), against which the candidates are timed; the
/// epilogue is applied to it on the host for the check.
class GemmProblem : public Problem {
public:
  static bool takes(const rt::KernelInfo &kernel) {
    if (!kernel.args || kernel.args->size() != 5)
      return false;
    const std::vector<rt::ArgInfo> &a = *kernel.args;
    unsigned ranks[] = {2, 2, 2, 1, 2};
    for (size_t i = 0; i < 5; ++i)
      if (!a[i].isMemRef || a[i].rank != ranks[i])
        return false;
    return a[0].type == "bf16" && a[1].type == "bf16" && a[3].type == "bf16" &&
           a[4].type == "bf16" && (a[2].type == "f32" || a[2].type == "bf16");
  }

  GemmProblem() { checkCublas(cublasCreate(&handle), "cublasCreate"); }
  ~GemmProblem() override { cublasDestroy(handle); }

  std::string reference() const override {
    return "cublas (cublasGemmEx: bf16 in, fp32 compute, C of the variant's "
           "type; the plain product)";
  }
  std::vector<std::pair<std::string, std::string>> key() const override {
    return {{"M", "dim(0,0)"}, {"N", "dim(1,0)"}, {"K", "dim(0,1)"}};
  }

  /// Operands for M x N x K, and the reference's result for `kernel`'s
  /// epilogue.
  void prepare(const Shape &shape, const rt::KernelInfo &kernel) override {
    m = shape.sizes[0], n = shape.sizes[1], k = shape.sizes[2];
    bf16Out = (*kernel.args)[2].type == "bf16";
    bias_ = paramOr(kernel, "BIAS", 0), gelu = paramOr(kernel, "GELU", 0),
    residual = paramOr(kernel, "RESIDUAL", 0);
    std::vector<uint16_t> aBits = toBf16(randomFloats(size_t(m) * k, 1));
    std::vector<uint16_t> bBits = toBf16(randomFloats(size_t(n) * k, 2));
    biasBits = toBf16(randomFloats(size_t(n), 3));
    // (R only where the kernel reads it: at 16k x 11k it is the slowest
    // part of preparing a shape.)
    rBits = toBf16(randomFloats(residual ? size_t(m) * n : 0, 4));
    a = rt::DeviceBuffer(aBits.size() * 2);
    b = rt::DeviceBuffer(bBits.size() * 2);
    biasBuf = rt::DeviceBuffer(biasBits.size() * 2);
    r = rt::DeviceBuffer(rBits.size() * 2);
    c = rt::DeviceBuffer(size_t(m) * n * 4);
    a.upload(aBits);
    b.upload(bBits);
    biasBuf.upload(biasBits);
    r.upload(rBits);
    runReference(/*fp32=*/true);
    want.resize(size_t(m) * n);
    c.download(want);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float &x = want[size_t(i) * n + j];
        if (bias_)
          x += rt::bf16ToFloat(biasBits[j]);
        if (gelu)
          x = 0.5f * x *
              (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
        if (residual)
          x += rt::bf16ToFloat(rBits[size_t(i) * n + j]);
      }
  }

  rt::BoundLaunch bind(const rt::Module &module,
                       const rt::KernelInfo &kernel) override {
    rt::BoundLaunch launch(module, kernel);
    launch.arg(rowMajor(a.ptr(), {m, k}))
        .arg(rowMajor(b.ptr(), {n, k}))
        .arg(rowMajor(c.ptr(), {m, n}))
        .arg(rowMajor(biasBuf.ptr(), {bias_ ? n : 0}))
        .arg(rowMajor(r.ptr(), {residual ? m : 0, n}))
        .grid();
    return launch;
  }

  /// The error of the result, every element of it up to 4 Mi of them;
  /// above, of 256 rows spread over C, one in each of 256 blocks of M / 256
  /// rows at a place that steps through the block by 37 (odd, so the places
  /// cover every row position of a power-of-two block), and the last row,
  /// each with every column: the download and comparison of a large C for
  /// each candidate would take most of the tuning time.
  double check(rt::BoundLaunch &launch) override {
    c.fillWords(0x7fc00001);
    launch.launch();
    size_t elementBytes = bf16Out ? 2 : 4;
    std::vector<int64_t> rows;
    if (m * n <= (int64_t(1) << 22)) {
      for (int64_t i = 0; i < m; ++i)
        rows.push_back(i);
    } else {
      int64_t block = std::max<int64_t>(1, m / 256);
      for (int64_t i = 0; i < 256; ++i)
        rows.push_back(std::min(m - 1, i * m / 256 + (i * 37) % block));
      rows.push_back(m - 1);
    }
    std::vector<float> got, expected;
    std::vector<uint16_t> bits(bf16Out ? static_cast<size_t>(n) : 0);
    std::vector<float> row(static_cast<size_t>(n));
    for (int64_t i : rows) {
      size_t offset = size_t(i) * size_t(n) * elementBytes;
      if (bf16Out) {
        c.download(bits.data(), bits.size() * 2, offset);
        for (size_t j = 0; j < bits.size(); ++j)
          row[j] = rt::bf16ToFloat(bits[j]);
      } else {
        c.download(row.data(), row.size() * 4, offset);
      }
      got.insert(got.end(), row.begin(), row.end());
      expected.insert(expected.end(), want.begin() + size_t(i) * n,
                      want.begin() + size_t(i + 1) * n);
    }
    return relativeError(got, expected);
  }
  double tolerance() const override { return 1e-2; }

  void runReference() override { runReference(false); }
  void runReference(bool fp32) {
    float alpha = 1, beta = 0;
    cudaDataType out = fp32 || !bf16Out ? CUDA_R_32F : CUDA_R_16BF;
    checkCublas(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(m),
                             int(k), &alpha, (void *)b.ptr(), CUDA_R_16BF,
                             int(k), (void *)a.ptr(), CUDA_R_16BF, int(k),
                             &beta, (void *)c.ptr(), out, int(n),
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
  }

private:
  cublasHandle_t handle = nullptr;
  int64_t m = 0, n = 0, k = 0;
  bool bf16Out = false;
  int64_t bias_ = 0, gelu = 0, residual = 0;
  std::vector<uint16_t> biasBits, rBits;
  std::vector<float> want;
  rt::DeviceBuffer a, b, biasBuf, r, c;
};

/// A row family of gpt/: @layernorm (x, w, b, y, eps), @softmax (x, y) or
/// @residual_layernorm (x, res, w, b, y, eps: x += res, rounded to bf16,
/// then y = layernorm(x)) over the rows of an M x N bf16 matrix, one row per
/// key (M, N). The reference it is timed against is the device-to-device
/// copy of x into y (the memory traffic any such kernel needs at least;
/// residual+layernorm moves twice that); the check is against the row
/// function computed on the host.
class RowProblem : public Problem {
public:
  enum Kind { LayerNorm, Softmax, ResidualLayerNorm };
  static std::optional<Kind> kindOf(const rt::KernelInfo &kernel) {
    if (!kernel.args)
      return std::nullopt;
    const std::vector<rt::ArgInfo> &a = *kernel.args;
    auto matrix = [&](size_t i) {
      return a[i].isMemRef && a[i].rank == 2 && a[i].type == "bf16";
    };
    auto row = [&](size_t i) {
      return a[i].isMemRef && a[i].rank == 1 && a[i].type == "bf16";
    };
    if (a.size() == 5 && matrix(0) && row(1) && row(2) && matrix(3) &&
        !a[4].isMemRef && a[4].type == "f32")
      return LayerNorm;
    if (a.size() == 2 && matrix(0) && matrix(1))
      return Softmax;
    if (a.size() == 6 && matrix(0) && matrix(1) && row(2) && row(3) &&
        matrix(4) && !a[5].isMemRef && a[5].type == "f32")
      return ResidualLayerNorm;
    return std::nullopt;
  }
  explicit RowProblem(Kind kind) : kind(kind) {}

  std::string reference() const override {
    return kind == ResidualLayerNorm
               ? "copy (cuMemcpyDtoD of x and of res, M x N bf16 each, to "
                 "the output)"
               : "copy (cuMemcpyDtoD of the M x N bf16 input to the output)";
  }
  std::vector<std::pair<std::string, std::string>> key() const override {
    return {{"M", "dim(0,0)"}, {"N", "dim(0,1)"}};
  }
  void prepare(const Shape &shape, const rt::KernelInfo &) override {
    m = shape.sizes[0], n = shape.sizes[1];
    xBits = toBf16(randomFloats(size_t(m) * n, 5));
    std::vector<uint16_t> rBits = toBf16(randomFloats(size_t(m) * n, 8));
    std::vector<uint16_t> wBits = toBf16(randomFloats(size_t(n), 6));
    std::vector<uint16_t> bBits = toBf16(randomFloats(size_t(n), 7));
    x = rt::DeviceBuffer(xBits.size() * 2);
    y = rt::DeviceBuffer(xBits.size() * 2);
    w = rt::DeviceBuffer(wBits.size() * 2);
    b = rt::DeviceBuffer(bBits.size() * 2);
    x.upload(xBits);
    if (kind == ResidualLayerNorm) {
      res = rt::DeviceBuffer(rBits.size() * 2);
      res.upload(rBits);
      // The row the kernel normalises: x + res, rounded as x is stored.
      for (size_t i = 0; i < xBits.size(); ++i)
        rBits[i] = rt::floatToBf16(rt::bf16ToFloat(xBits[i]) +
                                   rt::bf16ToFloat(rBits[i]));
      wantX.resize(rBits.size());
      for (size_t i = 0; i < rBits.size(); ++i)
        wantX[i] = rt::bf16ToFloat(rBits[i]);
    }
    w.upload(wBits);
    b.upload(bBits);
    want.assign(size_t(m) * n, 0);
    for (int64_t i = 0; i < m; ++i) {
      const uint16_t *row =
          kind == ResidualLayerNorm ? &rBits[size_t(i) * n] : &xBits[size_t(i) * n];
      float *out = &want[size_t(i) * n];
      if (kind != Softmax) {
        double sum = 0, sq = 0;
        for (int64_t j = 0; j < n; ++j)
          sum += rt::bf16ToFloat(row[j]);
        double mean = sum / double(n);
        for (int64_t j = 0; j < n; ++j) {
          double d = rt::bf16ToFloat(row[j]) - mean;
          sq += d * d;
        }
        double rstd = 1.0 / std::sqrt(sq / double(n) + kEps);
        for (int64_t j = 0; j < n; ++j)
          out[j] = float((rt::bf16ToFloat(row[j]) - mean) * rstd *
                             rt::bf16ToFloat(wBits[j]) +
                         rt::bf16ToFloat(bBits[j]));
      } else {
        double max = -1e30, sum = 0;
        for (int64_t j = 0; j < n; ++j)
          max = std::max(max, double(rt::bf16ToFloat(row[j])));
        for (int64_t j = 0; j < n; ++j)
          sum += std::exp(double(rt::bf16ToFloat(row[j])) - max);
        for (int64_t j = 0; j < n; ++j)
          out[j] = float(std::exp(double(rt::bf16ToFloat(row[j])) - max) /
                         sum);
      }
    }
  }
  rt::BoundLaunch bind(const rt::Module &module,
                       const rt::KernelInfo &kernel) override {
    rt::BoundLaunch launch(module, kernel);
    launch.arg(rowMajor(x.ptr(), {m, n}));
    if (kind == ResidualLayerNorm)
      launch.arg(rowMajor(res.ptr(), {m, n}));
    if (kind != Softmax)
      launch.arg(rowMajor(w.ptr(), {n}))
          .arg(rowMajor(b.ptr(), {n}))
          .arg(rowMajor(y.ptr(), {m, n}))
          .arg(kEps);
    else
      launch.arg(rowMajor(y.ptr(), {m, n}));
    launch.grid();
    return launch;
  }
  double check(rt::BoundLaunch &launch) override {
    y.fillWords(0x7fc07fc0);
    if (kind == ResidualLayerNorm)
      x.upload(xBits); // the timed launches add res into x again and again
    launch.launch();
    double error = relativeError(y.downloadBf16(size_t(m) * n), want);
    if (kind == ResidualLayerNorm)
      error = std::max(error,
                       relativeError(x.downloadBf16(size_t(m) * n), wantX));
    return error;
  }
  double tolerance() const override { return 1e-2; }
  void runReference() override {
    y.copyFrom(x, size_t(m) * n * 2);
    if (kind == ResidualLayerNorm) // it moves twice the bytes
      y.copyFrom(res, size_t(m) * n * 2);
  }

private:
  static constexpr float kEps = 1e-5f;
  Kind kind;
  int64_t m = 0, n = 0;
  std::vector<uint16_t> xBits;
  std::vector<float> want, wantX;
  rt::DeviceBuffer x, y, w, b, res;
};


/// PyTorch's cuDNN attention as ../shared/anchors/sdpa_attention.py
/// measured it on the GPU machine (no Python here): its JSON output, one
/// `"cudnn B<b>H<h>S<s>D<d>[ causal]": <TFLOP/s>` entry per problem, with
/// "gpu" and "torch" entries saying where and with what.
struct SdpaFigures {
  std::string gpu, torch;
  /// (B, H, S, D, causal) -> TFLOP/s (causal FLOPs halved).
  std::map<std::array<int64_t, 5>, double> tflops;

  static SdpaFigures load(const std::string &path) {
    std::ifstream in(path);
    if (!in)
      throw rt::Error(path + ": cannot read the reference figures");
    std::stringstream whole;
    whole << in.rdbuf();
    std::string text = whole.str();
    SdpaFigures figures;
    // A figure, or "fail <exception>" where cuDNN could not run it (kept
    // as 0: that shape is then skipped, saying so). Sizes of at most 9
    // digits, so that they convert without overflow.
    std::regex entry(R"re("cudnn B(\d{1,9})H(\d{1,9})S(\d{1,9})D(\d{1,9})( causal)?":\s*("fail[^"]*"|[0-9]{1,9}(\.[0-9]+)?))re");
    std::regex named(R"re("(gpu|torch)":\s*"([^"]*)")re");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
         it != std::sregex_iterator(); ++it) {
      const std::smatch &match = *it;
      std::array<int64_t, 5> problem = {
          std::stoll(match[1]), std::stoll(match[2]), std::stoll(match[3]),
          std::stoll(match[4]), match[5].matched ? 1 : 0};
      figures.tflops[problem] =
          match[6].str()[0] == '"' ? 0.0 : std::stod(match[6]);
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), named);
         it != std::sregex_iterator(); ++it)
      ((*it)[1] == "gpu" ? figures.gpu : figures.torch) = (*it)[2];
    if (figures.tflops.empty() || figures.gpu.empty())
      throw rt::Error(path + ": no cuDNN figure or no \"gpu\" entry (expected "
                             "the output of sdpa_attention.py)");
    return figures;
  }
};

/// An attention family on GPT-2's layout, arguments as attention.mlir's:
/// (qkv, out, seq, heads, kv_heads, scale, causal), qkv B*S rows of
/// [q | k | v] (H query heads, Hkv key and value heads of HD columns, HD
/// the kernel's parameter), out B*S rows of H*HD. Key (B, H, KVH, S,
/// CAUSAL). The reference is PyTorch's cuDNN attention on the same GPU,
/// from --reference's figures (sdpa_attention.py, run in the same call);
/// the check is against the attention computed on the host in double for
/// 193 query rows: 192 drawn at random (a fixed seed) over the sequences,
/// heads and positions, and the last row of the last head (the whole
/// output would take seconds of host time per shape).
class AttentionProblem : public Problem {
public:
  static bool takes(const rt::KernelInfo &kernel) {
    if (!kernel.args || kernel.args->size() != 7)
      return false;
    const std::vector<rt::ArgInfo> &a = *kernel.args;
    auto matrix = [&](size_t i) {
      return a[i].isMemRef && a[i].rank == 2 && a[i].type == "bf16";
    };
    auto scalar = [&](size_t i, const char *type) {
      return !a[i].isMemRef && a[i].type == type;
    };
    return matrix(0) && matrix(1) && scalar(2, "index") &&
           scalar(3, "index") && scalar(4, "index") && scalar(5, "f32") &&
           scalar(6, "i1") && paramOr(kernel, "HD", 0) > 0;
  }

  AttentionProblem(const std::string &referenceFile,
                   const std::string &deviceName) {
    if (referenceFile.empty())
      return; // --check-only: nothing is timed
    figures = SdpaFigures::load(referenceFile);
    if (figures.gpu != deviceName)
      throw rt::Error(referenceFile + ": measured on " + figures.gpu +
                      ", not on this GPU (" + deviceName +
                      "): run sdpa_attention.py in the same call");
  }

  std::string reference() const override {
    return "cudnn (PyTorch " + figures.torch +
           " scaled_dot_product_attention, cuDNN backend, bf16; "
           "sdpa_attention.py's figures on " + figures.gpu +
           ", measured beside)";
  }
  std::vector<std::pair<std::string, std::string>> key() const override {
    return {{"B", "div(dim(0,0),arg(2))"},
            {"H", "arg(3)"},
            {"KVH", "arg(4)"},
            {"S", "arg(2)"},
            {"CAUSAL", "arg(6)"}};
  }

  void prepare(const Shape &shape, const rt::KernelInfo &kernel) override {
    batch = shape.sizes[0], heads = shape.sizes[1], kvHeads = shape.sizes[2];
    seq = shape.sizes[3], causal = shape.sizes[4] != 0;
    hd = paramOr(kernel, "HD", 0);
    if (kvHeads < 1 || heads % kvHeads != 0)
      throw rt::Error(std::to_string(heads) + " query heads do not share " +
                      std::to_string(kvHeads) + " key/value heads evenly");
    int64_t rows = batch * seq;
    qkvWidth = (heads + 2 * kvHeads) * hd;
    std::vector<float> values = randomFloats(size_t(rows) * qkvWidth, 8);
    for (float &v : values) // [-2, 2], as attention --check
      v *= 2;
    qkvBits = toBf16(values);
    qkv = rt::DeviceBuffer(qkvBits.size() * 2);
    qkv.upload(qkvBits);
    out = rt::DeviceBuffer(size_t(rows) * heads * hd * 2 + 4);
    samples.clear();
    uint64_t state = 0x9e3779b97f4a7c15ull;
    auto below = [&](int64_t n) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return int64_t((state >> 33) % uint64_t(n));
    };
    for (int64_t i = 0; i < 192; ++i) {
      int64_t b = below(batch), h = below(heads);
      samples.push_back({b, h, below(seq)});
    }
    samples.push_back({batch - 1, heads - 1, seq - 1});
    want.clear();
    for (const Sample &sample : samples) {
      std::vector<double> row = referenceRow(sample);
      want.insert(want.end(), row.begin(), row.end());
    }
  }

  rt::BoundLaunch bind(const rt::Module &module,
                       const rt::KernelInfo &kernel) override {
    // The operands' layout is the prepared head dim's (a variant's).
    if (paramOr(kernel, "HD", 0) != hd)
      throw rt::Error(kernel.name + " has another head dim than HD = " +
                      std::to_string(hd) + ": give HD in the variant");
    rt::BoundLaunch launch(module, kernel);
    int64_t rows = batch * seq;
    launch.arg(rowMajor(qkv.ptr(), {rows, qkvWidth}))
        .arg(rowMajor(out.ptr(), {rows, heads * hd}))
        .arg(seq)
        .arg(heads)
        .arg(kvHeads)
        // Softmax in base 2, as Attention.h.
        .arg(float(M_LOG2E / std::sqrt(double(hd))))
        .arg(causal)
        .grid();
    return launch;
  }

  double check(rt::BoundLaunch &launch) override {
    out.fillWords(0x7fc07fc0);
    launch.launch();
    std::vector<float> got, expected(want.begin(), want.end());
    std::vector<uint16_t> bits(static_cast<size_t>(hd));
    for (const Sample &sample : samples) {
      size_t offset =
          (size_t(sample.b * seq + sample.q) * heads + sample.h) * hd * 2;
      out.download(bits.data(), bits.size() * 2, offset);
      for (uint16_t b : bits)
        got.push_back(rt::bf16ToFloat(b));
    }
    return relativeError(got, expected);
  }
  double tolerance() const override { return 1e-2; }

  void runReference() override {
    throw rt::Error("attention's reference (PyTorch's cuDNN attention) is "
                    "not run here: its figures come from --reference");
  }
  std::optional<double> recordedReferenceUs() const override {
    auto found = figures.tflops.find({batch, heads, seq, hd, causal});
    std::string problem = "B" + std::to_string(batch) + "H" +
                          std::to_string(heads) + "S" + std::to_string(seq) +
                          "D" + std::to_string(hd) +
                          (causal ? " causal" : "");
    if (found != figures.tflops.end() && found->second <= 0)
      throw rt::Error("cuDNN could not run " + problem +
                      " (sdpa_attention.py says it failed): no reference");
    if (kvHeads != heads || found == figures.tflops.end())
      throw rt::Error("no cuDNN figure for " + problem +
                      (kvHeads != heads ? " with grouped key heads" : "") +
                      " in --reference's file: give sdpa_attention.py "
                      "this problem");
    double flops = 4.0 * batch * heads * double(seq) * double(seq) * hd;
    return flops / (causal ? 2 : 1) / (found->second * 1e12) * 1e6;
  }

private:
  struct Sample {
    int64_t b, h, q;
  };
  float at(int64_t row, int64_t column) const {
    return rt::bf16ToFloat(qkvBits[size_t(row) * qkvWidth + column]);
  }
  /// Query row `q` of sequence `b`, head `h`: softmax(q K^T / sqrt(hd)) V
  /// over the keys it sees, in double.
  std::vector<double> referenceRow(const Sample &s) const {
    int64_t first = s.b * seq;
    int64_t kvHead = s.h / (heads / kvHeads);
    int64_t kCol = heads * hd + kvHead * hd;
    int64_t vCol = (heads + kvHeads) * hd + kvHead * hd;
    int64_t keys = causal ? s.q + 1 : seq;
    std::vector<double> score(size_t(keys), 0.0);
    double max = -1e300;
    for (int64_t j = 0; j < keys; ++j) {
      double dot = 0;
      for (int64_t d = 0; d < hd; ++d)
        dot += double(at(first + s.q, s.h * hd + d)) * at(first + j, kCol + d);
      score[size_t(j)] = dot / std::sqrt(double(hd));
      max = std::max(max, score[size_t(j)]);
    }
    double sum = 0;
    for (double &x : score)
      sum += x = std::exp(x - max);
    std::vector<double> row(size_t(hd), 0.0);
    for (int64_t j = 0; j < keys; ++j)
      for (int64_t d = 0; d < hd; ++d)
        row[size_t(d)] += score[size_t(j)] / sum * at(first + j, vCol + d);
    return row;
  }

  SdpaFigures figures;
  int64_t batch = 0, heads = 0, kvHeads = 0, seq = 0, hd = 0, qkvWidth = 0;
  bool causal = false;
  std::vector<uint16_t> qkvBits;
  std::vector<Sample> samples;
  std::vector<double> want;
  rt::DeviceBuffer qkv, out;
};

} // namespace

/// The problem `kernel`'s family is, or an error saying which tile-tune
/// knows.
std::unique_ptr<Problem> problemFor(const rt::KernelInfo &kernel,
                                    const std::string &referenceFile,
                                    const std::string &deviceName) {
  if (GemmProblem::takes(kernel))
    return std::make_unique<GemmProblem>();
  if (std::optional<RowProblem::Kind> kind = RowProblem::kindOf(kernel))
    return std::make_unique<RowProblem>(*kind);
  if (AttentionProblem::takes(kernel))
    return std::make_unique<AttentionProblem>(referenceFile, deviceName);
  throw rt::Error("family " + kernel.family +
                  ": tile-tune feeds and checks GEMM families (arguments "
                  "A, B, C, bias, R as gemm.mlir's, against cuBLAS), row "
                  "families (layernorm's x, w, b, y, eps, softmax's x, y or "
                  "residual_layernorm's x, res, w, b, y, eps, against "
                  "device-to-device copies) and attention families "
                  "(attention.mlir's qkv, out, seq, heads, kv_heads, scale, "
                  "causal and a parameter HD, against PyTorch's cuDNN "
                  "attention); this one is none of them");
}

/// Which of a problem's key sizes are flags.
std::vector<bool> keyFlags(const rt::KernelInfo &kernel) {
  if (GemmProblem::takes(kernel))
    return std::vector<bool>(3, false);
  if (RowProblem::kindOf(kernel))
    return std::vector<bool>(2, false);
  if (AttentionProblem::takes(kernel))
    return {false, false, false, false, true};
  problemFor(kernel, "", ""); // throws, saying which families tile-tune knows
  return {};
}

bool referenceIsRecorded(const rt::KernelInfo &kernel) {
  return AttentionProblem::takes(kernel);
}

/// What `kernel` computes, as far as the check's expected result goes: a
/// GEMM's epilogue flags and C's type (the rows compute one function).
std::string computes(const rt::KernelInfo &kernel) {
  if (!GemmProblem::takes(kernel))
    return "";
  return "BIAS=" + std::to_string(paramOr(kernel, "BIAS", 0)) +
         " GELU=" + std::to_string(paramOr(kernel, "GELU", 0)) +
         " RESIDUAL=" + std::to_string(paramOr(kernel, "RESIDUAL", 0)) +
         " C=" + (*kernel.args)[2].type;
}

} // namespace tile::tune
