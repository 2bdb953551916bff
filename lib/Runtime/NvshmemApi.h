//===- NvshmemApi.h - NVSHMEM host ABI in use -------------------*- C++ -*-===//
//
// Private to lib/Runtime. NVSHMEM is not needed to build tile: its host
// library (libnvshmem_host.so.3) is opened with dlopen when a program first
// needs it, so the few types and entry points the runtime calls are declared
// here, copied from NVSHMEM 3.4.5's headers (tag v3.4.5-0 of
// github.com/NVIDIA/nvshmem, src/include/...). The structures are versioned
// by NVSHMEM itself ((1 << 16) + sizeof) and their sizes are asserted below,
// so a change of layout in a later NVSHMEM shows up as a version mismatch it
// reports, not as silent corruption.
//
// The header's own nvshmem_init / nvshmemx_init_attr are static inline
// wrappers around nvshmemi_init_thread, which lives in libnvshmem_device.a
// (host code linked into CUDA programs built with nvcc). A program that
// loads its kernels through the driver has no such code, so it initialises
// through the host library's entry points: nvshmemx_hostlib_init_attr and
// nvshmemx_hostlib_finalize, then nvshmemx_cumodule_init for each module.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_NVSHMEMAPI_H
#define TILE_LIB_RUNTIME_NVSHMEMAPI_H

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace rt {
namespace detail {

// bootstrap_device_host/nvshmem_uniqueid.h
constexpr int kUniqueIdPadding = 124; // UNIQUEID_PADDING
/// nvshmemx_uniqueid_v1 (nvshmemx_uniqueid_t): what nvshmemx_get_uniqueid
/// fills in; it holds the address of the bootstrap root (a thread of the
/// process that created it) and a random magic number.
struct NvshmemUniqueId {
  int version;
  char internal[kUniqueIdPadding];
};
static_assert(sizeof(NvshmemUniqueId) == 128, "uniqueid_v1 must be 128 bytes");

/// nvshmemx_uniqueid_args_v1 (nvshmemx_uniqueid_args_t).
struct NvshmemUniqueIdArgs {
  int version;
  NvshmemUniqueId *id;
  int myrank;
  int nranks;
};
static_assert(sizeof(NvshmemUniqueIdArgs) == 24,
              "uniqueid_args_v1 must be 24 bytes");

// device_host/nvshmem_types.h
constexpr int kInitArgsPadding = 96; // INIT_ARGS_PADDING
/// nvshmemx_init_args_v1 (nvshmemx_init_args_t).
struct NvshmemInitArgs {
  int version;
  NvshmemUniqueIdArgs uid_args;
  char content[kInitArgsPadding];
};
static_assert(sizeof(NvshmemInitArgs) == 128, "init_args_v1 must be 128 bytes");

/// nvshmemx_init_attr_v1 (nvshmemx_init_attr_t).
struct NvshmemInitAttr {
  int version;
  void *mpi_comm;
  NvshmemInitArgs args;
};
static_assert(sizeof(NvshmemInitAttr) == 144, "init_attr_v1 must be 144 bytes");

/// The version words NVSHMEM's initialisers (NVSHMEMX_UNIQUEID_INITIALIZER,
/// NVSHMEMX_INIT_ATTR_INITIALIZER, nvshmemx_init_init_attr_ver_only) store.
template <typename T> constexpr int nvshmemVersionOf() {
  return (1 << 16) + int(sizeof(T));
}

// host/nvshmemx_api.h, enum flags.
constexpr unsigned kNvshmemxInitWithUniqueId = 1u << 3;

// device_host_transport/nvshmem_constants.h, the values of
// nvshmemx_init_status().
enum NvshmemStatus : int {
  kNvshmemStatusNotInitialized = 0,
  kNvshmemStatusIsBootstrapped = 1,
  kNvshmemStatusIsInitialized = 2,
  kNvshmemStatusLimitedMpg = 3,
  kNvshmemStatusFullMpg = 4,
};

/// The entry points, as exported by libnvshmem_host.so.3 (host/nvshmem_api.h,
/// host/nvshmemx_api.h; all extern "C"). CUmodule is passed as the driver's
/// handle type, which NVSHMEM declares the same way.
#define TILE_NVSHMEM_FUNCTIONS(X)                                              \
  X(nvshmemx_get_uniqueid, int (*)(NvshmemUniqueId *))                         \
  X(nvshmemx_set_attr_uniqueid_args,                                           \
    int (*)(const int, const int, const NvshmemUniqueId *, NvshmemInitAttr *)) \
  X(nvshmemx_hostlib_init_attr, int (*)(unsigned int, NvshmemInitAttr *))      \
  X(nvshmemx_hostlib_finalize, void (*)())                                     \
  X(nvshmemx_init_status, int (*)())                                           \
  X(nvshmem_my_pe, int (*)())                                                  \
  X(nvshmem_n_pes, int (*)())                                                  \
  X(nvshmem_malloc, void *(*)(size_t))                                         \
  X(nvshmem_free, void (*)(void *))                                            \
  X(nvshmem_barrier_all, void (*)())                                           \
  X(nvshmem_ptr, void *(*)(const void *, int))                                 \
  X(nvshmemx_barrier_all_on_stream, void (*)(CUstream))                        \
  X(nvshmemx_putmem_signal_on_stream,                                          \
    void (*)(void *, const void *, size_t, uint64_t *, uint64_t, int, int,     \
             CUstream))                                                        \
  X(nvshmemx_signal_wait_until_on_stream,                                      \
    void (*)(uint64_t *, int, uint64_t, CUstream))                             \
  X(nvshmemx_cumodule_init, int (*)(CUmodule))                                 \
  X(nvshmemx_cumodule_finalize, int (*)(CUmodule))                             \
  X(nvshmemx_vendor_get_version_info, void (*)(int *, int *, int *))

/// Spells a function pointer type given as a macro argument.
template <typename T> using NvshmemFn = T;

struct NvshmemApi {
#define TILE_DECLARE_NVSHMEM_FN(name, type) NvshmemFn<type> name = nullptr;
  TILE_NVSHMEM_FUNCTIONS(TILE_DECLARE_NVSHMEM_FN)
#undef TILE_DECLARE_NVSHMEM_FN
};

/// The loaded host library's entry points; throws Error saying what is
/// missing and how to get it when NVSHMEM cannot be loaded.
const NvshmemApi &nvshmemApi();

/// Links a relocatable kernel image with NVSHMEM in the current context and
/// returns the linked image (NvshmemLink.cpp). Initialises nothing.
std::string linkWithNvshmem(const void *image, size_t bytes);

/// The NVSHMEM functions (names starting with "nvshmem") a relocatable cubin
/// or PTX image calls without defining them, sorted.
std::vector<std::string> undefinedNvshmemFunctions(const void *image,
                                                   size_t bytes);

/// NVSHMEM's device functions `names`, compiled from its headers with NVRTC
/// for `arch` (sm_90a, ...) as a relocatable cubin; once per process for
/// each arch and set of names, and kept in the disk cache
/// (DiskCache::defaultFolder(), entries "nvshmem-functions-*") for the
/// processes that follow. Throws saying what is missing.
const std::string &nvshmemDeviceFunctions(const std::vector<std::string> &names,
                                          const std::string &arch);

/// The disk cache's key for those functions: everything their cubin
/// depends on, as text: the translation unit (which names them), NVRTC's
/// options (the arch, the include folders), NVRTC's version and NVSHMEM's
/// (`nvshmemVersion`: its version header, and its device library's size
/// and time).
std::string nvshmemFunctionsKey(const std::vector<std::string> &names,
                                const std::vector<std::string> &options,
                                const std::string &nvrtcVersion,
                                const std::string &nvshmemVersion);

/// How nvshmemInit() bootstraps, read from the environment (Nvshmem.h).
struct NvshmemBootstrap {
  enum Kind {
    /// tile-run's unique id (TILE_NVSHMEM_UID), rank and size.
    UniqueId,
    /// NVSHMEM_BOOTSTRAP is set: NVSHMEM's own PMI/MPI bootstrap.
    Nvshmem,
    /// No launcher: one PE, with a unique id of its own.
    Alone,
  } kind = Alone;
  std::string uniqueIdHex;
  int rank = 0;
  int size = 1;
  /// For messages: "PE 1 of 2 from TILE_NVSHMEM_UID", ...
  std::string description;
};
/// Throws Error for an environment that cannot work (malformed or partial
/// tile-run variables, a multi-process launcher without NVSHMEM_BOOTSTRAP).
NvshmemBootstrap planNvshmemBootstrap();

/// The value of an environment variable, or "" when unset.
std::string getEnv(const char *name);
/// True if `path` names a regular file.
bool isRegularFile(const std::string &path);

/// Makes NVSHMEM ready for `module` (initialising NVSHMEM first if needed).
void nvshmemModuleInit(CUmodule module);
/// Releases NVSHMEM's hold on `module` before it is unloaded; does nothing
/// once NVSHMEM was finalised. Never throws.
void nvshmemModuleFinalize(CUmodule module) noexcept;

} // namespace detail
} // namespace rt
} // namespace tile

#endif // TILE_LIB_RUNTIME_NVSHMEMAPI_H
