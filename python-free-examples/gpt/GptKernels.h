//===- GptKernels.h - the GPT building-block kernels from C++ ---*- C++ -*-===//
//
// The kernels of a GPT forward pass other than its GEMMs: layernorm and
// softmax over the rows of an M x N bf16 matrix, GELU and the residual add
// over bf16 vectors. kKernels below says which the programs offer (how each
// is launched is in its kernel description); GptKernel binds its arguments
// and launches it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_GPTKERNELS_H
#define TILE_EXAMPLES_GPT_GPTKERNELS_H

#include "../common/ExampleUtil.h"
#include "gelu_launcher.h"
#include "layernorm_launcher.h"
#include "residual_launcher.h"
#include "softmax_launcher.h"

#include "tile/Runtime/Launcher.h"
#include "GptOps.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile::examples::gpt {

/// A kernel of one of the .mlir files. How it is launched is in its
/// description: its threads, its grid (each kernel states it with
/// tile.grid: a CTA per ROWS rows, per row or per 2048 elements) and, for a
/// family's configuration, the longest rows it takes (COLS; the chunked
/// `*_rows` kernels take any length). With `tunedFamily`, the entry is
/// that family's tuned dispatch (gpt_layernorm::layernorm_tuned,
/// gpt_softmax::softmax_tuned: the configuration its tuning table gives
/// the shape), which kernelFor does not pick.
struct KernelSpec {
  const char *name;
  Op op;
  const char *tunedFamily = nullptr;
};

/// The longest rows of the kernels that take rows of any length (in
/// chunks).
inline constexpr int64_t kAnyLength = INT64_MAX;

// The kernel table: which kernels the programs offer. Row kernels of one op
// are chosen by N: the one whose longest row (COLS) is the smallest >= N
// (so the COLS768 configurations for N = 768, COLS4096 for N = 4096, the
// *_staged kernels up to 8192, 16384 and 32768, the chunked *_rows kernels
// past it); the check tests each on the N it is chosen for. The 768-column
// ones hold a row per warp (reductions by shuffles alone, no masked
// lanes), the 256-thread 4096-column ones fewer warps a row than 512
// threads would, and the staged ones a row in shared memory (the smaller
// the row, the smaller the buffer, the CTA and the chunk: chunks of 1024
// and 2048 divide LLaMA's 5120- and GPT-3's 12288-wide rows, and more CTAs
// share an SM): measured faster (docs/measurements.md, 2026-11-29).
inline constexpr KernelSpec kKernels[] = {
    {"layernorm__ROWS4_COLS768_THREADS128", Op::LayerNorm},
    {"layernorm__ROWS4_COLS1024_THREADS128", Op::LayerNorm},
    {"layernorm__ROWS2_COLS4096_THREADS256", Op::LayerNorm},
    {"layernorm_staged__COLS8192_CHUNK1024_THREADS64", Op::LayerNorm},
    {"layernorm_staged__COLS16384_CHUNK2048_THREADS128", Op::LayerNorm},
    {"layernorm_staged__COLS32768_CHUNK4096_THREADS256", Op::LayerNorm},
    {"layernorm_rows", Op::LayerNorm},
    {"softmax__ROWS4_COLS768_THREADS128", Op::Softmax},
    {"softmax__ROWS4_COLS1024_THREADS128", Op::Softmax},
    {"softmax__ROWS1_COLS4096_THREADS256", Op::Softmax},
    {"softmax_staged__COLS8192_CHUNK1024_THREADS64", Op::Softmax},
    {"softmax_staged__COLS16384_CHUNK2048_THREADS128", Op::Softmax},
    {"softmax_staged__COLS32768_CHUNK4096_THREADS256", Op::Softmax},
    {"softmax_rows", Op::Softmax},
    {"layernorm_tuned", Op::LayerNorm, "layernorm"},
    {"softmax_tuned", Op::Softmax, "softmax"},
    {"gelu", Op::Gelu},
    {"residual_add", Op::Residual},
    {"residual_layernorm__ROWS4_COLS768_THREADS128", Op::ResidualLayerNorm},
    {"residual_layernorm__ROWS4_COLS1024_THREADS128", Op::ResidualLayerNorm},
    {"residual_layernorm__ROWS2_COLS4096_THREADS256", Op::ResidualLayerNorm},
    {"residual_layernorm_staged__COLS8192_CHUNK1024_THREADS64",
     Op::ResidualLayerNorm},
    {"residual_layernorm_staged__COLS16384_CHUNK2048_THREADS128",
     Op::ResidualLayerNorm},
    {"residual_layernorm_staged__COLS32768_CHUNK4096_THREADS256",
     Op::ResidualLayerNorm},
    {"rmsnorm__ROWS4_COLS768_THREADS128", Op::RmsNorm},
    {"rmsnorm__ROWS4_COLS1024_THREADS128", Op::RmsNorm},
    {"rmsnorm__ROWS2_COLS4096_THREADS512", Op::RmsNorm},
    {"rmsnorm_staged__COLS8192_CHUNK1024_THREADS64", Op::RmsNorm},
    {"rmsnorm_staged__COLS16384_CHUNK2048_THREADS128", Op::RmsNorm},
    {"rmsnorm_staged__COLS32768_CHUNK4096_THREADS256", Op::RmsNorm},
    {"rmsnorm_rows", Op::RmsNorm},
};

