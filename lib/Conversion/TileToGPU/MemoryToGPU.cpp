//===- MemoryToGPU.cpp - shared tiles, fragments and barrier rings --------===//

#include "Common.h"
#include "SharedMemoryAllocation.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
// Shared tiles live in the kernel's dynamic shared memory (static shared
// memory stops at 48 KiB) at the offsets assignSharedOffsets chose. The
// base is realigned to 1024 bytes at run time, as 128-byte swizzles need.
struct AllocSharedLowering : OpConversionPattern<AllocSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto offset = op->getAttrOfType<IntegerAttr>(kSharedOffsetAttrName);
    if (!offset)
      return op.emitOpError("has no shared-memory offset: run "
                            "tile-assign-shared-offsets on the outlined "
                            "kernel first");
    rewriter.replaceOp(op, createSharedView(rewriter, op.getLoc(),
                                            cast<MemRefType>(op.getType()),
                                            offset.getInt()));
    return success();
  }
};


// A fragment is the per-thread slice its layout describes; allocas at the
// function entry are promoted to registers by LLVM once indexing is constant.
struct AllocFragmentLowering : OpConversionPattern<AllocFragmentOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_if_present<MemRefType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return op.emitOpError("fragment has no layout the lowering knows; run "
                            "tile-assign-layouts first");
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    if (!func)
      return op.emitOpError("must be outlined into a gpu.func first");
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&func.getBody().front());
    Value alloca = memref::AllocaOp::create(rewriter, op.getLoc(), type);
    rewriter.replaceOp(op, alloca);
    return success();
  }
};

} // namespace

bool mlir::tile::needsSharedTypeLowering(Operation *op) {
  if (isa_and_present<TileDialect>(op->getDialect()))
    return false;
  auto swizzled = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && isa_and_present<SharedAttr>(memref.getMemorySpace());
  };
  return llvm::any_of(op->getOperandTypes(), swizzled) ||
         llvm::any_of(op->getResultTypes(), swizzled);
}

namespace {
// Other dialects' ops on shared tiles (views, a pipelined ring's slots,
// casts, dims) are rebuilt on the lowered types. Ordinary loads and stores
// would ignore a swizzle: they are refused on swizzled tiles.
struct SwizzledSharedTypeLowering : ConversionPattern {
  SwizzledSharedTypeLowering(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!needsSharedTypeLowering(op))
      return rewriter.notifyMatchFailure(op, "no #tile.shared type");
    if (op->getNumRegions() != 0)
      return op->emitOpError("takes a shared tile as a region's value, which "
                             "the lowering does not convert");
    if (!isa<ViewLikeOpInterface>(op) && !isMemoryEffectFree(op))
      for (Type type : op->getOperandTypes())
        if (getSharedSwizzle(type).value_or(0) != 0)
          return refuseSwizzledAccess(op, *getSharedSwizzle(type));
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs(), op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

// tile-allocate-tensor-memory replaces tensor-memory allocations (one
// allocation per kernel); any left means it did not run.
template <typename OpT>
struct UnallocatedTmemLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return op.emitOpError("has no tensor-memory columns: run "
                          "tile-allocate-tensor-memory on the outlined "
                          "kernel first");
  }
};

// Thread 0 initialises every barrier of the ring; the CTA waits for it.
struct AllocBarrierLowering : ChipPattern<AllocBarrierOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(AllocBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<nvgpu::MBarrierGroupType>(
        getTypeConverter()->convertType(op.getType()));
    Value group = nvgpu::MBarrierCreateOp::create(rewriter, loc, type);
    Value isLeader = isThreadZero(rewriter, loc);
    Value arrivals = constIndex(rewriter, loc, op.getArrivals());
    for (int64_t i = 0; i < op.getType().getCount(); ++i)
      nvgpu::MBarrierInitOp::create(rewriter, loc, group, arrivals,
                                    constIndex(rewriter, loc, i), isLeader);
    // TMA completes on these barriers through the async proxy: make the
    // initialisation visible to it before anyone uses them.
    publishSharedWrites(rewriter, loc, chip);
    rewriter.replaceOp(op, group);
    return success();
  }
};
} // namespace

void mlir::tile::populateTileMemoryToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<AllocSharedLowering, AllocFragmentLowering,
               SwizzledSharedTypeLowering, UnallocatedTmemLowering<AllocTmemOp>,
               UnallocatedTmemLowering<DeallocTmemOp>>(converter,
                                                       patterns.getContext());
  patterns.add<AllocBarrierLowering>(converter, patterns.getContext(), chip);
}
