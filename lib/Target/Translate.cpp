//===- Translate.cpp - LLVM+NVVM dialect to LLVM IR, PTX and cubin --------===//

#include "tile/Target/Translate.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace mlir::tile;

static constexpr llvm::StringLiteral kTriple = "nvptx64-nvidia-cuda";

// --ptx-features picks the PTX ISA version and nothing else: the chip
// (sm_NN) comes from --chip, and any other NVPTX feature changes the PTX
// .version behind the chip table's back or makes LLVM abort. Each entry
// must be "+ptxNN", known to this LLVM and new enough for the chip (LLVM
// aborts on a PTX ISA too old for the chip: say so first).
static LogicalResult checkPtxFeatures(const llvm::Target &target,
                                      const llvm::Triple &triple,
                                      const ChipInfo &chip,
                                      StringRef features, Location loc) {
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target.createMCSubtargetInfo(triple, chip.name, ""));
  auto known = [&](StringRef name) {
    return subtarget &&
           llvm::any_of(subtarget->getAllProcessorFeatures(),
                        [&](const llvm::SubtargetFeatureKV &kv) {
                          return name == kv.Key;
                        });
  };
  llvm::SmallVector<StringRef> parts;
  features.split(parts, ',');
  for (StringRef entry : parts) {
    StringRef part = entry.trim();
    unsigned version = 0;
    StringRef digits = part;
    if (!digits.consume_front("+ptx") || digits.getAsInteger(10, version) ||
        !known(part.drop_front()))
      return emitError(loc)
             << "--ptx-features='" << features << "': '" << part
             << "' is not a PTX ISA version this LLVM knows; the option "
                "takes only PTX ISA versions, written '+ptxNN' (e.g. +ptx88 "
                "for PTX 8.8), or nothing for the chip's default; the chip "
                "is chosen with --chip";
    if (version < chip.minPtxVersion)
      return emitError(loc)
             << "chip " << chip.name << " needs PTX ISA "
             << chip.minPtxVersion / 10 << "." << chip.minPtxVersion % 10
             << " or later; --ptx-features asks for " << version / 10 << "."
             << version % 10;
  }
  return success();
}

static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetOptions &options, Location loc) {
  const ChipInfo *chip = requireChip(loc, options.chip);
  if (!chip)
    return nullptr;
  static bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    return true;
  }();
  (void)initialized;
  std::string error;
  llvm::Triple triple(kTriple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    emitError(loc) << "NVPTX backend unavailable in this LLVM: " << error;
    return nullptr;
  }
  std::string features = options.ptxFeatures.empty()
                             ? chip->ptxFeatures.str()
                             : options.ptxFeatures;
  if (failed(checkPtxFeatures(*target, triple, *chip, features, loc)))
    return nullptr;
  auto level = options.optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
               : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
               : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                       : llvm::CodeGenOptLevel::None;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, chip->name, features, {}, std::nullopt, std::nullopt, level));
}

// libdevice provides the __nv_* math functions that math-to-NVVM calls.
static LogicalResult linkLibdeviceIfNeeded(llvm::Module &module,
                                           const TargetOptions &options,
                                           Location loc) {
  bool needed = llvm::any_of(module.functions(), [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (!needed)
    return success();
  std::string root = options.cudaRoot;
  if (root.empty())
    if (const char *home = std::getenv("CUDA_HOME"))
      root = home;
  if (root.empty())
    root = "/usr/local/cuda";
  llvm::SmallString<256> path(root);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return emitError(loc) << "the kernel calls CUDA math functions but "
                          << path << " cannot be read: "
                          << buffer.getError().message();
  auto libdevice =
      llvm::parseBitcodeFile(buffer.get()->getMemBufferRef(), module.getContext());
  if (!libdevice)
    return emitError(loc) << "cannot parse " << path << ": "
                          << llvm::toString(libdevice.takeError());
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*libdevice),
                                llvm::Linker::LinkOnlyNeeded))
    return emitError(loc) << "linking " << path << " failed";
  // Internal, so that once inlined they are dropped rather than emitted.
  for (llvm::Function &f : module.functions())
    if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return success();
}

Operation *mlir::tile::getDeviceCode(ModuleOp module) {
  auto gpuModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
  if (gpuModules.size() > 1) {
    emitError(gpuModules[1].getLoc())
        << "expects one gpu.module to translate, found " << gpuModules.size();
    return nullptr;
  }
  return gpuModules.empty() ? module.getOperation() : gpuModules.front();
}

