//===- Launcher.h - what generated launchers are made of --------*- C++ -*-===//
//
// tile-translate --launcher=<prefix> writes <prefix>.h and <prefix>.cpp: the
// cubin and its kernel description embedded, and one typed function per
// kernel (a dispatcher per family) that binds the arguments and returns a
// BoundLaunch. They are built from the pieces here, which can also be used
// by hand: MemRef (a memref argument), EmbeddedModule (a cubin compiled
// into the program) and BoundLaunch (a kernel with its arguments bound,
// checked against the description's names and types, tensor maps built).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LAUNCHER_H
#define TILE_RUNTIME_LAUNCHER_H

#include "tile/Runtime/Device.h"
#include "tile/Runtime/KernelInfo.h"
#include "tile/Runtime/Launch.h"
#include "tile/Runtime/TensorMap.h"
#include "tile/Runtime/Tuning.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace tile {
namespace rt {

/// 16-bit floats as kernel arguments and memref element types (the bits;
/// Float.h converts).
struct bf16 {
  uint16_t bits = 0;
};
struct f16 {
  uint16_t bits = 0;
};

/// MLIR's name of the C++ type T as a kernel argument or element type
/// (TypeName<float>::value is "f32"); int64_t stands for i64 and index.
template <typename T> struct TypeName;
#define TILE_RT_TYPE_NAME(T, NAME)                                             \
  template <> struct TypeName<T> { static constexpr const char *value = NAME; };
TILE_RT_TYPE_NAME(bool, "i1")
TILE_RT_TYPE_NAME(int8_t, "i8")
TILE_RT_TYPE_NAME(int16_t, "i16")
TILE_RT_TYPE_NAME(int32_t, "i32")
TILE_RT_TYPE_NAME(int64_t, "i64")
TILE_RT_TYPE_NAME(float, "f32")
TILE_RT_TYPE_NAME(double, "f64")
TILE_RT_TYPE_NAME(bf16, "bf16")
TILE_RT_TYPE_NAME(f16, "f16")
#undef TILE_RT_TYPE_NAME

/// A global-memory memref argument: device address, sizes and strides in
/// elements (outermost first), of element type T and rank Rank.
template <typename T, unsigned Rank> struct MemRef {
  CUdeviceptr data = 0;
  std::array<int64_t, Rank> sizes{};
  std::array<int64_t, Rank> strides{};

  /// The view of `memref` (sizes and strides of Rank dimensions).
  static MemRef of(const MemRefArg &memref) {
    if (memref.sizes.size() != Rank || memref.strides.size() != Rank)
      throw Error("a memref of rank " + std::to_string(memref.sizes.size()) +
                  " where rank " + std::to_string(Rank) + " is expected");
    MemRef m{memref.base, {}, {}};
    std::copy(memref.sizes.begin(), memref.sizes.end(), m.sizes.begin());
    std::copy(memref.strides.begin(), memref.strides.end(), m.strides.begin());
    return m;
  }
  /// A row-major (contiguous) tensor of `sizes`.
  static MemRef rowMajor(CUdeviceptr data, std::array<int64_t, Rank> sizes) {
    MemRef m{data, sizes, {}};
    int64_t stride = 1;
    for (unsigned i = Rank; i-- > 0;) {
      m.strides[i] = stride;
      stride *= sizes[i];
    }
    return m;
  }
};

namespace detail {
template <typename T, unsigned Rank>
void addGridInput(GridInputs &inputs, const MemRef<T, Rank> &memref) {
  inputs.sizes.emplace_back(memref.sizes.begin(), memref.sizes.end());
  inputs.scalars.push_back(0);
}
template <typename T> void addGridInput(GridInputs &inputs, T value) {
  inputs.sizes.emplace_back();
  if constexpr (std::is_integral<T>::value)
    inputs.scalars.push_back(static_cast<int64_t>(value));
  else
    inputs.scalars.push_back(0);
}
} // namespace detail

/// What a host expression (a grid rule, a tuning table's key) reads of a
/// launch's typed arguments: each memref's sizes, each integer's value.
template <typename... Args> GridInputs gridInputsOf(const Args &...args) {
  GridInputs inputs;
  (detail::addGridInput(inputs, args), ...);
  return inputs;
}

/// Checks argument `index` of `info` against what the caller passes (a
/// memref of `type` elements, empty when unknown, and `rank`, or a scalar
/// of `type`); throws
/// Error naming the kernel, the argument and both types on a mismatch, or
/// when the kernel has fewer arguments. Descriptions without args records
/// check nothing.
void checkArgument(const KernelInfo &info, size_t index, bool isMemRef,
                   const std::string &type, unsigned rank);

/// Device memory to zero: `rows` rows of `widthBytes`, `pitchBytes` apart.
struct ZeroRegion {
  CUdeviceptr base = 0;
  size_t widthBytes = 0, pitchBytes = 0, rows = 0;
};

/// Where the elements of the view `memref` (of `elementBytes` each) lie: its
/// rows (of adjacent elements, or single elements where the innermost
/// stride is not 1), not the gaps between them; dimensions of size 1 are
/// ignored. Throws Error when the other dimensions do not collapse into
/// evenly spaced rows, rows overlap, or the sizes overflow.
ZeroRegion zeroRegionOf(const MemRefArg &memref, unsigned elementBytes);

/// Zeroes `region` on `stream`, ordered before the launches that follow on
/// it (captured as a memset node in a CUDA graph).
void zeroAsync(const ZeroRegion &region, CUstream stream = nullptr);

/// A cubin (or PTX) and its kernel description compiled into the program.
/// The description is parsed at construction (no GPU needed); the image is
/// loaded on the current context (open a Device first) at the first
/// module() and stays loaded until unload() or until the last Device open
/// on that context closes.
class EmbeddedModule {
public:
  EmbeddedModule(const unsigned char *image, size_t bytes,
                 const char *kernelInfoText);
  ~EmbeddedModule();
  EmbeddedModule(const EmbeddedModule &) = delete;
  EmbeddedModule &operator=(const EmbeddedModule &) = delete;
  const std::vector<KernelInfo> &infos() const { return infos_; }
  const KernelInfo &info(const std::string &kernel) const {
    return findKernel(infos_, kernel);
  }
  const Module &module();
  bool loaded() const { return module_ != nullptr; }
  /// Releases the image (also done when the last Device open on the
  /// context it was loaded in closes, before the context goes).
  void unload() noexcept;

private:
  const unsigned char *image_;
  size_t bytes_;
  std::vector<KernelInfo> infos_;
  std::unique_ptr<Module> module_;
};

/// A kernel with its arguments bound in the kernel's order, each checked
/// against the description; grid() then builds the TMA tensor maps the
/// kernel takes and fixes the launch shape, and launch() may run it any
/// number of times, each time first zeroing the memref arguments the
/// description's zero record names (tile.zero_before_launch). Holds the tensor maps: keep it alive until the kernels
/// launched with it have finished.
class BoundLaunch {
public:
  BoundLaunch(const Module &module, const KernelInfo &info);
  BoundLaunch(BoundLaunch &&) = default;
  BoundLaunch &operator=(BoundLaunch &&) = default;

