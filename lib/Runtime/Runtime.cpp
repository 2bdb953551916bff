//===- Runtime.cpp - Host runtime over the CUDA driver API ----------------===//
//
// The driver is reached only through function pointers obtained with
// dlopen/dlsym, so this library neither links against libcuda nor needs it
// to be present until a GPU is actually used.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Runtime.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>

using namespace tile::rt;

//===----------------------------------------------------------------------===//
// Driver loading
//===----------------------------------------------------------------------===//

namespace {

#define TILE_STRINGIFY_IMPL(x) #x
// Expands macros first, so TILE_STRINGIFY(cuMemAlloc) is "cuMemAlloc_v2":
// cuda.h maps API names onto versioned ABI symbols and dlsym needs the
// latter.
#define TILE_STRINGIFY(x) TILE_STRINGIFY_IMPL(x)

// Every driver entry point used by this file.
#define TILE_DRIVER_FUNCTIONS(X)                                               \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoD)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD32)                                                               \
  X(cuModuleLoadData)                                                          \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuLaunchKernelEx)                                                          \
  X(cuOccupancyMaxActiveClusters)                                              \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuStreamSynchronize)                                                       \
  X(cuTensorMapEncodeTiled)

// Member names go through the cuda.h macros too (cuMemAlloc names the member
// cuMemAlloc_v2), so `api.cuMemAlloc(...)` resolves consistently.
struct DriverApi {
#define TILE_DECLARE_FN(fn) decltype(&::fn) fn = nullptr;
  TILE_DRIVER_FUNCTIONS(TILE_DECLARE_FN)
#undef TILE_DECLARE_FN
};

struct DriverState {
  // Empty when the driver loaded and initialized; otherwise why it did not.
  std::string failure;
  DriverApi api;
};

template <typename Fn> void lookup(void *lib, Fn &fn, const char *symbol) {
  fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
}

/// Errors seen when the driver itself is unusable; the stub library cannot
/// name its own errors.
const char *fallbackErrorName(CUresult result, const char **text) {
  switch (result) {
  case CUDA_ERROR_NOT_INITIALIZED:
    *text = "initialization error";
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_STUB_LIBRARY:
    *text = "CUDA driver is a stub library";
    return "CUDA_ERROR_STUB_LIBRARY";
  case CUDA_ERROR_NO_DEVICE:
    *text = "no CUDA-capable device is detected";
    return "CUDA_ERROR_NO_DEVICE";
  default:
    return nullptr;
  }
}

std::string describe(const DriverApi &api, const char *call, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (!api.cuGetErrorName || api.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (!api.cuGetErrorString ||
      api.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  if (!name) {
    const char *fallbackText = nullptr;
    name = fallbackErrorName(result, &fallbackText);
    if (!text)
      text = fallbackText;
  }
  std::string message = std::string(call) + " failed: ";
  message += name ? name : "CUDA error " + std::to_string(int(result));
  message += " (";
  message += text ? text : "unknown error";
  message += ")";
  return message;
}

DriverState loadDriver() {
  DriverState state;
  // RTLD_LOCAL: driver symbols must not leak into the global namespace of
  // processes that also link the CUDA runtime.
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    state.failure = "libcuda.so.1 not found: no NVIDIA driver on this machine";
    return state;
  }
  // Never dlclose: objects with static lifetime may still call into it.
#define TILE_LOOKUP_FN(fn) lookup(lib, state.api.fn, TILE_STRINGIFY(fn));
  TILE_DRIVER_FUNCTIONS(TILE_LOOKUP_FN)
#undef TILE_LOOKUP_FN
  // Drivers older than 12.8 only have the unversioned symbol, with the same
  // signature.
  if (!state.api.cuEventElapsedTime)
    lookup(lib, state.api.cuEventElapsedTime, "cuEventElapsedTime");

  if (!state.api.cuInit) {
    state.failure = "libcuda.so.1 does not export cuInit";
    return state;
  }
  CUresult result = state.api.cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    state.failure = "no CUDA device present";
  else if (result != CUDA_SUCCESS)
    state.failure = describe(state.api, "cuInit", result);
  return state;
}

const DriverState &driverState() {
  // Thread-safe one-time initialization.
  static const DriverState state = loadDriver();
  return state;
}

/// The driver API for `call`, or an Error naming `call` if there is none.
const DriverApi &api(const char *call) {
  const DriverState &state = driverState();
  if (!state.failure.empty())
    throw Error(std::string(call) + " failed: no usable CUDA driver (" +
                state.failure + ")");
  return state.api;
}

/// The driver API if it is usable; for destructors, which must not throw.
const DriverApi *apiIfLoaded() noexcept {
  try {
    const DriverState &state = driverState();
    return state.failure.empty() ? &state.api : nullptr;
  } catch (...) {
    return nullptr;
  }
}

template <typename Fn>
Fn require(Fn fn, const char *call, const char *symbol) {
  if (!fn)
    throw Error(std::string(call) + " failed: libcuda.so.1 does not export " +
                symbol + " (driver older than the CUDA headers?)");
  return fn;
}

void check(const char *call, CUresult result, const std::string &context = "") {
  if (result == CUDA_SUCCESS)
    return;
  std::string message = describe(driverState().api, call, result);
  if (!context.empty())
    message += " " + context;
  throw Error(message);
}

} // namespace