/// Bytes a kernel reads and writes on an M x N problem (n = M * N for flat
/// ops): x and y for the row ops (w and b, N elements each, left out), x and
/// y for gelu, a, b and c for the residual add.
inline size_t bytesMoved(Op op, int64_t m, int64_t n) {
  size_t elements = size_t(m) * size_t(n);
  int arrays = op == Op::ResidualLayerNorm ? 4 : op == Op::Residual ? 3 : 2;
  return arrays * elements * 2;
}

/// The .mlir files of the table's kernels, in the order GptModules loads
/// them, and the one holding each op's kernels.
enum class GptFile { LayerNorm, Softmax, Gelu, Residual, Count };
inline GptFile fileOf(Op op) {
  switch (op) {
  case Op::LayerNorm:
  case Op::ResidualLayerNorm: // in layernorm.mlir
  case Op::RmsNorm:
    return GptFile::LayerNorm;
  case Op::Softmax:
    return GptFile::Softmax;
  case Op::Gelu:
    return GptFile::Gelu;
  case Op::Residual:
    return GptFile::Residual;
  }
  throw rt::Error("unknown op");
}

/// The .mlir files' embedded modules (their generated launchers, built by
/// tile_add_kernel(... LAUNCHER)), each loaded at first use.
class GptModules {
public:
  rt::EmbeddedModule &of(Op op) const {
    switch (fileOf(op)) {
    case GptFile::LayerNorm:
      return gpt_layernorm::module();
    case GptFile::Softmax:
      return gpt_softmax::module();
    case GptFile::Gelu:
      return gpt_gelu::module();
    case GptFile::Residual:
    case GptFile::Count:
      break;
    }
    return gpt_residual::module();
  }
};

/// The value of parameter `name` in the configuration `info` was made
/// from, if it has one.
inline std::optional<int64_t> configValue(const rt::KernelInfo &info,
                                          const std::string &name) {
  for (const auto &[param, value] : info.config)
    if (param == name)
      return value;
  return std::nullopt;
}

/// The longest rows `spec` takes: its configuration's COLS (any length
/// without one); for a tuned dispatch, its family's longest COLS.
inline int64_t maxColumns(const KernelSpec &spec) {
  const rt::EmbeddedModule &module = GptModules().of(spec.op);
  if (!spec.tunedFamily)
    return configValue(module.info(spec.name), "COLS").value_or(kAnyLength);
  int64_t most = 0;
  for (const rt::KernelInfo &info : module.infos())
    if (info.family == spec.tunedFamily)
      most = std::max(most, configValue(info, "COLS").value_or(0));
  return most;
}

