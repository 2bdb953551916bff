//===- BoundKernel.h - a kernel with its arguments bound --------*- C++ -*-===//
//
// A kernel of a compiled .mlir with its arguments given once, in the
// kernel's order (memrefs row-major, scalars as their C++ types), and the
// TMA tensor maps its .kinfo asks for appended; launch() then launches it
// as often as wanted (a forward pass binds every launch up front).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_BOUNDKERNEL_H
#define TILE_EXAMPLES_GPT_BOUNDKERNEL_H

#include "../common/ExampleUtil.h"

#include <string>
#include <vector>

namespace tile::examples::gpt {

/// A compiled .mlir file: its cubin and kernel descriptions, loaded once.
class KernelModule {
public:
  KernelModule(const char *cubin, const char *kinfo)
      : module(rt::Module::loadCubinFile(kernelFile(cubin))),
        infos(rt::loadKernelInfo(kernelFile(kinfo))) {}
  const rt::Module &cubin() const { return module; }
  const std::vector<rt::KernelInfo> &kernelInfos() const { return infos; }

private:
  rt::Module module;
  std::vector<rt::KernelInfo> infos;
};

class BoundKernel {
public:
  BoundKernel(const KernelModule &module, const std::string &name)
      : kernelName(name), info(rt::findKernel(module.kernelInfos(), name)),
        kernel(module.cubin().kernel(name)) {}

  /// A row-major memref of `sizes` (outermost first).
  BoundKernel &memref(CUdeviceptr base, const std::vector<int64_t> &sizes) {
    std::vector<int64_t> strides(sizes.size(), 1);
    for (size_t i = sizes.size(); i-- > 1;)
      strides[i - 1] = strides[i] * sizes[i];
    args.addMemRef(base, sizes, strides);
    byArgument.push_back({base, sizes, strides});
    return *this;
  }
  template <typename T> BoundKernel &scalar(T value) {
    args.addScalar<T>(value);
    byArgument.push_back({}); // not a memref: no tensor map names it
    return *this;
  }
  /// After the last argument: appends the tensor maps and sets the grid.
  BoundKernel &grid(rt::Dim3 blocks) {
    rt::appendTensorMaps(info, byArgument, args, tensorMaps);
    config = rt::launchConfigFor(info, blocks);
    return *this;
  }

  void launch() { rt::launch(kernel, config, args); }
  const std::string &name() const { return kernelName; }
  unsigned threads() const {
    return info.block.x * info.block.y * info.block.z;
  }

private:
  std::string kernelName;
  rt::KernelInfo info;
  rt::Kernel kernel;
  rt::ArgPack args;
  std::vector<rt::MemRefArg> byArgument;
  std::vector<rt::DeviceBuffer> tensorMaps;
  rt::LaunchConfig config;
};

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_BOUNDKERNEL_H
