//===- Attention.h - the flash attention kernels from C++ -------*- C++ -*-===//
//
// attention.mlir's kernels on GPT-2's layout: qkv is B*S rows of
// [q | k | v] (H heads of hd columns each), out is B*S rows of H*hd
// columns. AttentionKernel binds one problem and launches it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_ATTENTION_H
#define TILE_EXAMPLES_GPT_ATTENTION_H

#include "../common/ExampleUtil.h"

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

/// The kernels of attention.mlir, loaded once.
class AttentionModule {
public:
  AttentionModule()
      : module(rt::Module::loadCubinFile(kernelFile(GPT_ATTENTION_KERNEL_CUBIN))),
        infos(rt::loadKernelInfo(kernelFile(GPT_ATTENTION_KERNEL_KINFO))) {}
  const rt::Module &cubin() const { return module; }
  const std::vector<rt::KernelInfo> &kernelInfos() const { return infos; }

private:
  rt::Module module;
  std::vector<rt::KernelInfo> infos;
};

/// One problem bound to the kernel for its head dim.
class AttentionKernel {
public:
  AttentionKernel(const AttentionModule &module, const AttentionShape &shape,
                  CUdeviceptr qkv, CUdeviceptr out)
      : shape(shape) {
    if (shape.headDim != 64 && shape.headDim != 128)
      throw rt::Error("attention: head dim " + std::to_string(shape.headDim) +
                      " has no kernel (64 and 128 do)");
    if (shape.seq < 1 || shape.seq % kAttentionTile != 0)
      throw rt::Error("attention: the sequence length must be a positive "
                      "multiple of 128, not " +
                      std::to_string(shape.seq));
    std::string name = "attention_hd" + std::to_string(shape.headDim);
    const rt::KernelInfo &info = rt::findKernel(module.kernelInfos(), name);
    kernel = module.cubin().kernel(name);
    int64_t rows = shape.batch * shape.seq;
    int64_t width = shape.heads * shape.headDim;
    std::vector<rt::MemRefArg> memrefs{{qkv, {rows, 3 * width}, {3 * width, 1}},
                                       {out, {rows, width}, {width, 1}},
                                       {},
                                       {},
                                       {},
                                       {}};
    args.addMemRef(memrefs[0].base, memrefs[0].sizes, memrefs[0].strides);
    args.addMemRef(memrefs[1].base, memrefs[1].sizes, memrefs[1].strides);
    args.addScalar<int64_t>(shape.seq);
    args.addScalar<int64_t>(shape.heads);
    // Softmax in base 2: exp(x / sqrt(hd)) = 2^(x log2(e) / sqrt(hd)).
    args.addScalar<float>(float(M_LOG2E / std::sqrt(double(shape.headDim))));
    args.addScalar<uint8_t>(shape.causal ? 1 : 0);
    rt::appendTensorMaps(info, memrefs, args, tensorMaps);
    config = rt::launchConfigFor(
        info, {unsigned(shape.seq / kAttentionTile),
               unsigned(shape.batch * shape.heads), 1});
  }

  void launch() { rt::launch(kernel, config, args); }

private:
  AttentionShape shape;
  rt::Kernel kernel;
  rt::ArgPack args;
  std::vector<rt::DeviceBuffer> tensorMaps;
  rt::LaunchConfig config;
};

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_ATTENTION_H
