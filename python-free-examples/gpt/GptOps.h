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

enum class Op { LayerNorm, Softmax, Gelu, Residual };

/// Every op, in the order of the enum (GptModules indexes by it).
inline constexpr Op kOps[] = {Op::LayerNorm, Op::Softmax, Op::Gelu,
                              Op::Residual};

inline bool isRowOp(Op op) { return op == Op::LayerNorm || op == Op::Softmax; }

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
  }
  return "?";
}

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_GPTOPS_H
