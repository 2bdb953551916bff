//===- MemoryToGPU.cpp - shared tiles, fragments and barrier rings --------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static constexpr int64_t kSharedAlignment = 1024;
static constexpr llvm::StringLiteral kSharedOffsetAttr = "tile.shared_offset";

LogicalResult mlir::tile::assignSharedOffsets(ModuleOp module,
                                              const ChipInfo &chip) {
  WalkResult result = module.walk([&](gpu::GPUFuncOp func) {
    int64_t offset = 0;
    func.walk([&](AllocSharedOp alloc) {
      auto type = cast<MemRefType>(alloc.getType());
      int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
      alloc->setAttr(kSharedOffsetAttr,
                     IntegerAttr::get(IndexType::get(func.getContext()), offset));
      offset = llvm::alignTo(offset + bytes, kSharedAlignment);
    });
    if (offset == 0)
      return WalkResult::advance();
    // Room to realign the base at run time.
    int64_t total = offset + kSharedAlignment;
    if (total > chip.maxSharedBytes) {
      func.emitOpError("needs ")
          << total << " bytes of shared memory (its tiles and 1 KiB to align "
          << "them); " << chip.name << " allows " << chip.maxSharedBytes
          << " per CTA: use fewer pipeline stages or smaller tiles";
      return WalkResult::interrupt();
    }
    func->setAttr(kDynamicSharedBytesAttrName,
                  IntegerAttr::get(IntegerType::get(func.getContext(), 32),
                                   total));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
// Shared tiles live in the kernel's dynamic shared memory (static shared
// memory stops at 48 KiB) at the offsets assignSharedOffsets chose. The
// base is realigned to 1024 bytes at run time, as 128-byte swizzles need.
struct AllocSharedLowering : OpConversionPattern<AllocSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto offset = op->getAttrOfType<IntegerAttr>(kSharedOffsetAttr);
    if (!offset)
      return op.emitOpError("has no shared-memory offset; it must be inside "
                            "an outlined kernel");
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    auto bytesType = MemRefType::get({ShapedType::kDynamic},
                                     rewriter.getI8Type(), nullptr, workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(rewriter, loc, bytesType);
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, base);
    Value align = constIndex(rewriter, loc, kSharedAlignment);
    // pad = (align - address % align) % align
    Value pad = arith::RemUIOp::create(
        rewriter, loc,
        arith::SubIOp::create(
            rewriter, loc, align,
            arith::RemUIOp::create(rewriter, loc, address, align)),
        align);
    Value start = arith::AddIOp::create(
        rewriter, loc, pad, constIndex(rewriter, loc, offset.getInt()));
    rewriter.replaceOpWithNewOp<memref::ViewOp>(op, op.getType(), base, start,
                                                ValueRange{});
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
  patterns.add<AllocSharedLowering, AllocFragmentLowering>(
      converter, patterns.getContext());
  patterns.add<AllocBarrierLowering>(converter, patterns.getContext(), chip);
}
