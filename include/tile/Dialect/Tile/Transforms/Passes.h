//===- Passes.h - tile dialect transformations ------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tile {
#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
