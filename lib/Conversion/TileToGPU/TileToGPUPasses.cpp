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
#define GEN_PASS_DEF_CONVERTTILEGEMMTOGPU
#define GEN_PASS_DEF_CONVERTTILEMBARRIERTOGPU
#define GEN_PASS_DEF_CONVERTTILEDISTRIBUTEDTOGPU
#define GEN_PASS_DEF_CONVERTTILEWARPSPECIALIZETOGPU
#define GEN_PASS_DEF_TILEALLOCATETENSORMEMORY
#define GEN_PASS_DEF_TILEASSIGNSHAREDOFFSETS
#define GEN_PASS_DEF_TILEASSIGNTMAPARAMETERS
#define GEN_PASS_DEF_CONVERTTILEOPSTOGPU
#define GEN_PASS_DEF_CONVERTTILENVSHMEMTOGPU
#define GEN_PASS_DEF_TILEERASEREDUNDANTBARRIERS
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

using PopulateFn = void (*)(TileToGPUTypeConverter &, RewritePatternSet &,
                            const ChipInfo &);

static LogicalResult convert(Operation *root, ArrayRef<PopulateFn> populate,
                             function_ref<void(ConversionTarget &)> illegal) {
  const ChipInfo *chip = getTargetChip(root);
  if (!chip)
    return failure();
  MLIRContext *context = root->getContext();
  TileToGPUTypeConverter converter(context);
  converter.proveCopyBoxes(root);
  RewritePatternSet patterns(context);
  for (PopulateFn fn : populate)
    fn(converter, patterns, *chip);
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  illegal(target);
  return applyPartialConversion(root, target, std::move(patterns));
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
    if (failed(convert(getOperation(), {populateTileMemoryToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<AllocSharedOp, AllocFragmentOp,
                                        AllocBarrierOp, AllocTmemOp,
                                        DeallocTmemOp>();
                         t.markUnknownOpDynamicallyLegal(
                             [](Operation *op) {
                               return !needsSharedTypeLowering(op);
                             });
                       })))
      signalPassFailure();
  }
};

struct ConvertTileCopyToGPUPass
    : tile::impl::ConvertTileCopyToGPUBase<ConvertTileCopyToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(), {populateTileCopyToGPUPatterns},
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

struct ConvertTileGemmToGPUPass
    : tile::impl::ConvertTileGemmToGPUBase<ConvertTileGemmToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(), {populateTileGemmToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<GemmOp, WaitGemmsOp, CommitGemmsOp>();
                       })))
      signalPassFailure();
  }
};

struct ConvertTileMBarrierToGPUPass
    : tile::impl::ConvertTileMBarrierToGPUBase<ConvertTileMBarrierToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(),
                       {populateTileMBarrierToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalOp<MBarrierArriveOp, MBarrierExpectTxOp,
                                        MBarrierWaitOp>();
                       })))
      signalPassFailure();
  }
};

struct ConvertTileDistributedToGPUPass
    : tile::impl::ConvertTileDistributedToGPUBase<
          ConvertTileDistributedToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(),
                       {populateTileDistributedToGPUPatterns},
                       [](ConversionTarget &t) {
                         t.markUnknownOpDynamicallyLegal([](Operation *op) {
                           return !isa<CommunicationOpInterface>(op);
                         });
                       })))
      signalPassFailure();
  }
};

struct ConvertTileWarpSpecializeToGPUPass
    : tile::impl::ConvertTileWarpSpecializeToGPUBase<
          ConvertTileWarpSpecializeToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(lowerWarpSpecialize(getOperation())))
      signalPassFailure();
  }
};

struct TileAllocateTensorMemoryPass
    : tile::impl::TileAllocateTensorMemoryBase<TileAllocateTensorMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(allocateTensorMemory(getOperation())))
      signalPassFailure();
  }
};

struct TileAssignSharedOffsetsPass
    : tile::impl::TileAssignSharedOffsetsBase<TileAssignSharedOffsetsPass> {
  using Base::Base;
  void runOnOperation() override {
    const ChipInfo *target = getTargetChip(getOperation());
    if (!target || failed(assignSharedOffsets(getOperation(), *target,
                                              skipOversizedConfigs)))
      signalPassFailure();
  }
};

struct TileAssignTmaParametersPass
    : tile::impl::TileAssignTmaParametersBase<TileAssignTmaParametersPass> {
  using Base::Base;
  void runOnOperation() override {
    const ChipInfo *target = getTargetChip(getOperation());
    if (!target ||
        (target->has(Feature::Tma) && failed(assignTmaParameters(getOperation()))))
      signalPassFailure();
  }
};

struct ConvertTileNvshmemToGPUPass
    : tile::impl::ConvertTileNvshmemToGPUBase<ConvertTileNvshmemToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(convert(getOperation(),
                       {populateNvshmemCommunicationPatterns,
                        populateUnselectedCommunicationPatterns},
                       [](ConversionTarget &t) {
                         t.markUnknownOpDynamicallyLegal([](Operation *op) {
                           return !lowersThroughNvshmem(op);
                         });
                       })))
      signalPassFailure();
  }
};

struct ConvertTileOpsToGPUPass
    : tile::impl::ConvertTileOpsToGPUBase<ConvertTileOpsToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    WalkResult world = getOperation()->walk([](Operation *op) {
      if (!lowersThroughNvshmem(op))
        return WalkResult::advance();
      op->emitOpError("at level world must be lowered first, by "
                      "convert-tile-nvshmem-to-gpu on the gpu.module (its "
                      "lowering declares NVSHMEM functions there)");
      return WalkResult::interrupt();
    });
    if (world.wasInterrupted())
      return signalPassFailure();
    if (failed(convert(getOperation(),
                       {populateTileMemoryToGPUPatterns,
                        populateTileGemmToGPUPatterns,
                        populateTileCopyToGPUPatterns,
                        populateTileElementwiseToGPUPatterns,
                        populateTileReduceToGPUPatterns,
                        populateTileMBarrierToGPUPatterns,
                        // World-level ops are lowered before, on the
                        // gpu.module (their calls declare functions there).
                        populateClusterCommunicationPatterns,
                        populateUnselectedCommunicationPatterns,
                        populateTileLoopToSCFPatterns},
                       [](ConversionTarget &t) {
                         t.addIllegalDialect<TileDialect>();
                         t.markUnknownOpDynamicallyLegal(
                             [](Operation *op) {
                               return !needsSharedTypeLowering(op);
                             });
                         // Lowered last, once its contents are; turns
                         // with it (their barriers are the roles').
                         t.addLegalOp<WarpSpecializeOp, TakeTurnOp,
                                      PassTurnOp>();
                         t.addDynamicallyLegalOp<YieldOp>([](YieldOp op) {
                           return isa<WarpSpecializeOp>(op->getParentOp());
                         });
                       })))
      signalPassFailure();
  }
};

struct TileEraseRedundantBarriersPass
    : tile::impl::TileEraseRedundantBarriersBase<
          TileEraseRedundantBarriersPass> {
  using Base::Base;
  void runOnOperation() override { eraseRedundantBarriers(getOperation()); }
};
} // namespace
