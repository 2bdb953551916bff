//===- gpt2.cpp - GPT-2 small's forward pass from C++ ---------------------===//
//
// Runs GPT-2 small (Gpt2.h) on seeded random weights and random tokens:
//
//   gpt2 [--check] [--bench] [--seed S]
//
// --check runs 2 sequences of 200 tokens and compares, layer by layer, what
// the GPU computed with a CPU reference of that layer fed the GPU's input
// to it (so errors do not compound): the embedding, each of the 12 blocks,
// the final layernorm and the logits of a few tokens. The reference rounds
// to bf16 where the kernels do, then replays the whole pass as a CUDA
// graph on new tokens and compares its logits bit for bit with the
// launches one by one. --bench times the forward pass (embedding, 12
// blocks, final layernorm: what HF's GPT2Model computes) at batch 8 and
// batch 1 of 1024 tokens, as a CUDA graph and launched one by one
// (interleaved), prints tokens per second and the time of each
// kind of kernel, and times each linear layer and the logits GEMM beside
// cuBLAS (cublasGemmEx, bf16 out, no bias or GELU). Without either, both.
//
//===----------------------------------------------------------------------===//

#include "../gemm/GemmBench.h"
#include "Gpt2.h"
#include "GptMain.h"

#include <map>
#include <thread>

using namespace tile;
using namespace tile::examples;
using namespace tile::examples::gpt;

namespace {

//===----------------------------------------------------------------------===//
// The CPU reference
//===----------------------------------------------------------------------===//

float roundBf16(double v) { return rt::bf16ToFloat(rt::floatToBf16(float(v))); }

std::vector<float> roundAll(const std::vector<double> &v) {
  std::vector<float> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = roundBf16(v[i]);
  return out;
}

/// body(i) for i in [0, n), over the machine's cores.
void parallelFor(int64_t n, const std::function<void(int64_t)> &body) {
  int64_t workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (int64_t w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (int64_t i = w; i < n; i += workers)
        body(i);
    });
  for (std::thread &t : threads)
    t.join();
}

/// act(a (m x k) w^T + bias), w n x k; rounded to bf16 as the kernel's
/// output is.
std::vector<float> linearReference(const std::vector<float> &a,
                                   const std::vector<float> &w,
                                   const std::vector<float> *bias, int64_t m,
                                   int64_t n, int64_t k, bool gelu) {
  std::vector<float> out(size_t(m) * n);
  const double c = std::sqrt(2.0 / M_PI);
  parallelFor(m, [&](int64_t i) {
    const float *row = &a[size_t(i) * k];
    for (int64_t j = 0; j < n; ++j) {
      const float *col = &w[size_t(j) * k];
      double sum = bias ? (*bias)[size_t(j)] : 0.0;
      for (int64_t q = 0; q < k; ++q)
        sum += double(row[q]) * col[q];
      if (gelu)
        sum = 0.5 * sum * (1.0 + std::tanh(c * (sum + 0.044715 * sum * sum * sum)));
      out[size_t(i) * n + j] = roundBf16(sum);
    }
  });
  return out;
}

