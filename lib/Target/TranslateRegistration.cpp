//===- TranslateRegistration.cpp - tile's mlir-translate translations -----===//

#include "tile/Target/Translate.h"
#include "tile/Target/Launcher.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Runtime/Tuning.h"
#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/InitAllTile.h"
#include "tile/Conversion/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>

using namespace mlir;
using namespace mlir::tile;

// The stage running now, for the crash report.
static StringRef currentStage;

namespace {
struct TranslateOptions {
  llvm::cl::OptionCategory category{"tile translation options"};
  llvm::cl::opt<std::string> chip{
      "chip", llvm::cl::desc("Target chip: sm_80, sm_90a, sm_100a, ..."),
      llvm::cl::init(kDefaultChip), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> ptxFeatures{
      "ptx-features",
      llvm::cl::desc("PTX ISA version(s) for LLVM, '+ptxNN' (e.g. +ptx88), "
                     "comma-separated (default: the chip's)"),
      llvm::cl::init(""), llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> optLevel{
      "opt-level",
      llvm::cl::desc("Optimisation level (0-3): 0 skips the LLVM IR passes; "
                     "it also sets NVPTX's codegen level and ptxas -O"),
      llvm::cl::init(3), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> llvmPasses{
      "llvm-passes",
      llvm::cl::desc("LLVM IR passes before NVPTX, in opt's -passes syntax "
                     "(default: tile's short pipeline; 'default<O3>' for "
                     "LLVM's full one)"),
      llvm::cl::init(""), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> ptxasOptions{
      "ptxas-options", llvm::cl::desc("Extra ptxas options, space separated"),
      llvm::cl::init(""), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> cudaRoot{
      "cuda-root",
      llvm::cl::desc("CUDA toolkit holding bin/ptxas and nvvm/libdevice"),
      llvm::cl::init(""), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> kernelInfo{
      "kernel-info",
      llvm::cl::desc("Also write the runtime's kernel description here"),
      llvm::cl::init(""), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> launcher{
      "launcher",
      llvm::cl::desc("Also write typed C++ launchers, <prefix>.h and "
                     "<prefix>.cpp, with the cubin (or PTX) and the kernel "
                     "description embedded"),
      llvm::cl::value_desc("prefix"), llvm::cl::init(""),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> launcherNamespace{
      "launcher-namespace",
      llvm::cl::desc("C++ namespace of the launchers (default: the prefix's "
                     "file name, as an identifier)"),
      llvm::cl::init(""), llvm::cl::cat(category)};
  llvm::cl::list<std::string> values{
      "tile-values",
      llvm::cl::desc("Parameter values NAME=VALUE,... for the kernel "
                     "families: one kernel of each family's own name, at "
                     "these values and the defaults, instead of one per "
                     "configuration"),
      llvm::cl::CommaSeparated, llvm::cl::cat(category)};
  llvm::cl::opt<std::string> configList{
      "tile-configs",
      llvm::cl::desc("A file of configurations, one per line as '<family> "
                     "NAME=VALUE,...', that replace those families' "
                     "configs(...) lists (tile-tune's candidates)"),
      llvm::cl::value_desc("file"), llvm::cl::init(""),
      llvm::cl::cat(category)};
  llvm::cl::list<std::string> tuningTables{
      "tuning-table",
      llvm::cl::desc("A tuning table (tile-tune's): its configurations are "
                     "added to its family's, and the launcher gets "
                     "<family>_tuned(), which picks one by the operands' "
                     "shape; repeatable, one table per family"),
      llvm::cl::value_desc("file"), llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> ptxasThreads{
      "ptxas-threads",
      llvm::cl::desc("Threads ptxas compiles the kernels of a module with "
                     "(ptxas --split-compile) when it holds several, as a "
                     "family's configurations do: 0 (default) as many as "
                     "the machine has, 1 one after the other"),
      llvm::cl::init(0), llvm::cl::cat(category)};
  llvm::cl::opt<unsigned> codegenThreads{
      "codegen-threads",
      llvm::cl::desc("Threads the NVPTX back end compiles the kernels of a "
                     "module with, each in a module of its own, the PTX "
                     "texts then merged (a family's configurations): 0 "
                     "(default) as many as the machine has, 1 the whole "
                     "module at once"),
      llvm::cl::init(0), llvm::cl::cat(category)};
  llvm::cl::opt<int64_t> maxSpillBytes{
      "max-spill-bytes",
      llvm::cl::desc("Refuse a kernel that spills more than this many bytes "
                     "(stores plus loads, from ptxas -v; default: no limit)"),
      llvm::cl::init(-1), llvm::cl::cat(category)};
  llvm::cl::opt<bool> skipFailingConfigs{
      "skip-failing-configs",
      llvm::cl::desc("Leave out, with a warning naming it, a family's "
                     "configuration that fails to specialise, needs more "
                     "shared memory than the chip has, or spills more than "
                     "--max-spill-bytes, instead of failing"),
      llvm::cl::init(false), llvm::cl::cat(category)};
  llvm::cl::opt<bool> verifyEach{
      "verify-each",
      llvm::cl::desc("Verify the IR after each pass of the tile-to-nvvm "
                     "pipeline (default: once, at its end)"),
      llvm::cl::init(false), llvm::cl::cat(category)};
  llvm::cl::opt<bool> timing{
      "tile-timing",
      llvm::cl::desc("Print the time each stage takes to stderr"),
      llvm::cl::init(false), llvm::cl::cat(category)};

  TargetOptions target() const {
    TargetOptions options;
    options.chip = chip;
    options.ptxFeatures = ptxFeatures;
    options.optLevel = optLevel;
    options.llvmPasses = llvmPasses;
    options.ptxasOptions = ptxasOptions;
    options.cudaRoot = cudaRoot;
    options.codegenThreads = codegenThreads;
    return options;
  }
};

// Wall-clock time of each stage, printed once at the end when asked for.
class StageTimer {
public:
  explicit StageTimer(bool enabled) : enabled(enabled) {}
  ~StageTimer() {
    if (!enabled)
      return;
    double total = 0;
    llvm::errs() << "tile-translate stage times:\n";
    for (auto &[name, ms] : stages) {
      llvm::errs() << llvm::format("  %-28s %8.2f ms\n", name.c_str(), ms);
      total += ms;
    }
    llvm::errs() << llvm::format("  %-28s %8.2f ms\n", "total", total);
  }
  template <typename Fn> auto run(StringRef name, Fn &&fn) {
    auto start = std::chrono::steady_clock::now();
    currentStage = name;
    auto result = fn();
    currentStage = {};
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    stages.emplace_back(name.str(), elapsed.count());
    return result;
  }

private:
  bool enabled;
  std::vector<std::pair<std::string, double>> stages;
};
} // namespace

static TranslateOptions *options;

StringRef mlir::tile::currentTranslateStage() { return currentStage; }

bool mlir::tile::isTileLevel(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return isa_and_present<TileDialect>(op->getDialect()) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
      })
      .wasInterrupted();
}

// The chip is the module's own target where it names one (tile.target, or
// the gpu.module's #nvvm.target); --chip, when given, must agree with it.
static FailureOr<std::string> resolveChip(ModuleOp module) {
  const ChipInfo *inIR = findTargetChip(module);
  if (!inIR)
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      inIR = findTargetChip(gpuModule);
      return inIR ? WalkResult::interrupt() : WalkResult::advance();
    });
  if (!inIR)
    return std::string(options->chip);
  if (options->chip.getNumOccurrences() && options->chip != inIR->name)
    return emitError(module.getLoc())
           << "--chip=" << options->chip << " disagrees with the module's "
           << "target " << inIR->name
           << " (drop --chip, or compile the tile IR for that chip)";
  return inIR->name.str();
}

// The family `name` of `module`, or an error naming `origin`.
static FailureOr<KernelOp> findFamily(ModuleOp module, StringRef name,
                                      StringRef origin) {
  for (KernelOp kernel : module.getOps<KernelOp>())
    if (kernel.getSymName() == name && kernel.getParamsAttr() &&
        !kernel.getParamsAttr().empty())
      return kernel;
  return emitError(module.getLoc())
         << origin << ": the module has no kernel family @" << name;
}

// --tile-configs and --tuning-table, applied to the families before the
// pipeline specialises them. The tables are kept for the launcher.
static LogicalResult
applyConfigurationFiles(ModuleOp module, StringRef chip,
                        std::vector<::tile::rt::TuningTable> &tables) {
  namespace rt = ::tile::rt;
  using Config = std::vector<std::pair<std::string, std::string>>;
  auto asPairs = [](const rt::ParamValues &values) {
    Config pairs;
    for (const rt::ParamValue &v : values)
      pairs.emplace_back(v.name, v.value);
    return pairs;
  };
  if (!options->configList.empty()) {
    std::ifstream in(options->configList.getValue());
    if (!in)
      return emitError(module.getLoc())
             << "--tile-configs: cannot read " << options->configList;
    // Per family, in the file's order: its configurations and their lines.
    std::vector<std::string> order;
    std::map<std::string, std::pair<std::vector<Config>, std::vector<int>>>
        byFamily;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      line = line.substr(0, line.find('#'));
      std::istringstream words(line);
      std::string family, values, extra;
      if (!(words >> family))
        continue;
      if (!(words >> values) || words >> extra)
        return emitError(module.getLoc())
               << options->configList << ":" << number
               << ": expected '<family> NAME=VALUE,...'";
      std::string error;
      std::optional<rt::ParamValues> parsed =
          rt::parseParamValues(values, error);
      if (!parsed)
        return emitError(module.getLoc())
               << options->configList << ":" << number << ": " << error;
      if (!byFamily.count(family))
        order.push_back(family);
      auto &entry = byFamily[family];
      entry.first.push_back(asPairs(*parsed));
      entry.second.push_back(number);
    }
    if (order.empty())
      return emitError(module.getLoc())
             << "--tile-configs: " << options->configList
             << " lists no configuration";
    for (const std::string &family : order) {
      auto &entry = byFamily[family];
      FailureOr<KernelOp> kernel =
          findFamily(module, family, options->configList);
      if (failed(kernel))
        return failure();
      const std::vector<int> &lines = entry.second;
      if (failed(setKernelConfigs(*kernel, entry.first, /*append=*/false,
                                  [&](size_t i) {
                                    return options->configList + ":" +
                                           std::to_string(lines[i]);
                                  })))
        return failure();
    }
  }
  for (const std::string &path : options->tuningTables) {
    std::string error;
    std::optional<rt::TuningTable> loaded = rt::loadTuningTable(path, error);
    if (!loaded)
      return emitError(module.getLoc()) << "--tuning-table: " << error;
    rt::TuningTable &table = *loaded;
    if (!table.chip.empty() && table.chip != chip)
      return emitError(module.getLoc())
             << "--tuning-table: " << path << " was tuned on " << table.chip
             << ", but this compile is for " << chip
             << " (tune the family on this chip with tile-tune)";
    for (const rt::TuningTable &other : tables)
      if (other.family == table.family)
        return emitError(module.getLoc())
               << "--tuning-table: two tables for family @" << table.family;
    FailureOr<KernelOp> kernel = findFamily(module, table.family, path);
    if (failed(kernel))
      return failure();
    std::vector<Config> configs;
    for (const rt::ParamValues &values : rt::tunedConfigurations(table))
      configs.push_back(asPairs(values));
    if (failed(setKernelConfigs(*kernel, configs, /*append=*/true,
                                [&](size_t) { return path; })))
      return failure();
    tables.push_back(std::move(table));
  }
  return success();
}

// Tile-level input goes through the default pipeline first, so that one
// command takes a tile kernel to PTX or cubin.
LogicalResult mlir::tile::lowerTileToNVVM(
    ModuleOp module, StringRef chip, bool verifyEach,
    function_ref<LogicalResult(PassManager &)> configure,
    ArrayRef<std::string> values, bool skipFailingConfigs) {
  PassManager pm(module.getContext());
  TileToNVVMPipelineOptions pipelineOptions;
  pipelineOptions.chip = chip.str();
  pipelineOptions.values = llvm::to_vector(values);
  pipelineOptions.skipFailingConfigs = skipFailingConfigs;
  buildTileToNVVMPipeline(pm, pipelineOptions);
  // Verifying after each of the pipeline's passes costs about a tenth of
  // the compile; the IR is verified once at the end instead.
  pm.enableVerifier(verifyEach);
  if (configure && failed(configure(pm)))
    return failure();
  return failure(failed(pm.run(module)) ||
                 (!verifyEach && failed(verify(module))));
}

static LogicalResult lowerIfTileLevel(ModuleOp module, StringRef chip,
                                      StageTimer &timer) {
  if (!isTileLevel(module))
    return success();
  // (tile-opt verifies each pass, and so does --verify-each here.)
  return timer.run("tile-to-nvvm pipeline", [&] {
    return lowerTileToNVVM(module, chip, options->verifyEach,
                           [](PassManager &pm) {
                             // --mlir-timing, --mlir-print-ir-after-all and
                             // friends apply here too.
                             if (failed(applyPassManagerCLOptions(pm)))
                               return failure();
                             applyDefaultTimingPassManagerCLOptions(pm);
                             return success();
                           },
                           options->values, options->skipFailingConfigs);
  });
}

// Written only once every stage has succeeded: a failed compile leaves no
// description behind that no longer matches a cubin.
static LogicalResult writeKernelInfoIfAsked(ModuleOp module) {
  if (options->kernelInfo.empty())
    return success();
  std::string error;
  if (succeeded(writeOutputFile(
          options->kernelInfo,
          [&](llvm::raw_ostream &os) { return writeKernelInfo(module, os); },
          error)))
    return success();
  if (!error.empty())
    emitError(module.getLoc()) << error;
  return failure();
}

// Written only once every stage has succeeded, like the description.
static LogicalResult
writeLauncherIfAsked(ModuleOp module, const std::string &image,
                     const std::vector<::tile::rt::TuningTable> &tables) {
  if (options->launcher.empty())
    return success();
  FailureOr<std::vector<::tile::rt::KernelInfo>> kernels =
      collectKernelInfo(module);
  if (failed(kernels))
    return failure();
  std::string prefix = options->launcher;
  std::string stem = llvm::sys::path::filename(prefix).str();
  std::string ns = options->launcherNamespace.empty()
                       ? ::tile::toIdentifier(stem)
                       : options->launcherNamespace.getValue();
  ::tile::LauncherSources sources;
  if (std::optional<std::string> why = ::tile::generateLauncher(
          *kernels, image, ::tile::rt::serializeKernelInfo(*kernels), ns,
          stem + ".h", tables, sources))
    return emitError(module.getLoc()) << "--launcher: " << *why;
  for (const auto &file : {std::pair<const char *, const std::string *>{
                               ".h", &sources.header},
                           {".cpp", &sources.source}}) {
    std::string error;
    if (failed(writeOutputFile(
            prefix + file.first,
            [&](llvm::raw_ostream &os) {
              os << *file.second;
              return success();
            },
            error)))
      return emitError(module.getLoc()) << error;
  }
  return success();
}

// The driver's -o, where it has one.
static StringRef outputPath() {
  auto &registered = llvm::cl::getRegisteredOptions();
  auto it = registered.find("o");
  if (it == registered.end())
    return "-";
  return static_cast<llvm::cl::opt<std::string> *>(it->second)->getValue();
}

static bool samePath(StringRef a, StringRef b) {
  if (a == "-" || b == "-")
    return a == b;
  if (llvm::sys::fs::equivalent(a, b))
    return true;
  // Files not written yet: compare the absolute paths.
  auto absolute = [](StringRef path) {
    llvm::SmallString<256> result(path);
    llvm::sys::fs::make_absolute(result);
    llvm::sys::path::remove_dots(result, /*remove_dot_dot=*/true);
    return result;
  };
  return absolute(a) == absolute(b);
}

// --kernel-info and -o naming one file would interleave two outputs.
static LogicalResult checkKernelInfoPath(ModuleOp module) {
  if (options->kernelInfo.empty() || !samePath(options->kernelInfo, outputPath()))
    return success();
  return emitError(module.getLoc())
         << "--kernel-info=" << options->kernelInfo
         << " names the output file (-o " << outputPath()
         << "); write the kernel description to another file";
}

enum class Stage { LLVMIR, PTX, Cubin };

// The kernels (entry points) among `device`'s LLVM functions.
static int countKernels(Operation *device) {
  int kernels = 0;
  device->walk([&](LLVM::LLVMFuncOp func) {
    kernels += func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName());
  });
  return kernels;
}

// --max-spill-bytes: ptxas -v says what each kernel spills; a kernel over
// the limit is an error naming it, or with --skip-failing-configs a
// warning, and the module is compiled again without it (the description
// and the launchers then leave it out too). Returns the cubin to write.
static FailureOr<std::string>
assembleWithinSpillLimit(ModuleOp module, TargetOptions target,
                         bool relocatable, std::string ptx,
                         StageTimer &timer) {
  int64_t limit = options->maxSpillBytes;
  // ptxas's own -v report is shown only when the user asked for it.
  bool shown = StringRef(target.ptxasOptions).contains("-v");
  target.ptxasOptions += " -v";
  for (bool first = true;; first = false) {
    if (!first) {
      llvm::LLVMContext context;
      auto llvmModule = translateToNVPTXModule(module, context, target);
      if (failed(llvmModule))
        return failure();
      auto again = compileToPTX(**llvmModule, target, module.getLoc());
      if (failed(again))
        return failure();
      ptx = std::move(*again);
    }
    std::string report;
    auto cubin = timer.run("cubin (ptxas)", [&] {
      return assembleCubin(ptx, target, module.getLoc(), relocatable, &report,
                           module);
    });
    if (failed(cubin))
      return failure();
    if (shown)
      llvm::errs() << report;
    llvm::StringMap<int64_t> spills = spillBytesByFunction(report);
    SmallVector<LLVM::LLVMFuncOp> over;
    Operation *device = getDeviceCode(module);
    device->walk([&](LLVM::LLVMFuncOp func) {
      auto it = spills.find(func.getSymName());
      if (it != spills.end() && it->second > limit &&
          func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
        over.push_back(func);
    });
    if (over.empty())
      return std::move(*cubin);
    for (LLVM::LLVMFuncOp func : over) {
      int64_t bytes = spills.lookup(func.getSymName());
      if (!options->skipFailingConfigs) {
        emitError(func.getLoc())
            << "kernel @" << func.getSymName() << " spills " << bytes
            << " bytes (stores and loads), more than --max-spill-bytes="
            << limit << "; pass --skip-failing-configs to leave it out";
        continue;
      }
      emitWarning(func.getLoc())
          << "leaves out kernel @" << func.getSymName() << ": it spills "
          << bytes << " bytes, more than --max-spill-bytes=" << limit;
    }
    if (!options->skipFailingConfigs)
      return failure();
    for (LLVM::LLVMFuncOp func : over)
      func.erase();
    if (countKernels(device) == 0)
      return emitError(module.getLoc())
             << "every kernel spills more than --max-spill-bytes=" << limit;
  }
}

static LogicalResult translate(Operation *op, llvm::raw_ostream &output,
                               Stage stage) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expects a builtin.module");
  // A compiler driver's errors name the source line; the operation an error
  // is attached to (a whole kernel, once lowered) is noise there
  // (--mlir-print-ir-after-failure shows the IR).
  module.getContext()->printOpOnDiagnostic(false);
  if (failed(checkKernelInfoPath(module)))
    return failure();
  if (stage == Stage::LLVMIR && !options->launcher.empty())
    return emitError(module.getLoc())
           << "--launcher embeds a cubin or PTX: use it with --tile-to-cubin "
              "or --tile-to-ptx";
  StageTimer timer(options->timing);
  TargetOptions target = options->target();
  FailureOr<std::string> chip = resolveChip(module);
  if (failed(chip))
    return failure();
  target.chip = *chip;
  std::vector<::tile::rt::TuningTable> tables;
  if ((!options->configList.empty() || !options->tuningTables.empty()) &&
      (!isTileLevel(module) ||
       failed(applyConfigurationFiles(module, *chip, tables))))
    return isTileLevel(module)
               ? failure()
               : emitError(module.getLoc())
                     << "--tile-configs and --tuning-table take tile IR "
                        "(kernel families), not lowered IR";
  if (failed(lowerIfTileLevel(module, *chip, timer)))
    return failure();

  llvm::LLVMContext context;
  auto llvmModule = timer.run("LLVM IR + LLVM opt", [&] {
    return translateToNVPTXModule(module, context, target);
  });
  if (failed(llvmModule))
    return failure();
  if (stage == Stage::LLVMIR) {
    (*llvmModule)->print(output, nullptr);
    return writeKernelInfoIfAsked(module);
  }
  auto ptx = timer.run("PTX (NVPTX backend)", [&] {
    return compileToPTX(**llvmModule, target, module.getLoc());
  });
  if (failed(ptx))
    return failure();
  if (stage == Stage::PTX) {
    if (failed(writeLauncherIfAsked(module, *ptx, tables)))
      return failure();
    output << *ptx;
    return writeKernelInfoIfAsked(module);
  }
  // Calls into NVSHMEM's device library stay unresolved: relocatable code,
  // which the runtime links when it loads it.
  Operation *device = getDeviceCode(module);
  bool relocatable = device && callsNvshmem(device);
  // Several kernels (a family's configurations): ptxas compiles them in
  // parallel threads; each kernel's machine code is what a serial compile
  // gives (only the order of the cubin's sections may differ).
  if (device && countKernels(device) > 1 && options->ptxasThreads != 1 &&
      !StringRef(target.ptxasOptions).contains("split-compile"))
    target.ptxasOptions +=
        " --split-compile=" + std::to_string(options->ptxasThreads);
  auto cubin =
      options->maxSpillBytes >= 0
          ? assembleWithinSpillLimit(module, target, relocatable, *ptx, timer)
          : timer.run("cubin (ptxas)", [&] {
              return assembleCubin(*ptx, target, module.getLoc(), relocatable,
                                   /*report=*/nullptr, module);
            });
  if (failed(cubin) || failed(writeLauncherIfAsked(module, *cubin, tables)))
    return failure();
  output << *cubin;
  return writeKernelInfoIfAsked(module);
}

static void registerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllTile(registry);
}

void mlir::tile::registerTileTranslations() {
  static TranslateOptions storage;
  options = &storage;
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  TranslateFromMLIRRegistration llvmir(
      "tile-to-llvmir",
      "Translate LLVM+NVVM (or tile) IR to optimised LLVM IR for NVPTX",
      [](Operation *op, llvm::raw_ostream &os) {
        return translate(op, os, Stage::LLVMIR);
      },
      registerDialects);
  TranslateFromMLIRRegistration ptx(
      "tile-to-ptx", "Translate LLVM+NVVM (or tile) IR to PTX",
      [](Operation *op, llvm::raw_ostream &os) {
        return translate(op, os, Stage::PTX);
      },
      registerDialects);
  TranslateFromMLIRRegistration cubin(
      "tile-to-cubin", "Translate LLVM+NVVM (or tile) IR to a cubin (ptxas)",
      [](Operation *op, llvm::raw_ostream &os) {
        return translate(op, os, Stage::Cubin);
      },
      registerDialects);
}
