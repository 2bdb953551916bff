//===- Translate.cpp - LLVM+NVVM dialect to LLVM IR, PTX and cubin --------===//

#include "tile/Target/Translate.h"
#include "tile/Target/Chip.h"
#include "tile/Target/InlineAsm.h"
#include "tile/Toolchain/Toolchain.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <functional>

using namespace mlir;
namespace toolchain = ::tile::toolchain;
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

/// Makes NVPTX target machines for checked options: one per thread that
/// runs the back end (a TargetMachine is not shared between threads).
using TargetMachineFactory =
    std::function<std::unique_ptr<llvm::TargetMachine>()>;

/// Checks `options` (the chip, the PTX features) with located errors and
/// returns a factory of target machines for them, or none.
static std::optional<TargetMachineFactory>
targetMachineFactory(const TargetOptions &options, Location loc) {
  const ChipInfo *chip = requireChip(loc, options.chip);
  if (!chip)
    return std::nullopt;
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
    return std::nullopt;
  }
  std::string features = options.ptxFeatures.empty()
                             ? chip->ptxFeatures.str()
                             : options.ptxFeatures;
  if (failed(checkPtxFeatures(*target, triple, *chip, features, loc)))
    return std::nullopt;
  auto level = options.optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
               : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
               : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                       : llvm::CodeGenOptLevel::None;
  std::string cpu = chip->name.str();
  return TargetMachineFactory([=] {
    return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
        triple, cpu, features, {}, std::nullopt, std::nullopt, level));
  });
}

