//===- GptReference.h - CPU references and tolerances -----------*- C++ -*-===//
//
// What the GPT kernels should compute, in double precision from the
// bf16-rounded inputs, and how far a bf16 output may be from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_GPTREFERENCE_H
#define TILE_EXAMPLES_GPT_GPTREFERENCE_H

#include "GptOps.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace tile::examples::gpt {

/// Random numbers from one generator, seeded once (gpt-kernels prints the
/// seed and takes it back with --seed).
inline std::mt19937_64 &rng() {
  static std::mt19937_64 generator;
  return generator;
}

/// n values uniform in [lo, hi), rounded to bf16: `bits` for the device,
/// `values` the same numbers as floats for the reference.
struct Bf16Data {
  std::vector<uint16_t> bits;
  std::vector<float> values;
};

inline Bf16Data randomBf16(size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  Bf16Data data;
  data.bits.resize(n);
  data.values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    data.bits[i] = rt::floatToBf16(dist(rng()));
    data.values[i] = rt::bf16ToFloat(data.bits[i]);
  }
  return data;
}

/// Adds shift(row) to every element of each row of an M x N matrix (and
/// rounds to bf16 again).
template <typename Shift>
void shiftRows(Bf16Data &data, int64_t m, int64_t n, Shift shift) {
  for (int64_t i = 0; i < m; ++i) {
    float s = shift(i);
    for (int64_t j = 0; j < n; ++j) {
      size_t k = size_t(i) * n + j;
      data.bits[k] = rt::floatToBf16(data.values[k] + s);
      data.values[k] = rt::bf16ToFloat(data.bits[k]);
    }
  }
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

/// y[i,j] = (x[i,j] - mean_i) * rstd_i * w[j] + b[j], the biased variance,
/// rstd = 1 / sqrt(var + eps).
inline std::vector<double> layernormReference(const std::vector<float> &x,
                                              const std::vector<float> &w,
                                              const std::vector<float> &b,
                                              int64_t m, int64_t n, float eps) {
  std::vector<double> y(x.size());
  for (int64_t i = 0; i < m; ++i) {
    const float *row = &x[size_t(i) * n];
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; ++j)
      mean += row[j];
    mean /= double(n);
    for (int64_t j = 0; j < n; ++j)
      var += (row[j] - mean) * (row[j] - mean);
    var /= double(n);
    double rstd = 1.0 / std::sqrt(var + double(eps));
    for (int64_t j = 0; j < n; ++j)
      y[size_t(i) * n + j] = (row[j] - mean) * rstd * w[j] + b[j];
  }
  return y;
}

/// y[i,j] = x[i,j] * rstd_i * w[j], rstd = 1 / sqrt(mean_j(x^2) + eps).
inline std::vector<double> rmsnormReference(const std::vector<float> &x,
                                            const std::vector<float> &w,
                                            int64_t m, int64_t n, float eps) {
  std::vector<double> y(x.size());
  for (int64_t i = 0; i < m; ++i) {
    const float *row = &x[size_t(i) * n];
    double squares = 0;
    for (int64_t j = 0; j < n; ++j)
      squares += double(row[j]) * row[j];
    double rstd = 1.0 / std::sqrt(squares / double(n) + double(eps));
    for (int64_t j = 0; j < n; ++j)
      y[size_t(i) * n + j] = row[j] * rstd * w[j];
  }
  return y;
}

/// y[i,j] = exp(x[i,j] - max_i) / sum_j exp(x[i,j] - max_i).
inline std::vector<double> softmaxReference(const std::vector<float> &x,
                                            int64_t m, int64_t n) {
  std::vector<double> y(x.size());
  for (int64_t i = 0; i < m; ++i) {
    const float *row = &x[size_t(i) * n];
    double max = *std::max_element(row, row + n), sum = 0;
    for (int64_t j = 0; j < n; ++j)
      sum += y[size_t(i) * n + j] = std::exp(row[j] - max);
    for (int64_t j = 0; j < n; ++j)
      y[size_t(i) * n + j] /= sum;
  }
  return y;
}

/// The tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
inline std::vector<double> geluReference(const std::vector<float> &x) {
  const double k = std::sqrt(2.0 / M_PI);
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double v = x[i];
    y[i] = 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
  }
  return y;
}

