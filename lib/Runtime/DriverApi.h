//===- DriverApi.h - The runtime's table of driver entry points -*- C++ -*-===//
//
// Private to lib/Runtime. The driver is reached only through function
// pointers obtained with dlopen/dlsym (Driver.cpp), so the runtime neither
// links against libcuda nor needs it to be present until a GPU is used.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_DRIVERAPI_H
#define TILE_LIB_RUNTIME_DRIVERAPI_H

#include "tile/Runtime/Error.h"

#include <cuda.h>

#include <string>

#define TILE_STRINGIFY_IMPL(x) #x
// Expands macros first, so TILE_STRINGIFY(cuMemAlloc) is "cuMemAlloc_v2":
// cuda.h maps API names onto versioned ABI symbols and dlsym needs the
// latter.
#define TILE_STRINGIFY(x) TILE_STRINGIFY_IMPL(x)

// Every driver entry point the runtime uses.
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
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxGetDevice)                                                            \
  X(cuCtxSynchronize)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoD)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD32)                                                               \
  X(cuMemsetD32Async)                                                          \
  X(cuMemsetD2D8Async)                                                         \
  X(cuMemsetD2D32Async)                                                        \
  X(cuModuleLoadData)                                                          \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuLinkCreate)                                                              \
  X(cuLinkAddData)                                                             \
  X(cuLinkAddFile)                                                             \
  X(cuLinkComplete)                                                            \
  X(cuLinkDestroy)                                                             \
  X(cuFuncSetAttribute)                                                        \
  X(cuFuncGetParamInfo)                                                        \
  X(cuFuncGetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuLaunchKernelEx)                                                          \
  X(cuOccupancyMaxActiveClusters)                                              \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamIsCapturing)                                                       \
  X(cuStreamEndCapture)                                                        \
  X(cuGraphGetNodes)                                                           \
  X(cuGraphInstantiate)                                                        \
  X(cuGraphLaunch)                                                             \
  X(cuGraphExecUpdate)                                                         \
  X(cuGraphExecDestroy)                                                        \
  X(cuGraphDestroy)                                                            \
  X(cuTensorMapEncodeTiled)

namespace tile {
namespace rt {
namespace detail {

// Member names go through the cuda.h macros too (cuMemAlloc names the member
// cuMemAlloc_v2), so `api.cuMemAlloc(...)` resolves consistently.
struct DriverApi {
#define TILE_DECLARE_FN(fn) decltype(&::fn) fn = nullptr;
  TILE_DRIVER_FUNCTIONS(TILE_DECLARE_FN)
#undef TILE_DECLARE_FN
};

/// The driver API for `call`, or an Error naming `call` if there is none.
const DriverApi &api(const char *call);

/// The driver API if it is usable; for destructors, which must not throw.
const DriverApi *apiIfLoaded() noexcept;

template <typename Fn>
Fn require(Fn fn, const char *call, const char *symbol) {
  if (!fn)
    throw Error(std::string(call) + " failed: libcuda.so.1 does not export " +
                symbol + " (driver older than the CUDA headers?)");
  return fn;
}

/// Throws Error for a failed `call`, with `context` appended.
void check(const char *call, CUresult result, const std::string &context = "");

/// An attribute of the current context's device (Error on failure).
int currentDeviceAttribute(CUdevice_attribute attribute);

/// The current context's device's compute capability, major * 10 + minor.
int currentComputeCapability();

/// Unloads every EmbeddedModule loaded in `context` (they load again at
/// their next use): the last Device open on the context calls it before it
/// releases the context, whose end would leave their modules dangling.
void unloadEmbeddedModules(CUcontext context) noexcept;

/// The chip tile compiles for on a device of compute capability `cc`:
/// sm_XY, with the arch-specific suffix from Hopper on (sm_90a).
std::string chipName(int cc);

} // namespace detail
} // namespace rt
} // namespace tile

// Calls a driver function, throwing Error on failure. `#fn` is the API name
// shown to users; `fn` itself expands to the versioned member.
// (Written out in each macro: passing `fn` on to another macro would expand
// it before it could be stringified.)
#define TILE_CU(fn, ...)                                                       \
  ::tile::rt::detail::check(                                                   \
      #fn, ::tile::rt::detail::require(::tile::rt::detail::api(#fn).fn, #fn,   \
                                       TILE_STRINGIFY(fn))(__VA_ARGS__))
// Calls a driver function and returns its CUresult (an Error only when the
// driver lacks the function), for callers that add to the error message.
#define TILE_CU_RESULT(fn, ...)                                                \
  ::tile::rt::detail::require(::tile::rt::detail::api(#fn).fn, #fn,            \
                              TILE_STRINGIFY(fn))(__VA_ARGS__)
#define TILE_CU_CTX(context, fn, ...)                                          \
  ::tile::rt::detail::check(                                                   \
      #fn,                                                                     \
      ::tile::rt::detail::require(::tile::rt::detail::api(#fn).fn, #fn,        \
                                  TILE_STRINGIFY(fn))(__VA_ARGS__),            \
      context)

// Calls a driver function from a destructor or cleanup path: nothing when
// the driver is not loaded or lacks the function, and the result ignored
// (releasing must not throw).
#define TILE_CU_QUIET(fn, ...)                                                 \
  do {                                                                         \
    if (const ::tile::rt::detail::DriverApi *quietDriver =                     \
            ::tile::rt::detail::apiIfLoaded())                                 \
      if (quietDriver->fn)                                                     \
        (void)quietDriver->fn(__VA_ARGS__);                                    \
  } while (false)

#endif // TILE_LIB_RUNTIME_DRIVERAPI_H
