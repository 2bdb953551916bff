//===- GptOps.h - the GPT building blocks, by name --------------*- C++ -*-===//
//
// The element-wise and row ops of a GPT forward pass, for the kernel table
// (GptKernels.h) and the references (GptReference.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_GPTOPS_H
#define TILE_EXAMPLES_GPT_GPTOPS_H

#include "../common/ExampleUtil.h"

namespace tile::examples::gpt {

/// ResidualLayerNorm is the residual add fused into the layernorm after
/// it: x = x + res (in place), y = layernorm(x). RmsNorm is LLaMA's:
/// y = x / sqrt(mean(x^2) + eps) * w.
enum class Op { LayerNorm, Softmax, Gelu, Residual, ResidualLayerNorm, RmsNorm };

/// Every op, in the order of the enum.
inline constexpr Op kOps[] = {Op::LayerNorm, Op::Softmax, Op::Gelu,
                              Op::Residual, Op::ResidualLayerNorm,
                              Op::RmsNorm};

inline bool isRowOp(Op op) {
  return op == Op::LayerNorm || op == Op::Softmax ||
         op == Op::ResidualLayerNorm || op == Op::RmsNorm;
}

/// The layernorms: they take a weight, a bias and eps.
inline bool isLayerNorm(Op op) {
  return op == Op::LayerNorm || op == Op::ResidualLayerNorm;
}

inline const char *opName(Op op) {
  switch (op) {
  case Op::LayerNorm:
    return "layernorm";
  case Op::Softmax:
    return "softmax";
  case Op::Gelu:
    return "gelu";
  case Op::Residual:
    return "residual";
  case Op::ResidualLayerNorm:
    return "residual+layernorm";
  case Op::RmsNorm:
    return "rmsnorm";
  }
  return "?";
}

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_GPTOPS_H
