//===- ValueBounds.cpp - the value-bounds models tile relies on ------------===//

#include "tile/Dialect/Tile/IR/ValueBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

namespace {
struct DivUIValueBounds
    : public ValueBoundsOpInterface::ExternalModel<DivUIValueBounds,
                                                   arith::DivUIOp> {
  void populateBoundsForIndexValue(Operation *op, Value value,
                                   ValueBoundsConstraintSet &cstr) const {
    auto div = cast<arith::DivUIOp>(op);
    // The analysis reads index values as signed: the unsigned quotient is
    // the floor division only where both operands are known non-negative
    // (and the divisor non-zero).
    using Cmp = ValueBoundsConstraintSet::ComparisonOperator;
    Builder b(op->getContext());
    if (!cstr.populateAndCompare(div.getLhs(), Cmp::GE,
                                 OpFoldResult(b.getIndexAttr(0))) ||
        !cstr.populateAndCompare(div.getRhs(), Cmp::GT,
                                 OpFoldResult(b.getIndexAttr(0))))
      return;
    AffineExpr lhs = cstr.getExpr(div.getLhs());
    AffineExpr rhs = cstr.getExpr(div.getRhs());
    cstr.bound(value) >= 0;
    cstr.bound(value) == lhs.floorDiv(rhs);
  }
};
} // namespace

void mlir::tile::registerValueBoundsModels(DialectRegistry &registry) {
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(arith::DivUIOp::getOperationName(),
                                        ctx);
    if (name && !name->hasInterface<ValueBoundsOpInterface>())
      arith::DivUIOp::attachInterface<DivUIValueBounds>(*ctx);
  });
}
