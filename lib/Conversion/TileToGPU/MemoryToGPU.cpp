//===- MemoryToGPU.cpp - shared tiles, fragments and barrier rings --------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
// Shared tiles live for the whole kernel: one workgroup global each, aligned
// for 128-byte-swizzled TMA boxes.
struct AllocSharedLowering : OpConversionPattern<AllocSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto gpuModule = op->getParentOfType<gpu::GPUModuleOp>();
    if (!gpuModule)
      return op.emitOpError("must be outlined into a gpu.module first "
                            "(convert-tile-kernel-to-gpu)");
    auto type = cast<MemRefType>(op.getType());
    // Globals are only ever added, so their count makes a fresh name.
    std::string name =
        "__tile_shared_" +
        std::to_string(llvm::range_size(gpuModule.getOps<memref::GlobalOp>()));
    memref::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(gpuModule.getBody());
      global = memref::GlobalOp::create(
        rewriter, op.getLoc(), name, rewriter.getStringAttr("private"),
        type, /*initial_value=*/rewriter.getUnitAttr(), /*constant=*/false,
        /*alignment=*/rewriter.getI64IntegerAttr(1024));
    }
    rewriter.replaceOpWithNewOp<memref::GetGlobalOp>(op, type,
                                                     global.getSymName());
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

// Thread 0 initialises every barrier of the ring; the CTA waits for it.
struct AllocBarrierLowering : OpConversionPattern<AllocBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<nvgpu::MBarrierGroupType>(
        getTypeConverter()->convertType(op.getType()));
    Value group = nvgpu::MBarrierCreateOp::create(rewriter, loc, type);
    Value isLeader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, threadId(rewriter, loc),
        constIndex(rewriter, loc, 0));
    Value arrivals = constIndex(rewriter, loc, op.getArrivals());
    for (int64_t i = 0; i < op.getType().getCount(); ++i)
      nvgpu::MBarrierInitOp::create(rewriter, loc, group, arrivals,
                                    constIndex(rewriter, loc, i), isLeader);
    ctaBarrier(rewriter, loc);
    rewriter.replaceOp(op, group);
    return success();
  }
};
} // namespace

void mlir::tile::populateTileMemoryToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<AllocSharedLowering, AllocFragmentLowering,
               AllocBarrierLowering>(converter, patterns.getContext());
}
