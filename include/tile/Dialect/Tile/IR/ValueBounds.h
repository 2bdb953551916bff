//===- ValueBounds.h - the value-bounds models tile relies on ---*- C++ -*-===//
//
// The copy lowering asks upstream's value-bounds analysis
// (ValueBoundsConstraintSet) whether a copy's box lies inside its memref,
// and drops the run-time bounds tests where it does. The analysis reads the
// ValueBoundsOpInterface models of the ops an offset is computed with.
// Upstream MLIR 22.1 has them for arith's addi, subi, muli and floordivsi,
// scf.for's induction variable and memref.dim, but not for arith.divui, the
// division sizes are written with in tile programs
// (`%whole = arith.divui %n, %chunk`).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_VALUEBOUNDS_H
#define TILE_DIALECT_TILE_IR_VALUEBOUNDS_H

namespace mlir {
class DialectRegistry;
namespace tile {

/// Registers upstream's value-bounds models of arith, scf and memref (so
/// that every tool that loads tile proves the same), and one of
/// arith.divui (floor(lhs / rhs) where lhs >= 0 and rhs > 0 are provable)
/// unless the op has one already (a later MLIR's own).
void registerValueBoundsModels(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_VALUEBOUNDS_H