FailureOr<std::unique_ptr<llvm::Module>>
mlir::tile::translateToNVPTXModule(ModuleOp module, llvm::LLVMContext &context,
                                   const TargetOptions &options) {
  Location loc = module.getLoc();
  Operation *device = getDeviceCode(module);
  if (!device)
    return failure();
  if (!llvm::any_of(device->getRegion(0).getOps<LLVM::LLVMFuncOp>(),
                    [](LLVM::LLVMFuncOp f) {
                      return f->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName());
                    }))
    return emitError(device->getLoc())
           << "expects device code in the LLVM and NVVM dialects with at "
              "least one llvm.func marked nvvm.kernel (tile-level input is "
              "lowered by --tile-to-nvvm first)";

  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options, loc);
  if (!machine)
    return failure();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(device, context, "tile");
  if (!llvmModule)
    return emitError(loc) << "translation to LLVM IR failed";
  // gpu.dynamic_shared_memory becomes an internal zero-size global, which
  // PTX treats as static shared memory; the dynamic window is an extern
  // array, aligned for 128-byte swizzles.
  for (llvm::GlobalVariable &global : llvmModule->globals()) {
    auto *array = dyn_cast<llvm::ArrayType>(global.getValueType());
    if (global.getAddressSpace() == 3 && array &&
        array->getNumElements() == 0 &&
        global.getName().starts_with("__dynamic_shmem__")) {
      global.setInitializer(nullptr);
      global.setLinkage(llvm::GlobalValue::ExternalLinkage);
      global.setAlignment(llvm::Align(1024));
    }
  }
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  if (failed(linkLibdeviceIfNeeded(*llvmModule, options, loc)))
    return failure();

  if (options.optLevel > 0) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder builder(machine.get());
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager passes;
    std::string text = options.llvmPasses.empty() ? kDefaultLLVMPasses
                                                  : options.llvmPasses;
    if (llvm::Error error = builder.parsePassPipeline(passes, text))
      return emitError(loc) << "invalid LLVM pass pipeline '" << text
                            << "': " << llvm::toString(std::move(error));
    passes.run(*llvmModule, mam);
  }
  return llvmModule;
}

FailureOr<std::string> mlir::tile::compileToPTX(llvm::Module &module,
                                                const TargetOptions &options,
                                                Location loc) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options, loc);
  if (!machine)
    return failure();
  std::string ptx;
  {
    llvm::raw_string_ostream stream(ptx);
    llvm::buffer_ostream buffered(stream);
    llvm::legacy::PassManager passes;
    if (machine->addPassesToEmitFile(passes, buffered, nullptr,
                                     llvm::CodeGenFileType::AssemblyFile))
      return emitError(loc) << "the NVPTX backend cannot emit PTX for "
                            << options.chip;
    passes.run(module);
  }
  return ptx;
}

static std::string findPtxas(const TargetOptions &options) {
  llvm::SmallVector<std::string> roots;
  if (!options.cudaRoot.empty())
    roots.push_back(options.cudaRoot);
  if (const char *home = std::getenv("CUDA_HOME"))
    roots.push_back(home);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return path.str().str();
    // An explicit root that lacks ptxas is the user's mistake: do not
    // silently use another toolkit.
    if (!options.cudaRoot.empty())
      return {};
  }
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return {};
}

namespace {
// Removes the temporary files of one ptxas run, however it ends.
struct TempFiles {
  llvm::SmallVector<llvm::SmallString<128>> paths;
  ~TempFiles() {
    for (auto &path : paths)
      llvm::sys::fs::remove(path);
  }
  LogicalResult create(StringRef suffix, Location loc) {
    llvm::SmallString<128> path;
    if (auto ec = llvm::sys::fs::createTemporaryFile("tile", suffix, path))
      return emitError(loc) << "cannot create a temporary file: "
                            << ec.message();
    paths.push_back(path);
    return success();
  }
};
} // namespace

bool mlir::tile::callsNvshmem(Operation *op) {
  return op
      ->walk([](LLVM::CallOp call) {
        std::optional<StringRef> callee = call.getCallee();
        return callee && callee->starts_with("nvshmem") ? WalkResult::interrupt()
                                                        : WalkResult::advance();
      })
      .wasInterrupted();
}

