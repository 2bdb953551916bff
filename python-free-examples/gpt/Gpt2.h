//===- Gpt2.h - GPT-2 small's forward pass with tile kernels ----*- C++ -*-===//
//
// GPT-2 small (12 layers, d_model 768, 12 heads, vocabulary 50257,
// sequences up to 1024) on seeded random weights, run with the kernels of
// this directory (embedding.mlir, layernorm.mlir, attention.mlir (causal),
// residual.mlir) and, for the linear layers, configurations of
// ../gemm/gemm.mlir's family with the bias and GELU fused into the
// epilogue. Activations are bf16 between kernels, fp32 inside them.
//
// Gpt2Forward binds every launch of one batch x sequence shape up front;
// a forward pass is then the launches in order. Each layer is
//
//   h = layernorm(x);  qkv = linear(h);  a = attention(qkv);
//   x = x + linear(a);  h = layernorm(x);  f = gelu(linear(h));
//   x = x + linear(f)
//
// and the pass ends with the final layernorm (GPT2Model's output) and the
// logits, linear(h) with the token embedding as the weight. Each residual
// add runs fused into the layernorm after it (residual_layernorm: x
// updated in place, then normalised), so a block's last add happens at
// the start of the next block, and the last one in the final layernorm.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_GPT2_H
#define TILE_EXAMPLES_GPT_GPT2_H

#include "Attention.h"
#include "GptKernels.h"
#include "GptReference.h"
#include "gemm_launcher.h"
#include "embedding_launcher.h"

#include "tile/Runtime/Graph.h"

#include <algorithm>
#include <deque>
#include <functional>

namespace tile::examples::gpt {

struct Gpt2Config {
  int64_t layers = 12, dModel = 768, heads = 12, vocab = 50257, maxSeq = 1024;
  int64_t headDim() const { return dModel / heads; }
  static constexpr float kEps = 1e-5f;
};

/// A bf16 parameter: the numbers (for the CPU reference) and the device copy.
struct Param {
  Bf16Data host;
  rt::DeviceBuffer device;
  CUdeviceptr ptr() const { return device.ptr(); }
  const std::vector<float> &values() const { return host.values; }
};

inline Param makeParam(size_t n, float lo, float hi) {
  Param p{randomBf16(n, lo, hi), rt::DeviceBuffer(n * 2)};
  p.device.upload(p.host.bits);
  return p;
}

/// One block's weights, nn.Linear layout (out x in).
struct Gpt2Layer {
  Param ln1w, ln1b, wqkv, bqkv, wo, bo, ln2w, ln2b, wfc, bfc, wproj, bproj;
};

/// Random weights with GPT-2's scales: linear weights and embeddings of
/// standard deviation about 0.02 (uniform in +-0.035), layernorm gains
/// near 1, small biases.
struct Gpt2Weights {
  explicit Gpt2Weights(const Gpt2Config &c)
      : wte(makeParam(size_t(c.vocab) * c.dModel, -0.035f, 0.035f)),
        wpe(makeParam(size_t(c.maxSeq) * c.dModel, -0.035f, 0.035f)),
        lnfw(makeParam(c.dModel, 0.8f, 1.2f)),
        lnfb(makeParam(c.dModel, -0.05f, 0.05f)) {
    size_t d = c.dModel;
    for (int64_t l = 0; l < c.layers; ++l)
      layers.push_back(Gpt2Layer{
          makeParam(d, 0.8f, 1.2f), makeParam(d, -0.05f, 0.05f),
          makeParam(3 * d * d, -0.035f, 0.035f), makeParam(3 * d, -0.02f, 0.02f),
          makeParam(d * d, -0.035f, 0.035f), makeParam(d, -0.02f, 0.02f),
          makeParam(d, 0.8f, 1.2f), makeParam(d, -0.05f, 0.05f),
          makeParam(4 * d * d, -0.035f, 0.035f), makeParam(4 * d, -0.02f, 0.02f),
          makeParam(4 * d * d, -0.035f, 0.035f), makeParam(d, -0.02f, 0.02f)});
  }
  Param wte, wpe;
  std::vector<Gpt2Layer> layers;
  Param lnfw, lnfb;
};

/// The compiled kernels, loaded once.
struct Gpt2Modules {
  GptModules rows; // layernorm (and residual+layernorm), softmax, gelu, residual
  // The linear layers (gemm.mlir's family), the embedding and the attention
  // come through their generated launchers (gemm_kernels, gpt_embedding,
  // gpt_attention).
};

/// Every launch of a forward pass of `batch` sequences of `seq` tokens
/// (any length up to the model's: the attention masks a last tile's keys
/// past the sequence). The buffers hold `tokens` = batch x seq rows.
class Gpt2Forward {
public:
  /// Where a step belongs: the embedding, layer 0 .. layers - 1, the final
  /// layernorm, or the logits.
  static constexpr int kEmbedding = -1;
  int finalLayer() const { return int(config.layers); }
  int logitsLayer() const { return int(config.layers) + 1; }

