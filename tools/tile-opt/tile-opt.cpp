//===- tile-opt.cpp - the tile optimizer driver ---------------------------===//
//
// mlir-opt with the tile dialect, its passes and pipelines registered.
// It registers what mlir-opt-22 does (dialects, extensions, passes and the
// GPU-path LLVM IR translations), so upstream pipelines that serialise GPU
// modules (gpu-module-to-binary, gpu-lower-to-nvvm-pipeline) run here as
// they do in mlir-opt. tools/driver/ToolMain.cpp runs it.
//
//===----------------------------------------------------------------------===//

#include "../driver/ToolMain.h"
#include "tile/InitAllTile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // As mlir-opt: gpu-module-to-binary translates gpu.module bodies to LLVM IR
  // in-process (builtin, GPU, LLVM, NVVM, ROCDL, SPIR-V, XeVM translations
  // and the GPU offloading handler).
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  mlir::registerAllPasses();
  mlir::tile::registerAllTile(registry);
  return mlir::tile::tileOptMain(argc, argv, registry);
}
