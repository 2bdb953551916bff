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
  appendTensorMaps(info_, bound_, args_, tensorMaps_);
  config_ = launchConfigFor(info_, blocks, stream);
  ready_ = true;
  return *this;
}

void BoundLaunch::launch() {
  if (!ready_)
    throw Error("kernel '" + info_.name +
                "': launch() before grid() (bind every argument, then set "
                "the grid)");
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
