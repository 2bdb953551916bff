//===- InitAllTile.cpp - register tile's dialect, passes, pipelines -------===//

#include "tile/InitAllTile.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/ValueBounds.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::tile::registerAllTile(DialectRegistry &registry) {
  registry.insert<TileDialect>();
  registerValueBoundsModels(registry);
  // Pass registration is global; do it once however often this is called.
  static bool registered = [] {
    registerTileTransformsPasses();
    registerTileConversionPasses();
    registerTilePipelines();
    return true;
  }();
  (void)registered;
}
