//===- RecordGrid.cpp - a kernel's tile.grid as its grid rule -------------===//
//
// The grid a kernel states is host code: it leaves the kernel as an
// attribute (the kernel description's grid record) before anything lowers
// the body, so no later pass sees tile.grid or tile.num_sms. So is
// tile.zero_before_launch: the arguments it names (where its condition
// holds) become the kernel's zero record. The family's rules
// (tile.static_assert), checked when tile-specialize folded them, go too.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILERECORDGRID
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Erases `roots` and what only they used.
void eraseWithUnusedOperands(ArrayRef<Operation *> roots) {
  // (An op is queued again only once a user goes, so never once erased.)
  llvm::SetVector<Operation *> worklist;
  for (Operation *root : roots)
    for (Value operand : root->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.insert(def);
  for (Operation *root : roots)
    root->erase();
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.insert(def);
    op->erase();
  }
}

/// The arguments the kernel's tile.zero_before_launch ops zero (those
/// whose condition holds), as its tile.zeroed_args.
LogicalResult recordZeroedArgs(KernelOp kernel) {
  SmallVector<Operation *> ops;
  SmallVector<int64_t> zeroed;
  for (auto op : kernel.getBody().front().getOps<ZeroBeforeLaunchOp>()) {
    APInt flag(1, 1);
    if (Value condition = op.getCondition();
        condition && !matchPattern(condition, m_ConstantInt(&flag)))
      return op.emitOpError("has a condition that is not known after "
                            "tile-specialize: compute it from the "
                            "family's parameters and constants only");
    if (!flag.isZero())
      zeroed.push_back(cast<BlockArgument>(op.getTarget()).getArgNumber());
    ops.push_back(op);
  }
  llvm::sort(zeroed);
  if (!zeroed.empty())
    kernel->setAttr(kZeroedArgsAttrName,
                    DenseI64ArrayAttr::get(kernel.getContext(), zeroed));
  eraseWithUnusedOperands(ops);
  return success();
}

/// Erases the kernel's tile.static_assert ops, whose conditions
/// tile-specialize folded (a false one failed verification there).
LogicalResult checkStaticAsserts(KernelOp kernel) {
  SmallVector<Operation *> held;
  WalkResult unknown = kernel.walk([&](StaticAssertOp op) {
    if (!matchPattern(op.getCondition(), m_Constant())) {
      op.emitOpError("has a condition that is not known after "
                     "tile-specialize: compute it from the family's "
                     "parameters and constants only");
      return WalkResult::interrupt();
    }
    held.push_back(op);
    return WalkResult::advance();
  });
  if (unknown.wasInterrupted())
    return failure();
  eraseWithUnusedOperands(held);
  return success();
}

LogicalResult recordGrid(KernelOp kernel) {
  if (failed(checkStaticAsserts(kernel)) || failed(recordZeroedArgs(kernel)))
    return failure();
  GridOp grid;
  kernel.walk([&](GridOp op) { grid = op; });
  if (grid) {
    SmallVector<Attribute, 3> rule;
    for (Value size : grid.getSizes()) {
      Operation *unsupported = nullptr;
      std::string why;
      FailureOr<std::string> expression =
          buildGridExpression(size, /*allowParams=*/false, unsupported, why);
      if (failed(expression))
        return grid.emitOpError("cannot be recorded: ") << why;
      rule.push_back(StringAttr::get(kernel.getContext(), *expression));
    }
    while (rule.size() < 3)
      rule.push_back(StringAttr::get(kernel.getContext(), "1"));
    kernel->setAttr(kGridRuleAttrName,
                    ArrayAttr::get(kernel.getContext(), rule));
    // What only the grid used goes with it (nothing else of the kernel).
    eraseWithUnusedOperands({grid.getOperation()});
  }
  // What the SM count feeds that nothing uses goes too: the arm of a
  // select by parameters that tile-specialize folded away, say.
  SetVector<Operation *> fed;
  SmallVector<Operation *> unused;
  kernel.walk([&](NumSmsOp op) {
    if (isOpTriviallyDead(op))
      unused.push_back(op);
    getForwardSlice(op.getOperation(), &fed);
  });
  for (Operation *op : fed)
    if (isOpTriviallyDead(op))
      unused.push_back(op);
  eraseWithUnusedOperands(unused);
  WalkResult leftover = kernel.walk([](NumSmsOp op) {
    op.emitOpError("is known only on the host: use it in the operands of "
                   "the kernel's tile.grid, not in the kernel's own code");
    return WalkResult::interrupt();
  });
  return failure(leftover.wasInterrupted());
}

struct TileRecordGridPass : tile::impl::TileRecordGridBase<TileRecordGridPass> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>())
      if (failed(recordGrid(kernel)))
        return signalPassFailure();
  }
};
} // namespace
