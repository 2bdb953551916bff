//===- Nvshmem.cpp - Loading and initialising NVSHMEM ---------------------===//
//
// NVSHMEM is looked for on disk and its host library opened with dlopen on
// first use, like the driver (Driver.cpp), so that tile builds, tests and
// runs without it. Its state here is one process-wide object behind a
// mutex; NVSHMEM itself allows one initialisation per process.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "NvshmemApi.h"
#include "tile/Runtime/Device.h"
#include "tile/Runtime/Driver.h"
#include "tile/Runtime/Nvshmem.h"
#include "tile/Toolchain/Toolchain.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

using namespace tile::rt;
namespace toolchain = ::tile::toolchain;
using namespace tile::rt::detail;

namespace {

using toolchain::kNvshmemDeviceLibrary;
using toolchain::kNvshmemHowToInstall;

//===----------------------------------------------------------------------===//
// Environment
//===----------------------------------------------------------------------===//

/// A non-negative decimal integer, or an Error naming the variable.
int parseEnvInt(const char *name, const std::string &value) {
  char *end = nullptr;
  errno = 0;
  long number = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end || errno || number < 0 || number > INT32_MAX)
    throw Error(std::string(name) + "='" + value +
                "' is not a non-negative integer");
  return int(number);
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

struct LoadedNvshmem {
  // Empty when the host library loaded; otherwise why not.
  std::string failure;
  NvshmemInstall install;
  NvshmemApi api;
};

/// NVSHMEM loads its bootstrap plugins with dlopen by bare file name, which
/// only finds them through its own run path or LD_LIBRARY_PATH; point it at
/// the ones beside the host library unless the user chose others.
void pointAtPlugins(const std::string &libraryDir) {
  static const struct {
    const char *variable;
    const char *file;
  } plugins[] = {
      {"NVSHMEM_BOOTSTRAP_UID_PLUGIN", "nvshmem_bootstrap_uid.so.3"},
      {"NVSHMEM_BOOTSTRAP_PMI_PLUGIN", "nvshmem_bootstrap_pmi.so.3"},
      {"NVSHMEM_BOOTSTRAP_PMI2_PLUGIN", "nvshmem_bootstrap_pmi2.so.3"},
      {"NVSHMEM_BOOTSTRAP_PMIX_PLUGIN", "nvshmem_bootstrap_pmix.so.3"},
      {"NVSHMEM_BOOTSTRAP_MPI_PLUGIN", "nvshmem_bootstrap_mpi.so.3"},
      {"NVSHMEM_BOOTSTRAP_SHMEM_PLUGIN", "nvshmem_bootstrap_shmem.so.3"},
  };
  for (const auto &plugin : plugins) {
    std::string path = libraryDir + "/" + plugin.file;
    if (isRegularFile(path))
      setenv(plugin.variable, path.c_str(), /*overwrite=*/0);
  }
}

LoadedNvshmem loadNvshmem() {
  LoadedNvshmem loaded;
  std::string why;
  if (!findNvshmem(loaded.install, &why)) {
    loaded.failure = why;
    return loaded;
  }
  const NvshmemInstall &install = loaded.install;
  pointAtPlugins(install.libraryDir);
  // RTLD_GLOBAL, as if the program were linked with it: the bootstrap
  // plugins NVSHMEM opens later run in the same scope. Never dlclose.
  void *lib = dlopen(install.hostLibrary.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    const char *error = dlerror();
    loaded.failure = "cannot load " + install.hostLibrary + " (found in " +
                     install.origin + "): " + (error ? error : "dlopen failed");
    return loaded;
  }
#define TILE_LOOKUP_NVSHMEM_FN(name, type)                                     \
  loaded.api.name = reinterpret_cast<NvshmemFn<type>>(dlsym(lib, #name));     \
  if (!loaded.api.name) {                                                      \
    loaded.failure = install.hostLibrary + " does not export " #name           \
                     ": NVSHMEM 3.4 or newer is needed (" +                    \
                     kNvshmemHowToInstall + ")";                                      \
    return loaded;                                                             \
  }
  TILE_NVSHMEM_FUNCTIONS(TILE_LOOKUP_NVSHMEM_FN)
#undef TILE_LOOKUP_NVSHMEM_FN
  return loaded;
}

const LoadedNvshmem &loadedNvshmem() {
  // Thread-safe one-time load.
  static const LoadedNvshmem loaded = loadNvshmem();
  return loaded;
}

//===----------------------------------------------------------------------===//
// Unique ids
//===----------------------------------------------------------------------===//

NvshmemUniqueId newUniqueId(const NvshmemApi &api) {
  NvshmemUniqueId id = {};
  id.version = nvshmemVersionOf<NvshmemUniqueId>();
  if (int status = api.nvshmemx_get_uniqueid(&id))
    throw Error("nvshmemx_get_uniqueid failed with status " +
                std::to_string(status) +
                " (NVSHMEM found no network interface for its bootstrap? "
                "NVSHMEM_DEBUG=INFO shows why)");
  return id;
}

std::string toHex(const NvshmemUniqueId &id) {
  static const char digits[] = "0123456789abcdef";
  const auto *bytes = reinterpret_cast<const unsigned char *>(&id);
  std::string hex;
  for (size_t i = 0; i < sizeof(id); ++i) {
    hex += digits[bytes[i] >> 4];
    hex += digits[bytes[i] & 15];
  }
  return hex;
}

NvshmemUniqueId fromHex(const std::string &hex) {
  NvshmemUniqueId id;
  if (hex.size() != 2 * sizeof(id))
    throw Error(std::string(nvshmemenv::kUniqueId) + " must be " +
                std::to_string(2 * sizeof(id)) + " hex digits, got " +
                std::to_string(hex.size()) +
                " characters (it is set by tile-run; unset it to run as a "
                "single PE)");
  auto digit = [&](char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    throw Error(std::string(nvshmemenv::kUniqueId) + " holds '" +
                std::string(1, c) + "', which is not a hex digit");
  };
  auto *bytes = reinterpret_cast<unsigned char *>(&id);
  for (size_t i = 0; i < sizeof(id); ++i)
    bytes[i] = (unsigned char)(digit(hex[2 * i]) << 4 | digit(hex[2 * i + 1]));
  return id;
}

/// What nvshmemx_init_attr's initialisers set before the bootstrap's own
/// fields.
NvshmemInitAttr defaultInitAttr() {
  NvshmemInitAttr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.version = nvshmemVersionOf<NvshmemInitAttr>();
  attr.mpi_comm = nullptr;
  attr.args.version = nvshmemVersionOf<NvshmemInitArgs>();
  attr.args.uid_args.version = nvshmemVersionOf<NvshmemUniqueIdArgs>();
  attr.args.uid_args.id = nullptr;
  attr.args.uid_args.myrank = -1;
  attr.args.uid_args.nranks = -1;
  return attr;
}

/// How many processes a launcher (mpirun, srun, hydra) started together, or
/// 0 with `variable` empty when none did.
int launcherWorldSize(std::string &variable) {
  for (const char *name :
       {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    std::string value = getEnv(name);
    if (value.empty())
      continue;
    variable = std::string(name) + "=" + value;
    return parseEnvInt(name, value);
  }
  variable.clear();
  return 0;
}

//===----------------------------------------------------------------------===//
// Process state
//===----------------------------------------------------------------------===//

enum class Phase { Uninitialized, Initialized, Finalized };

struct PeState {
  // Recursive: finalising releases the PE's Device, which (the last Device
  // on its context) unloads the embedded modules, which finalise their
  // NVSHMEM state under this lock again (and find NVSHMEM finalised).
  std::recursive_mutex mutex;
  Phase phase = Phase::Uninitialized;
  int myPe = -1;
  int numPes = 0;
  /// Holds the PE's primary context until NVSHMEM is finalised, whatever the
  /// program does with its own Device.
  std::optional<Device> device;
  bool finalizeAtExit = false;
};

PeState &peState() {
  static PeState state;
  return state;
}

void finalizeLocked(PeState &state) {
  if (state.phase != Phase::Initialized)
    return;
  state.phase = Phase::Finalized;
  // NVSHMEM tears down in the current context; at exit the program may have
  // left another one current.
  try {
    if (state.device)
      state.device->makeCurrent();
  } catch (const Error &) {
  }
  loadedNvshmem().api.nvshmemx_hostlib_finalize();
  state.device.reset();
}

void finalizeAtExit() {
  PeState &state = peState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  try {
    finalizeLocked(state);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tile runtime: finalising NVSHMEM at exit: %s\n",
                 e.what());
  }
}

/// The PE's device made current, checking that a context the program made
/// current already is on it.
Device openPeDevice() {
  int ordinal = nvshmemDeviceOrdinal();
  CUcontext current = nullptr;
  TILE_CU(cuCtxGetCurrent, &current);
  if (current) {
    CUdevice have = 0, want = 0;
    TILE_CU(cuCtxGetDevice, &have);
    TILE_CU(cuDeviceGet, &want, ordinal);
    if (have != want)
      throw Error("nvshmemInit: this PE (local rank " +
                  std::to_string(nvshmemLocalRank()) + ") runs on device " +
                  std::to_string(ordinal) +
                  " but the current context is on another device: open "
                  "Device::open(rt::nvshmemDeviceOrdinal())");
  }
  return Device::open(ordinal);
}

void initLocked(PeState &state) {
  if (state.phase == Phase::Initialized)
    return;
  if (state.phase == Phase::Finalized)
    throw Error("nvshmemInit: NVSHMEM was finalised in this process and "
                "cannot be initialised again");
  // A wrong environment is reported before anything is loaded or opened.
  NvshmemBootstrap plan = planNvshmemBootstrap();
  const NvshmemApi &api = nvshmemApi();
  Device device = openPeDevice();

  // NVLink multicast stays off unless the user asks for it: on shared
  // machines a multicast object can take the GPUs out of service (tile-run
  // sets it too; this covers programs started by mpirun/srun or alone).
  setenv("NVSHMEM_DISABLE_NVLS", "1", /*overwrite=*/0);
  // Nor does NVSHMEM load NCCL for its host-side collectives unless asked
  // (NVSHMEM_DISABLE_NCCL=0): loading and starting NCCL took about 1 s of
  // each process's start on an H200 (1.8 -> 0.85 s with the device
  // functions cached), and the barriers tile calls work without it at the
  // same speed (docs/measurements.md, "Start-up of an NVSHMEM program").
  setenv("NVSHMEM_DISABLE_NCCL", "1", /*overwrite=*/0);
  NvshmemInitAttr attr = defaultInitAttr();
  NvshmemUniqueId id;
  int status = 0;
  switch (plan.kind) {
  case NvshmemBootstrap::UniqueId:
    id = fromHex(plan.uniqueIdHex);
    api.nvshmemx_set_attr_uniqueid_args(plan.rank, plan.size, &id, &attr);
    status = api.nvshmemx_hostlib_init_attr(kNvshmemxInitWithUniqueId, &attr);
    break;
  case NvshmemBootstrap::Nvshmem:
    // mpirun/srun: NVSHMEM's own bootstrap (PMI, PMI-2, PMIx, MPI) finds
    // the other processes through the launcher.
    status = api.nvshmemx_hostlib_init_attr(0, nullptr);
    break;
  case NvshmemBootstrap::Alone:
    // This process is the whole job and hosts the bootstrap's root thread;
    // loopback is enough to reach it.
    setenv("NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", "lo", /*overwrite=*/0);
    id = newUniqueId(api);
    api.nvshmemx_set_attr_uniqueid_args(0, 1, &id, &attr);
    status = api.nvshmemx_hostlib_init_attr(kNvshmemxInitWithUniqueId, &attr);
    break;
  }
  if (status)
    throw Error("nvshmemx_hostlib_init_attr failed with status " +
                std::to_string(status) + " (" + plan.description +
                "); NVSHMEM_DEBUG=INFO shows why");
  int initStatus = api.nvshmemx_init_status();
  if (initStatus < kNvshmemStatusIsInitialized)
    throw Error("nvshmemInit: NVSHMEM bootstrapped (" + plan.description +
                ") but did not initialise (status " +
                std::to_string(initStatus) + "); NVSHMEM_DEBUG=INFO shows why");

  state.phase = Phase::Initialized;
  state.myPe = api.nvshmem_my_pe();
  state.numPes = api.nvshmem_n_pes();
  state.device.emplace(std::move(device));
  // After NVSHMEM's own atexit handlers, so that this one runs first.
  if (!state.finalizeAtExit) {
    std::atexit(finalizeAtExit);
    state.finalizeAtExit = true;
  }
}

/// NVSHMEM initialised, for the calls that need it.
PeState &initializedState() {
  PeState &state = peState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  initLocked(state);
  return state;
}

} // namespace

//===----------------------------------------------------------------------===//
// Public: discovery and loading
//===----------------------------------------------------------------------===//

std::string tile::rt::detail::getEnv(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

bool tile::rt::detail::isRegularFile(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool tile::rt::findNvshmem(NvshmemInstall &install, std::string *why) {
  return toolchain::findNvshmem(install, CUDA_VERSION / 1000, why);
}

bool tile::rt::nvshmemAvailable(std::string *why) {
  try {
    const LoadedNvshmem &loaded = loadedNvshmem();
    if (why)
      *why = loaded.failure;
    return loaded.failure.empty();
  } catch (const std::exception &e) {
    if (why)
      *why = e.what();
    return false;
  }
}

const NvshmemApi &tile::rt::detail::nvshmemApi() {
  const LoadedNvshmem &loaded = loadedNvshmem();
  if (!loaded.failure.empty())
    throw Error(loaded.failure);
  return loaded.api;
}

const NvshmemInstall &tile::rt::nvshmemInstall() {
  nvshmemApi();
  return loadedNvshmem().install;
}

std::string tile::rt::nvshmemVersion() {
  int major = 0, minor = 0, patch = 0;
  nvshmemApi().nvshmemx_vendor_get_version_info(&major, &minor, &patch);
  return std::to_string(major) + "." + std::to_string(minor) + "." +
         std::to_string(patch);
}

//===----------------------------------------------------------------------===//
// Public: bootstrap and PEs
//===----------------------------------------------------------------------===//

NvshmemBootstrap tile::rt::detail::planNvshmemBootstrap() {
  NvshmemBootstrap plan;
  std::string uid = getEnv(nvshmemenv::kUniqueId);
  std::string bootstrap = getEnv(nvshmemenv::kNvshmemBootstrap);
  std::string launcher;
  int launcherSize = launcherWorldSize(launcher);
  if (!uid.empty()) {
    fromHex(uid); // Checks it.
    auto required = [](const char *name) {
      std::string value = getEnv(name);
      if (value.empty())
        throw Error(std::string("nvshmemInit: ") + nvshmemenv::kUniqueId +
                    " is set but " + name +
                    " is not: start the program with tile-run -n <PEs>");
      return parseEnvInt(name, value);
    };
    plan.kind = NvshmemBootstrap::UniqueId;
    plan.uniqueIdHex = uid;
    plan.rank = required(nvshmemenv::kRank);
    plan.size = required(nvshmemenv::kWorldSize);
    if (plan.size < 1 || plan.rank >= plan.size)
      throw Error(std::string("nvshmemInit: ") + nvshmemenv::kRank + "=" +
                  std::to_string(plan.rank) + " is not below " +
                  nvshmemenv::kWorldSize + "=" + std::to_string(plan.size));
    plan.description = "PE " + std::to_string(plan.rank) + " of " +
                       std::to_string(plan.size) + " from " +
                       nvshmemenv::kUniqueId;
  } else if (!bootstrap.empty()) {
    plan.kind = NvshmemBootstrap::Nvshmem;
    plan.description =
        std::string(nvshmemenv::kNvshmemBootstrap) + "=" + bootstrap;
  } else if (launcherSize > 1) {
    throw Error(
        "nvshmemInit: this process is one of " + std::to_string(launcherSize) +
        " started by a launcher (" + launcher + ") but neither " +
        nvshmemenv::kUniqueId + " nor " + nvshmemenv::kNvshmemBootstrap +
        " is set: on one node start it with tile-run -n " +
        std::to_string(launcherSize) +
        "; across nodes set NVSHMEM_BOOTSTRAP=PMI (with "
        "NVSHMEM_BOOTSTRAP_PMI=PMIX under Open MPI, PMI-2 under srun "
        "--mpi=pmi2) or NVSHMEM_BOOTSTRAP=MPI");
  } else {
    plan.kind = NvshmemBootstrap::Alone;
    plan.description = "a single PE";
  }
  return plan;
}

std::string tile::rt::nvshmemCreateUniqueId() {
  return toHex(newUniqueId(nvshmemApi()));
}

int tile::rt::nvshmemLocalRank() {
  for (const char *name : {nvshmemenv::kLocalRank, "OMPI_COMM_WORLD_LOCAL_RANK",
                           "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    std::string value = getEnv(name);
    if (!value.empty())
      return parseEnvInt(name, value);
  }
  return 0;
}

int tile::rt::nvshmemDeviceOrdinal() {
  int count = 0;
  TILE_CU(cuDeviceGetCount, &count);
  if (count == 0)
    throw Error("nvshmemDeviceOrdinal: no CUDA device present");
  return nvshmemLocalRank() % count;
}

void tile::rt::nvshmemInit() { initializedState(); }

bool tile::rt::nvshmemInitialized() {
  PeState &state = peState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  return state.phase == Phase::Initialized;
}

int tile::rt::nvshmemMyPe() { return initializedState().myPe; }

int tile::rt::nvshmemNumPes() { return initializedState().numPes; }

void tile::rt::nvshmemBarrierAll() {
  initializedState();
  nvshmemApi().nvshmem_barrier_all();
}

bool tile::rt::nvshmemPeerMapped(CUdeviceptr symmetric, int pe) {
  const PeState &state = initializedState();
  if (pe < 0 || pe >= state.numPes)
    throw Error("nvshmemPeerMapped: PE " + std::to_string(pe) +
                " is not one of the " + std::to_string(state.numPes) +
                " PEs");
  return nvshmemApi().nvshmem_ptr(reinterpret_cast<const void *>(symmetric),
                                  pe) != nullptr;
}

void tile::rt::nvshmemBarrierAllOnStream(CUstream stream) {
  initializedState();
  nvshmemApi().nvshmemx_barrier_all_on_stream(stream);
}

void tile::rt::nvshmemPutSignalOnStream(CUdeviceptr dest, CUdeviceptr source,
                                        size_t bytes, CUdeviceptr signal,
                                        uint64_t value, int pe,
                                        CUstream stream) {
  const PeState &state = initializedState();
  if (pe < 0 || pe >= state.numPes)
    throw Error("nvshmemPutSignalOnStream: PE " + std::to_string(pe) +
                " is not one of the " + std::to_string(state.numPes) +
                " PEs");
  if (!dest || !source || !signal)
    throw Error("nvshmemPutSignalOnStream: a null destination, source or "
                "signal word");
  // NVSHMEM_SIGNAL_SET (device_host_transport/nvshmem_constants.h).
  constexpr int kSignalSet = 9;
  nvshmemApi().nvshmemx_putmem_signal_on_stream(
      reinterpret_cast<void *>(dest), reinterpret_cast<const void *>(source),
      bytes, reinterpret_cast<uint64_t *>(signal), value, kSignalSet, pe,
      stream);
}

void tile::rt::nvshmemSignalWaitOnStream(CUdeviceptr signal, uint64_t value,
                                         CUstream stream) {
  initializedState();
  if (!signal)
    throw Error("nvshmemSignalWaitOnStream: a null signal word");
  // NVSHMEM_CMP_GE (device_host_transport/nvshmem_constants.h).
  constexpr int kCmpGe = 5;
  nvshmemApi().nvshmemx_signal_wait_until_on_stream(
      reinterpret_cast<uint64_t *>(signal), kCmpGe, value, stream);
}

void tile::rt::nvshmemFinalize() {
  PeState &state = peState();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  finalizeLocked(state);
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

void tile::rt::detail::nvshmemModuleInit(CUmodule module) {
  initializedState();
  if (int status = nvshmemApi().nvshmemx_cumodule_init(module))
    throw Error("nvshmemx_cumodule_init failed with status " +
                std::to_string(status) +
                ": the module lacks NVSHMEM's device state "
                "(nvshmemi_device_state_d), so it was not linked with " +
                kNvshmemDeviceLibrary);
}

void tile::rt::detail::nvshmemModuleFinalize(CUmodule module) noexcept {
  try {
    PeState &state = peState();
    std::lock_guard<std::recursive_mutex> lock(state.mutex);
    if (state.phase == Phase::Initialized)
      (void)loadedNvshmem().api.nvshmemx_cumodule_finalize(module);
  } catch (...) {
    // Destructors report nothing.
  }
}

//===----------------------------------------------------------------------===//
// SymmetricBuffer
//===----------------------------------------------------------------------===//

static void releaseSymmetricMemory(CUdeviceptr ptr) noexcept {
  try {
    PeState &state = peState();
    std::lock_guard<std::recursive_mutex> lock(state.mutex);
    // Finalising NVSHMEM released the whole heap.
    if (state.phase == Phase::Initialized)
      loadedNvshmem().api.nvshmem_free(reinterpret_cast<void *>(ptr));
  } catch (...) {
  }
}

static const DeviceMemory::Allocator kSymmetricAllocator = {
    "SymmetricBuffer", releaseSymmetricMemory};

SymmetricBuffer::SymmetricBuffer() : DeviceMemory(kSymmetricAllocator) {}

SymmetricBuffer::SymmetricBuffer(size_t bytes)
    : DeviceMemory(kSymmetricAllocator) {
  initializedState();
  // nvshmem_malloc(0) returns null; an empty buffer owns nothing, on every
  // PE alike.
  if (bytes == 0)
    return;
  void *ptr = nvshmemApi().nvshmem_malloc(bytes);
  if (!ptr)
    throw Error("nvshmem_malloc failed for " + std::to_string(bytes) +
                " bytes: the symmetric heap is full (it holds "
                "NVSHMEM_SYMMETRIC_SIZE bytes per PE, 1 GiB unless set) or "
                "the PEs asked for different sizes");
  adopt(reinterpret_cast<CUdeviceptr>(ptr), bytes);
}