  struct Step {
    std::string name; // the kernel's role, e.g. "linear qkv"
    int layer;
    /// Enqueues the step on the stream (nullptr: the legacy default one).
    std::function<void(CUstream)> launch;
  };

  Gpt2Forward(const Gpt2Config &config, const Gpt2Weights &weights,
              const Gpt2Modules &modules, const rt::Device &device,
              int64_t batch, int64_t seq)
      : config(config), batch(batch), seq(seq), tokens(batch * seq),
        x(bytes(config.dModel)), h(bytes(config.dModel)),
        qkv(bytes(3 * config.dModel)), att(bytes(config.dModel)),
        proj(bytes(config.dModel)), fc(bytes(4 * config.dModel)),
        logits(bytes(config.vocab)), noBias(size_t(config.vocab) * 2),
        tokenIds(size_t(tokens) * 4) {
    if (seq < 1 || seq > config.maxSeq || batch < 1)
      throw rt::Error("gpt2: at least one sequence of 1 to " +
                      std::to_string(config.maxSeq) + " tokens, not " +
                      std::to_string(batch) + " of " + std::to_string(seq));
    noBias.fillBytes(0);
    int64_t d = config.dModel;
    using Matrix = rt::MemRef<rt::bf16, 2>;
    add("embedding", kEmbedding,
        gpt_embedding::embedding(
            {unsigned(tokens), 1, 1},
            rt::MemRef<int32_t, 1>::rowMajor(tokenIds.ptr(), {tokens}),
            Matrix::rowMajor(weights.wte.ptr(), {config.vocab, d}),
            Matrix::rowMajor(weights.wpe.ptr(), {config.maxSeq, d}),
            Matrix::rowMajor(x.ptr(), {tokens, d}), seq));
    for (int l = 0; l < int(config.layers); ++l) {
      const Gpt2Layer &w = weights.layers[size_t(l)];
      // Layer 0 starts from the embedding; the others first add the
      // previous block's MLP output.
      if (l == 0)
        layernorm(modules, l, "layernorm", w.ln1w, w.ln1b);
      else
        residualLayernorm(modules, l, w.ln1w, w.ln1b);
      linear(modules, l, "linear qkv", h, d, w.wqkv, w.bqkv.ptr(), 3 * d,
             false, qkv);
      add("attention", l,
          bindAttention({batch, config.heads, seq, config.headDim(),
                         /*causal=*/true},
                        qkv.ptr(), att.ptr()));
      linear(modules, l, "linear out", att, d, w.wo, w.bo.ptr(), d, false,
             proj);
      residualLayernorm(modules, l, w.ln2w, w.ln2b);
      linear(modules, l, "linear fc+gelu", h, d, w.wfc, w.bfc.ptr(), 4 * d,
             true, fc);
      linear(modules, l, "linear proj", fc, 4 * d, w.wproj, w.bproj.ptr(), d,
             false, proj);
    }
    residualLayernorm(modules, finalLayer(), weights.lnfw, weights.lnfb);
    linear(modules, logitsLayer(), "linear logits", h, d, weights.wte,
           /*bias=*/0, config.vocab, false, logits);
  }

  /// The batch x seq token ids, sequence after sequence.
  void setTokens(const std::vector<int32_t> &ids) {
    if (ids.size() != size_t(batch * seq))
      throw rt::Error("gpt2: expected " + std::to_string(batch * seq) +
                      " token ids, got " + std::to_string(ids.size()));
    tokenIds.upload(ids);
  }

