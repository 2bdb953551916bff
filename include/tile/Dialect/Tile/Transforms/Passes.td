//===- Passes.td - tile dialect transformations ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "Chooses the per-thread layout of every register fragment";
  let description = [{
    Gives each `!tile.fragment` without a layout the `#tile.blocked` layout
    for its kernel's thread count: runs of up to 16 bytes per thread, as
    long as the run divides the innermost dimension and the runs divide
    evenly over the threads. Fragment types are rewritten on the allocation
    and every use. Fails with a located error where no such layout exists
    (fewer elements than threads, say).

    Example: in a kernel with `threads(128)`,
    `!tile.fragment<1024xf32>` becomes
    `!tile.fragment<1024xf32, #tile.blocked<threads = 128, vector = 4>>`.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES
