//===- ToolMain.cpp - tile-opt's and tile-translate's drivers -------------===//

#include "ToolMain.h"

#include "tile/Target/Translate.h"

#include "tile/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <functional>
#include <unistd.h>
#include <memory>

using namespace mlir;

// A crash (a signal, an LLVM abort, a stack overflow: LLVM's handlers run on
// an alternate signal stack) prints one line naming what was running and
// what to do, and exits with 1 instead of dumping a stack: LLVM's handler
// runs the callbacks added with AddSignalHandler, on whichever thread
// crashed, after removing the files registered for removal (temporaries).
namespace {
struct CrashReport {
  const char *tool = "";
  std::function<std::string()> stage;
  std::function<std::string()> hint;
};
} // namespace

static CrashReport &crashReport() {
  static CrashReport report;
  return report;
}

static void reportCrash(void *) {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true))
    _exit(1);
  CrashReport &report = crashReport();
  std::string what = report.stage ? report.stage() : std::string();
  llvm::errs() << report.tool << ": internal error"
               << (what.empty() ? "" : " in stage '" + what + "'")
               << " (the compiler crashed); "
               << (report.hint ? report.hint() : std::string()) << "\n";
  llvm::errs().flush();
  _exit(1);
}

// Runs `work`; exit code 0 on success, 1 on a failure or a crash.
static int runGuarded(const char *tool,
                      llvm::function_ref<LogicalResult()> work,
                      std::function<std::string()> stage,
                      std::function<std::string()> hint) {
  crashReport() = {tool, std::move(stage), std::move(hint)};
  llvm::sys::DisableSystemDialogsOnCrash();
  llvm::sys::AddSignalHandler(reportCrash, nullptr);
  return succeeded(work()) ? 0 : 1;
}

// Writes the output once the tool's work succeeded (the whole output is held
// in memory until then), through a temporary renamed over `path`.
static LogicalResult writeOutput(StringRef path, StringRef contents) {
  std::string error;
  if (succeeded(mlir::tile::writeOutputFile(
          path,
          [&](llvm::raw_ostream &os) {
            os << contents;
            return success();
          },
          error)))
    return success();
  llvm::errs() << error << "\n";
  return failure();
}

// The parser, the verifier and many passes recurse once per nested region
// or bracket: input nested thousands deep would overflow the stack (a
// crash) instead of failing cleanly. No real program comes near the limit.
static constexpr int kMaxNesting = 1000;

LogicalResult mlir::tile::checkNesting(const llvm::MemoryBuffer &input,
                                       llvm::raw_ostream &errors) {
  StringRef text = input.getBuffer();
  int depth = 0;
  // Open brackets in order, while every close matched its open (after a
  // mismatch the parser's own error says more).
  std::vector<size_t> open;
  bool matched = true;
  auto report = [&](size_t at, const llvm::Twine &message) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(text, input.getBufferIdentifier(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    sourceMgr.PrintMessage(errors, llvm::SMLoc::getFromPointer(text.data() + at),
                           llvm::SourceMgr::DK_Error, message);
    return failure();
  };
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      continue;
    }
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '}' || c == ')' || c == ']') {
      depth = std::max(0, depth - 1);
      char opener = c == '}' ? '{' : c == ')' ? '(' : '[';
      if (!open.empty() && text[open.back()] == opener)
        open.pop_back();
      else
        matched = false;
      continue;
    }
    if (c != '{' && c != '(' && c != '[')
      continue;
    open.push_back(i);
    if (++depth > kMaxNesting)
      return report(i, "regions and brackets nest deeper than " +
                           llvm::Twine(kMaxNesting) +
                           " levels here; tile does not compile programs "
                           "nested this deep (split the nest into functions "
                           "or loops that are not nested)");
  }
  // A region left open at the end reads to MLIR's parser as a missing
  // operation ("expected operation name in quotes" at the last line). An
  // open '(' or '[' gets the parser's own, more precise, error.
  if (matched && !open.empty() &&
      llvm::all_of(open, [&](size_t at) { return text[at] == '{'; }))
    return report(open.back(), "this '{' is never closed: the input ends "
                               "inside its region; add the matching '}'");
  return success();
}