inline std::vector<double> residualReference(const std::vector<float> &a,
                                             const std::vector<float> &b) {
  std::vector<double> c(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    c[i] = double(a[i]) + double(b[i]);
  return c;
}

/// Attention on GPT-2's layout: qkv is B*S rows of [q | k | v], H heads of
/// hd columns each; the result is B*S rows of H*hd columns,
/// softmax(q k^T / sqrt(hd)) v per sequence and head, keys after the query
/// left out when causal.
/// With `roundP`, the probabilities are rounded to bf16 where the kernel
/// rounds them: it walks the keys in tiles of 128, takes exp(s - m_t)
/// against the running maximum m_t of the tiles so far, rounds that to
/// bf16 before multiplying v, and rescales by exp(m_t - m) once the final
/// maximum m is known; the sum divided by is of the unrounded ones.
/// `kvHeads` key and value heads (0: `heads`) follow the query heads in
/// each qkv row; query head h reads key and value head h / (heads /
/// kvHeads).
inline std::vector<double>
attentionReference(const std::vector<float> &qkv, int64_t batch, int64_t heads,
                   int64_t seq, int64_t hd, bool causal, bool roundP = false,
                   int64_t kvHeads = 0) {
  constexpr int64_t kTile = 128;
  if (!kvHeads)
    kvHeads = heads;
  int64_t width = heads * hd, kvWidth = kvHeads * hd,
          stride = width + 2 * kvWidth, group = heads / kvHeads;
  std::vector<double> out(size_t(batch * seq) * width);
  std::vector<double> s(seq), runningMax(seq);
  double scale = 1.0 / std::sqrt(double(hd));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < seq; ++i) {
        const float *q = &qkv[size_t(b * seq + i) * stride + h * hd];
        int64_t keys = causal ? i + 1 : seq;
        double max = -INFINITY, sum = 0;
        for (int64_t j = 0; j < keys; ++j) {
          const float *k =
              &qkv[size_t(b * seq + j) * stride + width + h / group * hd];
          double dot = 0;
          for (int64_t d = 0; d < hd; ++d)
            dot += double(q[d]) * k[d];
          s[j] = dot * scale;
        }
        // The running maximum after each key's tile.
        for (int64_t t = 0; t < keys; t += kTile) {
          for (int64_t j = t; j < std::min(keys, t + kTile); ++j)
            max = std::max(max, s[j]);
          for (int64_t j = t; j < std::min(keys, t + kTile); ++j)
            runningMax[j] = max;
        }
        for (int64_t j = 0; j < keys; ++j)
          sum += std::exp(s[j] - max);
        double *o = &out[size_t(b * seq + i) * width + h * hd];
        for (int64_t j = 0; j < keys; ++j) {
          const float *v =
              &qkv[size_t(b * seq + j) * stride + width + kvWidth +
                   h / group * hd];
          double p = std::exp(s[j] - max);
          if (roundP)
            p = rt::bf16ToFloat(rt::floatToBf16(float(std::exp(s[j] - runningMax[j])))) *
                std::exp(runningMax[j] - max);
          for (int64_t d = 0; d < hd; ++d)
            o[d] += p / sum * v[d];
        }
      }
  return out;
}

//===----------------------------------------------------------------------===//
// Tolerance
//===----------------------------------------------------------------------===//

/// The spacing of bf16 numbers around |value| (8 significant bits):
/// 2^(floor(log2 |value|) - 7); 0 for 0.
inline double bf16Ulp(double value) {
  if (value == 0 || !std::isfinite(value))
    return 0;
  int exponent;
  std::frexp(value, &exponent); // |value| = f * 2^exponent, f in [0.5, 1)
  return std::ldexp(1.0, exponent - 8);
}

/// |got - expected| <= ulps * bf16Ulp(expected) + absolute.
/// Rounding a correct fp32 result to bf16 costs at most half an ulp; the
/// rest covers fp32 arithmetic (reductions, exp, a hardware tanh.approx) and
/// an intermediate rounded to bf16 on the way. The absolute term is for
/// results near zero, where a relative bound means nothing after
/// cancellation (x - mean, 1 + tanh): 2^-10 of the outputs' scale, an
/// eighth of a bf16 ulp at that scale.
struct Tolerance {
  double ulps;
  double absolute;
  double of(double expected) const {
    return ulps * bf16Ulp(expected) + absolute;
  }
};

/// The tolerance of `op` on rows of n elements (flat ops: n is ignored).
inline Tolerance toleranceFor(Op op, int64_t n) {
  switch (op) {
  case Op::LayerNorm: // outputs of order 1
  case Op::ResidualLayerNorm:
  case Op::RmsNorm:
    return {2, std::ldexp(1.0, -10)};
  case Op::Softmax: // outputs of order 1/n, relative error of exp and 1/sum
    return {2, std::ldexp(1.0, -10) / double(n)};
  case Op::Gelu: // outputs of order 1; tanh.approx is good to ~2^-11
    return {2, std::ldexp(1.0, -10)};
  case Op::Residual: // the fp32 sum of two bf16 numbers, rounded once
    return {1, 0};
  }
  return {0, 0};
}

/// Attention outputs are averages of values in [-2, 2] with weights p / l.
/// The kernel multiplies V by the probabilities rounded to bf16 (as
/// FlashAttention does), each off by at most 2^-9 of itself, so the output
/// is off by at most 2^-9 sum(p |v|) / l <= 2^-9 max|v| = 2^-8, plus its own
/// rounding to bf16.
inline Tolerance attentionTolerance() { return {2, std::ldexp(1.0, -8)}; }

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_GPTREFERENCE_H
