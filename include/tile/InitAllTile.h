//===- InitAllTile.h - register tile's dialect, passes, pipelines -*- C++ -*-===//

#ifndef TILE_INITALLTILE_H
#define TILE_INITALLTILE_H

namespace mlir {
class DialectRegistry;
namespace tile {
/// Adds the tile dialect to `registry` and registers every tile pass and
/// pipeline with the global pass registry.
void registerAllTile(DialectRegistry &registry);
} // namespace tile
} // namespace mlir

#endif // TILE_INITALLTILE_H