void mlir::tile::printTileVersion(llvm::raw_ostream &os) {
  os << "tile version " << TILE_VERSION << "\n  built with LLVM and MLIR "
     << TILE_LLVM_VERSION << "\n";
}

void mlir::tile::useTileVersionPrinter() {
  llvm::cl::SetVersionPrinter(printTileVersion);
}

//===----------------------------------------------------------------------===//
// tile-opt
//===----------------------------------------------------------------------===//

int mlir::tile::tileOptMain(int argc, char **argv, DialectRegistry &registry) {
  useTileVersionPrinter();
  // Not a structured binding: the lambdas below capture the output name,
  // which C++17 (and clang before 16) does not allow for bindings.
  std::pair<std::string, std::string> paths = registerAndParseCLIOptions(
      argc, argv, "tile optimizer driver\n", registry);
  const std::string &inputFilename = paths.first;
  const std::string &outputFilename = paths.second;
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  std::string errorMessage;
  auto input = openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(checkNesting(*input, llvm::errs())))
    return 1;
  bool toStdout = outputFilename == "-";
  std::string buffered;
  llvm::raw_string_ostream bufferStream(buffered);
  return runGuarded(
      "tile-opt",
      [&]() -> LogicalResult {
        // stdout is streamed (split-input-file chunks print as they go);
        // a file is written once everything succeeded.
        llvm::raw_ostream &os = toStdout ? static_cast<llvm::raw_ostream &>(llvm::outs()) : bufferStream;
        if (failed(MlirOptMain(os,
                               std::move(input), registry, config)))
          return failure();
        return toStdout ? success() : writeOutput(outputFilename, buffered);
      },
      [] { return std::string(); },
      [] {
        return std::string(
            "rerun with --mlir-pass-pipeline-crash-reproducer=<file> for a "
            "reproducer of a crash in a pass");
      });
}

//===----------------------------------------------------------------------===//
// tile-translate
//===----------------------------------------------------------------------===//

namespace {
/// Marks non-error diagnostics as handled (--error-diagnostics-only).
class ErrorDiagnosticFilter : public ScopedDiagnosticHandler {
public:
  explicit ErrorDiagnosticFilter(MLIRContext *ctx)
      : ScopedDiagnosticHandler(ctx) {
    setHandler([](Diagnostic &diag) {
      return success(diag.getSeverity() != DiagnosticSeverity::Error);
    });
  }
};
/// Whether --mlir-print-op-on-diagnostic was given (MLIR's default is on).
bool opDumpAsked() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("mlir-print-op-on-diagnostic");
  if (it == options.end() || !it->second->getNumOccurrences())
    return false;
  auto *flag = static_cast<llvm::cl::opt<bool> *>(it->second);
  return flag->getValue();
}
} // namespace

