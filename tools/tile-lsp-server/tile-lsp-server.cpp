//===- tile-lsp-server.cpp - MLIR's language server with tile registered --===//
//
// mlir-lsp-server for editors, knowing the tile dialect and what tile-opt
// registers (the upstream dialects and extensions), so that tile kernels get
// diagnostics, hovers and go-to-definition instead of "unknown dialect".
// docs/editors.md says how to point VS Code and Neovim at it.
//
//===----------------------------------------------------------------------===//

#include "../driver/ToolMain.h"
#include "tile/InitAllTile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::tile::registerAllTile(registry);
  mlir::tile::useTileVersionPrinter();
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
