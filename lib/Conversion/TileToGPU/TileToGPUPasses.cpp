//===- TileToGPUPasses.cpp - the tile-to-GPU passes -----------------------===//
//
// Each pass only wires a subset of the patterns; the type converter and its
// unrealized casts let them run one at a time or all together.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILEKERNELTOGPU
#define GEN_PASS_DEF_CONVERTTILEMEMORYTOGPU
#define GEN_PASS_DEF_CONVERTTILECOPYTOGPU
#define GEN_PASS_DEF_CONVERTTILEELEMENTWISETOGPU
#define GEN_PASS_DEF_CONVERTTILEREDUCETOGPU
#define GEN_PASS_DEF_CONVERTTILEGEMMTONVVM
#define GEN_PASS_DEF_CONVERTTILEMBARRIERTONVGPU
#define GEN_PASS_DEF_CONVERTTILEDISTRIBUTEDTONVVM
#define GEN_PASS_DEF_CONVERTTILEWARPSPECIALIZETONVVM
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

using PopulateFn = void (*)(TileToGPUTypeConverter &, RewritePatternSet &,
                            const ChipInfo &);

static LogicalResult convert(ModuleOp module, ArrayRef<PopulateFn> populate,
                             function_ref<void(ConversionTarget &)> illegal) {
  const ChipInfo *chip = getTargetChip(module);
  if (!chip)
    return failure();
  MLIRContext *context = module.getContext();
  TileToGPUTypeConverter converter(context);
  RewritePatternSet patterns(context);
  for (PopulateFn fn : populate)
    fn(converter, patterns, *chip);
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  illegal(target);
  return applyPartialConversion(module, target, std::move(patterns));
}


// Lowered copies each synchronise the CTA on entry and on exit (with an
// async-proxy fence where TMA reads what they wrote), so back-to-back copies
// and waits meet barrier after barrier. A barrier is redundant when only
// side-effect-free ops separate it from the previous one, and so is a
// fenced one when that previous barrier was fenced too.
// The nearest op before `op` in its block that has side effects.
static Operation *previousEffect(Operation *op) {
  do
    op = op->getPrevNode();
  while (op && isMemoryEffectFree(op));
  return op;
}

static void eraseRedundantBarriers(ModuleOp module) {
  SmallVector<Operation *> redundant;
  module.walk([&](gpu::BarrierOp barrier) {
    SmallVector<Operation *> fences;
    Operation *prev = previousEffect(barrier);
    while (auto fence = dyn_cast_or_null<NVVM::FenceProxyOp>(prev)) {
      fences.push_back(fence);
      prev = previousEffect(fence);
    }
    if (!isa_and_present<gpu::BarrierOp>(prev))
      return;
    // The earlier barrier's fence must be of every kind this one has.
    auto earlier = dyn_cast_or_null<NVVM::FenceProxyOp>(previousEffect(prev));
    for (Operation *op : fences) {
      auto fence = cast<NVVM::FenceProxyOp>(op);
      if (!earlier || fence.getKind() != earlier.getKind() ||
          fence.getSpace() != earlier.getSpace())
        return;
    }
    redundant.push_back(barrier);
    llvm::append_range(redundant, fences);
  });
  for (Operation *op : redundant)
    op->erase();
}

namespace {
struct ConvertTileKernelToGPUPass
    : tile::impl::ConvertTileKernelToGPUBase<ConvertTileKernelToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    const ChipInfo *target = getTargetChip(getOperation());
    if (!target || failed(outlineTileKernels(getOperation(), *target)))
      signalPassFailure();
  }
};

struct ConvertTileMemoryToGPUPass
    : tile::impl::ConvertTileMemoryToGPUBase<ConvertTileMemoryToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    const ChipInfo *target = getTargetChip(getOperation());
    if (!target || failed(allocateTensorMemory(getOperation())) ||
        failed(assignSharedOffsets(getOperation(), *target)) ||
        failed(convert(getOperation(), {populateTileMemoryToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<AllocSharedOp, AllocFragmentOp,
                                        AllocBarrierOp, AllocTmemOp,
                                        DeallocTmemOp>();
                         t.markUnknownOpDynamicallyLegal(
                             [](Operation *op) {
                               return isa_and_present<TileDialect>(op->getDialect()) ||
                                      !hasSwizzledSharedType(op);
                             });
                       })))
      signalPassFailure();
  }
};