// mlirTranslateMain's options and processing; it opens -o (truncating it)
// before translating, which would destroy a good file on a failed run.
// Most of its length is the options, which are function-local statics so
// that they register only when tile-translate runs (as mlirTranslateMain's
// are).
int mlir::tile::tileTranslateMain(int argc, char **argv) {
  useTileVersionPrinter();
  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  static llvm::cl::opt<bool> allowUnregisteredDialects(
      "allow-unregistered-dialect",
      llvm::cl::desc("Allow operation with no registered dialects "
                     "(discouraged: testing only!)"),
      llvm::cl::init(false));
  static llvm::cl::opt<std::string> inputSplitMarker{
      "split-input-file", llvm::cl::ValueOptional,
      llvm::cl::callback([](const std::string &str) {
        if (str.empty())
          inputSplitMarker.setValue(kDefaultSplitMarker);
      }),
      llvm::cl::desc("Split the input file into chunks using the given or "
                     "default marker and process each chunk independently"),
      llvm::cl::init("")};
  static llvm::cl::opt<SourceMgrDiagnosticVerifierHandler::Level>
      verifyDiagnostics{
          "verify-diagnostics", llvm::cl::ValueOptional,
          llvm::cl::desc("Check that emitted diagnostics match expected-* "
                         "lines on the corresponding line"),
          llvm::cl::values(
              clEnumValN(SourceMgrDiagnosticVerifierHandler::Level::All, "all",
                         "Check all diagnostics (expected, unexpected, "
                         "near-misses)"),
              clEnumValN(SourceMgrDiagnosticVerifierHandler::Level::All, "",
                         "Check all diagnostics (expected, unexpected, "
                         "near-misses)"),
              clEnumValN(
                  SourceMgrDiagnosticVerifierHandler::Level::OnlyExpected,
                  "only-expected", "Check only expected diagnostics"))};
  static llvm::cl::opt<bool> errorDiagnosticsOnly(
      "error-diagnostics-only",
      llvm::cl::desc("Filter all non-error diagnostics "
                     "(discouraged: testing only!)"),
      llvm::cl::init(false));
  static llvm::cl::opt<std::string> outputSplitMarker(
      "output-split-marker",
      llvm::cl::desc("Split marker to use for merging the ouput"),
      llvm::cl::init(""));
  llvm::cl::list<const Translation *, bool, TranslationParser>
      translationsRequested("", llvm::cl::desc("Translations to perform"),
                            llvm::cl::Required);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  registerDefaultTimingManagerCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "tile translation driver\n");

  DefaultTimingManager tm;
  applyDefaultTimingManagerCLOptions(tm);
  TimingScope timing = tm.getRootScope();

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (auto alignment = translationsRequested[0]->getInputAlignment())
    input = openInputFile(inputFilename, *alignment, &errorMessage);
  else
    input = openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(checkNesting(*input, llvm::errs())))
    return 1;

  auto processBuffer = [&](std::unique_ptr<llvm::MemoryBuffer> ownedBuffer,
                           llvm::raw_ostream &os) -> LogicalResult {
    // Translations expect a null-terminated buffer, which a split chunk
    // need not be.
    if (!ownedBuffer->getBuffer().ends_with('\0'))
      ownedBuffer = llvm::MemoryBuffer::getMemBufferCopy(
          ownedBuffer->getBuffer(), ownedBuffer->getBufferIdentifier());
    std::string dataIn, dataOut;
    for (size_t i = 0, e = translationsRequested.size(); i < e; ++i) {
      llvm::raw_string_ostream dataStream(dataOut);
      llvm::raw_ostream &stream = i == e - 1 ? os : dataStream;
      const Translation *translation = translationsRequested[i];
      TimingScope translationTiming = timing.nest(translation->getDescription());
      MLIRContext context;
      context.allowUnregisteredDialects(allowUnregisteredDialects);
      // A compiler driver's errors name the source line; the generic dump
      // of the op an error is attached to follows only when asked for
      // (--mlir-print-op-on-diagnostic).
      context.printOpOnDiagnostic(opDumpAsked());
      auto sourceMgr = std::make_shared<llvm::SourceMgr>();
      sourceMgr->AddNewSourceBuffer(std::move(ownedBuffer), llvm::SMLoc());
      LogicalResult result = success();
      if (verifyDiagnostics.getNumOccurrences()) {
        SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context,
                                                   verifyDiagnostics);
        (void)(*translation)(sourceMgr, os, &context);
        result = handler.verify();
      } else if (errorDiagnosticsOnly) {
        SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
        ErrorDiagnosticFilter filter(&context);
        result = (*translation)(sourceMgr, stream, &context);
      } else {
        SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
        result = (*translation)(sourceMgr, stream, &context);
      }
      if (failed(result))
        return result;
      if (i < e - 1) {
        dataIn = dataOut;
        dataOut.clear();
        ownedBuffer = llvm::MemoryBuffer::getMemBuffer(dataIn);
      }
    }
    return success();
  };

  return runGuarded(
      "tile-translate",
      [&]() -> LogicalResult {
        // Held in memory and written once every chunk translated: a binary
        // cubin is not streamed to a terminal half-way either.
        std::string output;
        llvm::raw_string_ostream os(output);
        if (failed(splitAndProcessBuffer(std::move(input), processBuffer, os,
                                         inputSplitMarker, outputSplitMarker)))
          return failure();
        return writeOutput(outputFilename, output);
      },
      [] { return currentTranslateStage().str(); },
      [] {
        return std::string("no output written; rerun with --tile-timing to "
                           "see the stages that completed");
      });
}
