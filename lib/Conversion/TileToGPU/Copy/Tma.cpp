//===- Tma.cpp - tile.copy {mechanism = tma_load / tma_store} -------------===//
//
// TMA (sm_90+): one thread issues a bulk tensor copy through the kernel's
// tensor-map parameter for the copy (tile-translate's kernel description
// tells the runtime how to encode it). Loads complete on the copy's
// mbarrier, whose expected byte count the same thread raises; {multicast}
// loads write this CTA's slice of rows into every CTA of the cluster.
// Stores fence the CTA's writes to the async proxy first and, unless
// {async}, wait for the store; tile.wait_tma_stores waits for async ones.
// {atomic_add} stores add the tile into global memory instead (bulk
// tensor reductions, in the same bulk groups).
//
//===----------------------------------------------------------------------===//

#include "../Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// {atomic_add}: the leader adds the shared tile into the global one
// (cp.reduce.async.bulk.tensor .add), which nvgpu has no op for.
static void reduceAdd(OpBuilder &b, Location loc, Value tensorMap,
                      Value sharedTile, ValueRange coords, Value leader) {
  auto tile = cast<MemRefType>(sharedTile.getType());
  SmallVector<Value> zeros(tile.getRank(), constIndex(b, loc, 0));
  Value source = elementPointer(
      b, loc, sharedTile, zeros,
      static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  SmallVector<Value> coords32;
  for (Value c : coords)
    coords32.push_back(
        arith::IndexCastUIOp::create(b, loc, b.getI32Type(), c));
  scf::IfOp::create(b, loc, leader, [&](OpBuilder &then, Location l) {
    NVVM::CpAsyncBulkTensorReduceOp::create(
        then, l, tensorMap, source, NVVM::TMAReduxKind::ADD,
        NVVM::TMAStoreMode::TILE, coords32, /*l2CacheHint=*/Value());
    scf::YieldOp::create(then, l);
  });
}

namespace {
// tma_load and tma_store: one lowering, registered for each.
template <CopyMechanism Mechanism>
struct TmaCopyLowering : MechanismPattern<CopyOp, Mechanism> {
  using MechanismPattern<CopyOp, Mechanism>::MechanismPattern;
  using OpAdaptor = typename CopyOp::Adaptor;

  LogicalResult lower(CopyOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    constexpr bool isStore = Mechanism == CopyMechanism::tma_store;
    if (!op.getBarrier() && !isStore)
      return op.emitOpError("is a TMA load without a barrier to complete on "
                            "(a pipelined loop gives its producers one)");
    Location loc = op.getLoc();
    auto param = op->getAttrOfType<IntegerAttr>(kTmaParamAttr);
    auto swizzle = op->getAttrOfType<IntegerAttr>(kTmaSwizzleAttr);
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    if (!param || !swizzle || !func)
      return op.emitOpError("has no tensor-map parameter; run the copy "
                            "lowering on outlined kernels");
    MLIRContext *context = this->getContext();
    Value sharedTile = isStore ? adaptor.getSource() : adaptor.getDest();
    ValueRange globalOffsets =
        isStore ? adaptor.getDestOffsets() : adaptor.getSourceOffsets();
    auto tile = cast<MemRefType>(
        (isStore ? op.getSource() : op.getDest()).getType());
    nvgpu::TensorMapSwizzleKind kind;
    switch (swizzle.getInt()) {
    case 0:
      kind = nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE;
      break;
    case 32:
      kind = nvgpu::TensorMapSwizzleKind::SWIZZLE_32B;
      break;
    case 64:
      kind = nvgpu::TensorMapSwizzleKind::SWIZZLE_64B;
      break;
    case 128:
      kind = nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
      break;
    default:
      return op.emitOpError("has a tensor map swizzle of ")
             << swizzle.getInt() << " bytes; TMA swizzles 0, 32, 64 or 128";
    }
    // Rows wider than the swizzle are stored, and moved, as column blocks.
    // A multicast load moves this CTA's slice of rows of each block into
    // the same place in every CTA of the cluster.
    // (assignTmaParameters has refused a multicast copy without a cluster.)
    int64_t slices = multicastSlices(op).value_or(1);
    TmaBox tmaBox = getTmaBox(tile, swizzle.getInt(), slices);
    ArrayRef<int64_t> box = tmaBox.shape;
    int64_t blocks = tmaBox.blocks;
    auto boxType = MemRefType::get(
        box, tile.getElementType(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
    // nvgpu's TMA ops take the map as a typed descriptor; the reduction
    // (an NVVM op) takes the parameter's pointer itself.
    Value tensorMap = func.getArgument(param.getInt());
    bool reduce = isStore && op.getAtomicAdd();
    Value desc;
    if (!reduce) {
      auto descType = nvgpu::TensorMapDescriptorType::get(
          context, boxType, kind, nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
          nvgpu::TensorMapOOBKind::OOB_ZERO,
          nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
      desc = UnrealizedConversionCastOp::create(rewriter, loc, descType,
                                                tensorMap)
                 .getResult(0);
    }
    Value leader = isThreadZero(rewriter, loc);
    if (isStore) {
      // Every thread's writes to the tile reach the async proxy first.
      publishSharedWrites(rewriter, loc, this->chip);
    } else {
      int64_t bytes =
          tile.getNumElements() * tile.getElementTypeBitWidth() / 8;
      nvgpu::MBarrierArriveExpectTxOp::create(
          rewriter, loc, adaptor.getBarrier(), constIndex(rewriter, loc, bytes),
          adaptor.getBarrierIndex(), leader);
    }
    int64_t boxElements = ShapedType::getNumElements(box);
    memref::ExtractStridedMetadataOp meta;
    if (blocks > 1 || slices > 1)
      meta = memref::ExtractStridedMetadataOp::create(rewriter, loc, sharedTile);
    Value rank, multicastMask;
    if (slices > 1) {
      rank = arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getIndexType(),
          NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type()));
      multicastMask = arith::ConstantIntOp::create(
          rewriter, loc, (int64_t(1) << slices) - 1, 16);
    }
    for (int64_t block = 0; block < blocks; ++block) {
      Value dest = sharedTile;
      if (blocks > 1 || slices > 1) {
        // Block b holds columns [b w, b w + w) of every row, contiguously.
        SmallVector<OpFoldResult> sizes, strides;
        int64_t stride = 1;
        for (int64_t d = box.size() - 1; d >= 0; --d) {
          sizes.insert(sizes.begin(), rewriter.getIndexAttr(box[d]));
          strides.insert(strides.begin(), rewriter.getIndexAttr(stride));
          stride *= box[d];
        }
        Value offset = arith::AddIOp::create(
            rewriter, loc, meta.getOffset(),
            constIndex(rewriter, loc, block * boxElements * slices));
        if (slices > 1)
          offset = arith::AddIOp::create(
              rewriter, loc, offset,
              arith::MulIOp::create(rewriter, loc, rank,
                                    constIndex(rewriter, loc, boxElements)));
        dest = memref::ReinterpretCastOp::create(
            rewriter, loc,
            MemRefType::get(box, tile.getElementType(),
                            StridedLayoutAttr::get(
                                context, ShapedType::kDynamic,
                                llvm::to_vector(llvm::map_range(
                                    strides, [](OpFoldResult s) {
                                      return *getConstantIntValue(s);
                                    }))),
                            tile.getMemorySpace()),
            meta.getBaseBuffer(), offset, sizes, strides);
      }
      // TMA coordinates run innermost first.
      SmallVector<Value> coords(llvm::reverse(globalOffsets));
      if (block > 0)
        coords.front() = arith::AddIOp::create(
            rewriter, loc, coords.front(),
            constIndex(rewriter, loc, block * box.back()));
      if (slices > 1)
        coords.back() = arith::AddIOp::create(
            rewriter, loc, coords.back(),
            arith::MulIOp::create(rewriter, loc, rank,
                                  constIndex(rewriter, loc, box.front())));
      if (reduce)
        reduceAdd(rewriter, loc, tensorMap, dest, coords, leader);
      else if (isStore)
        nvgpu::TmaAsyncStoreOp::create(rewriter, loc, dest, desc, coords,
                                       leader);
      else
        nvgpu::TmaAsyncLoadOp::create(rewriter, loc, dest, adaptor.getBarrier(),
                                      desc, coords, adaptor.getBarrierIndex(),
                                      multicastMask, leader);
    }
    if (isStore) {
      // The store is complete (and the tile free again) when the op returns,
      // unless it is asynchronous: tile.wait_tma_stores waits for it then.
      bool async = op.getAsync();
      scf::IfOp::create(rewriter, loc, leader, [&](OpBuilder &b, Location l) {
        NVVM::CpAsyncBulkCommitGroupOp::create(b, l);
        if (!async)
          NVVM::CpAsyncBulkWaitGroupOp::create(b, l, b.getI32IntegerAttr(0),
                                               /*read=*/nullptr);
        scf::YieldOp::create(b, l);
      });
      if (!async)
        ctaBarrier(rewriter, loc);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

// The thread that issues TMA stores waits for its bulk groups to have read
// their tiles (at most `pending` left), then the CTA learns it.
struct WaitTmaStoresLowering : ChipPattern<WaitTmaStoresOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(WaitTmaStoresOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireFeature(op, chip, Feature::Tma, "waiting for TMA stores")))
      return failure();
    Location loc = op.getLoc();
    scf::IfOp::create(rewriter, loc, isThreadZero(rewriter, loc),
                      [&](OpBuilder &b, Location l) {
                        NVVM::CpAsyncBulkWaitGroupOp::create(
                            b, l, b.getI32IntegerAttr(op.getPending()),
                            b.getUnitAttr());
                        scf::YieldOp::create(b, l);
                      });
    ctaBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateTmaCopyPatterns(TileToGPUTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const ChipInfo &chip) {
  patterns.add<TmaCopyLowering<CopyMechanism::tma_load>,
               TmaCopyLowering<CopyMechanism::tma_store>, WaitTmaStoresLowering>(
      converter, patterns.getContext(), chip);
}
