//===- Runtime.h - Host runtime over the CUDA driver API --------*- C++ -*-===//
//
// A small RAII layer for running tile-compiled cubins from host programs
// (tests, examples, benchmarks). It depends on nothing but <cuda.h> and the
// C++ standard library.
//
// The driver (libcuda.so.1) is loaded lazily with dlopen, so programs linking
// this library start and run on machines without an NVIDIA driver; use
// driverAvailable() to find out whether a GPU can be used. Every failing
// driver call throws tile::rt::Error with a message of the form
//   "<call> failed: <CUDA_ERROR_NAME> (<description>)".
//
// Lifetime rules: keep the Device alive for as long as any buffer, module or
// event exists (they live in its primary context), and keep a Module alive
// while any Kernel obtained from it is launched.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_RUNTIME_H
#define TILE_RUNTIME_RUNTIME_H

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tile {
namespace rt {

//===----------------------------------------------------------------------===//
// Errors and driver availability
//===----------------------------------------------------------------------===//

/// Every failure in this library is reported with this exception.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message) : std::runtime_error(message) {}
};

/// Returns true when libcuda.so.1 could be loaded, cuInit succeeded and at
/// least one device is present. Otherwise returns false and, if `why` is
/// non-null, stores a one-line human-readable reason. Never throws.
bool driverAvailable(std::string *why = nullptr);

/// Formats "<call> failed: <CUDA_ERROR_NAME> (<description>)".
std::string formatError(const char *call, CUresult result);

/// Waits for all work in the current context (cuCtxSynchronize).
void synchronize();
/// Waits for all work queued on `stream` (cuStreamSynchronize).
void synchronize(CUstream stream);

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

/// A device together with its retained primary context, which is made
/// current on the calling thread. Move-only; releases the context on
/// destruction.
class Device {
public:
  static Device open(int ordinal = 0);

  Device(Device &&other) noexcept;
  Device &operator=(Device &&other) noexcept;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device();

  /// Makes the primary context current on the calling thread again.
  void makeCurrent() const;

  int ordinal() const { return ordinal_; }
  CUdevice handle() const { return device_; }
  CUcontext context() const { return context_; }

  std::string name() const;
  /// major * 10 + minor, e.g. 90 for sm_90.
  int computeCapability() const;
  int smCount() const;
  size_t maxSharedPerBlockOptin() const;
  int attribute(CUdevice_attribute attr) const;

private:
  Device() = default;
  void reset() noexcept;

  int ordinal_ = -1;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
};

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

/// An owned linear device allocation. Transfers are synchronous.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return bytes_; }

  /// Copies `bytes` bytes from host memory to the start of the buffer.
  void upload(const void *src, size_t bytes);
  /// Copies `bytes` bytes from the start of the buffer to host memory.
  void download(void *dst, size_t bytes) const;

  template <typename T> void upload(const std::vector<T> &src) {
    upload(src.data(), src.size() * sizeof(T));
  }
  template <typename T> void download(std::vector<T> &dst) const {
    download(dst.data(), dst.size() * sizeof(T));
  }

  /// Copies `bytes` bytes from the start of `src` (device to device).
  void copyFrom(const DeviceBuffer &src, size_t bytes);

  /// Sets every byte to `value`.
  void fillBytes(uint8_t value);
  /// Sets every 32-bit word to `value` (e.g. a NaN pattern to poison
  /// outputs). The size must be a multiple of 4.
  void fillWords(uint32_t value);

private:
  void reset() noexcept;

  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

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

/// A loaded cubin (or PTX/fatbin image). Move-only; unloads on destruction.
class Module {
public:
  static Module loadCubinFile(const std::string &path);
  static Module loadImage(const void *image, size_t bytes);

  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module();

  /// Looks up a kernel by its (mangled) symbol name.
  Kernel kernel(const std::string &name) const;
  CUmodule handle() const { return module_; }

private:
  explicit Module(CUmodule module) : module_(module) {}
  void reset() noexcept;

  CUmodule module_ = nullptr;
};

//===----------------------------------------------------------------------===//
// Kernel arguments and launches
//===----------------------------------------------------------------------===//

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid, block, cluster;
  unsigned dynamicSharedBytes = 0;
  CUstream stream = nullptr;
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

  void **params() { return params_.data(); }
  size_t size() const { return params_.size(); }
  void clear();

private:
  static constexpr size_t kSlotBytes = 128;
  struct alignas(alignof(CUtensorMap)) Slot {
    unsigned char bytes[kSlotBytes];
  };

  std::deque<Slot> slots_;
  std::vector<void *> params_;
};

/// Launches `kernel`. Uses cuLaunchKernelEx with a cluster-dimension
/// attribute when config.cluster is not 1x1x1, and opts into more than
/// 48 KiB of dynamic shared memory when requested.
void launch(const Kernel &kernel, const LaunchConfig &config, ArgPack &args);