static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetOptions &options, Location loc) {
  std::optional<TargetMachineFactory> factory =
      targetMachineFactory(options, loc);
  return factory ? (*factory)() : nullptr;
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
  std::string path = toolchain::findLibdevice(options.cudaRoot);
  if (path.empty())
    return emitError(loc) << "the kernel calls CUDA math functions but no "
                             "nvvm/libdevice/libdevice.10.bc was found in "
                          << toolchain::describeCudaSearch(options.cudaRoot)
                          << "; install the CUDA toolkit or pass --cuda-root";
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

  if (failed(checkInlineAsm(device)))
    return failure();
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

// NVPTX's back end runs straight-line strength reduction, whose
// ScalarEvolution queries walk each candidate's chain of operands: its time
// grows with the square of the longest chain of dependent integer
// arithmetic (LLVM 22: a generated chain of 2,000 ops took 9.5 s, 5,000
// took 86 s, nearly all of it in that pass). A function whose longest chain
// passes this depth skips that one pass; the deepest in the shipped kernels
// is far below it (14 in 2026-11; docs/compile-time.md).
static constexpr unsigned kMaxStrengthReductionDepth = 256;
// The pass as the gate is asked about it: by its argument in newer LLVMs,
// by its name in older ones.
static bool isStrengthReduction(StringRef pass) {
  return pass == "slsr" || pass == "Straight line strength reduction";
}

/// The longest chain of dependent integer arithmetic (binary operators,
/// casts and address computations, within the function) in `function`.
static unsigned integerChainDepth(llvm::Function &function) {
  llvm::DenseMap<const llvm::Value *, unsigned> depth;
  unsigned deepest = 0;
  for (llvm::BasicBlock *block :
       llvm::ReversePostOrderTraversal<llvm::Function *>(&function))
    for (llvm::Instruction &inst : *block) {
      bool arithmetic = isa<llvm::GetElementPtrInst, llvm::CastInst>(inst) ||
                        (isa<llvm::BinaryOperator>(inst) &&
                         inst.getType()->isIntOrIntVectorTy());
      if (!arithmetic)
        continue;
      unsigned longest = 0;
      for (const llvm::Value *operand : inst.operands())
        longest = std::max(longest, depth.lookup(operand));
      depth[&inst] = longest + 1;
      deepest = std::max(deepest, longest + 1);
    }
  return deepest;
}

namespace {
/// Keeps strength reduction off the functions of a module whose integer
/// chains are too deep for it, while installed on the module's context;
/// every other question goes to the gate it replaces (-opt-bisect-limit).
class SkipDeepStrengthReduction : public llvm::OptPassGate {
public:
  explicit SkipDeepStrengthReduction(llvm::Module &module)
      : context(module.getContext()), previous(context.getOptPassGate()) {
    for (llvm::Function &function : module)
      if (!function.isDeclaration() &&
          integerChainDepth(function) > kMaxStrengthReductionDepth)
        skipped.insert(("function (" + function.getName() + ")").str());
    context.setOptPassGate(*this);
  }
  ~SkipDeepStrengthReduction() override { context.setOptPassGate(previous); }
  SkipDeepStrengthReduction(const SkipDeepStrengthReduction &) = delete;
  SkipDeepStrengthReduction &
  operator=(const SkipDeepStrengthReduction &) = delete;

  bool isEnabled() const override { return true; }
  bool shouldRunPass(StringRef pass, StringRef unit) const override {
    if (isStrengthReduction(pass) && skipped.contains(unit))
      return false;
    return !previous.isEnabled() || previous.shouldRunPass(pass, unit);
  }

private:
  llvm::LLVMContext &context;
  llvm::OptPassGate &previous;
  llvm::StringSet<> skipped;
};
} // namespace

/// PTX for `module` from `machine`, or none when the back end cannot
/// emit it.
static std::optional<std::string> emitPtx(llvm::TargetMachine &machine,
                                          llvm::Module &module) {
  std::string ptx;
  {
    SkipDeepStrengthReduction gate(module);
    llvm::raw_string_ostream stream(ptx);
    llvm::buffer_ostream buffered(stream);
    llvm::legacy::PassManager passes;
    if (machine.addPassesToEmitFile(passes, buffered, nullptr,
                                    llvm::CodeGenFileType::AssemblyFile))
      return std::nullopt;
    passes.run(module);
  }
  return ptx;
}

/// The PTX of each kernel of `module` compiled alone, in parallel threads:
/// each thread parses its own copy of the module (an LLVMContext is not
/// shared between threads), keeps its kernel and what that kernel uses,
/// and runs the back end. None when one fails.
static std::optional<std::vector<std::string>>
compileKernelsApart(llvm::Module &module,
                    const TargetMachineFactory &makeMachine,
                    ArrayRef<std::string> kernels, unsigned threads) {
  llvm::SmallVector<char, 0> bitcode;
  {
    llvm::raw_svector_ostream stream(bitcode);
    // With the use-lists: instruction selection follows their order.
    llvm::WriteBitcodeToFile(module, stream, /*ShouldPreserveUseListOrder=*/true);
  }
  std::vector<std::optional<std::string>> parts(kernels.size());
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
    for (size_t i = 0; i < kernels.size(); ++i)
      pool.async([&, i] {
        llvm::LLVMContext context;
        auto copy = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(
                StringRef(bitcode.data(), bitcode.size()), "tile"),
            context);
        if (!copy) {
          llvm::consumeError(copy.takeError());
          return;
        }
        llvm::Module &part = **copy;
        // The other kernels lose their bodies (kept as declarations, which
        // the back end does not print, so that nothing else moves), then
        // the local globals and functions only they used go.
        for (llvm::Function &f : part)
          if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel &&
              f.getName() != kernels[i])
            f.deleteBody();
        for (bool erased = true; erased;) {
          erased = false;
          for (llvm::GlobalValue &value :
               llvm::make_early_inc_range(part.global_values())) {
            if (!value.hasLocalLinkage())
              continue;
            value.removeDeadConstantUsers();
            if (value.use_empty()) {
              value.eraseFromParent();
              erased = true;
            }
          }
        }
        if (std::unique_ptr<llvm::TargetMachine> machine = makeMachine())
          parts[i] = emitPtx(*machine, part);
      });
    pool.wait();
  }
  std::vector<std::string> texts;
  for (std::optional<std::string> &part : parts) {
    if (!part)
      return std::nullopt;
    texts.push_back(std::move(*part));
  }
  return texts;
}

