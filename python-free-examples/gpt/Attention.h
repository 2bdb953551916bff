//===- Attention.h - the flash attention kernels from C++ -------*- C++ -*-===//
//
// attention.mlir's kernels on GPT-2's layout: qkv is B*S rows of
// [q | k | v] (q of H heads, k and v of Hkv heads, hd columns each), out
// is B*S rows of H*hd columns. bindAttention binds one problem through the
// generated launcher's tuned dispatch.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_ATTENTION_H
#define TILE_EXAMPLES_GPT_ATTENTION_H

#include "../common/ExampleUtil.h"
#include "attention_launcher.h"

#include "tile/Runtime/Launcher.h"

#include <cmath>
#include <string>
#include <vector>

namespace tile::examples::gpt {

struct AttentionShape {
  int64_t batch, heads, seq, headDim;
  bool causal;
  /// Key and value heads (grouped-query attention); 0 for `heads`.
  int64_t kvHeads = 0;
  int64_t keyValueHeads() const { return kvHeads ? kvHeads : heads; }
  /// qkv's columns: H query heads, then Hkv key and Hkv value heads.
  int64_t qkvWidth() const { return (heads + 2 * keyValueHeads()) * headDim; }
  /// Multiply-adds x 2 of both products; half of them when causal.
  double flops() const {
    double full = 4.0 * batch * heads * double(seq) * double(seq) * headDim;
    return causal ? full / 2 : full;
  }
};

/// The attention of one problem, bound by attention.mlir's generated
/// launcher to the configuration its tuning table gives the problem's
/// head dim, shape and mask (gpt_attention::attention_tuned).
inline rt::BoundLaunch bindAttention(const AttentionShape &shape,
                                     CUdeviceptr qkv, CUdeviceptr out) {
  if (shape.seq < 1 || shape.batch < 1 || shape.heads < 1)
    throw rt::Error("attention: batch, heads and sequence length must be "
                    "positive");
  int64_t kvHeads = shape.keyValueHeads();
  if (kvHeads < 1 || shape.heads % kvHeads != 0)
    throw rt::Error("attention: " + std::to_string(shape.heads) +
                    " query heads do not share " + std::to_string(kvHeads) +
                    " key/value heads evenly");
  if (shape.headDim != 64 && shape.headDim != 128 && shape.headDim != 256)
    throw rt::Error("attention: head dim " + std::to_string(shape.headDim) +
                    " has no kernel (64, 128 and 256 do)");
  int64_t rows = shape.batch * shape.seq;
  int64_t width = shape.heads * shape.headDim;
  return gpt_attention::attention_tuned(
      {{"HD", shape.headDim}},
      rt::MemRef<rt::bf16, 2>::rowMajor(qkv, {rows, shape.qkvWidth()}),
      rt::MemRef<rt::bf16, 2>::rowMajor(out, {rows, width}), shape.seq,
      shape.heads, kvHeads,
      // Softmax in base 2: exp(x / sqrt(hd)) = 2^(x log2(e) / sqrt(hd)).
      float(M_LOG2E / std::sqrt(double(shape.headDim))), shape.causal);
}

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_ATTENTION_H
