//===- Launch.h - Modules, kernels and launches -----------------*- C++ -*-===//
//
// Keep a Module alive while any Kernel obtained from it is launched.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LAUNCH_H
#define TILE_RUNTIME_LAUNCH_H

#include "tile/Runtime/Error.h"
#include "tile/Runtime/KernelInfo.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tile {
namespace rt {

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// A kernel entry point. Does not own anything; valid while its Module lives.
class Kernel {
public:
  Kernel() = default;
  Kernel(CUfunction function, std::string name)
      : function_(function), name_(std::move(name)) {}

  CUfunction handle() const { return function_; }
  const std::string &name() const { return name_; }

private:
  CUfunction function_ = nullptr;
  std::string name_;
};

/// The SM version a cubin was built for (90 for sm_90a, 100 for sm_100a),
/// read from its ELF header; 0 when `image` is not a cubin. A cubin that
/// does not load names it beside the device's in the error.
int cubinArchitecture(const void *image, size_t bytes);

/// A loaded cubin (or PTX/fatbin image). Move-only; unloads on destruction.
class Module {
public:
  static Module loadCubinFile(const std::string &path);
  static Module loadImage(const void *image, size_t bytes);

  /// Loads a module compiled by tile with its kernel description: if any of
  /// `infos` has a link record (`link <kernel> nvshmem`), the image is
  /// relocatable and is linked with NVSHMEM first (the device functions it
  /// calls, compiled from NVSHMEM's headers with NVRTC, and
  /// libnvshmem_device.a: lib/Runtime/NvshmemLink.cpp), NVSHMEM is
  /// initialised if it is not yet (collective: see Nvshmem.h) and the
  /// module is registered with it until it is unloaded. Without NVSHMEM
  /// installed that throws an Error naming what is missing (check
  /// nvshmemAvailable() beforehand to skip instead). Other images load as
  /// above.
  static Module loadCubinFile(const std::string &path,
                              const std::vector<KernelInfo> &infos);
  static Module loadImage(const void *image, size_t bytes,
                          const std::vector<KernelInfo> &infos);

  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module();

  /// Looks up a kernel by its (mangled) symbol name.
  Kernel kernel(const std::string &name) const;
  CUmodule handle() const { return module_; }
  /// True if the module was linked with NVSHMEM and registered with it.
  bool usesNvshmem() const { return nvshmem_; }

private:
  explicit Module(CUmodule module) : module_(module) {}
  void reset() noexcept;

  CUmodule module_ = nullptr;
  bool nvshmem_ = false;
};

//===----------------------------------------------------------------------===//
// Kernel arguments and launches
//===----------------------------------------------------------------------===//

struct LaunchConfig {
  Dim3 grid, block, cluster;
  unsigned dynamicSharedBytes = 0;
  CUstream stream = nullptr;
  /// The kernel's parameters in bytes (KernelInfo::paramBytes, set by
  /// launchConfigFor): launch() then checks the arguments against them in
  /// number and size; without them only against what the driver can say.
  std::optional<std::vector<uint32_t>> paramBytes;
  /// The kernel waits at its entry for the kernel before it on the stream
  /// (KernelInfo::dependentLaunch, set by launchConfigFor): launch() then
  /// starts it as a dependent launch (programmatic stream serialisation),
  /// whose launch overlaps the end of that kernel, unless the environment
  /// says TILE_DEPENDENT_LAUNCH=0 or the stream is being captured into a
  /// graph (where it measured slower; TILE_DEPENDENT_LAUNCH=graph keeps it
  /// dependent there too).
  bool dependent = false;
  /// The kernel synchronises PEs inside with NVSHMEM's device functions
  /// (KernelInfo::collectiveLaunch, set by launchConfigFor): launch() then
  /// starts it as nvshmemx_collective_launch would, refusing a grid whose
  /// CTAs cannot all be resident at once and launching it cooperatively.
  bool collective = false;
};

/// Builds the `void **kernelParams` array for a launch. Every value gets its
/// own 128-byte slot, aligned like CUtensorMap (at least 64 bytes), in a
/// deque, so addresses handed out by params() stay valid while more
/// arguments are appended or the pack is moved.
class ArgPack {
public:
  ArgPack() = default;
  ArgPack(ArgPack &&) = default;
  ArgPack &operator=(ArgPack &&) = default;
  ArgPack(const ArgPack &) = delete;
  ArgPack &operator=(const ArgPack &) = delete;

  template <typename T> ArgPack &addScalar(T value) {
    static_assert(std::is_trivially_copyable<T>::value,
                  "kernel arguments must be trivially copyable");
    static_assert(sizeof(T) <= kSlotBytes, "kernel argument too large");
    addBytes(&value, sizeof(T));
    return *this;
  }

  ArgPack &addPointer(CUdeviceptr ptr);

  /// Appends an MLIR memref descriptor expanded into scalar parameters:
  /// allocated ptr, aligned ptr, offset (0), sizes[rank], strides[rank].
  ArgPack &addMemRef(CUdeviceptr base, std::vector<int64_t> sizes,
                     std::vector<int64_t> stridesInElements);

  /// Appends a TMA descriptor passed by value (a __grid_constant__ param).
  ArgPack &addTensorMap(const CUtensorMap &map);

  /// Appends `bytes` raw bytes as one parameter.
  ArgPack &addBytes(const void *data, size_t bytes);
  /// Overwrites parameter `param` (of exactly `bytes` bytes) in place.
  void setBytes(size_t param, const void *data, size_t bytes);

  void **params() { return params_.data(); }
  size_t size() const { return params_.size(); }
  /// Each parameter's size in bytes.
  const std::vector<size_t> &bytes() const { return bytes_; }
  void clear();

private:
  static constexpr size_t kSlotBytes = 128;
  struct alignas(alignof(CUtensorMap)) Slot {
    unsigned char bytes[kSlotBytes];
  };

  std::deque<Slot> slots_;
  std::vector<void *> params_;
  std::vector<size_t> bytes_;
};

/// Launches `kernel`. Uses cuLaunchKernelEx with a cluster-dimension
/// attribute when config.cluster is not 1x1x1, with programmatic stream
/// serialisation when config.dependent (unless collective), as a
/// cooperative launch when config.collective (after checking that the whole
/// grid fits on the device at once: an Error says how many CTAs would), and
/// opts into more than
/// 48 KiB of dynamic shared memory when requested. Throws Error, before
/// launching, when `args` do not match the kernel's parameters
/// (config.paramBytes, else the driver's sizes: then a missing trailing
/// argument goes unseen) or the device cannot give the shared memory asked
/// for.
void launch(const Kernel &kernel, const LaunchConfig &config, ArgPack &args);

/// Sets `words` 32-bit words from `ptr` to `value` on `stream`, ordered
/// before the launches that follow on it (a result that a kernel adds
/// partial sums into, zeroed first).
void fillWordsAsync(CUdeviceptr ptr, uint32_t value, size_t words,
                    CUstream stream = nullptr);

/// How many clusters of config.cluster CTAs (with config's block and shared
/// memory) the device can run at once (cuOccupancyMaxActiveClusters): a
/// persistent kernel in clusters launches at most that many.
unsigned maxActiveClusters(const Kernel &kernel, const LaunchConfig &config);

/// A launch configuration with the block, cluster and shared memory size
/// recorded in `info`. (It does not zero the arguments a zero record names:
/// BoundLaunch::launch does, launch() does not.)
LaunchConfig launchConfigFor(const KernelInfo &info, Dim3 grid,
                             CUstream stream = nullptr);

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_LAUNCH_H