struct ConvertTileCopyToGPUPass
    : tile::impl::ConvertTileCopyToGPUBase<ConvertTileCopyToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    const ChipInfo *target = getTargetChip(getOperation());
    if (!target ||
        (target->has(Feature::Tma) && failed(assignTmaParameters(getOperation()))) ||
        failed(convert(getOperation(), {populateTileCopyToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<CopyOp, WaitTmaStoresOp>();
                       })))
      signalPassFailure();
  }
};

struct ConvertTileElementwiseToGPUPass
    : tile::impl::ConvertTileElementwiseToGPUBase<ConvertTileElementwiseToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(),
                       {populateTileElementwiseToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<ElementwiseOp, FillOp>();
                       })))
      signalPassFailure();
  }
};

struct ConvertTileReduceToGPUPass
    : tile::impl::ConvertTileReduceToGPUBase<ConvertTileReduceToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(), {populateTileReduceToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<ReduceOp>();
                       })))
      signalPassFailure();
  }
};

struct ConvertTileGemmToNVVMPass
    : tile::impl::ConvertTileGemmToNVVMBase<ConvertTileGemmToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(), {populateTileGemmToNVVMPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<GemmOp, WaitGemmsOp, CommitGemmsOp>();
                       })))
      signalPassFailure();
  }
};

struct ConvertTileMBarrierToNVGPUPass
    : tile::impl::ConvertTileMBarrierToNVGPUBase<ConvertTileMBarrierToNVGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(),
                       {populateTileMBarrierToNVGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<MBarrierArriveOp, MBarrierExpectTxOp,
                                        MBarrierWaitOp, BarrierAllOp>();
                       })))
      signalPassFailure();
  }
};

struct ConvertTileDistributedToNVVMPass
    : tile::impl::ConvertTileDistributedToNVVMBase<
          ConvertTileDistributedToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(),
                       {populateTileDistributedToNVVMPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<PutOp, GetOp, SignalOp, WaitOp,
                                        FenceOp, QuietOp, RankOp,
                                        NumRanksOp>();
                         t.addDynamicallyLegalOp<BarrierAllOp>(
                             [](BarrierAllOp op) {
                               return op.getLevel() != Level::world;
                             });
                       })))
      signalPassFailure();
  }
};

struct ConvertTileWarpSpecializeToNVVMPass
    : tile::impl::ConvertTileWarpSpecializeToNVVMBase<
          ConvertTileWarpSpecializeToNVVMPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(lowerWarpSpecialize(getOperation())))
      signalPassFailure();
  }
};

struct ConvertTileToGPUPass
    : tile::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const ChipInfo *target = getTargetChip(module);
    if (!target || failed(outlineTileKernels(module, *target)) ||
        failed(allocateTensorMemory(module)) ||
        failed(assignSharedOffsets(module, *target, skipOversizedConfigs)) ||
        (target->has(Feature::Tma) && failed(assignTmaParameters(module))))
      return signalPassFailure();
    if (failed(convert(module,
                       {populateTileMemoryToGPUPatterns,
                        populateTileGemmToNVVMPatterns,
                        populateTileCopyToGPUPatterns,
                        populateTileElementwiseToGPUPatterns,
                        populateTileReduceToGPUPatterns,
                        populateTileMBarrierToNVGPUPatterns,
                        populateTileDistributedToNVVMPatterns,
                        populateTileLoopToSCFPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalDialect<TileDialect>();
                         t.markUnknownOpDynamicallyLegal(
                             [](Operation *op) {
                               return isa_and_present<TileDialect>(op->getDialect()) ||
                                      !hasSwizzledSharedType(op);
                             });
                         // Lowered last, once its contents are.
                         t.addLegalOp<WarpSpecializeOp>();
                         t.addDynamicallyLegalOp<YieldOp>([](YieldOp op) {
                           return isa<WarpSpecializeOp>(op->getParentOp());
                         });
                       })))
      return signalPassFailure();
    eraseRedundantBarriers(module);
    if (failed(lowerWarpSpecialize(module)))
      signalPassFailure();
  }
};
} // namespace