  template <typename T, unsigned Rank>
  BoundLaunch &arg(const MemRef<T, Rank> &memref) {
    checkArgument(info_, bound_.size(), true, TypeName<T>::value, Rank);
    return memrefArg(
        memref.data,
        std::vector<int64_t>(memref.sizes.begin(), memref.sizes.end()),
        std::vector<int64_t>(memref.strides.begin(), memref.strides.end()));
  }
  /// A memref whose element type the caller does not state (a device
  /// address has none): its rank is checked, its element type is not.
  BoundLaunch &arg(const MemRefArg &memref) {
    checkArgument(info_, bound_.size(), true, "",
                  unsigned(memref.sizes.size()));
    return memrefArg(memref.base, memref.sizes, memref.strides);
  }
  /// A scalar; an `index` argument takes an int64_t, an `i1` a bool.
  template <typename T> BoundLaunch &arg(T value) {
    checkArgument(info_, bound_.size(), false, TypeName<T>::value, 0);
    paramOf_.push_back(args_.size());
    if constexpr (std::is_same<T, bool>::value)
      args_.addScalar<uint8_t>(value ? 1 : 0);
    else
      args_.addScalar<T>(value);
    bound_.push_back({});
    // What a grid rule may read (integers only).
    if constexpr (std::is_integral<T>::value)
      scalars_.push_back(static_cast<int64_t>(value));
    else
      scalars_.push_back(0);
    return *this;
  }
  /// Sets scalar argument `index` again, for the next launches (an epoch,
  /// a step counter), without binding the rest anew; checked like arg().
  /// A grid already evaluated from the kernel's rule is not re-evaluated.
  template <typename T> BoundLaunch &set(size_t index, T value) {
    checkArgument(info_, index, false, TypeName<T>::value, 0);
    if (index >= bound_.size() || !bound_[index].sizes.empty())
      throw Error("kernel '" + info_.name + "': argument " +
                  std::to_string(index) + " is not a bound scalar");
    if constexpr (std::is_same<T, bool>::value) {
      uint8_t byte = value ? 1 : 0;
      args_.setBytes(paramOf_[index], &byte, 1);
    } else {
      args_.setBytes(paramOf_[index], &value, sizeof(T));
    }
    if constexpr (std::is_integral<T>::value)
      scalars_[index] = static_cast<int64_t>(value);
    return *this;
  }
  /// After the last argument: the tensor maps and the launch shape.
  BoundLaunch &grid(Dim3 blocks, CUstream stream = nullptr);
  /// The same with the grid the kernel states (its tile.grid), evaluated
  /// on the bound arguments and the current device's SM count; throws
  /// Error when the kernel states none or the rule fails (evaluateGrid).
  BoundLaunch &grid(CUstream stream = nullptr);
  /// Launches (asynchronously on the stream given to grid()).
  void launch();
  /// Launches on `stream` instead (a graph's capturing stream, another
  /// stream of the same context).
  void launch(CUstream stream);
  const KernelInfo &info() const { return info_; }
  const LaunchConfig &config() const { return config_; }

private:
  BoundLaunch &memrefArg(CUdeviceptr base, std::vector<int64_t> sizes,
                         std::vector<int64_t> strides);

  KernelInfo info_;
  Kernel kernel_;
  ArgPack args_;
  std::vector<MemRefArg> bound_;
  std::vector<int64_t> scalars_;
  // Each argument's first parameter in args_.
  std::vector<size_t> paramOf_;
  std::vector<DeviceBuffer> tensorMaps_;
  // The zero record's arguments, zeroed before each launch.
  std::vector<ZeroRegion> zeroed_;
  LaunchConfig config_;
  bool ready_ = false;
};

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_LAUNCHER_H