FailureOr<std::string> mlir::tile::compileToPTX(llvm::Module &module,
                                                const TargetOptions &options,
                                                Location loc) {
  std::optional<TargetMachineFactory> makeMachine =
      targetMachineFactory(options, loc);
  if (!makeMachine)
    return failure();
  SmallVector<std::string> kernels;
  for (llvm::Function &f : module)
    if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel &&
        !f.isDeclaration())
      kernels.push_back(f.getName().str());
  if (options.codegenThreads != 1 && kernels.size() > 1) {
    // One kernel a thread; where that cannot be merged, the whole module.
    if (auto parts = compileKernelsApart(module, *makeMachine, kernels,
                                         options.codegenThreads))
      if (std::optional<std::string> merged = mergePtx(*parts))
        return std::move(*merged);
  }
  std::unique_ptr<llvm::TargetMachine> machine = (*makeMachine)();
  if (!machine)
    return emitError(loc) << "cannot create the NVPTX target machine for "
                          << options.chip;
  std::optional<std::string> ptx = emitPtx(*machine, module);
  if (!ptx)
    return emitError(loc) << "the NVPTX backend cannot emit PTX for "
                          << options.chip;
  return std::move(*ptx);
}

namespace {
/// A PTX text as the NVPTX back end lays it out: the header (up to
/// `.address_size`), what comes before the first function (the first
/// `// .globl` comment, the declarations, blank lines), the functions
/// (each from its `// .globl` comment, if any, to the brace that closes
/// its body), and what follows the last one.
struct PtxLayout {
  std::string header, firstGlobl;
  SmallVector<std::string> before, after;
  SmallVector<std::pair<std::string, std::string>> functions; // name, text
};

std::optional<PtxLayout> layOut(StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  PtxLayout layout;
  size_t at = 0;
  for (bool done = false; at < lines.size() && !done; ++at) {
    layout.header += lines[at].str() + "\n";
    done = lines[at].starts_with(".address_size");
  }
  std::string globl;
  while (at < lines.size()) {
    StringRef line = lines[at];
    StringRef trimmed = line.trim();
    bool function = trimmed.contains(".entry ") || trimmed.contains(".func ");
    if (!function) {
      ++at;
      if (trimmed.starts_with("// .globl") && !layout.functions.empty())
        globl = line.str() + "\n";
      else if (layout.functions.empty()) {
        if (trimmed.starts_with("// .globl"))
          layout.firstGlobl = line.str();
        layout.before.push_back(line.str());
      } else {
        layout.after.push_back(line.str());
      }
      continue;
    }
    if (!layout.after.empty()) // Declarations between functions: not ours.
      return std::nullopt;
    std::string block = globl;
    globl.clear();
    int depth = 0;
    bool body = false;
    for (; at < lines.size(); ++at) {
      block += lines[at].str() + "\n";
      for (char c : lines[at]) {
        depth += c == '{';
        depth -= c == '}';
        body |= c == '{';
      }
      if ((!body && lines[at].trim().ends_with(";")) || (body && depth == 0)) {
        ++at;
        break;
      }
    }
    if (!body) // A prototype: also not what the back end writes for us.
      return std::nullopt;
    layout.functions.push_back({trimmed.str(), block});
  }
  return layout;
}
} // namespace

