//===- GptKernels.h - the GPT building-block kernels from C++ ---*- C++ -*-===//
//
// The kernels of a GPT forward pass other than its GEMMs: layernorm and
// softmax over the rows of an M x N bf16 matrix, GELU and the residual add
// over bf16 vectors. kKernels below is the one place that says how each is
// launched; GptKernel binds its arguments and launches it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_GPTKERNELS_H
#define TILE_EXAMPLES_GPT_GPTKERNELS_H

#include "GptOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile::examples::gpt {

/// How a kernel of one of the .mlir files is launched.
///  - Row kernels (layernorm, softmax): x and y are M x N row-major
///    (strides {N, 1}); CTA i takes rows perCta*i .. perCta*i + perCta - 1,
///    grid = ceil(M / perCta); any N <= maxN.
///  - Flat kernels (gelu, residual): vectors of n elements, perCta elements
///    per CTA, grid = ceil(n / perCta); maxN is 0 (no limit).
/// `threads` is the kernel's threads(...); the .kinfo must agree.
struct KernelSpec {
  const char *name;
  Op op;
  unsigned threads;
  unsigned perCta;
  int64_t maxN;
};

/// maxN of the kernels that take rows of any length (in chunks).
inline constexpr int64_t kAnyLength = INT64_MAX;

// The kernel table. Row kernels of one op are chosen by N: the one with the
// smallest maxN >= N (so layernorm_1024 for N = 768, layernorm_4096 for
// N = 4096); the check tests each on the N it is chosen for.
inline constexpr KernelSpec kKernels[] = {
    // name              op             threads perCta maxN
    {"layernorm_1024", Op::LayerNorm, 128, 4, 1024},
    {"layernorm_4096", Op::LayerNorm, 512, 2, 4096},
    {"layernorm_rows", Op::LayerNorm, 512, 1, kAnyLength},
    {"softmax_1024", Op::Softmax, 128, 4, 1024},
    {"softmax_4096", Op::Softmax, 512, 2, 4096},
    {"softmax_rows", Op::Softmax, 512, 1, kAnyLength},
    {"gelu", Op::Gelu, 128, 2048, 0},
    {"residual_add", Op::Residual, 128, 2048, 0},
    {"residual_layernorm_1024", Op::ResidualLayerNorm, 128, 4, 1024},
};

/// The row kernel of `op` chosen for rows of n elements, or nullptr if no
/// kernel takes rows that long. For a flat op, its (first) kernel.
inline const KernelSpec *kernelFor(Op op, int64_t n) {
  const KernelSpec *best = nullptr;
  for (const KernelSpec &spec : kKernels) {
    if (spec.op != op)
      continue;
    if (!isRowOp(op))
      return &spec;
    if (n <= spec.maxN && (!best || spec.maxN < best->maxN))
      best = &spec;
  }
  return best;
}

/// Bytes a kernel reads and writes on an M x N problem (n = M * N for flat
/// ops): x and y for the row ops (w and b, N elements each, left out), x and
/// y for gelu, a, b and c for the residual add.
inline size_t bytesMoved(Op op, int64_t m, int64_t n) {
  size_t elements = size_t(m) * size_t(n);
  int arrays = op == Op::ResidualLayerNorm ? 4 : op == Op::Residual ? 3 : 2;
  return arrays * elements * 2;
}

/// The compiled files of each .mlir (paths from CMake, tile_add_kernel).
struct KernelFiles {
  const char *cubin, *kinfo;
};
inline KernelFiles kernelFiles(Op op) {
  switch (op) {
  case Op::LayerNorm:
    return {GPT_LAYERNORM_KERNEL_CUBIN, GPT_LAYERNORM_KERNEL_KINFO};
  case Op::Softmax:
    return {GPT_SOFTMAX_KERNEL_CUBIN, GPT_SOFTMAX_KERNEL_KINFO};
  case Op::Gelu:
    return {GPT_GELU_KERNEL_CUBIN, GPT_GELU_KERNEL_KINFO};
  case Op::Residual:
    return {GPT_RESIDUAL_KERNEL_CUBIN, GPT_RESIDUAL_KERNEL_KINFO};
  case Op::ResidualLayerNorm: // in layernorm.mlir
    return {GPT_LAYERNORM_KERNEL_CUBIN, GPT_LAYERNORM_KERNEL_KINFO};
  }
  throw rt::Error("unknown op");
}