/// How many clusters of config.cluster CTAs (with config's block and shared
/// memory) the device can run at once (cuOccupancyMaxActiveClusters): a
/// persistent kernel in clusters launches at most that many.
unsigned maxActiveClusters(const Kernel &kernel, const LaunchConfig &config);

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// Times GPU work with CUDA events recorded on `stream`.
class Timer {
public:
  explicit Timer(CUstream stream = nullptr) : stream_(stream) {}

  /// Runs `body` `warmup` times untimed, then `iters` times with an event
  /// between consecutive iterations; returns the median iteration time in
  /// milliseconds. `body` must enqueue its work on the timer's stream.
  float timeMs(std::function<void()> body, int warmup, int iters);

private:
  CUstream stream_;
};

//===----------------------------------------------------------------------===//
// TMA descriptors
//===----------------------------------------------------------------------===//

struct TensorMapSpec {
  /// One of "bf16", "f16", "f32", "tf32", "f64", "i8", "u8", "i16", "u16",
  /// "i32", "u32", "i64", "u64".
  std::string elementType;
  /// Box (tile) shape, outermost dimension first as in MLIR memref shapes.
  std::vector<uint32_t> box;
  /// 0 (none), 32, 64 or 128.
  unsigned swizzleBytes = 0;
  /// Out-of-bounds elements read as zero; if false, floating-point types get
  /// the special NaN fill (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA).
  bool oobZeroFill = true;
};

/// Size in bytes of a TensorMapSpec element type; throws on unknown names.
unsigned elementTypeBytes(const std::string &elementType);

/// Encodes a tiled TMA descriptor for the tensor at `base`. `dims` lists the
/// global shape outermost first. `stridesBytes` lists byte strides outermost
/// first, either for all but the innermost dimension (rank - 1 entries) or
/// for all dimensions with the innermost equal to the element size. Checks
/// CUDA's constraints up front so failures say what is wrong.
CUtensorMap encodeTiledTensorMap(const TensorMapSpec &spec, CUdeviceptr base,
                                 std::vector<uint64_t> dims,
                                 std::vector<uint64_t> stridesBytes);

//===----------------------------------------------------------------------===//
// Kernel info (.kinfo) written by tile-translate --kernel-info
//===----------------------------------------------------------------------===//

struct TmaInfo {
  /// Index of the CUtensorMap parameter of the compiled kernel.
  int param = 0;
  /// Index of the tile kernel argument the descriptor describes.
  int arg = 0;
  TensorMapSpec spec;
};

struct KernelInfo {
  std::string name;
  Dim3 block, cluster;
  unsigned sharedBytes = 0;
  std::vector<TmaInfo> tmas;
};

/// Parses kinfo text. Format, one record per line ('#' starts a comment):
///   kernel <name> block <x> <y> <z> cluster <x> <y> <z> smem <bytes>
///   tma <kernel> param <i> arg <j> type <elt> box <b0>x<b1>[x...]
///       swizzle <0|32|64|128>
/// Malformed input throws Error("kinfo:<line>: <problem>").
std::vector<KernelInfo> parseKernelInfo(const std::string &text);
/// Reads and parses a kinfo file; errors are prefixed with the path.
std::vector<KernelInfo> loadKernelInfo(const std::string &path);
/// Throws if no kernel of that name is listed.
const KernelInfo &findKernel(const std::vector<KernelInfo> &infos,
                             const std::string &name);
/// Same; spares GCC 13+ a -Wdangling-reference false positive when the name
/// is a string literal.
const KernelInfo &findKernel(const std::vector<KernelInfo> &infos,
                             const char *name);

/// A launch configuration with the block, cluster and shared memory size
/// recorded in `info`.
LaunchConfig launchConfigFor(const KernelInfo &info, Dim3 grid,
                             CUstream stream = nullptr);

/// A global-memory kernel argument as tile kernels see it: a memref.
struct MemRefArg {
  CUdeviceptr base = 0;
  std::vector<int64_t> sizes;   // outermost first
  std::vector<int64_t> strides; // in elements, outermost first
};

/// Packs a kernel's arguments: `memrefs` and then, for each TMA entry of
/// `info` in parameter order, a device pointer to the tensor map built from
/// the memref it names (encoded with cuTensorMapEncodeTiled and uploaded
/// into `tensorMaps`, which must outlive the launch). Kernels whose
/// arguments mix scalars and memrefs build their ArgPack by hand and call
/// appendTensorMaps.
void packMemRefArgs(const KernelInfo &info, const std::vector<MemRefArg> &memrefs,
                    ArgPack &args, std::vector<DeviceBuffer> &tensorMaps);
void appendTensorMaps(const KernelInfo &info,
                      const std::vector<MemRefArg> &memrefsByArgument,
                      ArgPack &args, std::vector<DeviceBuffer> &tensorMaps);

//===----------------------------------------------------------------------===//
// Host-side float conversions
//===----------------------------------------------------------------------===//

/// Round-to-nearest-even conversions; NaNs stay NaN.
uint16_t floatToBf16(float value);
float bf16ToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_RUNTIME_H
