//===- tile-translate.cpp - the tile translation driver -------------------===//
//
// mlir-translate with tile's translations: --tile-to-llvmir, --tile-to-ptx,
// --tile-to-cubin (and upstream's own).
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Translate.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  mlir::tile::registerTileTranslations();
  return mlir::failed(
             mlir::mlirTranslateMain(argc, argv, "tile translation driver\n"))
             ? 1
             : 0;
}