  /// Launches the steps of layers [first, last] on `stream`, but for those
  /// named `leaveOut` (the benchmark's graphs without one kind of kernel).
  void run(int first, int last, CUstream stream = nullptr,
           const std::string &leaveOut = "") {
    for (Step &step : steps)
      if (step.layer >= first && step.layer <= last && step.name != leaveOut)
        step.launch(stream);
  }

  /// The steps of layers [first, last] (less those named `leaveOut`)
  /// captured once as a CUDA graph on `stream` (one of its own:
  /// rt::Stream), replayed with one call. A replay reads the buffers as
  /// they are then (new tokens from setTokens, say); the weights and
  /// shapes are those bound here.
  rt::Graph capture(CUstream stream, int first, int last,
                    const std::string &leaveOut = "") {
    return rt::Graph::capture(
        stream, [&](CUstream on) { run(first, last, on, leaveOut); });
  }

  const Gpt2Config config;
  /// `tokens` is the rows the kernels see: batch x seq.
  const int64_t batch, seq, tokens;
  rt::DeviceBuffer x, h, qkv, att, proj, fc, logits, noBias, tokenIds;
  std::vector<Step> steps;

private:
  size_t bytes(int64_t width) const { return size_t(tokens * width) * 2; }

  void add(const std::string &name, int layer, rt::BoundLaunch kernel) {
    rt::BoundLaunch &kept = boundKernels.emplace_back(std::move(kernel));
    steps.push_back(
        {name, layer, [&kept](CUstream stream) { kept.launch(stream); }});
  }

  // h = layernorm(x).
  void layernorm(const Gpt2Modules &modules, int layer, const char *name,
                 const Param &w, const Param &b) {
    GptKernel &kernel = rowKernels.emplace_back(
        *kernelFor(Op::LayerNorm, config.dModel), modules.rows);
    kernel.bindRows(x.ptr(), h.ptr(), tokens, config.dModel, w.ptr(), b.ptr(),
                    Gpt2Config::kEps);
    steps.push_back({name, layer, [&kernel](CUstream stream) {
                       kernel.launch(stream);
                     }});
  }

  // x = x + proj, h = layernorm(x), in one kernel.
  void residualLayernorm(const Gpt2Modules &modules, int layer,
                         const Param &w, const Param &b) {
    GptKernel &kernel = rowKernels.emplace_back(
        *kernelFor(Op::ResidualLayerNorm, config.dModel), modules.rows);
    kernel.bindRows(x.ptr(), h.ptr(), tokens, config.dModel, w.ptr(), b.ptr(),
                    Gpt2Config::kEps, proj.ptr());
    steps.push_back({"residual+layernorm", layer,
                     [&kernel](CUstream stream) { kernel.launch(stream); }});
  }

  // out (tokens x n) = act(in (tokens x k) w^T + bias), a zero bias where
  // `bias` is 0 (noBias); gemm.mlir's family through its tuning table
  // (gemm_bf16_tuned: bf16 C, the bias and GELU in the epilogue), with the
  // configuration tile-tune measured fastest at the shape, else the fastest
  // by the table's cost models, and the grid it states.
  void linear(const Gpt2Modules &modules, int layer, const char *name,
              rt::DeviceBuffer &in, int64_t k, const Param &w,
              CUdeviceptr bias, int64_t n, bool gelu, rt::DeviceBuffer &out) {
    using Matrix = rt::MemRef<rt::bf16, 2>;
    add(name, layer,
        gemm_kernels::gemm_bf16_tuned(
            {{"BIAS", 1}, {"GELU", gelu}, {"RESIDUAL", 0}},
            Matrix::rowMajor(in.ptr(), {tokens, k}),
            Matrix::rowMajor(w.ptr(), {n, k}),
            Matrix::rowMajor(out.ptr(), {tokens, n}),
            rt::MemRef<rt::bf16, 1>::rowMajor(bias ? bias : noBias.ptr(), {n}),
            Matrix{}));
  }

  std::deque<rt::BoundLaunch> boundKernels;
  std::deque<GptKernel> rowKernels;
};

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_GPT2_H
