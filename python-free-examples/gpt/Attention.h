//===- Attention.h - the flash attention kernels from C++ -------*- C++ -*-===//
//
// attention.mlir's kernels on GPT-2's layout: qkv is B*S rows of
// [q | k | v] (H heads of hd columns each), out is B*S rows of H*hd
// columns. bindAttention binds one problem.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_ATTENTION_H
#define TILE_EXAMPLES_GPT_ATTENTION_H

#include "BoundKernel.h"

#include <cmath>
#include <string>
#include <vector>

namespace tile::examples::gpt {

/// Queries (and keys) per tile: S must be a multiple of it.
constexpr int64_t kAttentionTile = 128;

struct AttentionShape {
  int64_t batch, heads, seq, headDim;
  bool causal;
  /// Multiply-adds x 2 of both products; half of them when causal.
  double flops() const {
    double full = 4.0 * batch * heads * double(seq) * double(seq) * headDim;
    return causal ? full / 2 : full;
  }
};

/// attention.mlir's kernels, loaded.
inline KernelModule loadAttention() {
  return KernelModule(GPT_ATTENTION_KERNEL_CUBIN, GPT_ATTENTION_KERNEL_KINFO);
}

/// The attention of one problem, bound to the kernel for its head dim.
inline BoundKernel bindAttention(const KernelModule &module,
                                 const AttentionShape &shape, CUdeviceptr qkv,
                                 CUdeviceptr out) {
  if (shape.headDim != 64 && shape.headDim != 128)
    throw rt::Error("attention: head dim " + std::to_string(shape.headDim) +
                    " has no kernel (64 and 128 do)");
  if (shape.seq < 1 || shape.seq % kAttentionTile != 0)
    throw rt::Error("attention: the sequence length must be a positive "
                    "multiple of 128, not " +
                    std::to_string(shape.seq));
  int64_t rows = shape.batch * shape.seq;
  int64_t width = shape.heads * shape.headDim;
  BoundKernel kernel(module, "attention_hd" + std::to_string(shape.headDim));
  kernel.memref(qkv, {rows, 3 * width})
      .memref(out, {rows, width})
      .scalar<int64_t>(shape.seq)
      .scalar<int64_t>(shape.heads)
      // Softmax in base 2: exp(x / sqrt(hd)) = 2^(x log2(e) / sqrt(hd)).
      .scalar<float>(float(M_LOG2E / std::sqrt(double(shape.headDim))))
      .scalar<uint8_t>(shape.causal ? 1 : 0)
      .grid({unsigned(shape.seq / kAttentionTile),
             unsigned(shape.batch * shape.heads), 1});
  return kernel;
}

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_ATTENTION_H