// Calls a driver function, throwing Error on failure. `#fn` is the API name
// shown to users; `fn` itself expands to the versioned member.
// (Written out in each macro: passing `fn` on to another macro would expand
// it before it could be stringified.)
#define TILE_CU(fn, ...)                                                       \
  check(#fn, require(api(#fn).fn, #fn, TILE_STRINGIFY(fn))(__VA_ARGS__))
#define TILE_CU_CTX(context, fn, ...)                                          \
  check(#fn, require(api(#fn).fn, #fn, TILE_STRINGIFY(fn))(__VA_ARGS__),       \
        context)

bool tile::rt::driverAvailable(std::string *why) {
  try {
    const DriverState &state = driverState();
    std::string failure = state.failure;
    if (failure.empty()) {
      int count = 0;
      if (!state.api.cuDeviceGetCount)
        failure = "libcuda.so.1 does not export cuDeviceGetCount";
      else if (CUresult r = state.api.cuDeviceGetCount(&count))
        failure = describe(state.api, "cuDeviceGetCount", r);
      else if (count == 0)
        failure = "no CUDA device present";
    }
    if (why)
      *why = failure;
    return failure.empty();
  } catch (const std::exception &e) {
    if (why)
      *why = e.what();
    return false;
  }
}

std::string tile::rt::formatError(const char *call, CUresult result) {
  return describe(driverState().api, call, result);
}

void tile::rt::synchronize() {
  check("cuCtxSynchronize",
        require(api("cuCtxSynchronize").cuCtxSynchronize, "cuCtxSynchronize",
                "cuCtxSynchronize")());
}

void tile::rt::synchronize(CUstream stream) {
  TILE_CU(cuStreamSynchronize, stream);
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Device Device::open(int ordinal) {
  int count = 0;
  TILE_CU(cuDeviceGetCount, &count);
  if (ordinal < 0 || ordinal >= count)
    throw Error("Device::open: no device with ordinal " +
                std::to_string(ordinal) + " (" + std::to_string(count) +
                " present)");
  Device device;
  device.ordinal_ = ordinal;
  TILE_CU(cuDeviceGet, &device.device_, ordinal);
  TILE_CU(cuDevicePrimaryCtxRetain, &device.context_, device.device_);
  // From here on `device` releases the context if anything throws.
  device.makeCurrent();
  return device;
}

Device::Device(Device &&other) noexcept
    : ordinal_(other.ordinal_), device_(other.device_),
      context_(other.context_) {
  other.context_ = nullptr;
}

Device &Device::operator=(Device &&other) noexcept {
  if (this != &other) {
    reset();
    ordinal_ = other.ordinal_;
    device_ = other.device_;
    context_ = other.context_;
    other.context_ = nullptr;
  }
  return *this;
}

Device::~Device() { reset(); }

void Device::reset() noexcept {
  if (!context_)
    return;
  if (const DriverApi *driver = apiIfLoaded())
    if (driver->cuDevicePrimaryCtxRelease)
      (void)driver->cuDevicePrimaryCtxRelease(device_);
  context_ = nullptr;
}

void Device::makeCurrent() const { TILE_CU(cuCtxSetCurrent, context_); }

std::string Device::name() const {
  char buffer[256] = {};
  TILE_CU(cuDeviceGetName, buffer, int(sizeof(buffer) - 1), device_);
  return buffer;
}

int Device::attribute(CUdevice_attribute attr) const {
  int value = 0;
  TILE_CU_CTX("(attribute " + std::to_string(int(attr)) + ")",
              cuDeviceGetAttribute, &value, attr, device_);
  return value;
}

int Device::computeCapability() const {
  return attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
         attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
}

int Device::smCount() const {
  return attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}

size_t Device::maxSharedPerBlockOptin() const {
  return size_t(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(size_t bytes) {
  // cuMemAlloc rejects zero sizes; an empty buffer simply owns nothing.
  if (bytes == 0)
    return;
  TILE_CU_CTX("(" + std::to_string(bytes) + " bytes)", cuMemAlloc, &ptr_,
              bytes);
  bytes_ = bytes;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : ptr_(other.ptr_), bytes_(other.bytes_) {
  other.ptr_ = 0;
  other.bytes_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    ptr_ = other.ptr_;
    bytes_ = other.bytes_;
    other.ptr_ = 0;
    other.bytes_ = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { reset(); }

void DeviceBuffer::reset() noexcept {
  if (!ptr_)
    return;
  if (const DriverApi *driver = apiIfLoaded())
    if (driver->cuMemFree)
      (void)driver->cuMemFree(ptr_);
  ptr_ = 0;
  bytes_ = 0;
}

static void checkTransfer(const char *what, const void *host, size_t bytes,
                          size_t capacity) {
  if (bytes > capacity)
    throw Error(std::string("DeviceBuffer::") + what + ": " +
                std::to_string(bytes) + " bytes do not fit in a buffer of " +
                std::to_string(capacity) + " bytes");
  if (bytes && !host)
    throw Error(std::string("DeviceBuffer::") + what + ": null host pointer");
}

void DeviceBuffer::upload(const void *src, size_t bytes) {
  checkTransfer("upload", src, bytes, bytes_);
  if (bytes)
    TILE_CU(cuMemcpyHtoD, ptr_, src, bytes);
}

void DeviceBuffer::download(void *dst, size_t bytes) const {
  checkTransfer("download", dst, bytes, bytes_);
  if (bytes)
    TILE_CU(cuMemcpyDtoH, dst, ptr_, bytes);
}

void DeviceBuffer::copyFrom(const DeviceBuffer &src, size_t bytes) {
  if (bytes > src.bytes_ || bytes > bytes_)
    throw Error("DeviceBuffer::copyFrom: cannot copy " + std::to_string(bytes) +
                " bytes from a buffer of " + std::to_string(src.bytes_) +
                " bytes into one of " + std::to_string(bytes_) + " bytes");
  if (bytes)
    TILE_CU(cuMemcpyDtoD, ptr_, src.ptr_, bytes);
}

void DeviceBuffer::fillBytes(uint8_t value) {
  if (bytes_)
    TILE_CU(cuMemsetD8, ptr_, value, bytes_);
}

void DeviceBuffer::fillWords(uint32_t value) {
  if (bytes_ % 4)
    throw Error("DeviceBuffer::fillWords: buffer size " +
                std::to_string(bytes_) + " is not a multiple of 4");
  if (bytes_)
    TILE_CU(cuMemsetD32, ptr_, value, bytes_ / 4);
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module Module::loadCubinFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw Error("Module::loadCubinFile: cannot read '" + path + "'");
  std::vector<char> image((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (file.bad())
    throw Error("Module::loadCubinFile: error reading '" + path + "'");
  if (image.empty())
    throw Error("Module::loadCubinFile: '" + path + "' is empty");
  try {
    return loadImage(image.data(), image.size());
  } catch (const Error &e) {
    throw Error(std::string(e.what()) + " while loading '" + path + "'");
  }
}

Module Module::loadImage(const void *image, size_t bytes) {
  if (!image || bytes == 0)
    throw Error("Module::loadImage: empty image");
  // cuModuleLoadData finds the end of cubins/fatbins from their headers but
  // needs PTX text NUL-terminated; terminate a copy when the caller did not.
  const void *data = image;
  std::vector<char> terminated;
  if (static_cast<const char *>(image)[bytes - 1] != '\0') {
    terminated.assign(static_cast<const char *>(image),
                      static_cast<const char *>(image) + bytes);
    terminated.push_back('\0');
    data = terminated.data();
  }
  CUmodule module = nullptr;
  TILE_CU(cuModuleLoadData, &module, data);
  return Module(module);
}

Module::Module(Module &&other) noexcept : module_(other.module_) {
  other.module_ = nullptr;
}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    reset();
    module_ = other.module_;
    other.module_ = nullptr;
  }
  return *this;
}

Module::~Module() { reset(); }

void Module::reset() noexcept {
  if (!module_)
    return;
  if (const DriverApi *driver = apiIfLoaded())
    if (driver->cuModuleUnload)
      (void)driver->cuModuleUnload(module_);
  module_ = nullptr;
}

Kernel Module::kernel(const std::string &name) const {
  if (!module_)
    throw Error("Module::kernel: module is not loaded (looking up '" + name +
                "')");
  CUfunction function = nullptr;
  TILE_CU_CTX("looking up kernel '" + name + "'", cuModuleGetFunction,
              &function, module_, name.c_str());
  return Kernel(function, name);
}

//===----------------------------------------------------------------------===//
// ArgPack and launch
//===----------------------------------------------------------------------===//

ArgPack &ArgPack::addBytes(const void *data, size_t bytes) {
  if (bytes == 0 || bytes > kSlotBytes)
    throw Error("ArgPack: a kernel parameter must be 1 to " +
                std::to_string(kSlotBytes) + " bytes, got " +
                std::to_string(bytes));
  Slot &slot = slots_.emplace_back(); // Value-initialized: zeroed.
  std::memcpy(slot.bytes, data, bytes);
  params_.push_back(slot.bytes);
  return *this;
}

ArgPack &ArgPack::addPointer(CUdeviceptr ptr) { return addScalar(ptr); }

ArgPack &ArgPack::addMemRef(CUdeviceptr base, std::vector<int64_t> sizes,
                            std::vector<int64_t> stridesInElements) {
  if (sizes.size() != stridesInElements.size())
    throw Error("ArgPack::addMemRef: " + std::to_string(sizes.size()) +
                " sizes but " + std::to_string(stridesInElements.size()) +
                " strides");
  // The expanded form of MLIR's descriptor
  // {T *allocated, T *aligned, i64 offset, i64 sizes[N], i64 strides[N]}.
  addPointer(base);
  addPointer(base);
  addScalar<int64_t>(0);
  for (int64_t size : sizes)
    addScalar<int64_t>(size);
  for (int64_t stride : stridesInElements)
    addScalar<int64_t>(stride);
  return *this;
}

ArgPack &ArgPack::addTensorMap(const CUtensorMap &map) {
  static_assert(sizeof(CUtensorMap) == kSlotBytes, "unexpected CUtensorMap");
  return addBytes(&map, sizeof(map));
}

void ArgPack::clear() {
  params_.clear();
  slots_.clear();
}

static std::string dimsToString(Dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" +
         std::to_string(d.z);
}

namespace {
/// cuLaunchKernelEx's description of a launch in clusters (which it points
/// into, so it is not copied).
struct ClusterLaunch {
  ClusterLaunch(const Kernel &kernel, const LaunchConfig &launch,
                const std::string &context) {
    const Dim3 &cluster = launch.cluster;
    // Clusters of more than 8 blocks are "non-portable" and need an opt-in.
    if (uint64_t(cluster.x) * cluster.y * cluster.z > 8)
      TILE_CU_CTX(context, cuFuncSetAttribute, kernel.handle(),
                  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    std::memset(&attribute, 0, sizeof(attribute));
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = cluster.x;
    attribute.value.clusterDim.y = cluster.y;
    attribute.value.clusterDim.z = cluster.z;
    std::memset(&config, 0, sizeof(config));
    config.gridDimX = launch.grid.x;
    config.gridDimY = launch.grid.y;
    config.gridDimZ = launch.grid.z;
    config.blockDimX = launch.block.x;
    config.blockDimY = launch.block.y;
    config.blockDimZ = launch.block.z;
    config.sharedMemBytes = launch.dynamicSharedBytes;
    config.hStream = launch.stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch &) = delete;
  ClusterLaunch &operator=(const ClusterLaunch &) = delete;
  CUlaunchAttribute attribute;
  CUlaunchConfig config;
};

/// Kernels must opt in to more than 48 KiB of dynamic shared memory.
void allowSharedBytes(const Kernel &kernel, unsigned bytes) {
  if (bytes > 48 * 1024)
    TILE_CU_CTX("(requesting " + std::to_string(bytes) +
                    " bytes of dynamic shared memory for kernel '" +
                    kernel.name() + "')",
                cuFuncSetAttribute, kernel.handle(),
                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes));
}
} // namespace

unsigned tile::rt::maxActiveClusters(const Kernel &kernel,
                                     const LaunchConfig &config) {
  if (!kernel.handle())
    throw Error("maxActiveClusters: kernel '" + kernel.name() +
                "' is not loaded");
  allowSharedBytes(kernel, config.dynamicSharedBytes);
  std::string context = "(occupancy of kernel '" + kernel.name() +
                        "' in clusters of " + dimsToString(config.cluster) +
                        ")";
  ClusterLaunch clusterLaunch(kernel, config, context);
  int clusters = 0;
  TILE_CU_CTX(context, cuOccupancyMaxActiveClusters, &clusters,
              kernel.handle(), &clusterLaunch.config);
  return static_cast<unsigned>(clusters);
}

void tile::rt::launch(const Kernel &kernel, const LaunchConfig &config,
                      ArgPack &args) {
  if (!kernel.handle())
    throw Error("launch: kernel '" + kernel.name() + "' is not loaded");
  auto isEmpty = [](Dim3 d) { return d.x == 0 || d.y == 0 || d.z == 0; };
  if (isEmpty(config.grid) || isEmpty(config.block) || isEmpty(config.cluster))
    throw Error("launch: kernel '" + kernel.name() + "' has an empty grid (" +
                dimsToString(config.grid) + "), block (" +
                dimsToString(config.block) + ") or cluster (" +
                dimsToString(config.cluster) + ")");
  std::string context = "(kernel '" + kernel.name() + "', grid " +
                        dimsToString(config.grid) + ", block " +
                        dimsToString(config.block) + ")";
  CUfunction function = kernel.handle();

  allowSharedBytes(kernel, config.dynamicSharedBytes);

  const Dim3 &cluster = config.cluster;
  if (cluster.x == 1 && cluster.y == 1 && cluster.z == 1) {
    TILE_CU_CTX(context, cuLaunchKernel, function, config.grid.x,
                config.grid.y, config.grid.z, config.block.x, config.block.y,
                config.block.z, config.dynamicSharedBytes, config.stream,
                args.params(), nullptr);
    return;
  }

  if (config.grid.x % cluster.x || config.grid.y % cluster.y ||
      config.grid.z % cluster.z)
    throw Error("launch: grid " + dimsToString(config.grid) +
                " of kernel '" + kernel.name() +
                "' is not a multiple of its cluster " + dimsToString(cluster));
  ClusterLaunch clusterLaunch(kernel, config, context);
  TILE_CU_CTX(context + " with cluster " + dimsToString(cluster),
              cuLaunchKernelEx, &clusterLaunch.config, function,
              args.params(), nullptr);
}

//===----------------------------------------------------------------------===//
// Timer
//===----------------------------------------------------------------------===//

namespace {
/// Owns a set of events; destroys them without throwing.
struct EventSet {
  std::vector<CUevent> events;

  ~EventSet() {
    const DriverApi *driver = apiIfLoaded();
    if (!driver || !driver->cuEventDestroy)
      return;
    for (CUevent event : events)
      (void)driver->cuEventDestroy(event);
  }
};
} // namespace

float Timer::timeMs(std::function<void()> body, int warmup, int iters) {
  if (!body)
    throw Error("Timer::timeMs: empty body");
  if (iters < 1)
    throw Error("Timer::timeMs: need at least one timed iteration, got " +
                std::to_string(iters));
  EventSet set;
  set.events.reserve(size_t(iters) + 1);
  for (int i = 0; i <= iters; ++i) {
    CUevent event = nullptr;
    TILE_CU(cuEventCreate, &event, CU_EVENT_DEFAULT);
    set.events.push_back(event);
  }

  for (int i = 0; i < warmup; ++i)
    body();
  // One event between consecutive iterations: iteration i runs between
  // events i and i + 1.
  TILE_CU(cuEventRecord, set.events[0], stream_);
  for (int i = 0; i < iters; ++i) {
    body();
    TILE_CU(cuEventRecord, set.events[size_t(i) + 1], stream_);
  }
  TILE_CU(cuEventSynchronize, set.events.back());

  std::vector<float> times(static_cast<size_t>(iters));
  for (size_t i = 0; i < times.size(); ++i)
    TILE_CU(cuEventElapsedTime, &times[i], set.events[i], set.events[i + 1]);
  std::sort(times.begin(), times.end());
  size_t mid = times.size() / 2;
  if (times.size() % 2)
    return times[mid];
  return 0.5f * (times[mid - 1] + times[mid]);
}

//===----------------------------------------------------------------------===//
// TMA descriptors
//===----------------------------------------------------------------------===//

namespace {
struct ElementTypeInfo {
  const char *name;
  CUtensorMapDataType type;
  unsigned bytes;
  bool isFloat;
};

// Signed and unsigned integers share a type: TMA only moves bits.
const ElementTypeInfo kElementTypes[] = {
    {"bf16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, true},
    {"f16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, true},
    {"f32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, true},
    {"tf32", CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 4, true},
    {"f64", CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 8, true},
    {"i8", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, false},
    {"u8", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, false},
    {"i16", CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, false},
    {"u16", CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, false},
    {"i32", CU_TENSOR_MAP_DATA_TYPE_INT32, 4, false},
    {"u32", CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, false},
    {"i64", CU_TENSOR_MAP_DATA_TYPE_INT64, 8, false},
    {"u64", CU_TENSOR_MAP_DATA_TYPE_UINT64, 8, false},
};

const ElementTypeInfo *findElementType(const std::string &name) {
  for (const ElementTypeInfo &info : kElementTypes)
    if (name == info.name)
      return &info;
  return nullptr;
}

std::string knownElementTypes() {
  std::string list;
  for (const ElementTypeInfo &info : kElementTypes)
    list += (list.empty() ? "" : ", ") + std::string(info.name);
  return list;
}

template <typename T> std::string listToString(const std::vector<T> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}
} // namespace

unsigned tile::rt::elementTypeBytes(const std::string &elementType) {
  if (const ElementTypeInfo *info = findElementType(elementType))
    return info->bytes;
  throw Error("unknown element type '" + elementType + "' (expected one of " +
              knownElementTypes() + ")");
}

CUtensorMap tile::rt::encodeTiledTensorMap(const TensorMapSpec &spec,
                                           CUdeviceptr base,
                                           std::vector<uint64_t> dims,
                                           std::vector<uint64_t> stridesBytes) {
  auto fail = [&](const std::string &what) -> Error {
    return Error("encodeTiledTensorMap: " + what + " (dims " +
                 listToString(dims) + ", box " + listToString(spec.box) +
                 ", type " + spec.elementType + ", swizzle " +
                 std::to_string(spec.swizzleBytes) + ")");
  };

  const ElementTypeInfo *elt = findElementType(spec.elementType);
  if (!elt)
    throw fail("unknown element type '" + spec.elementType +
               "' (expected one of " + knownElementTypes() + ")");
  size_t rank = dims.size();
  if (rank < 1 || rank > 5)
    throw fail("rank must be 1 to 5, got " + std::to_string(rank));
  if (spec.box.size() != rank)
    throw fail("box has rank " + std::to_string(spec.box.size()) +
               " but the tensor has rank " + std::to_string(rank));
  if (base % 16)
    throw fail("base address is not 16-byte aligned");

  // Accept strides with or without the (implicit) innermost element stride.
  if (stridesBytes.size() == rank) {
    if (stridesBytes.back() != elt->bytes)
      throw fail("innermost stride must be the element size (" +
                 std::to_string(elt->bytes) + " bytes), got " +
                 std::to_string(stridesBytes.back()));
    stridesBytes.pop_back();
  }
  if (stridesBytes.size() != rank - 1)
    throw fail("expected " + std::to_string(rank - 1) + " or " +
               std::to_string(rank) + " strides, got " +
               std::to_string(stridesBytes.size()));

  for (size_t i = 0; i < rank; ++i)
    if (dims[i] == 0 || dims[i] > (uint64_t(1) << 32))
      throw fail("dimension " + std::to_string(i) + " must be 1 to 2^32");
  for (size_t i = 0; i + 1 < rank; ++i) {
    if (stridesBytes[i] % 16)
      throw fail("stride " + std::to_string(i) + " (" +
                 std::to_string(stridesBytes[i]) +
                 " bytes) is not a multiple of 16 bytes");
    if (stridesBytes[i] >= (uint64_t(1) << 40))
      throw fail("stride " + std::to_string(i) + " must be below 2^40 bytes");
  }
  for (size_t i = 0; i < rank; ++i)
    if (spec.box[i] == 0 || spec.box[i] > 256)
      throw fail("box dimension " + std::to_string(i) + " must be 1 to 256");

  uint64_t innerBoxBytes = uint64_t(spec.box.back()) * elt->bytes;
  if (innerBoxBytes % 16)
    throw fail("innermost box extent (" + std::to_string(innerBoxBytes) +
               " bytes) is not a multiple of 16 bytes");

  CUtensorMapSwizzle swizzle;
  switch (spec.swizzleBytes) {
  case 0:
    swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    break;
  case 32:
    swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
    break;
  case 64:
    swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
    break;
  case 128:
    swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    break;
  default:
    throw fail("swizzle must be 0, 32, 64 or 128 bytes");
  }
  if (spec.swizzleBytes && innerBoxBytes > spec.swizzleBytes)
    throw fail("innermost box extent (" + std::to_string(innerBoxBytes) +
               " bytes) exceeds the " + std::to_string(spec.swizzleBytes) +
               "-byte swizzle span");
  if (!spec.oobZeroFill && !elt->isFloat)
    throw fail("NaN out-of-bounds fill needs a floating-point element type");

  // CUDA wants the innermost dimension first.
  cuuint64_t globalDim[5], globalStrides[4];
  cuuint32_t boxDim[5], elementStrides[5];
  for (size_t i = 0; i < rank; ++i) {
    globalDim[i] = dims[rank - 1 - i];
    boxDim[i] = spec.box[rank - 1 - i];
    elementStrides[i] = 1;
  }
  for (size_t i = 0; i + 1 < rank; ++i)
    globalStrides[i] = stridesBytes[rank - 2 - i];

  // FILL_NONE makes out-of-bounds elements read as zero.
  CUtensorMapFloatOOBfill oobFill =
      spec.oobZeroFill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
                       : CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  TILE_CU_CTX("(dims " + listToString(dims) + ", box " +
                  listToString(spec.box) + ", type " + spec.elementType + ")",
              cuTensorMapEncodeTiled, &map, elt->type, cuuint32_t(rank),
              reinterpret_cast<void *>(uintptr_t(base)), globalDim,
              globalStrides, boxDim, elementStrides,
              CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
              CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
              oobFill);
  return map;
}

//===----------------------------------------------------------------------===//
// Kernel info
//===----------------------------------------------------------------------===//

namespace {
/// Tokens of one kinfo line, consumed left to right.
class LineParser {
public:
  LineParser(std::vector<std::string> tokens, unsigned line)
      : tokens(std::move(tokens)), line(line) {}

  [[noreturn]] void fail(const std::string &what) const {
    throw Error("kinfo:" + std::to_string(line) + ": " + what);
  }

  const std::string &next(const std::string &what) {
    if (pos >= tokens.size())
      fail("expected " + what + " but the line ends");
    return tokens[pos++];
  }

  void keyword(const char *word) {
    const std::string &token = next(std::string("'") + word + "'");
    if (token != word)
      fail(std::string("expected '") + word + "' but found '" + token + "'");
  }

  uint64_t number(const std::string &what, uint64_t min, uint64_t max) {
    return parseNumber(next(what), what, min, max);
  }

  uint64_t parseNumber(const std::string &token, const std::string &what,
                       uint64_t min, uint64_t max) const {
    uint64_t value = 0;
    bool ok = !token.empty();
    for (char c : token) {
      if (!std::isdigit(static_cast<unsigned char>(c)) ||
          value > (std::numeric_limits<uint64_t>::max() - 9) / 10) {
        ok = false;
        break;
      }
      value = value * 10 + uint64_t(c - '0');
    }
    if (!ok)
      fail("expected " + what + " but found '" + token + "'");
    if (value < min || value > max)
      fail(what + " must be " + std::to_string(min) + " to " +
           std::to_string(max) + ", got " + token);
    return value;
  }

  Dim3 dims(const std::string &what) {
    Dim3 d;
    d.x = unsigned(number(what + " x", 1, UINT32_MAX));
    d.y = unsigned(number(what + " y", 1, UINT32_MAX));
    d.z = unsigned(number(what + " z", 1, UINT32_MAX));
    return d;
  }

  void end() const {
    if (pos < tokens.size())
      fail("unexpected '" + tokens[pos] + "' at the end of the line");
  }

  unsigned lineNumber() const { return line; }

private:
  std::vector<std::string> tokens;
  unsigned line;
  size_t pos = 0;
};

std::vector<std::string> tokenize(const std::string &line) {
  std::vector<std::string> tokens;
  std::istringstream stream(line.substr(0, line.find('#')));
  std::string token;
  while (stream >> token)
    tokens.push_back(token);
  return tokens;
}

struct PendingTma {
  std::string kernel;
  unsigned line;
  TmaInfo info;
};
} // namespace

std::vector<KernelInfo> tile::rt::parseKernelInfo(const std::string &text) {
  std::vector<KernelInfo> kernels;
  std::map<std::string, unsigned> kernelLines;
  std::vector<PendingTma> tmas;

  std::istringstream stream(text);
  std::string lineText;
  for (unsigned lineNo = 1; std::getline(stream, lineText); ++lineNo) {
    std::vector<std::string> tokens = tokenize(lineText);
    if (tokens.empty())
      continue;
    LineParser p(tokens, lineNo);
    const std::string &record = p.next("a record");

    if (record == "kernel") {
      KernelInfo info;
      info.name = p.next("a kernel name");
      p.keyword("block");
      info.block = p.dims("block");
      p.keyword("cluster");
      info.cluster = p.dims("cluster");
      p.keyword("smem");
      info.sharedBytes =
          unsigned(p.number("shared memory bytes", 0, UINT32_MAX));
      p.end();
      auto inserted = kernelLines.emplace(info.name, lineNo);
      if (!inserted.second)
        p.fail("duplicate kernel '" + info.name + "' (first on line " +
               std::to_string(inserted.first->second) + ")");
      kernels.push_back(std::move(info));
      continue;
    }

    if (record == "tma") {
      PendingTma tma;
      tma.line = lineNo;
      tma.kernel = p.next("a kernel name");
      p.keyword("param");
      tma.info.param = int(p.number("a parameter index", 0, INT32_MAX));
      p.keyword("arg");
      tma.info.arg = int(p.number("an argument index", 0, INT32_MAX));
      p.keyword("type");
      tma.info.spec.elementType = p.next("an element type");
      if (!findElementType(tma.info.spec.elementType))
        p.fail("unknown element type '" + tma.info.spec.elementType +
               "' (expected one of " + knownElementTypes() + ")");
      p.keyword("box");
      const std::string &box = p.next("a box shape such as 64x64");
      size_t start = 0;
      while (true) {
        size_t x = box.find('x', start);
        std::string part = box.substr(start, x == std::string::npos
                                                 ? std::string::npos
                                                 : x - start);
        tma.info.spec.box.push_back(
            uint32_t(p.parseNumber(part, "a box dimension", 1, UINT32_MAX)));
        if (x == std::string::npos)
          break;
        start = x + 1;
      }
      p.keyword("swizzle");
      uint64_t swizzle = p.number("a swizzle size", 0, 128);
      if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
        p.fail("swizzle must be 0, 32, 64 or 128, got " +
               std::to_string(swizzle));
      tma.info.spec.swizzleBytes = unsigned(swizzle);
      p.end();
      tmas.push_back(std::move(tma));
      continue;
    }

    p.fail("unknown record '" + record + "' (expected 'kernel' or 'tma')");
  }

  // Resolved at the end so tma records may precede their kernel.
  for (PendingTma &tma : tmas) {
    auto it = std::find_if(
        kernels.begin(), kernels.end(),
        [&](const KernelInfo &k) { return k.name == tma.kernel; });
    LineParser p({}, tma.line);
    if (it == kernels.end())
      p.fail("tma record names unknown kernel '" + tma.kernel + "'");
    for (const TmaInfo &other : it->tmas)
      if (other.param == tma.info.param)
        p.fail("kernel '" + tma.kernel + "' has two tma records for param " +
               std::to_string(tma.info.param));
    it->tmas.push_back(std::move(tma.info));
  }
  return kernels;
}

std::vector<KernelInfo> tile::rt::loadKernelInfo(const std::string &path) {
  std::ifstream file(path);
  if (!file)
    throw Error("cannot read kernel info file '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  if (file.bad())
    throw Error("error reading kernel info file '" + path + "'");
  try {
    return parseKernelInfo(text.str());
  } catch (const Error &e) {
    throw Error(path + ": " + e.what());
  }
}

const KernelInfo &tile::rt::findKernel(const std::vector<KernelInfo> &infos,
                                       const std::string &name) {
  for (const KernelInfo &info : infos)
    if (info.name == name)
      return info;
  std::string known;
  for (const KernelInfo &info : infos)
    known += (known.empty() ? "" : ", ") + info.name;
  throw Error("kernel '" + name + "' is not described in the kernel info (" +
              (known.empty() ? "no kernels" : "known: " + known) + ")");
}

const KernelInfo &tile::rt::findKernel(const std::vector<KernelInfo> &infos,
                                       const char *name) {
  return findKernel(infos, std::string(name ? name : ""));
}

LaunchConfig tile::rt::launchConfigFor(const KernelInfo &info, Dim3 grid,
                                       CUstream stream) {
  LaunchConfig config;
  config.grid = grid;
  config.block = info.block;
  config.cluster = info.cluster;
  config.dynamicSharedBytes = info.sharedBytes;
  config.stream = stream;
  return config;
}

//===----------------------------------------------------------------------===//
// Float conversions
//===----------------------------------------------------------------------===//

static uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t tile::rt::floatToBf16(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: truncate, keep it quiet.
    return uint16_t((bits >> 16) | 0x0040u);
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; overflow
  // correctly carries into the exponent (up to infinity).
  uint32_t lsb = (bits >> 16) & 1u;
  return uint16_t((bits + 0x7fffu + lsb) >> 16);
}

float tile::rt::bf16ToFloat(uint16_t bits) {
  return bitsToFloat(uint32_t(bits) << 16);
}

uint16_t tile::rt::floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  uint32_t abs = bits & 0x7fffffffu;

  if (abs >= 0x7f800000u) // Inf or NaN; NaNs stay quiet NaNs.
    return uint16_t(sign | 0x7c00u |
                    (abs > 0x7f800000u ? 0x0200u | ((abs >> 13) & 0x3ffu) : 0));
  if (abs >= 0x477ff000u) // >= 65520 rounds to infinity.
    return uint16_t(sign | 0x7c00u);

  if (abs < 0x38800000u) {
    // Below 2^-14: a half subnormal counting units of 2^-24.
    int exponent = int(abs >> 23);
    int shift = 126 - exponent;
    if (shift > 24)
      return sign;
    uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    uint32_t result = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (result & 1u)))
      ++result; // May carry into the smallest normal, which is correct.
    return uint16_t(sign | result);
  }

  // Normal: rebias the exponent (127 -> 15) and round off 13 bits.
  uint32_t result = (abs - 0x38000000u) >> 13;
  uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u)))
    ++result;
  return uint16_t(sign | result);
}

float tile::rt::halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f)
    return bitsToFloat(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return bitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

//===----------------------------------------------------------------------===//
// Kernel arguments with tensor maps
//===----------------------------------------------------------------------===//

namespace tile {
namespace rt {

void appendTensorMaps(const KernelInfo &info,
                      const std::vector<MemRefArg> &memrefsByArgument,
                      ArgPack &args, std::vector<DeviceBuffer> &tensorMaps) {
  std::vector<const TmaInfo *> ordered;
  for (const TmaInfo &tma : info.tmas)
    ordered.push_back(&tma);
  std::sort(ordered.begin(), ordered.end(),
            [](const TmaInfo *a, const TmaInfo *b) { return a->param < b->param; });
  // Encode every map before touching `args`, so that a map the driver
  // refuses leaves the caller's argument pack as it was.
  std::vector<CUtensorMap> maps;
  for (const TmaInfo *tma : ordered) {
    if (tma->arg < 0 || static_cast<size_t>(tma->arg) >= memrefsByArgument.size())
      throw Error("kernel '" + info.name + "': tensor map for argument " +
                  std::to_string(tma->arg) + ", which is not a memref given");
    const MemRefArg &memref = memrefsByArgument[tma->arg];
    unsigned bytes = elementTypeBytes(tma->spec.elementType);
    std::vector<uint64_t> dims(memref.sizes.begin(), memref.sizes.end());
    std::vector<uint64_t> strides;
    for (int64_t stride : memref.strides)
      strides.push_back(static_cast<uint64_t>(stride) * bytes);
    CUtensorMap map =
        encodeTiledTensorMap(tma->spec, memref.base, dims, strides);
    maps.push_back(map);
  }
  for (const CUtensorMap &map : maps) {
    tensorMaps.emplace_back(sizeof(CUtensorMap));
    tensorMaps.back().upload(&map, sizeof(map));
    args.addPointer(tensorMaps.back().ptr());
  }
}

void packMemRefArgs(const KernelInfo &info, const std::vector<MemRefArg> &memrefs,
                    ArgPack &args, std::vector<DeviceBuffer> &tensorMaps) {
  for (const MemRefArg &memref : memrefs)
    args.addMemRef(memref.base, memref.sizes, memref.strides);
  appendTensorMaps(info, memrefs, args, tensorMaps);
}

} // namespace rt
} // namespace tile
