//===- Translate.h - LLVM+NVVM dialect to LLVM IR, PTX and cubin -*- C++ -*-===//

#ifndef TILE_TARGET_TRANSLATE_H
#define TILE_TARGET_TRANSLATE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"
#include "tile/Runtime/KernelInfo.h"
#include "tile/Target/Chip.h"
#include <memory>
#include <string>
#include <vector>

namespace mlir::tile {

struct ChipInfo;

/// What LLVM runs on tile's IR by default: it arrives canonicalised, CSE'd
/// and with fragments already in SSA values from MLIR, NVPTX's own codegen
/// pipeline reassociates and CSEs addresses, and ptxas optimises again, so
/// LLVM's -O3 pipeline mostly costs time (about 60 ms on the GEMM). LICM
/// stays: hoisting the k-loop's invariant address arithmetic was worth
/// about 2% of GEMM throughput (docs/compile-time.md). libdevice's
/// functions are inlined and dropped.
inline constexpr const char *kDefaultLLVMPasses =
    "always-inline,globaldce,"
    "function(sroa,early-cse,simplifycfg,loop-mssa(licm))";

struct TargetOptions {
  std::string chip = kDefaultChip;
  /// Empty: the chip's default PTX ISA from the chip table.
  std::string ptxFeatures;
  unsigned optLevel = 3;
  /// LLVM IR pass pipeline (opt's -passes syntax) run before NVPTX when
  /// optLevel > 0; empty: kDefaultLLVMPasses.
  std::string llvmPasses;
  /// Extra ptxas options, space separated.
  std::string ptxasOptions;
  /// CUDA toolkit root holding bin/ptxas; empty: $CUDA_HOME, then
  /// /usr/local/cuda, then $PATH.
  std::string cudaRoot;
  /// Threads the NVPTX back end compiles the kernels of a module with (a
  /// family's configurations), each in a module of its own, the PTX texts
  /// then merged: 0 as many as the machine has, 1 the whole module in one.
  unsigned codegenThreads = 1;
};

/// Whether `module` holds tile ops (so the tile-to-nvvm pipeline runs
/// before translation), as opposed to LLVM+NVVM IR.
bool isTileLevel(ModuleOp module);

/// Runs the tile-to-nvvm pipeline for `chip` on `module`, verifying after
/// each pass or once at the end; `configure` may add instrumentation to
/// the pass manager first; `values` set the families' parameters
/// (tile-specialize's values); `skipFailingConfigs` leaves out, with a
/// warning, a family's configuration that fails to specialise or needs
/// more shared memory than the chip has. Errors are diagnostics.
LogicalResult
lowerTileToNVVM(ModuleOp module, StringRef chip, bool verifyEach,
                function_ref<LogicalResult(PassManager &)> configure = {},
                ArrayRef<std::string> values = {},
                bool skipFailingConfigs = false);

/// The operation holding `module`'s device code: its single gpu.module, or
/// the module itself when it has none. Null (with an error) when it has
/// several.
Operation *getDeviceCode(ModuleOp module);

/// Translates the device code of `module` (its single gpu.module, or the
/// module itself when it holds llvm.func kernels directly) to an optimised
/// LLVM module for NVPTX. Emits located errors on failure.
FailureOr<std::unique_ptr<llvm::Module>>
translateToNVPTXModule(ModuleOp module, llvm::LLVMContext &context,
                       const TargetOptions &options);

/// LLVM's NVPTX backend, in process; with options.codegenThreads other
/// than 1 and several kernels, one module per kernel in parallel threads
/// and the PTX texts merged (each kernel's text as a whole-module compile
/// gives it).
FailureOr<std::string> compileToPTX(llvm::Module &module,
                                    const TargetOptions &options, Location loc);

/// One PTX text from PTX texts of the same header (version, target,
/// address size): the header once, every top-level declaration once, then
/// each text's functions in order. None when the headers differ or two
/// texts define one function differently.
std::optional<std::string> mergePtx(ArrayRef<std::string> parts);

/// Whether `op` (a kernel, or the device code holding kernels) calls
/// NVSHMEM's device functions (`level world` communication): such code is
/// assembled as relocatable and its kernel description asks the runtime to
/// link NVSHMEM in.
bool callsNvshmem(Operation *op);

/// Whether `op` calls NVSHMEM's device functions that synchronise PEs
/// (barriers, syncs, waits) or are collectives: NVSHMEM allows them only
/// in a kernel launched collectively (nvshmemx_collective_launch), which
/// the kernel description asks of the runtime. (tile's own world-level
/// waits spin without a call and need no such launch.)
bool callsNvshmemSynchronisation(Operation *op);

/// CUDA's ptxas; its diagnostics are passed on as an error at `loc`, or,
/// when `source` (the module the PTX came from) is given and ptxas names a
/// PTX line or an entry function, at that kernel's location, with the
/// kernel and the PTX line quoted. With `relocatable` (`ptxas -c`) calls to
/// undefined functions stay for a device link. ptxas's report (warnings,
/// -v) goes to stderr, or into `report` when one is given.
FailureOr<std::string> assembleCubin(StringRef ptx,
                                     const TargetOptions &options,
                                     Location loc, bool relocatable = false,
                                     std::string *report = nullptr,
                                     Operation *source = nullptr);

/// Bytes each function spills (stores plus loads), read from a `ptxas -v`
/// report.
llvm::StringMap<int64_t> spillBytesByFunction(StringRef ptxasReport);

/// The runtime's kernel description ("kinfo") of every kernel in the
/// LLVM+NVVM module: launch shape, shared memory, TMA tensor maps,
/// parameters, arguments as written and a family kernel's configuration.
FailureOr<std::vector<::tile::rt::KernelInfo>>
collectKernelInfo(ModuleOp module);
/// Writes collectKernelInfo's descriptions in the kinfo format.
LogicalResult writeKernelInfo(ModuleOp module, llvm::raw_ostream &os);

/// What tile-translate is doing now (a stage of --tile-to-ptx and friends),
/// for a crash report; empty outside a stage.
StringRef currentTranslateStage();

/// Writes `path` ("-": stdout) with what `write` prints: through a
/// temporary beside it, renamed over it once `write` succeeded, so that
/// `path` holds either its old contents or all of the new ones. A path that
/// exists and is not a regular file (/dev/null, a pipe) is written directly.
LogicalResult
writeOutputFile(StringRef path,
                function_ref<LogicalResult(llvm::raw_ostream &)> write,
                std::string &error);

/// Registers --tile-to-llvmir, --tile-to-ptx and --tile-to-cubin with
/// mlir-translate's driver, plus their options.
void registerTileTranslations();

} // namespace mlir::tile

#endif // TILE_TARGET_TRANSLATE_H
