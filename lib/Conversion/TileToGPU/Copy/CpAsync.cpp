//===- CpAsync.cpp - tile.copy {mechanism = cp_async} ---------------------===//
//
// Global -> shared as cp.async 16-byte runs (sm_80+), without registers;
// a run's source size zero-fills the part past the tile's edge. Rows that
// are not 16-byte aligned at run time take the register path. A
// synchronous copy commits and waits for its own group; an {async} one (a
// pipelined loop's) leaves the group, the wait and the CTA barrier to the
// program.
//
//===----------------------------------------------------------------------===//

#include "RegisterCopy.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// The cp.async of each of this thread's runs.
static void issueRuns(OpBuilder &b, Location loc, const RegisterCopy &copy,
                      int64_t runBytes) {
  int64_t vector = copy.dist.vector;
  copy.forEachRun(b, loc, [&](OpBuilder &rb, Location rl,
                              ArrayRef<Value> coords, int64_t) {
    SmallVector<Value> global = addIndices(rb, rl, copy.from.offsets, coords);
    RunBounds bounds = computeRunBounds(rb, rl, copy.from.value, global, vector);
    // A run with nothing in bounds reads from element 0 instead.
    Value any = arith::CmpIOp::create(rb, rl, arith::CmpIPredicate::ne,
                                      bounds.count, constIndex(rb, rl, 0));
    for (Value &index : global)
      index = arith::SelectOp::create(rb, rl, any, index, constIndex(rb, rl, 0));
    Value srcBytes = arith::IndexCastUIOp::create(
        rb, rl, rb.getI32Type(),
        arith::MulIOp::create(rb, rl, bounds.count,
                              constIndex(rb, rl, runBytes / vector)));
    NVVM::CpAsyncOp::create(
        rb, rl, elementPointer(rb, rl, copy.to.value, coords, 3),
        elementPointer(rb, rl, copy.from.value, global, 1),
        rb.getI32IntegerAttr(16),
        NVVM::LoadCacheModifierKindAttr::get(rb.getContext(),
                                             NVVM::LoadCacheModifierKind::CG),
        srcBytes);
  });
}

namespace {
struct CpAsyncCopyLowering
    : MechanismPattern<CopyOp, CopyMechanism::cp_async> {
  using MechanismPattern::MechanismPattern;

  LogicalResult lower(CopyOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<RegisterCopy> copy = RegisterCopy::prepare(
        op, adaptor, rewriter, *getTypeConverter<TileToGPUTypeConverter>());
    if (failed(copy))
      return failure();
    int64_t runBytes = copy->dist.vector *
                       cast<ShapedType>(op.getDest().getType())
                           .getElementTypeBitWidth() /
                       8;
    if (runBytes != 16)
      return op.emitOpError("moves ")
             << runBytes << "-byte runs, and cp.async moves 16: its mechanism "
             << "must be vector";
    copy->emit(rewriter, loc, chip, [&] {
      scf::IfOp::create(
          rewriter, loc, copy->from.aligned,
          [&](OpBuilder &b, Location l) {
            issueRuns(b, l, *copy, runBytes);
            // An {async} copy's group is the program's to commit and wait.
            if (!op.getAsync()) {
              NVVM::CpAsyncCommitGroupOp::create(b, l);
              NVVM::CpAsyncWaitGroupOp::create(b, l, b.getI32IntegerAttr(0));
            }
            scf::YieldOp::create(b, l);
          },
          [&](OpBuilder &b, Location l) {
            copy->throughRegisters(b, l);
            scf::YieldOp::create(b, l);
          });
    });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateCpAsyncCopyPatterns(TileToGPUTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             const ChipInfo &chip) {
  patterns.add<CpAsyncCopyLowering>(converter, patterns.getContext(), chip);
}
