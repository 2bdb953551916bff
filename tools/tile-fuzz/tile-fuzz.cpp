//===- tile-fuzz.cpp - libFuzzer harness for tile's compiler --------------===//
//
// Feeds each input as text through what `tile-translate --tile-to-ptx`
// does: the nesting check, parsing, verification, the tile-to-nvvm
// pipeline, translation to LLVM IR and LLVM's NVPTX backend (ptxas is not
// run: it is another process, and its failures are already errors). Every
// failure must be a diagnostic; a crash, an LLVM abort, a hang or an
// unbounded allocation is a bug (libFuzzer reports it with the input).
//
// Input without tile ops (LLVM+NVVM IR, say) is parsed and verified only:
// the fuzzer's time goes to tile's own code, not to upstream translation.
// Input that names no chip is compiled for sm_80, sm_90a or sm_100a,
// chosen by its length, so that every chip's lowering is reached.
//
// Built as a fuzzer by `.ci/fuzz` (clang, -fsanitize=fuzzer,address); in
// an ordinary build the same entry point runs the files it is given once
// each (llvm::runFuzzerOnInputs), which is how CTest replays the inputs
// that once crashed (test/Fuzz/regressions).
//
//===----------------------------------------------------------------------===//

#include "../driver/ToolMain.h"

#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/InitAllTile.h"
#include "tile/Target/Chip.h"
#include "tile/Target/Translate.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tile;

// TILE_FUZZ_VERBOSE=1 prints each input's diagnostics and how far it got,
// to see what a seed or a reproducer exercises.
static bool verbose() {
  static bool on = std::getenv("TILE_FUZZ_VERBOSE") != nullptr;
  return on;
}

// Inputs longer than this are skipped: mutations of the seeds stay well
// under it, and a longer input only makes each run slower.
static constexpr size_t kMaxInputBytes = 64 * 1024;

static DialectRegistry &registry() {
  static DialectRegistry registry;
  return registry;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registerAllDialects(registry());
  registerAllExtensions(registry());
  registerAllToLLVMIRTranslations(registry());
  registerAllTile(registry());
  return 0;
}

// What tile-translate --tile-to-ptx does to tile-level input, minus the
// files; failures are diagnostics, which the caller discards.
static void compile(ModuleOp module, size_t inputBytes) {
  static const char *const kChips[] = {"sm_80", "sm_90a", "sm_100a"};
  const ChipInfo *target = findTargetChip(module);
  TargetOptions options;
  options.chip = target ? target->name.str() : kChips[inputBytes % 3];
  if (failed(lowerTileToNVVM(module, options.chip, /*verifyEach=*/false)))
    return;
  llvm::LLVMContext context;
  auto llvmModule = translateToNVPTXModule(module, context, options);
  if (failed(llvmModule))
    return;
  FailureOr<std::string> ptx =
      compileToPTX(**llvmModule, options, module.getLoc());
  if (verbose() && succeeded(ptx))
    llvm::errs() << "tile-fuzz: " << ptx->size() << " bytes of PTX for "
                 << options.chip << "\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return -1; // Not added to the corpus.
  std::unique_ptr<llvm::MemoryBuffer> input = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz");
  if (failed(checkNesting(*input, llvm::nulls())))
    return 0;

  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler print(sourceMgr, &context);
  ScopedDiagnosticHandler discard(&context, [](Diagnostic &) {
    return success(!verbose());
  });
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(verify(*module)) || !isTileLevel(*module))
    return 0;
  compile(*module, size);
  return 0;
}

// Under AddressSanitizer: LLVM's BumpPtrAllocator, inlined into this
// (instrumented) binary, poisons each new slab and unpoisons what it hands
// out, while the uninstrumented libMLIR.so hands out pieces of the same
// slabs without unpoisoning them; a later memmove into one of those reads
// as a use-after-poison. Ignoring user poisoning keeps every other check
// (.ci/sanitize and fuzz.sh set the same for the same reason); this makes
// a plain `tile-fuzz <file>` replay behave as they do. ASAN_OPTIONS still
// overrides it.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