/// One kernel of the table, loaded, with its arguments bound by bindRows or
/// bindFlat and launched by launch().
class GptKernel {
public:
  GptKernel(const KernelSpec &spec, const rt::Module &module,
            const std::vector<rt::KernelInfo> &infos)
      : spec(spec), info(rt::findKernel(infos, spec.name)),
        kernel(module.kernel(spec.name)) {
    unsigned threads = info.block.x * info.block.y * info.block.z;
    if (threads != spec.threads)
      throw rt::Error(std::string("kernel '") + spec.name + "': its .kinfo says " +
                      std::to_string(threads) +
                      " threads, the table in GptKernels.h says " +
                      std::to_string(spec.threads));
  }

  /// layernorm (x, w, b, y, eps), softmax (x, y) or the residual add and
  /// layernorm (x, res, w, b, y, eps; x updated in place) on M x N
  /// row-major matrices; w and b (N elements) and res are ignored where
  /// the kernel takes none.
  void bindRows(CUdeviceptr x, CUdeviceptr y, int64_t m, int64_t n,
                CUdeviceptr w = 0, CUdeviceptr b = 0, float eps = 0,
                CUdeviceptr res = 0) {
    if (!isRowOp(spec.op))
      throw rt::Error(std::string(spec.name) + " is not a row kernel");
    if (n > spec.maxN)
      throw rt::Error(std::string(spec.name) + " takes rows of at most " +
                      std::to_string(spec.maxN) + " elements, not " +
                      std::to_string(n));
    std::vector<rt::MemRefArg> memrefs{{x, {m, n}, {n, 1}}};
    if (spec.op == Op::ResidualLayerNorm)
      memrefs.push_back({res, {m, n}, {n, 1}});
    if (isLayerNorm(spec.op)) {
      memrefs.push_back({w, {n}, {1}});
      memrefs.push_back({b, {n}, {1}});
    }
    memrefs.push_back({y, {m, n}, {n, 1}});
    bind(memrefs, isLayerNorm(spec.op), eps, ceilDiv(m, spec.perCta));
  }

  /// gelu (x, y) or the residual add (a, b, c) on vectors of n elements.
  void bindFlat(const std::vector<CUdeviceptr> &buffers, int64_t n) {
    if (isRowOp(spec.op))
      throw rt::Error(std::string(spec.name) + " is a row kernel");
    std::vector<rt::MemRefArg> memrefs;
    for (CUdeviceptr buffer : buffers)
      memrefs.push_back({buffer, {n}, {1}});
    bind(memrefs, false, 0, ceilDiv(n, spec.perCta));
  }

  void launch() { rt::launch(kernel, config, args); }
  const KernelSpec &kernelSpec() const { return spec; }
  const rt::LaunchConfig &launchConfig() const { return config; }

private:
  static unsigned ceilDiv(int64_t a, int64_t b) {
    return static_cast<unsigned>((a + b - 1) / b);
  }

  // The memrefs in argument order, then the f32 scalar if `withScalar` (the
  // last argument), then the tensor maps the .kinfo asks for, if any.
  void bind(const std::vector<rt::MemRefArg> &memrefs, bool withScalar,
            float scalar, unsigned blocks) {
    args = rt::ArgPack();
    tensorMaps.clear();
    for (const rt::MemRefArg &memref : memrefs)
      args.addMemRef(memref.base, memref.sizes, memref.strides);
    std::vector<rt::MemRefArg> byArgument = memrefs;
    if (withScalar) {
      args.addScalar<float>(scalar);
      byArgument.push_back({}); // not a memref: no tensor map can name it
    }
    rt::appendTensorMaps(info, byArgument, args, tensorMaps);
    config = rt::launchConfigFor(info, {std::max(1u, blocks), 1, 1});
  }

  KernelSpec spec;
  rt::KernelInfo info;
  rt::Kernel kernel;
  rt::ArgPack args;
  std::vector<rt::DeviceBuffer> tensorMaps;
  rt::LaunchConfig config;
};

/// The four modules (one per .mlir), loaded once.
class GptModules {
public:
  GptModules() {
    for (Op op : kOps) {
      KernelFiles files = kernelFiles(op);
      modules.push_back(rt::Module::loadCubinFile(kernelFile(files.cubin)));
      infos.push_back(rt::loadKernelInfo(kernelFile(files.kinfo)));
    }
  }

  GptKernel kernel(const KernelSpec &spec) const {
    size_t i = static_cast<size_t>(spec.op);
    return GptKernel(spec, modules[i], infos[i]);
  }

private:
  std::vector<rt::Module> modules;
  std::vector<std::vector<rt::KernelInfo>> infos;
};

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_GPTKERNELS_H
