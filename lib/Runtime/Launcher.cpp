//===- Launcher.cpp - bound launches and embedded modules -----------------===//

#include "tile/Runtime/Launcher.h"

#include "DriverApi.h"

#include <map>
#include <mutex>

using namespace tile::rt;

static std::string describeArgument(bool isMemRef, const std::string &type,
                                    unsigned rank) {
  if (!isMemRef)
    return type;
  return std::string(kinfo::kMemref) + "<" + std::to_string(rank) + "D" +
         (type.empty() ? "" : " " + type) + ">";
}

void tile::rt::checkArgument(const KernelInfo &info, size_t index,
                             bool isMemRef, const std::string &type,
                             unsigned rank) {
  if (!info.args)
    return;
  const std::vector<ArgInfo> &args = *info.args;
  if (index >= args.size())
    throw Error("kernel '" + info.name + "' takes " +
                std::to_string(args.size()) + " arguments; argument " +
                std::to_string(index) + " is one too many");
  const ArgInfo &expected = args[index];
  // int64_t stands for both i64 and index.
  bool sameType = expected.type == type || (isMemRef && type.empty()) ||
                  (type == "i64" && expected.type == "index");
  if (expected.isMemRef == isMemRef && sameType && expected.rank == rank)
    return;
  throw Error(
      "kernel '" + info.name + "' argument " + std::to_string(index) + " ('" +
      expected.name + "') is a " +
      describeArgument(expected.isMemRef, expected.type, expected.rank) +
      ", got a " + describeArgument(isMemRef, type, rank));
}

namespace {
/// The embedded modules loaded now, and the context each is loaded in.
struct LoadedEmbeddedModules {
  std::mutex mutex;
  std::map<EmbeddedModule *, CUcontext> modules;
};
LoadedEmbeddedModules &loadedEmbeddedModules() {
  static LoadedEmbeddedModules *loaded = new LoadedEmbeddedModules;
  return *loaded;
}
} // namespace

void tile::rt::detail::unloadEmbeddedModules(CUcontext context) noexcept {
  LoadedEmbeddedModules &loaded = loadedEmbeddedModules();
  std::vector<EmbeddedModule *> modules;
  {
    std::lock_guard<std::mutex> lock(loaded.mutex);
    for (const auto &[module, in] : loaded.modules)
      if (in == context)
        modules.push_back(module);
  }
  for (EmbeddedModule *module : modules)
    module->unload();
}

EmbeddedModule::EmbeddedModule(const unsigned char *image, size_t bytes,
                               const char *kernelInfoText)
    : image_(image), bytes_(bytes), infos_(parseKernelInfo(kernelInfoText)) {}

EmbeddedModule::~EmbeddedModule() { unload(); }

const Module &EmbeddedModule::module() {
  if (!module_) {
    module_ =
        std::make_unique<Module>(Module::loadImage(image_, bytes_, infos_));
    CUcontext context = nullptr;
    TILE_CU(cuCtxGetCurrent, &context);
    LoadedEmbeddedModules &loaded = loadedEmbeddedModules();
    std::lock_guard<std::mutex> lock(loaded.mutex);
    loaded.modules[this] = context;
  }
  return *module_;
}

void EmbeddedModule::unload() noexcept {
  {
    LoadedEmbeddedModules &loaded = loadedEmbeddedModules();
    std::lock_guard<std::mutex> lock(loaded.mutex);
    loaded.modules.erase(this);
  }
  module_.reset();
}

ZeroRegion tile::rt::zeroRegionOf(const MemRefArg &memref,
                                  unsigned elementBytes) {
  size_t rank = memref.sizes.size();
  if (memref.strides.size() != rank)
    throw Error("a memref with " + std::to_string(rank) + " sizes and " +
                std::to_string(memref.strides.size()) + " strides");
  for (size_t i = 0; i < rank; ++i)
    if (memref.sizes[i] < 0 || memref.strides[i] < 0)
      throw Error("negative size or stride in dimension " + std::to_string(i));
  if (std::find(memref.sizes.begin(), memref.sizes.end(), 0) !=
      memref.sizes.end())
    return ZeroRegion{memref.base, 0, 0, 0};
  // Dimensions of one element step nowhere, whatever their stride says.
  std::vector<size_t> dims;
  for (size_t i = 0; i < rank; ++i)
    if (memref.sizes[i] > 1)
      dims.push_back(i);
  auto multiply = [](size_t a, uint64_t b, size_t &out) {
    return !__builtin_mul_overflow(a, b, &out);
  };
  ZeroRegion region{memref.base, elementBytes, elementBytes, 1};
  // A row: the innermost dimension where its elements are adjacent, else a
  // single element (a column of a matrix, say).
  if (!dims.empty() && memref.strides[dims.back()] == 1) {
    if (!multiply(elementBytes, uint64_t(memref.sizes[dims.back()]),
                  region.widthBytes))
      throw Error("its rows are too long to address");
    dims.pop_back();
  }
  region.pitchBytes = region.widthBytes;
  if (dims.empty())
    return region;
  // The other dimensions must step through rows evenly: each one's stride
  // is the next one's times its size.
  for (size_t k = 0; k + 1 < dims.size(); ++k) {
    size_t i = dims[k], inner = dims[k + 1];
    int64_t expected = 0;
    if (__builtin_mul_overflow(memref.strides[inner], memref.sizes[inner],
                               &expected) ||
        memref.strides[i] != expected)
      throw Error("dimension " + std::to_string(i) +
                  " does not step evenly over the rows inside it (stride " +
                  std::to_string(memref.strides[i]) + ")");
  }
  for (size_t i : dims)
    if (!multiply(region.rows, uint64_t(memref.sizes[i]), region.rows))
      throw Error("it has too many rows to address");
  if (!multiply(elementBytes, uint64_t(memref.strides[dims.back()]),
                region.pitchBytes))
    throw Error("it has too many rows to address");
  if (region.pitchBytes < region.widthBytes)
    throw Error("its rows overlap (row stride " +
                std::to_string(memref.strides[dims.back()]) +
                " elements, " + std::to_string(region.widthBytes / elementBytes) +
                " per row)");
  size_t extent = 0;
  if (!multiply(region.rows - 1, region.pitchBytes, extent) ||
      __builtin_add_overflow(extent, region.widthBytes, &extent) ||
      __builtin_add_overflow(region.base, extent, &extent))
    throw Error("it has too many rows to address");
  return region;
}

