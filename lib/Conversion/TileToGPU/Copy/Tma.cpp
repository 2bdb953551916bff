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
#include "tile/Target/Swizzle.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
// One TMA copy, as its pieces: the shared tile (lowered), its type, the
// box each bulk copy moves, and the kernel parameter holding the map.
// Rows wider than the swizzle are stored, and moved, as `blocks` column
// blocks; a multicast load moves this CTA's slice (of `slices`) of each
// block's rows into the same place in every CTA of the cluster.
struct TmaTransfer {
  Value sharedTile;
  MemRefType tile;
  int64_t swizzle;
  TmaBox box;
  int64_t slices;
  Value tensorMap;
  ValueRange globalOffsets;
};
} // namespace

// nvgpu's TMA ops take the map as a typed descriptor of the box.
static Value tensorMapDescriptor(OpBuilder &b, Location loc,
                                 const TmaTransfer &t) {
  MLIRContext *context = b.getContext();
  auto boxType = MemRefType::get(
      t.box.shape, t.tile.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
  // The tensor-map encoding of the swizzle (the type's attribute verifier
  // refused others); nvgpu numbers its kinds as the driver does.
  static_assert(
      static_cast<unsigned>(nvgpu::TensorMapSwizzleKind::SWIZZLE_128B) == 3 &&
          static_cast<unsigned>(nvgpu::TensorMapSwizzleKind::SWIZZLE_32B) == 1,
      "Swizzle.h's tensorMap column follows nvgpu's TensorMapSwizzleKind");
  auto kind = static_cast<nvgpu::TensorMapSwizzleKind>(
      swizzleEncoding(t.swizzle)->tensorMap);
  auto descType = nvgpu::TensorMapDescriptorType::get(
      context, boxType, kind, nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  return UnrealizedConversionCastOp::create(b, loc, descType, t.tensorMap)
      .getResult(0);
}

// Where the transfer's bulk copies start: the shared tile's strided
// metadata and this CTA's rank in the cluster, where blocks or slices need
// them (null otherwise).
namespace {
struct BoxOrigin {
  memref::ExtractStridedMetadataOp meta;
  Value rank;
};
} // namespace
static BoxOrigin boxOrigin(OpBuilder &b, Location loc, const TmaTransfer &t) {
  BoxOrigin origin;
  if (t.box.blocks > 1 || t.slices > 1)
    origin.meta = memref::ExtractStridedMetadataOp::create(b, loc, t.sharedTile);
  if (t.slices > 1)
    origin.rank = arith::IndexCastUIOp::create(
        b, loc, b.getIndexType(),
        NVVM::ClusterId::create(b, loc, b.getI32Type()));
  return origin;
}

// Calls `move(tile, coords)` for each bulk copy of the transfer: the whole
// tile, or each column block (and this CTA's slice of it) as a view of the
// shared tile, with the global coordinates (innermost first) it starts at.
static void forEachBox(OpBuilder &b, Location loc, const TmaTransfer &t,
                       BoxOrigin origin,
                       function_ref<void(Value, ValueRange)> move) {
  ArrayRef<int64_t> box = t.box.shape;
  int64_t boxElements = ShapedType::getNumElements(box);
  // A box's contiguous row-major strides.
  SmallVector<int64_t> strides(box.size(), 1);
  for (int64_t d = box.size() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * box[d + 1];
  for (int64_t block = 0; block < t.box.blocks; ++block) {
    Value view = t.sharedTile;
    if (origin.meta) {
      // Block b holds columns [b w, b w + w) of every row, contiguously.
      Value offset = arith::AddIOp::create(
          b, loc, origin.meta.getOffset(),
          constIndex(b, loc, block * boxElements * t.slices));
      if (t.slices > 1)
        offset = arith::AddIOp::create(
            b, loc, offset,
            arith::MulIOp::create(b, loc, origin.rank,
                                  constIndex(b, loc, boxElements)));
      auto viewType = MemRefType::get(
          box, t.tile.getElementType(),
          StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                 strides),
          cast<MemRefType>(t.sharedTile.getType()).getMemorySpace());
      view = memref::ReinterpretCastOp::create(
          b, loc, viewType, origin.meta.getBaseBuffer(), offset,
          getAsIndexOpFoldResult(b.getContext(), box),
          getAsIndexOpFoldResult(b.getContext(), strides));
    }
    SmallVector<Value> coords(llvm::reverse(t.globalOffsets));
    if (block > 0)
      coords.front() = arith::AddIOp::create(
          b, loc, coords.front(), constIndex(b, loc, block * box.back()));
    if (t.slices > 1)
      coords.back() = arith::AddIOp::create(
          b, loc, coords.back(),
          arith::MulIOp::create(b, loc, origin.rank,
                                constIndex(b, loc, box.front())));
    move(view, coords);
  }
}

// A load: the leader raises the barrier's expected bytes by the tile's,
// then issues the bulk copies, which complete on the barrier.
static void lowerTmaLoad(OpBuilder &b, Location loc, const TmaTransfer &t,
                         Value barrier, Value barrierIndex) {
  Value desc = tensorMapDescriptor(b, loc, t);
  Value leader = isThreadZero(b, loc);
  int64_t bytes = t.tile.getNumElements() * t.tile.getElementTypeBitWidth() / 8;
  nvgpu::MBarrierArriveExpectTxOp::create(
      b, loc, barrier, constIndex(b, loc, bytes), barrierIndex, leader);
  BoxOrigin origin = boxOrigin(b, loc, t);
  Value multicastMask;
  if (t.slices > 1)
    multicastMask =
        arith::ConstantIntOp::create(b, loc, (int64_t(1) << t.slices) - 1, 16);
  forEachBox(b, loc, t, origin, [&](Value dest, ValueRange coords) {
    nvgpu::TmaAsyncLoadOp::create(b, loc, dest, barrier, desc, coords,
                                  barrierIndex, multicastMask, leader);
  });
}

// A store (or, {atomic_add}, a bulk tensor reduction: the leader adds the
// shared tile into the global one with cp.reduce.async.bulk.tensor .add,
// which nvgpu has no op for). Every thread's writes to the tile reach the
// async proxy first; the store is complete (and the tile free again) when
// the op returns, unless it is {async}: tile.wait_tma_stores waits then.
static void lowerTmaStore(OpBuilder &b, Location loc, const TmaTransfer &t,
                          bool reduce, bool async, const ChipInfo &chip) {
  Value desc = reduce ? Value() : tensorMapDescriptor(b, loc, t);
  Value leader = isThreadZero(b, loc);
  publishSharedWrites(b, loc, chip);
  BoxOrigin origin = boxOrigin(b, loc, t);
  forEachBox(b, loc, t, origin, [&](Value source, ValueRange coords) {
    if (!reduce) {
      nvgpu::TmaAsyncStoreOp::create(b, loc, source, desc, coords, leader);
      return;
    }
    SmallVector<Value> zeros(t.box.shape.size(), constIndex(b, loc, 0));
    Value pointer =
        elementPointer(b, loc, source, zeros,
                       static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    SmallVector<Value> coords32;
    for (Value c : coords)
      coords32.push_back(
          arith::IndexCastUIOp::create(b, loc, b.getI32Type(), c));
    buildIf(b, loc, leader, [&](OpBuilder &then) {
      NVVM::CpAsyncBulkTensorReduceOp::create(
          then, loc, t.tensorMap, pointer, NVVM::TMAReduxKind::ADD,
          NVVM::TMAStoreMode::TILE, coords32, /*l2CacheHint=*/Value());
    });
  });
  buildIf(b, loc, leader, [&](OpBuilder &then) {
    NVVM::CpAsyncBulkCommitGroupOp::create(then, loc);
    if (!async)
      NVVM::CpAsyncBulkWaitGroupOp::create(then, loc, then.getI32IntegerAttr(0),
                                           /*read=*/nullptr);
  });
  if (!async)
    ctaBarrier(b, loc);
}

namespace {
// tma_load and tma_store: one pattern, registered for each; the work is in
// lowerTmaLoad and lowerTmaStore.
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
    auto param = op->getAttrOfType<IntegerAttr>(kTmaParamAttr);
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    if (!param || !func)
      return op.emitOpError("has no tensor-map parameter: run "
                            "tile-assign-tma-parameters on the outlined "
                            "kernel first");
    TmaTransfer t;
    t.sharedTile = isStore ? adaptor.getSource() : adaptor.getDest();
    t.globalOffsets =
        isStore ? adaptor.getDestOffsets() : adaptor.getSourceOffsets();
    t.tile = cast<MemRefType>((isStore ? op.getSource() : op.getDest()).getType());
    t.swizzle = getSharedSwizzle(t.tile).value_or(0);
    // (assignTmaParameters has refused a multicast copy without a cluster.)
    t.slices = multicastSlices(op).value_or(1);
    t.box = getTmaBox(t.tile, t.swizzle, t.slices);
    t.tensorMap = func.getArgument(param.getInt());
    if (isStore)
      lowerTmaStore(rewriter, op.getLoc(), t, op.getAtomicAdd(), op.getAsync(),
                    this->chip);
    else
      lowerTmaLoad(rewriter, op.getLoc(), t, adaptor.getBarrier(),
                   adaptor.getBarrierIndex());
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