std::vector<float> addRounded(const std::vector<float> &a,
                              const std::vector<float> &b) {
  std::vector<float> out(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    out[i] = roundBf16(double(a[i]) + b[i]);
  return out;
}

/// One block on the CPU, from its input x (tokens x d).
std::vector<float> blockReference(const Gpt2Config &c, const Gpt2Layer &w,
                                  const std::vector<float> &x, int64_t batch,
                                  int64_t seq) {
  int64_t t = batch * seq, d = c.dModel;
  std::vector<float> h = roundAll(layernormReference(
      x, w.ln1w.values(), w.ln1b.values(), t, d, Gpt2Config::kEps));
  std::vector<float> qkv = linearReference(h, w.wqkv.values(),
                                           &w.bqkv.values(), t, 3 * d, d, false);
  std::vector<float> att = roundAll(
      attentionReference(qkv, batch, c.heads, seq, c.headDim(), true,
                         /*roundP=*/true));
  std::vector<float> x1 = addRounded(
      x, linearReference(att, w.wo.values(), &w.bo.values(), t, d, d, false));
  h = roundAll(layernormReference(x1, w.ln2w.values(), w.ln2b.values(), t, d,
                                  Gpt2Config::kEps));
  std::vector<float> f = linearReference(h, w.wfc.values(), &w.bfc.values(),
                                         t, 4 * d, d, true);
  return addRounded(x1, linearReference(f, w.wproj.values(),
                                        &w.bproj.values(), t, d, 4 * d, false));
}

/// Prints how far `got` is from `expected`: the largest difference as a
/// fraction of the largest expected magnitude, and the relative RMS error.
/// The reference rounds where the kernels do, but a sum that lands near a
/// rounding boundary can round the other way, one bf16 ulp (2^-8 of the
/// value) that the next layers carry, and the kernels' GELU uses an fp32
/// tanh good to about 2^-11: block 0, whose output is mostly the
/// attention and MLP outputs rather than the small embedding, shows a
/// relative RMS error of about 3e-3 (later blocks 1e-3). It fails past 4
/// ulps of the largest value (2^-6), a relative RMS error of 2^-7, or on
/// a non-finite number; a wrong kernel is off by far more.
bool compare(const char *what, const std::vector<float> &got,
             const std::vector<float> &expected) {
  double worst = 0, scale = 0, errorSquares = 0, squares = 0;
  bool finite = true;
  for (size_t i = 0; i < got.size(); ++i) {
    double error = double(got[i]) - expected[i];
    finite &= std::isfinite(got[i]);
    worst = std::max(worst, std::fabs(error));
    scale = std::max(scale, std::fabs(double(expected[i])));
    errorSquares += error * error;
    squares += double(expected[i]) * expected[i];
  }
  double relative = scale > 0 ? worst / scale : worst;
  double rms = squares > 0 ? std::sqrt(errorSquares / squares) : 0;
  bool ok = finite && relative <= std::ldexp(1.0, -6) &&
            rms <= std::ldexp(1.0, -7);
  std::printf("  %-16s max |error| %.2e (%.2e of max |expected| %.3f), "
              "relative RMS error %.2e  %s\n",
              what, worst, relative, scale, rms, ok ? "ok" : "FAILED");
  return ok;
}

std::vector<int32_t> randomTokens(int64_t n, int64_t vocab) {
  std::uniform_int_distribution<int32_t> dist(0, int32_t(vocab - 1));
  std::vector<int32_t> ids(static_cast<size_t>(n));
  for (int32_t &id : ids)
    id = dist(rng());
  return ids;
}

bool check(const Gpt2Config &c, const Gpt2Weights &weights,
           const Gpt2Modules &modules, const rt::Device &device) {
  // 200 tokens: two key tiles, the second reaching past the sequence (the
  // attention masks its keys, and does not write its rows past 200).
  const int64_t batch = 2, seq = 200, d = c.dModel;
  Gpt2Forward forward(c, weights, modules, device, batch, seq);
  std::vector<int32_t> ids = randomTokens(batch * seq, c.vocab);
  forward.setTokens(ids);
  size_t all = size_t(forward.tokens) * d;
  // The GPU's rows.
  auto real = [&](const rt::DeviceBuffer &buffer) {
    return buffer.downloadBf16(all);
  };
  std::printf("GPT-2 small, %lld x %lld tokens, each layer from the GPU's "
              "input to it\n",
              (long long)batch, (long long)seq);

  forward.run(Gpt2Forward::kEmbedding, Gpt2Forward::kEmbedding);
  std::vector<float> x = real(forward.x);
  std::vector<float> expected(x.size());
  for (int64_t t = 0; t < batch * seq; ++t)
    for (int64_t j = 0; j < d; ++j)
      expected[size_t(t * d + j)] =
          roundBf16(double(weights.wte.values()[size_t(ids[size_t(t)] * d + j)]) +
                    weights.wpe.values()[size_t((t % seq) * d + j)]);
  bool ok = compare("embedding", x, expected);

  // A block's last residual add runs fused into the next layernorm (Gpt2.h):
  // after its steps, its output is x + proj, which the next step computes
  // on the GPU (gpt-kernels checks that add, exactly). The reference sees
  // the sequences without padding.
  for (int l = 0; l < int(c.layers); ++l) {
    forward.run(l, l);
    std::vector<float> next = addRounded(real(forward.x), real(forward.proj));
    std::string name = "block " + std::to_string(l);
    ok &= compare(name.c_str(), next,
                  blockReference(c, weights.layers[size_t(l)], x, batch, seq));
    x = std::move(next);
  }

  forward.run(forward.finalLayer(), forward.finalLayer());
  std::vector<float> h = real(forward.h);
  ok &= compare("final layernorm", h,
                roundAll(layernormReference(x, weights.lnfw.values(),
                                            weights.lnfb.values(), batch * seq,
                                            d, Gpt2Config::kEps)));

  // The logits of 16 tokens (all of them would take the CPU minutes).
  forward.run(forward.logitsLayer(), forward.logitsLayer());
  rt::synchronize();
  const int64_t rows = 16;
  std::vector<float> logits =
      forward.logits.downloadBf16(size_t(rows) * c.vocab);
  h.resize(size_t(rows) * d);
  ok &= compare("logits (16)", logits,
                linearReference(h, weights.wte.values(), nullptr, rows,
                                c.vocab, d, false));

  // The whole pass as a CUDA graph, captured before new tokens arrive:
  // replayed, it gives the logits of the launches one by one, bit for bit.
  rt::Stream stream = rt::Stream::create();
  rt::Graph graph = forward.capture(stream.handle(), Gpt2Forward::kEmbedding,
                                    forward.logitsLayer());
  forward.setTokens(randomTokens(batch * seq, c.vocab));
  forward.run(Gpt2Forward::kEmbedding, forward.logitsLayer());
  size_t logitCount = size_t(forward.tokens) * c.vocab;
  std::vector<uint16_t> oneByOne(logitCount), replayed(logitCount);
  forward.logits.download(oneByOne);
  for (rt::DeviceBuffer *buffer : {&forward.logits, &forward.x, &forward.h})
    buffer->fillBytes(0xff); // NaN in bf16
  rt::synchronize(); // the fills ran on the legacy stream, the graph won't
  graph.launch(stream.handle());
  rt::synchronize(stream.handle());
  forward.logits.download(replayed);
  bool same = replayed == oneByOne;
  std::printf("  %-24s %zu launches, logits of new tokens %s\n",
              "forward as a CUDA graph", graph.size(),
              same ? "identical to the launches one by one"
                   : "DIFFER from the launches one by one");
  ok &= same;
  return ok;
}

//===----------------------------------------------------------------------===//
// Bench
//===----------------------------------------------------------------------===//

void bench(const Gpt2Config &c, const Gpt2Weights &weights,
           const Gpt2Modules &modules, const rt::Device &device) {
  rt::Timer timer;
  CublasGemm cublas;
  std::printf("bench on %s: median ms of 10 runs after 3 warm-ups\n",
              device.name().c_str());
  for (int64_t batch : {8, 1}) {
    const int64_t seq = 1024;
    Gpt2Forward forward(c, weights, modules, device, batch, seq);
    forward.setTokens(randomTokens(batch * seq, c.vocab));
    // The launches one by one and the same launches replayed as one CUDA
    // graph, interleaved.
    rt::Stream stream = rt::Stream::create();
    rt::Graph graph = forward.capture(stream.handle(), Gpt2Forward::kEmbedding,
                                      forward.finalLayer());
    std::vector<float> both = rt::interleavedMedianMs(
        {[&] { forward.run(Gpt2Forward::kEmbedding, forward.finalLayer()); },
         [&] { graph.launch(nullptr); }},
        3, 10);
    float ms = both[1];
    std::printf("\nbatch %lld x %lld tokens: forward (embedding, 12 blocks, "
                "final layernorm) %.3f ms as a CUDA graph of %zu launches "
                "(%.3f ms launched one by one), %.0f tokens/s\n",
                (long long)batch, (long long)seq, ms, graph.size(), both[0],
                double(forward.tokens) / (ms * 1e-3));

    // Each kind of kernel: one launch of it timed alone, times its count.
    struct Kind {
      int count = 0;
      float each = 0;
    };
    std::map<std::string, Kind> kinds;
    for (Gpt2Forward::Step &step : forward.steps) {
      if (step.layer == forward.logitsLayer())
        continue;
      Kind &kind = kinds[step.name];
      if (kind.count++ == 0)
        kind.each = timer.timeMs([&] { step.launch(nullptr); }, 3, 10);
    }
    // What each kind costs inside the graph: the whole graph against the
    // graph without that kind's launches, interleaved (a launch timed alone
    // also pays its launch latency, which a graph partly hides).
    std::deque<rt::Graph> without; // (the replays below hold references)
    std::vector<std::function<void()>> graphs{[&] { graph.launch(nullptr); }};
    for (auto &[name, kind] : kinds) {
      rt::Graph &less = without.emplace_back(forward.capture(
          stream.handle(), Gpt2Forward::kEmbedding, forward.finalLayer(),
          name));
      graphs.push_back([&less] { less.launch(nullptr); });
    }
    std::vector<float> graphMs = rt::interleavedMedianMs(graphs, 3, 10);
    std::printf("  %-20s %6s %10s %10s %7s %14s\n", "kernel", "count",
                "ms each", "ms total", "share", "ms in graph");
    size_t i = 1;
    for (auto &[name, kind] : kinds)
      std::printf("  %-20s %6d %10.4f %10.3f %6.1f%% %14.3f\n", name.c_str(),
                  kind.count, kind.each, kind.each * kind.count,
                  100.0 * kind.each * kind.count / ms,
                  graphMs[0] - graphMs[i++]);

    // The linear layers beside cuBLAS on the same shapes.
    std::printf("  %-16s %18s %10s %10s %7s\n", "GEMM", "M x N x K", "tile ms",
                "cuBLAS ms", "ratio");
    int64_t d = c.dModel, m = forward.tokens;
    struct Gemm {
      const char *name;
      int64_t n, k;
      CUdeviceptr a, w, out;
    };
    const Gemm gemms[] = {
        {"linear qkv", 3 * d, d, forward.h.ptr(), weights.layers[0].wqkv.ptr(), forward.qkv.ptr()},
        {"linear out", d, d, forward.att.ptr(), weights.layers[0].wo.ptr(), forward.proj.ptr()},
        {"linear fc+gelu", 4 * d, d, forward.h.ptr(), weights.layers[0].wfc.ptr(), forward.fc.ptr()},
        {"linear proj", d, 4 * d, forward.fc.ptr(), weights.layers[0].wproj.ptr(), forward.proj.ptr()},
        {"linear logits", c.vocab, d, forward.h.ptr(), weights.wte.ptr(), forward.logits.ptr()}};
    for (const Gemm &g : gemms) {
      auto step = std::find_if(forward.steps.begin(), forward.steps.end(),
                               [&](const Gpt2Forward::Step &s) {
                                 return s.name == g.name;
                               });
      float tileMs = timer.timeMs([&] { step->launch(nullptr); }, 3, 10);
      float cublasMs = timer.timeMs(
          [&] {
            cublas.run(g.a, g.w, g.out, m, g.n, g.k, CUDA_R_16BF);
          },
          3, 10);
      std::printf("  %-16s %6lld x %5lld x %4lld %10.4f %10.4f %6.2fx\n",
                  g.name, (long long)m, (long long)g.n, (long long)g.k, tileMs,
                  cublasMs, cublasMs / tileMs);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  return gptMain(argc, argv, "gpt2", /*takesFilter=*/false,
                 [](const rt::Device &device, const RunOptions &options) {
                   Gpt2Config config;
                   Gpt2Modules modules;
                   Gpt2Weights weights(config);
                   bool ok = !options.check ||
                             check(config, weights, modules, device);
                   if (options.bench)
                     bench(config, weights, modules, device);
                   return ok;
                 });
}