/// The row kernel of `op` chosen for rows of n elements, or nullptr if no
/// kernel takes rows that long. For a flat op, its (first) kernel.
inline const KernelSpec *kernelFor(Op op, int64_t n) {
  const KernelSpec *best = nullptr;
  int64_t bestColumns = 0;
  for (const KernelSpec &spec : kKernels) {
    if (spec.op != op || spec.tunedFamily)
      continue;
    if (!isRowOp(op))
      return &spec;
    int64_t columns = maxColumns(spec);
    if (n <= columns && (!best || columns < bestColumns)) {
      best = &spec;
      bestColumns = columns;
    }
  }
  return best;
}

/// One kernel of the table, its arguments bound by bindRows or bindFlat
/// (again for each new problem) and launched by launch().
class GptKernel {
public:
  GptKernel(const KernelSpec &spec, const GptModules &modules)
      : spec(spec), module(&modules.of(spec.op)) {}

  /// layernorm (x, w, b, y, eps), rmsnorm (x, w, y, eps), softmax (x, y)
  /// or the residual add and layernorm (x, res, w, b, y, eps; x updated in
  /// place) on M x N row-major matrices; w and b (N elements) and res are
  /// ignored where the kernel takes none.
  void bindRows(CUdeviceptr x, CUdeviceptr y, int64_t m, int64_t n,
                CUdeviceptr w = 0, CUdeviceptr b = 0, float eps = 0,
                CUdeviceptr res = 0) {
    if (!isRowOp(spec.op))
      throw rt::Error(std::string(spec.name) + " is not a row kernel");
    if (n > maxColumns(spec))
      throw rt::Error(std::string(spec.name) + " takes rows of at most " +
                      std::to_string(maxColumns(spec)) + " elements, not " +
                      std::to_string(n));
    using Matrix = rt::MemRef<rt::bf16, 2>;
    using Vector = rt::MemRef<rt::bf16, 1>;
    if (spec.tunedFamily) {
      if (spec.op == Op::LayerNorm)
        bound.emplace(gpt_layernorm::layernorm_tuned(
            {}, Matrix::rowMajor(x, {m, n}), Vector::rowMajor(w, {n}),
            Vector::rowMajor(b, {n}), Matrix::rowMajor(y, {m, n}), eps));
      else
        bound.emplace(gpt_softmax::softmax_tuned(
            {}, Matrix::rowMajor(x, {m, n}), Matrix::rowMajor(y, {m, n})));
      return;
    }
    rt::BoundLaunch &kernel = rebind();
    kernel.arg(Matrix::rowMajor(x, {m, n}));
    if (spec.op == Op::ResidualLayerNorm)
      kernel.arg(Matrix::rowMajor(res, {m, n}));
    if (isLayerNorm(spec.op) || spec.op == Op::RmsNorm)
      kernel.arg(Vector::rowMajor(w, {n}));
    if (isLayerNorm(spec.op))
      kernel.arg(Vector::rowMajor(b, {n}));
    kernel.arg(Matrix::rowMajor(y, {m, n}));
    if (isLayerNorm(spec.op) || spec.op == Op::RmsNorm)
      kernel.arg(eps);
    kernel.grid();
  }

  /// gelu (x, y) or the residual add (a, b, c) on vectors of n elements.
  void bindFlat(const std::vector<CUdeviceptr> &buffers, int64_t n) {
    if (isRowOp(spec.op))
      throw rt::Error(std::string(spec.name) + " is a row kernel");
    rt::BoundLaunch &kernel = rebind();
    for (CUdeviceptr buffer : buffers)
      kernel.arg(rt::MemRef<rt::bf16, 1>::rowMajor(buffer, {n}));
    kernel.grid();
  }

  void launch() { boundLaunch().launch(); }
  /// Launches on `stream` instead of the bound one.
  void launch(CUstream stream) { boundLaunch().launch(stream); }
  const KernelSpec &kernelSpec() const { return spec; }

private:
  rt::BoundLaunch &boundLaunch() {
    if (!bound)
      throw rt::Error(std::string(spec.name) + " launched before binding");
    return *bound;
  }

  rt::BoundLaunch &rebind() {
    bound.emplace(module->module(), module->info(spec.name));
    return *bound;
  }

  KernelSpec spec;
  rt::EmbeddedModule *module;
  std::optional<rt::BoundLaunch> bound;
};

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_GPTKERNELS_H