FailureOr<std::string> mlir::tile::assembleCubin(StringRef ptx,
                                                 const TargetOptions &options,
                                                 Location loc, bool relocatable,
                                                 std::string *report) {
  if (!requireChip(loc, options.chip))
    return failure();
  std::string ptxas = findPtxas(options);
  if (ptxas.empty())
    return emitError(loc)
           << "ptxas not found: the cubin stage needs CUDA's ptxas (looked in "
           << (options.cudaRoot.empty() ? "$CUDA_HOME/bin, /usr/local/cuda/bin"
                                        : options.cudaRoot + "/bin")
           << (options.cudaRoot.empty() ? " and $PATH" : "")
           << "); install the CUDA toolkit or pass --cuda-root";

  TempFiles files;
  if (failed(files.create("ptx", loc)) || failed(files.create("cubin", loc)) ||
      failed(files.create("log", loc)))
    return failure();
  StringRef ptxPath = files.paths[0], cubinPath = files.paths[1],
            logPath = files.paths[2];
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(ptxPath, ec);
    if (ec)
      return emitError(loc) << "cannot write " << ptxPath << ": "
                            << ec.message();
    out << ptx;
  }

  std::string arch = "-arch=" + options.chip;
  std::string opt = "-O" + std::to_string(std::min(options.optLevel, 3u));
  llvm::SmallVector<StringRef> args{ptxas, arch, opt};
  if (relocatable)
    args.push_back("-c");
  llvm::SmallVector<StringRef> extra;
  StringRef(options.ptxasOptions).split(extra, ' ', -1, /*KeepEmpty=*/false);
  args.append(extra.begin(), extra.end());
  args.append({ptxPath, "-o", cubinPath});

  std::string errorMessage;
  std::optional<StringRef> redirects[] = {std::nullopt, logPath, logPath};
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         0, 0, &errorMessage);
  auto log = llvm::MemoryBuffer::getFile(logPath);
  StringRef logText = log ? (*log)->getBuffer() : StringRef();
  if (status != 0)
    return emitError(loc) << "ptxas failed"
                          << (status < 0 ? " to run: " + errorMessage
                                         : " with exit code " +
                                               std::to_string(status))
                          << (logText.empty() ? "" : ":\n")
                          << logText.rtrim();
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
  if (!cubin)
    return emitError(loc) << "ptxas wrote no cubin: "
                          << cubin.getError().message();
  // Options such as --version or --help make ptxas exit 0 without
  // assembling anything.
  if (!(*cubin)->getBuffer().starts_with("\x7f" "ELF"))
    return emitError(loc)
           << "ptxas wrote no cubin (ELF file) with options '"
           << llvm::join(args.begin() + 1, args.end() - 3, " ")
           << "'; check --ptxas-options" << (logText.empty() ? "" : ":\n")
           << logText.rtrim();
  // Warnings and -v reports are ptxas's to show, as a compiler driver would.
  if (report)
    *report = logText.str();
  else if (!logText.empty())
    llvm::errs() << logText;
  return (*cubin)->getBuffer().str();
}

llvm::StringMap<int64_t> mlir::tile::spillBytesByFunction(StringRef report) {
  // ptxas info    : Function properties for <name>
  //     0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
  llvm::StringMap<int64_t> spills;
  StringRef current;
  constexpr StringLiteral kProperties = "Function properties for ";
  SmallVector<StringRef> lines;
  report.split(lines, '\n');
  for (StringRef line : lines) {
    if (size_t at = line.find(kProperties); at != StringRef::npos) {
      current = line.drop_front(at + kProperties.size()).trim();
      spills[current] = 0;
      continue;
    }
    if (current.empty())
      continue;
    for (StringRef what : {"bytes spill stores", "bytes spill loads"}) {
      size_t at = line.find(what);
      if (at == StringRef::npos)
        continue;
      StringRef before = line.take_front(at).rtrim();
      StringRef number = before.drop_front(before.find_last_of(", ") + 1);
      int64_t bytes = 0;
      if (!number.trim().getAsInteger(10, bytes))
        spills[current] += bytes;
    }
  }
  return spills;
}

LogicalResult mlir::tile::writeOutputFile(
    StringRef path, function_ref<LogicalResult(llvm::raw_ostream &)> write,
    std::string &error) {
  llvm::sys::fs::file_status status;
  bool direct = path == "-" || (!llvm::sys::fs::status(path, status) &&
                                llvm::sys::fs::exists(status) &&
                                !llvm::sys::fs::is_regular_file(status));
  if (direct) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      error = "cannot open output file '" + path.str() + "': " + ec.message();
      return failure();
    }
    return write(os);
  }
  // A failed `write` discards the temporary and leaves `path` alone.
  bool written = true;
  llvm::Error result = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    written = succeeded(write(os));
    return written ? llvm::Error::success()
                   : llvm::createStringError("not written");
  });
  if (!written) {
    llvm::consumeError(std::move(result));
    return failure();
  }
  if (result) {
    error = "cannot write output file '" + path.str() +
            "': " + llvm::toString(std::move(result));
    return failure();
  }
  return success(written);
}