void tile::rt::zeroAsync(const ZeroRegion &region, CUstream stream) {
  if (region.rows == 0 || region.widthBytes == 0)
    return;
  std::string context = "(zeroing " + std::to_string(region.rows) +
                        " rows of " + std::to_string(region.widthBytes) +
                        " bytes)";
  // 32-bit words where everything is word-aligned (the driver's faster
  // path), bytes otherwise.
  bool words = region.base % 4 == 0 && region.widthBytes % 4 == 0 &&
               region.pitchBytes % 4 == 0;
  if (words)
    TILE_CU_CTX(context, cuMemsetD2D32Async, region.base, region.pitchBytes,
                0u, region.widthBytes / 4, region.rows, stream);
  else
    TILE_CU_CTX(context, cuMemsetD2D8Async, region.base, region.pitchBytes,
                (unsigned char)0, region.widthBytes, region.rows, stream);
}

BoundLaunch::BoundLaunch(const Module &module, const KernelInfo &info)
    : info_(info), kernel_(module.kernel(info.name)) {}

BoundLaunch &BoundLaunch::memrefArg(CUdeviceptr base,
                                    std::vector<int64_t> sizes,
                                    std::vector<int64_t> strides) {
  paramOf_.push_back(args_.size());
  args_.addMemRef(base, sizes, strides);
  bound_.push_back({base, std::move(sizes), std::move(strides)});
  scalars_.push_back(0);
  return *this;
}

BoundLaunch &BoundLaunch::grid(CUstream stream) {
  GridInputs inputs;
  for (const MemRefArg &memref : bound_)
    inputs.sizes.push_back(memref.sizes);
  inputs.scalars = scalars_;
  if (info_.grid)
    inputs.sms = detail::currentDeviceAttribute(
        CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  return grid(evaluateGrid(info_, inputs), stream);
}

BoundLaunch &BoundLaunch::grid(Dim3 blocks, CUstream stream) {
  if (info_.args && bound_.size() != info_.args->size())
    throw Error("kernel '" + info_.name + "' takes " +
                std::to_string(info_.args->size()) + " arguments, got " +
                std::to_string(bound_.size()));
  if (ready_)
    throw Error("kernel '" + info_.name +
                "': grid() was called twice on one BoundLaunch");
  // (Before anything is appended, so that a refusal leaves it as it was.)
  std::vector<ZeroRegion> zeroed;
  for (unsigned arg : info_.zeroedArgs) {
    if (!info_.args || arg >= bound_.size() || arg >= info_.args->size() ||
        !(*info_.args)[arg].isMemRef)
      throw Error("kernel '" + info_.name + "': zeroes argument " +
                  std::to_string(arg) + ", which is not a bound memref");
    try {
      zeroed.push_back(zeroRegionOf(
          bound_[arg], elementTypeBytes((*info_.args)[arg].type)));
    } catch (const Error &e) {
      throw Error("kernel '" + info_.name + "' zeroes argument '" +
                  (*info_.args)[arg].name + "' before each launch: " +
                  e.what());
    }
  }
  appendTensorMaps(info_, bound_, args_, tensorMaps_);
  zeroed_ = std::move(zeroed);
  config_ = launchConfigFor(info_, blocks, stream);
  ready_ = true;
  return *this;
}

void BoundLaunch::launch() {
  if (!ready_)
    throw Error("kernel '" + info_.name +
                "': launch() before grid() (bind every argument, then set "
                "the grid)");
  for (const ZeroRegion &region : zeroed_)
    zeroAsync(region, config_.stream);
  tile::rt::launch(kernel_, config_, args_);
}

void BoundLaunch::launch(CUstream stream) {
  // The bound stream is put back even when the launch throws.
  struct Restore {
    LaunchConfig &config;
    CUstream saved;
    ~Restore() { config.stream = saved; }
  } restore{config_, config_.stream};
  config_.stream = stream;
  launch();
}
