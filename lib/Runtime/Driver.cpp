//===- Driver.cpp - Loading the CUDA driver -------------------------------===//
//
// libcuda.so.1 is opened with dlopen on first use and its entry points are
// looked up once, so that programs start on machines without a driver.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "tile/Runtime/Driver.h"

#include <dlfcn.h>

using namespace tile::rt;
using namespace tile::rt::detail;

namespace {

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


} // namespace

const DriverApi &tile::rt::detail::api(const char *call) {
  const DriverState &state = driverState();
  if (!state.failure.empty())
    throw Error(std::string(call) + " failed: no usable CUDA driver (" +
                state.failure + ")");
  return state.api;
}

const DriverApi *tile::rt::detail::apiIfLoaded() noexcept {
  try {
    const DriverState &state = driverState();
    return state.failure.empty() ? &state.api : nullptr;
  } catch (...) {
    return nullptr;
  }
}

void tile::rt::detail::check(const char *call, CUresult result,
                             const std::string &context) {
  if (result == CUDA_SUCCESS)
    return;
  std::string message = describe(driverState().api, call, result);
  if (!context.empty())
    message += " " + context;
  throw Error(message);
}

int tile::rt::detail::currentDeviceAttribute(CUdevice_attribute attribute) {
  CUdevice device = 0;
  TILE_CU(cuCtxGetDevice, &device);
  int value = 0;
  TILE_CU(cuDeviceGetAttribute, &value, attribute, device);
  return value;
}

int tile::rt::detail::currentComputeCapability() {
  return currentDeviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) *
             10 +
         currentDeviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
}

std::string tile::rt::detail::chipName(int cc) {
  return "sm_" + std::to_string(cc) + (cc >= 90 ? "a" : "");
}

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