std::optional<std::string>
mlir::tile::mergePtx(ArrayRef<std::string> parts) {
  SmallVector<PtxLayout> layouts;
  for (const std::string &part : parts) {
    std::optional<PtxLayout> layout = layOut(part);
    if (!layout || layout->functions.empty() ||
        (!layouts.empty() && layout->header != layouts.front().header))
      return std::nullopt;
    layouts.push_back(std::move(*layout));
  }
  // The first text's layout, with the others' declarations added to its
  // own (before its trailing blank lines) and their functions after its.
  PtxLayout &first = layouts.front();
  llvm::StringSet<> declared;
  for (const std::string &line : first.before)
    declared.insert(line);
  SmallVector<std::string> before = first.before;
  size_t end = before.size();
  while (end > 0 && StringRef(before[end - 1]).trim().empty())
    --end;
  SmallVector<std::string> added;
  for (const PtxLayout &layout : ArrayRef(layouts).drop_front())
    for (const std::string &line : layout.before)
      if (line != layout.firstGlobl && !StringRef(line).trim().empty() &&
          declared.insert(line).second)
        added.push_back(line);
  before.insert(before.begin() + end, added.begin(), added.end());

  std::string merged = first.header;
  for (const std::string &line : before)
    merged += line + "\n";
  llvm::StringMap<std::string> defined;
  for (const PtxLayout &layout : layouts)
    for (auto [i, function] : llvm::enumerate(layout.functions)) {
      auto [it, inserted] = defined.try_emplace(function.first, function.second);
      if (!inserted) {
        if (it->second != function.second)
          return std::nullopt;
        continue;
      }
      if (i == 0 && &layout != &first && !layout.firstGlobl.empty())
        merged += layout.firstGlobl + "\n";
      merged += function.second;
    }
  for (const std::string &line : first.after)
    merged += line + "\n";
  // split() gave the text after the last newline as a last line.
  if (!merged.empty() && StringRef(parts.front()).ends_with("\n"))
    merged.pop_back();
  return merged;
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

/// Where ptxas's `log` places its first error: the kernel (the `.entry`
/// whose body holds the PTX line it names, or the entry function it names)
/// and the text of that PTX line, when it names one.
static std::optional<std::pair<std::string, std::string>>
placePtxasError(StringRef ptx, StringRef log) {
  SmallVector<StringRef> logLines;
  log.split(logLines, '\n');
  for (StringRef line : logLines) {
    if (!line.contains("error") && !line.contains("fatal"))
      continue;
    // "ptxas <file>, line N; error   : ..."
    size_t at = line.find(", line ");
    unsigned number = 0;
    if (at != StringRef::npos &&
        !line.drop_front(at + 7).take_until([](char c) { return c == ';'; })
             .getAsInteger(10, number) &&
        number > 0) {
      SmallVector<StringRef> ptxLines;
      ptx.split(ptxLines, '\n');
      if (number > ptxLines.size())
        continue;
      std::string kernel;
      for (unsigned i = 0; i < number; ++i) {
        StringRef text = ptxLines[i].trim();
        if (text.consume_front(".visible .entry ") ||
            text.consume_front(".entry "))
          kernel = text.take_until([](char c) { return c == '('; }).str();
      }
      std::string text = ptxLines[number - 1].trim().str();
      llvm::replace(text, '\t', ' ');
      return std::make_pair(kernel, text);
    }
    // "ptxas error   : Entry function 'k' uses too much ..."
    size_t entry = line.find("Entry function '");
    if (entry != StringRef::npos)
      return std::make_pair(
          line.drop_front(entry + 16).take_until([](char c) { return c == '\''; })
              .str(),
          std::string());
  }
  return std::nullopt;
}

/// The location of kernel `name` in `source` (its llvm.func or gpu.func,
/// which keep the tile.kernel's), or none.
static std::optional<Location> kernelLocation(Operation *source,
                                              StringRef name) {
  std::optional<Location> found;
  if (!source || name.empty())
    return found;
  source->walk([&](Operation *op) {
    auto symbol = op->getAttrOfType<StringAttr>(
        SymbolTable::getSymbolAttrName());
    if (symbol && symbol.getValue() == name &&
        isa<LLVM::LLVMFuncOp, gpu::GPUFuncOp>(op)) {
      found = op->getLoc();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

FailureOr<std::string> mlir::tile::assembleCubin(StringRef ptx,
                                                 const TargetOptions &options,
                                                 Location loc, bool relocatable,
                                                 std::string *report,
                                                 Operation *source) {
  if (!requireChip(loc, options.chip))
    return failure();
  std::string ptxas = toolchain::findPtxas(options.cudaRoot);
  if (ptxas.empty())
    return emitError(loc)
           << "ptxas not found: the cubin stage needs CUDA's ptxas (looked in "
           << toolchain::describeCudaSearch(options.cudaRoot)
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
  if (status != 0) {
    // At the kernel ptxas blames, when it says which.
    Location at = loc;
    std::string where;
    if (auto placed = placePtxasError(ptx, logText)) {
      if (std::optional<Location> kernel =
              kernelLocation(source, placed->first)) {
        at = *kernel;
        where = " in kernel @" + placed->first;
        if (!placed->second.empty())
          where += " (at PTX `" + placed->second + "`)";
      }
    }
    return emitError(at) << "ptxas failed" << where
                         << (status < 0 ? " to run: " + errorMessage
                                        : " with exit code " +
                                              std::to_string(status))
                         << (logText.empty() ? "" : ":\n")
                         << logText.rtrim();
  }
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
