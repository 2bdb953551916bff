//===- tile-translate.cpp - the tile translation driver -------------------===//
//
// mlir-translate with tile's translations: --tile-to-llvmir, --tile-to-ptx,
// --tile-to-cubin (and upstream's own). tools/driver/ToolMain.cpp runs it.
//
//===----------------------------------------------------------------------===//

#include "../driver/ToolMain.h"
#include "tile/Target/Translate.h"

#include "mlir/InitAllTranslations.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  mlir::tile::registerTileTranslations();
  return mlir::tile::tileTranslateMain(argc, argv);
}
