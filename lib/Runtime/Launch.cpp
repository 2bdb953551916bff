//===- Launch.cpp - Modules, kernels and launches -------------------------===//
//
// Launches in clusters or as dependent launches go through
// cuLaunchKernelEx, all others through cuLaunchKernel.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "NvshmemApi.h"
#include "tile/Runtime/Launch.h"
#include "tile/Runtime/Nvshmem.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <iterator>

using namespace tile::rt;
using namespace tile::rt::detail;

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

static std::vector<char> readImage(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw Error("Module::loadCubinFile: cannot read '" + path + "'");
  std::vector<char> image((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (file.bad())
    throw Error("Module::loadCubinFile: error reading '" + path + "'");
  if (image.empty())
    throw Error("Module::loadCubinFile: '" + path + "' is empty");
  return image;
}

Module Module::loadCubinFile(const std::string &path) {
  std::vector<char> image = readImage(path);
  try {
    return loadImage(image.data(), image.size());
  } catch (const Error &e) {
    throw Error(std::string(e.what()) + " while loading '" + path + "'");
  }
}

Module Module::loadCubinFile(const std::string &path,
                             const std::vector<KernelInfo> &infos) {
  std::vector<char> image = readImage(path);
  try {
    return loadImage(image.data(), image.size(), infos);
  } catch (const Error &e) {
    throw Error(std::string(e.what()) + " while loading '" + path + "'");
  }
}

Module Module::loadImage(const void *image, size_t bytes,
                         const std::vector<KernelInfo> &infos) {
  if (!needsNvshmem(infos))
    return loadImage(image, bytes);
  if (!image || bytes == 0)
    throw Error("Module::loadImage: empty image");
  // NVSHMEM before the driver: its absence is what the user must fix.
  std::string why;
  if (!nvshmemAvailable(&why))
    throw Error("kernel '" + firstNeedingNvshmem(infos)->name + "' " + why);
  // Initialising makes the PE's device current, which is the link target.
  nvshmemInit();
  std::string linked = detail::linkWithNvshmem(image, bytes);
  CUmodule handle = nullptr;
  TILE_CU_CTX("(the kernel image linked with NVSHMEM)", cuModuleLoadData,
              &handle, linked.data());
  Module module(handle);
  detail::nvshmemModuleInit(handle);
  module.nvshmem_ = true;
  return module;
}

/// "(the cubin is for sm_100, the current device is sm_90: ...)" when the
/// driver refused a cubin built for another chip than the current
/// device's, the likeliest cause; empty otherwise.
static std::string wrongChipHint(CUresult result, const void *image,
                                 size_t bytes) {
  int arch = cubinArchitecture(image, bytes);
  if (!arch || (result != CUDA_ERROR_NO_BINARY_FOR_GPU &&
                result != CUDA_ERROR_INVALID_IMAGE &&
                result != CUDA_ERROR_INVALID_SOURCE))
    return {};
  try {
    int cc = detail::currentComputeCapability();
    if (arch == cc)
      return {};
    return "(the cubin is for sm_" + std::to_string(arch) +
           ", the current device is sm_" + std::to_string(cc) +
           ": compile the kernel for it, e.g. tile-translate --chip=" +
           detail::chipName(cc) + ")";
  } catch (const Error &) {
    return {}; // No current device to compare with.
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
  CUresult result = TILE_CU_RESULT(cuModuleLoadData, &module, data);
  if (result != CUDA_SUCCESS)
    detail::check("cuModuleLoadData", result,
                  wrongChipHint(result, image, bytes));
  return Module(module);
}

int tile::rt::cubinArchitecture(const void *image, size_t bytes) {
  // A 64-bit little-endian ELF for EM_CUDA (190). From CUDA's ELF ABI
  // version 8 (EI_ABIVERSION) on the SM is in bits 8-15 of e_flags,
  // before in bits 0-7.
  const auto *data = static_cast<const unsigned char *>(image);
  if (!image || bytes < sizeof(Elf64_Ehdr) ||
      std::memcmp(data, ELFMAG, SELFMAG) != 0 ||
      data[EI_CLASS] != ELFCLASS64 || data[EI_DATA] != ELFDATA2LSB)
    return 0;
  Elf64_Ehdr header;
  std::memcpy(&header, data, sizeof(header));
  if (header.e_machine != 190)
    return 0;
  return data[EI_ABIVERSION] >= 8 ? (header.e_flags >> 8) & 0xff
                                  : header.e_flags & 0xff;
}

Module::Module(Module &&other) noexcept
    : module_(other.module_), nvshmem_(other.nvshmem_) {
  other.module_ = nullptr;
  other.nvshmem_ = false;
}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    reset();
    module_ = other.module_;
    nvshmem_ = other.nvshmem_;
    other.module_ = nullptr;
    other.nvshmem_ = false;
  }
  return *this;
}

Module::~Module() { reset(); }

void Module::reset() noexcept {
  if (!module_)
    return;
  // NVSHMEM keeps the module's device state registered until told.
  if (nvshmem_)
    detail::nvshmemModuleFinalize(module_);
  nvshmem_ = false;
  TILE_CU_QUIET(cuModuleUnload, module_);
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
  bytes_.push_back(bytes);
  return *this;
}

void ArgPack::setBytes(size_t param, const void *data, size_t bytes) {
  if (param >= bytes_.size() || bytes_[param] != bytes)
    throw Error("ArgPack: no parameter " + std::to_string(param) + " of " +
                std::to_string(bytes) + " bytes to overwrite");
  std::memcpy(params_[param], data, bytes);
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
  bytes_.clear();
}

static std::string dimsToString(Dim3 d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" +
         std::to_string(d.z);
}

namespace {
/// cuLaunchKernelEx's description of a launch in clusters and/or as a
/// dependent launch (which it points into, so it is not copied).
struct ExtendedLaunch {
  ExtendedLaunch(const Kernel &kernel, const LaunchConfig &launch,
                 bool clustered, bool dependent, const std::string &context,
                 bool cooperative = false) {
    std::memset(attributes, 0, sizeof(attributes));
    std::memset(&config, 0, sizeof(config));
    if (clustered) {
      const Dim3 &cluster = launch.cluster;
      // Clusters of more than 8 blocks are "non-portable" and need an
      // opt-in.
      if (uint64_t(cluster.x) * cluster.y * cluster.z > 8)
        TILE_CU_CTX(context, cuFuncSetAttribute, kernel.handle(),
                    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
      CUlaunchAttribute &attribute = attributes[config.numAttrs++];
      attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attribute.value.clusterDim.x = cluster.x;
      attribute.value.clusterDim.y = cluster.y;
      attribute.value.clusterDim.z = cluster.z;
    }
    if (dependent) {
      CUlaunchAttribute &attribute = attributes[config.numAttrs++];
      attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      attribute.value.programmaticStreamSerializationAllowed = 1;
    }
    if (cooperative) {
      CUlaunchAttribute &attribute = attributes[config.numAttrs++];
      attribute.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
      attribute.value.cooperative = 1;
    }
    config.gridDimX = launch.grid.x;
    config.gridDimY = launch.grid.y;
    config.gridDimZ = launch.grid.z;
    config.blockDimX = launch.block.x;
    config.blockDimY = launch.block.y;
    config.blockDimZ = launch.block.z;
    config.sharedMemBytes = launch.dynamicSharedBytes;
    config.hStream = launch.stream;
    config.attrs = attributes;
  }
  ExtendedLaunch(const ExtendedLaunch &) = delete;
  ExtendedLaunch &operator=(const ExtendedLaunch &) = delete;
  CUlaunchAttribute attributes[3];
  CUlaunchConfig config;
};

/// When launches are dependent ones (TILE_DEPENDENT_LAUNCH, read once): 0
/// never (to compare, or to rule them out), `graph` also while a stream is
/// captured into a graph, anything else (the default) only outside
/// captures.
enum class DependentLaunches { never, outsideCaptures, always };
DependentLaunches dependentLaunches() {
  static const DependentLaunches mode = [] {
    const char *value = std::getenv("TILE_DEPENDENT_LAUNCH");
    if (value && std::string(value) == "0")
      return DependentLaunches::never;
    if (value && std::string(value) == "graph")
      return DependentLaunches::always;
    return DependentLaunches::outsideCaptures;
  }();
  return mode;
}

/// Whether `stream` is being captured into a graph. Captured launches are
/// ordinary ones by default: the GPT-2 forward replayed as a graph with
/// programmatic edges ran 1-2.5% slower than with ordinary ones on an H200,
/// where launched one by one dependent launches made it 1.5-6% faster
/// (docs/measurements.md, "Dependent launches"). Asked of the driver (no
/// synchronisation; a lookup) rather than read from a flag rt::Graph sets,
/// so that a capture the host program began itself counts too.
bool capturing(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  TILE_CU(cuStreamIsCapturing, stream, &status);
  return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

/// Kernels must opt in to more than 48 KiB of dynamic shared memory. More
/// than the device has is refused with what it has.
void allowSharedBytes(const Kernel &kernel, unsigned bytes) {
  if (bytes <= 48 * 1024)
    return;
  CUresult result =
      TILE_CU_RESULT(cuFuncSetAttribute, kernel.handle(),
                     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes));
  if (result == CUDA_SUCCESS)
    return;
  std::string context = "(requesting " + std::to_string(bytes) +
                        " bytes of dynamic shared memory for kernel '" +
                        kernel.name() + "'";
  if (result == CUDA_ERROR_INVALID_VALUE) {
    try {
      int staticBytes = 0;
      TILE_CU(cuFuncGetAttribute, &staticBytes,
              CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel.handle());
      context += "; the device allows at most " +
                 std::to_string(detail::currentDeviceAttribute(
                                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) -
                                staticBytes) +
                 " per block: compile the kernel with fewer pipeline stages "
                 "or smaller tiles";
    } catch (const Error &) {
      // The limit is a hint; the refusal is reported either way.
    }
  }
  detail::check("cuFuncSetAttribute", result, context + ")");
}

/// The arguments packed against the kernel's parameters: a missing, extra
/// or wrongly sized argument would otherwise be read as garbage by the
/// kernel. The kernel description gives the parameters; without it the
/// driver gives each packed argument's (cuFuncGetParamInfo), asked only for
/// the packed arguments' indices so that a good launch makes no failing
/// driver call (compute-sanitizer reports those), which leaves a missing
/// trailing argument unseen.
void checkArguments(const Kernel &kernel, const LaunchConfig &config,
                    const ArgPack &args) {
  auto countMismatch = [&](size_t params) {
    return Error("launch: kernel '" + kernel.name() + "' takes " +
                 std::to_string(params) + " parameters, but " +
                 std::to_string(args.size()) +
                 " arguments were packed (a memref is 3 + 2 x rank "
                 "parameters: ArgPack::addMemRef; each TMA tensor map is "
                 "one, after the kernel's own arguments)");
  };
  auto checkSize = [&](size_t i, size_t bytes) {
    if (args.bytes()[i] != bytes)
      throw Error("launch: parameter " + std::to_string(i) + " of kernel '" +
                  kernel.name() + "' is " + std::to_string(bytes) +
                  " bytes, but the argument packed for it is " +
                  std::to_string(args.bytes()[i]) +
                  " (an i1 is a uint8_t; index and pointers are 8 bytes)");
  };
  if (config.paramBytes) {
    const std::vector<uint32_t> &params = *config.paramBytes;
    if (params.size() != args.size())
      throw countMismatch(params.size());
    for (size_t i = 0; i < params.size(); ++i)
      checkSize(i, params[i]);
    return;
  }
  auto getParamInfo = detail::api("cuFuncGetParamInfo").cuFuncGetParamInfo;
  if (!getParamInfo)
    return; // A driver that cannot say.
  for (size_t i = 0; i < args.size(); ++i) {
    size_t offset = 0, bytes = 0;
    if (getParamInfo(kernel.handle(), i, &offset, &bytes) != CUDA_SUCCESS)
      throw countMismatch(i);
    checkSize(i, bytes);
  }
}
} // namespace

void tile::rt::fillWordsAsync(CUdeviceptr ptr, uint32_t value, size_t words,
                              CUstream stream) {
  TILE_CU_CTX("(filling " + std::to_string(words) + " words)",
              cuMemsetD32Async, ptr, value, words, stream);
}

unsigned tile::rt::maxActiveClusters(const Kernel &kernel,
                                     const LaunchConfig &config) {
  if (!kernel.handle())
    throw Error("maxActiveClusters: kernel '" + kernel.name() +
                "' is not loaded");
  allowSharedBytes(kernel, config.dynamicSharedBytes);
  std::string context = "(occupancy of kernel '" + kernel.name() +
                        "' in clusters of " + dimsToString(config.cluster) +
                        ")";
  ExtendedLaunch clusterLaunch(kernel, config, /*clustered=*/true,
                               /*dependent=*/false, context);
  int clusters = 0;
  TILE_CU_CTX(context, cuOccupancyMaxActiveClusters, &clusters,
              kernel.handle(), &clusterLaunch.config);
  return static_cast<unsigned>(clusters);
}

/// What nvshmemx_collective_launch checks first: every CTA of the grid
/// resident at once (NVSHMEM's barriers and waits inside a kernel wait for
/// CTAs that would otherwise never start), else an Error that says how many
/// fit.
static void requireResident(const Kernel &kernel, const LaunchConfig &config,
                            const std::string &context) {
  int perSm = 0;
  TILE_CU_CTX(context + " (occupancy)",
              cuOccupancyMaxActiveBlocksPerMultiprocessor, &perSm,
              kernel.handle(), int(config.block.x * config.block.y *
                                   config.block.z),
              config.dynamicSharedBytes);
  uint64_t sms = uint64_t(detail::currentDeviceAttribute(
      CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  uint64_t resident = uint64_t(perSm) * sms;
  uint64_t ctas = uint64_t(config.grid.x) * config.grid.y * config.grid.z;
  if (ctas > resident)
    throw Error("launch: kernel '" + kernel.name() +
                "' synchronises PEs inside (NVSHMEM's barriers or waits: a "
                "collective launch), so all " + std::to_string(ctas) +
                " CTAs of its grid " + dimsToString(config.grid) +
                " must be resident at once, and this GPU holds at most " +
                std::to_string(resident) + " (" + std::to_string(perSm) +
                " an SM x " + std::to_string(sms) +
                " SMs): launch a grid of at most that many");
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

  checkArguments(kernel, config, args);
  allowSharedBytes(kernel, config.dynamicSharedBytes);

  const Dim3 &cluster = config.cluster;
  bool clustered = cluster.x != 1 || cluster.y != 1 || cluster.z != 1;
  DependentLaunches mode = dependentLaunches();
  // A collective launch is not also a dependent one: its CTAs must all be
  // resident, which an early start beside the kernel before it would not
  // leave room for (its griddepcontrol.wait then returns at once).
  bool cooperative = config.collective;
  bool dependent = config.dependent && !cooperative &&
                   mode != DependentLaunches::never &&
                   (mode == DependentLaunches::always ||
                    !capturing(config.stream));
  // A refused collective launch is explained after the driver refuses it
  // (below); a captured one is refused only when the graph runs, so it is
  // checked first.
  if (cooperative && capturing(config.stream))
    requireResident(kernel, config, context);
  if (!clustered && !dependent && !cooperative) {
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
  ExtendedLaunch extended(kernel, config, clustered, dependent, context,
                          cooperative);
  try {
    TILE_CU_CTX(context + (clustered ? " with cluster " + dimsToString(cluster)
                                     : std::string()) +
                    (dependent ? " as a dependent launch" : "") +
                    (cooperative ? " as a collective launch" : ""),
                cuLaunchKernelEx, &extended.config, function, args.params(),
                nullptr);
  } catch (const Error &) {
    // Only a refused collective launch pays for the occupancy query: it
    // says how many CTAs fit, which the driver's error does not.
    if (cooperative)
      requireResident(kernel, config, context);
    throw;
  }
}


LaunchConfig tile::rt::launchConfigFor(const KernelInfo &info, Dim3 grid,
                                       CUstream stream) {
  LaunchConfig config;
  config.grid = grid;
  config.block = info.block;
  config.cluster = info.cluster;
  config.dynamicSharedBytes = info.sharedBytes;
  config.stream = stream;
  config.paramBytes = info.paramBytes;
  config.dependent = info.dependentLaunch;
  config.collective = info.collectiveLaunch;
  return config;
}
