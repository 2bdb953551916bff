//===- CopyToGPU.cpp - tile.copy to coalesced vector accesses -------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static bool isContiguousRowMajor(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (strides[d] != expected)
      return false;
    expected *= type.getDimSize(d);
  }
  return true;
}

// Coordinates in a row-major tile of `shape`, rows exactly `swizzle` bytes
// wide, where the swizzle pattern (the one TMA and wgmma use) moves element
// `coords`: the 16-byte unit within the row is XORed with the row's
// 128-byte line index modulo swizzle / 16. Rows stay where they are.
static SmallVector<Value> swizzledCoordinates(OpBuilder &b, Location loc,
                                              ArrayRef<Value> coords,
                                              ArrayRef<int64_t> shape,
                                              int64_t elementBytes,
                                              int64_t swizzle) {
  // One row: line 0, nothing moves.
  if (coords.size() == 1)
    return SmallVector<Value>(coords);
  auto cst = [&](int64_t v) { return constIndex(b, loc, v); };
  Value row = coords[0];
  for (size_t d = 1; d + 1 < coords.size(); ++d)
    row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, cst(shape[d])), coords[d]);
  Value line = row;
  if (int64_t rowsPerLine = 128 / swizzle; rowsPerLine > 1)
    line = arith::DivUIOp::create(b, loc, row, cst(rowsPerLine));
  Value phase = arith::RemUIOp::create(b, loc, line, cst(swizzle / 16));
  int64_t perUnit = 16 / elementBytes;
  Value col = coords.back();
  Value unit = arith::DivUIOp::create(b, loc, col, cst(perUnit));
  Value moved = arith::XOrIOp::create(b, loc, unit, phase);
  SmallVector<Value> result(coords);
  result.back() = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, moved, cst(perUnit)),
      arith::RemUIOp::create(b, loc, col, cst(perUnit)));
  return result;
}

namespace {
// One side of a copy after conversion: how to read or write run r.
struct CopySide {
  MemorySpace space;
  Value value;           // converted operand (fragment storage or memref)
  ValueRange offsets;    // global side only
  Value aligned;         // global side only
  int64_t vector = 1;

  Value read(OpBuilder &b, Location loc, ArrayRef<Value> coords,
             int64_t r) const {
    auto type = cast<MemRefType>(value.getType());
    auto vecType = VectorType::get({vector}, type.getElementType());
    int64_t bytes = vector * type.getElementTypeBitWidth() / 8;
    switch (space) {
    case MemorySpace::Global:
      return loadGlobalRun(b, loc, value, addIndices(b, loc, offsets, coords),
                           vector, aligned);
    case MemorySpace::Shared:
      return vector::LoadOp::create(b, loc, vecType, value, coords, false,
                                    llvm::MaybeAlign(bytes));
    default:
      return vector::LoadOp::create(b, loc, vecType, value,
                                    ValueRange{constIndex(b, loc, r * vector)});
    }
  }

  void write(OpBuilder &b, Location loc, Value run, ArrayRef<Value> coords,
             int64_t r) const {
    auto type = cast<MemRefType>(value.getType());
    int64_t bytes = vector * type.getElementTypeBitWidth() / 8;
    switch (space) {
    case MemorySpace::Global:
      GlobalRunAccess(b, loc, value, addIndices(b, loc, offsets, coords),
                      vector, aligned)
          .store(b, loc, run, SmallVector<int64_t>(coords.size(), 0));
      return;
    case MemorySpace::Shared:
      vector::StoreOp::create(b, loc, run, value, coords, false,
                              llvm::MaybeAlign(bytes));
      return;
    default:
      vector::StoreOp::create(b, loc, run, value,
                              ValueRange{constIndex(b, loc, r * vector)});
      return;
    }
  }
};

struct CopyLowering : ChipPattern<CopyOp> {
  using ChipPattern::ChipPattern;

  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type srcType = op.getSource().getType(), dstType = op.getDest().getType();
    MemorySpace src = getMemorySpace(srcType), dst = getMemorySpace(dstType);
    if (op.getMulticast() && !op.getBarrier())
      return op.emitOpError("with {multicast} must complete on a barrier "
                            "(a warp_specialized tile.pipelined_for gives it "
                            "one)");
    if (op.getBarrier() || op.getTma()) {
      if (!chip.hasTma)
        return op.emitOpError(op.getBarrier()
                                  ? "completes on a barrier, which needs TMA "
                                  : "asks for a TMA store, which needs TMA ")
               << "(sm_90 or later); " << chip.name << " has none";
      return lowerToTma(op, adaptor, rewriter);
    }
    if (cast<ShapedType>(srcType).getElementTypeBitWidth() % 8 != 0)
      return op.emitOpError("copies of sub-byte elements are not lowered yet");
    if (src == MemorySpace::Tmem || dst == MemorySpace::Tmem)
      return op.emitOpError("copies to or from tensor memory are not lowered "
                            "yet (they need sm_100a's tcgen05.ld/st/cp)");

    // The fragment side's layout decides the distribution; otherwise split
    // the shared tile over the kernel's threads.
    FailureOr<Distribution> dist = failure();
    if (src == MemorySpace::Fragment)
      dist = Distribution::forFragment(srcType);
    else if (dst == MemorySpace::Fragment)
      dist = Distribution::forFragment(dstType);
    else {
      int64_t threads = getKernelThreads(op);
      if (threads < 1)
        return op.emitOpError("is not inside a kernel with a thread count");
      dist = Distribution::forMemRef(
          cast<ShapedType>(src == MemorySpace::Shared ? srcType : dstType),
          threads);
    }
    if (failed(dist))
      return op.emitOpError("fragment operand has no layout; run "
                            "tile-assign-layouts first");

    // A slice of a #tile.wgmma fragment: whole rows, 8-column groups, so
    // that whether run r is in it does not depend on the thread.
    ArrayRef<int64_t> dstShape = cast<ShapedType>(dstType).getShape();
    SmallVector<int64_t> slice;
    for (Value offset : op.getSourceOffsets())
      if (src == MemorySpace::Fragment)
        slice.push_back(getConstantIntValue(offset).value_or(-1));
    if (!slice.empty()) {
      ArrayRef<int64_t> srcShape = cast<ShapedType>(srcType).getShape();
      if (dist->kind != Distribution::Kind::Wgmma)
        return op.emitOpError("copies a slice of a fragment, which is "
                              "lowered for #tile.wgmma layouts only");
      if (slice.size() != 2 || slice[0] != 0 || dstShape[0] != srcShape[0] ||
          slice[1] % 8 != 0 || dstShape[1] % 8 != 0)
        return op.emitOpError("copies a slice of a #tile.wgmma fragment that "
                              "is not whole rows and groups of 8 columns");
    }
    // Fragment -> shared: the destination's swizzle, recorded before shared
    // memory was lowered (null when 0).
    IntegerAttr destSwizzle;
    if (src == MemorySpace::Fragment && dst == MemorySpace::Shared) {
      destSwizzle = op->getAttrOfType<IntegerAttr>(kSwizzleDestAttrName);
      if (!destSwizzle)
        return op.emitOpError("has no recorded destination swizzle: lower it "
                              "before convert-tile-memory-to-gpu, through the "
                              "tile-to-GPU passes");
      if (destSwizzle.getInt() == 0)
        destSwizzle = {};
    }
    int64_t elementBits = cast<ShapedType>(dstType).getElementTypeBitWidth();
    if (destSwizzle && dstShape.back() * elementBits / 8 != destSwizzle.getInt())
      return op.emitOpError("writes a ")
             << destSwizzle.getInt()
             << "-byte swizzled shared tile whose rows are not that wide, "
                "which is not lowered yet";
    // A swizzle moves 16-byte units: a run must sit in one.
    if (destSwizzle && dist->vector * elementBits / 8 > 16)
      return op.emitOpError("writes runs of ")
             << dist->vector * elementBits / 8
             << " bytes into a swizzled shared tile; at most 16 are lowered";

    for (auto [type, space] : {std::pair{srcType, src}, {dstType, dst}}) {
      auto memref = dyn_cast<MemRefType>(type);
      if (space == MemorySpace::Global &&
          !memref.getLayout().isIdentity())
        return op.emitOpError("expects global memrefs with the identity "
                              "layout; strided views are not lowered yet");
      // Vector and cp.async accesses assume runs start 16-byte aligned in
      // a contiguous row-major tile (slot views of a ring are).
      if (space == MemorySpace::Shared && !isContiguousRowMajor(memref))
        return op.emitOpError("expects shared tiles laid out contiguously "
                              "row-major; other views are not lowered yet");
    }

    CopySide from{src, adaptor.getSource(), adaptor.getSourceOffsets(), {},
                  dist->vector};
    CopySide to{dst, adaptor.getDest(), adaptor.getDestOffsets(), {},
                dist->vector};
    for (CopySide *side : {&from, &to})
      if (side->space == MemorySpace::Global)
        side->aligned = runsAreAligned(rewriter, loc, side->value,
                                       side->offsets.back(), dist->vector);

    bool writesShared = dst == MemorySpace::Shared;
    // In a cp.async pipeline the loop commits, waits and synchronises.
    bool inGroup = op->hasAttr(kCpAsyncGroupAttrName);
    if (inGroup && !(src == MemorySpace::Global && writesShared &&
                     chip.hasCpAsync))
      return op.emitOpError("is marked for a cp.async pipeline but is not a "
                            "global-to-shared copy on a chip with cp.async");
    // Earlier readers of the shared tile must be done before it changes.
    if (writesShared && !inGroup)
      ctaBarrier(rewriter, loc);
    Value tid = threadId(rewriter, loc);
    // Runs `keep` refuses (a slice's others) are not even addressed.
    auto forEachRun = [&](OpBuilder &b, Location l,
                          function_ref<void(OpBuilder &, Location,
                                            ArrayRef<Value>, int64_t)> fn,
                          function_ref<bool(int64_t)> keep = nullptr) {
      for (int64_t r = 0; r < dist->runsPerThread(); ++r) {
        if (keep && !keep(r))
          continue;
        if (dist->isEven()) {
          fn(b, l, dist->runCoordinates(b, l, tid, r), r);
          continue;
        }
        scf::IfOp::create(b, l, dist->runExists(b, l, tid, r),
                          [&](OpBuilder &ib, Location il) {
                            fn(ib, il, dist->runCoordinates(ib, il, tid, r), r);
                            scf::YieldOp::create(ib, il);
                          });
      }
    };
    auto throughRegisters = [&](OpBuilder &b, Location l) {
      if (to.space == MemorySpace::Global && dist->isEven() &&
          dist->runOffset(0)) {
        // Runs at constant offsets from run 0 share one writer.
        GlobalRunAccess writer(
            b, l, to.value,
            addIndices(b, l, to.offsets, dist->runCoordinates(b, l, tid, 0)),
            dist->vector, to.aligned);
        for (int64_t r = 0; r < dist->runsPerThread(); ++r) {
          SmallVector<Value> coords;
          if (from.space != MemorySpace::Fragment)
            coords = dist->runCoordinates(b, l, tid, r);
          writer.store(b, l, from.read(b, l, coords, r), *dist->runOffset(r));
        }
        return;
      }
      forEachRun(b, l,
                 [&](OpBuilder &rb, Location rl, ArrayRef<Value> coords,
                     int64_t r) {
                   to.write(rb, rl, from.read(rb, rl, coords, r), coords, r);
                 });
    };
    int64_t runBytes = dist->vector *
                       cast<ShapedType>(srcType).getElementTypeBitWidth() / 8;
    if (src == MemorySpace::Global && dst == MemorySpace::Shared &&
        chip.hasCpAsync && runBytes == 16) {
      // cp.async moves aligned 16-byte runs without registers; its source
      // size zero-fills the part of a run past the edge. Unaligned rows take
      // the register path.
      scf::IfOp::create(
          rewriter, loc, from.aligned,
          [&](OpBuilder &b, Location l) {
            forEachRun(b, l, [&](OpBuilder &rb, Location rl,
                                 ArrayRef<Value> coords, int64_t) {
              SmallVector<Value> global =
                  addIndices(rb, rl, from.offsets, coords);
              RunBounds bounds =
                  computeRunBounds(rb, rl, from.value, global, dist->vector);
              // A run with nothing in bounds reads from element 0 instead.
              Value any = arith::CmpIOp::create(
                  rb, rl, arith::CmpIPredicate::ne, bounds.count,
                  constIndex(rb, rl, 0));
              for (Value &index : global)
                index = arith::SelectOp::create(rb, rl, any, index,
                                                constIndex(rb, rl, 0));
              Value srcBytes = arith::IndexCastUIOp::create(
                  rb, rl, rb.getI32Type(),
                  arith::MulIOp::create(
                      rb, rl, bounds.count,
                      constIndex(rb, rl, runBytes / dist->vector)));
              NVVM::CpAsyncOp::create(
                  rb, rl, elementPointer(rb, rl, to.value, coords, 3),
                  elementPointer(rb, rl, from.value, global, 1),
                  rb.getI32IntegerAttr(16),
                  NVVM::LoadCacheModifierKindAttr::get(
                      rb.getContext(), NVVM::LoadCacheModifierKind::CG),
                  srcBytes);
            });
            if (!inGroup) {
              NVVM::CpAsyncCommitGroupOp::create(b, l);
              NVVM::CpAsyncWaitGroupOp::create(b, l, b.getI32IntegerAttr(0));
            }
            scf::YieldOp::create(b, l);
          },
          [&](OpBuilder &b, Location l) {
            throughRegisters(b, l);
            scf::YieldOp::create(b, l);
          });
    } else if (!slice.empty() || destSwizzle) {
      // Into a swizzled tile, or from a slice: run by run, each at its
      // (swizzled) place; runs outside the slice are skipped.
      int64_t elementBytes =
          cast<ShapedType>(srcType).getElementTypeBitWidth() / 8;
      auto inSlice = [&](int64_t r) {
        int64_t column = (*dist->runOffset(r))[1];
        return column >= slice[1] && column < slice[1] + dstShape[1];
      };
      forEachRun(
          rewriter, loc,
          [&](OpBuilder &b, Location l, ArrayRef<Value> coords, int64_t r) {
            SmallVector<Value> at(coords);
            if (!slice.empty())
              at[1] = arith::SubIOp::create(b, l, at[1],
                                            constIndex(b, l, slice[1]));
            if (destSwizzle)
              at = swizzledCoordinates(b, l, at, dstShape, elementBytes,
                                       destSwizzle.getInt());
            to.write(b, l, from.read(b, l, coords, r), at, r);
          },
          slice.empty() ? function_ref<bool(int64_t)>() : inSlice);
    } else {
      throughRegisters(rewriter, loc);
    }
    // The copy is complete for the whole CTA when the op returns.
    if (writesShared && !inGroup)
      publishSharedWrites(rewriter, loc, chip);
    rewriter.eraseOp(op);
    return success();
  }

  // Thread 0 raises the barrier's expected bytes (one arrival) and issues
  // the bulk tensor copy that completes on it.
  LogicalResult lowerToTma(CopyOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    auto param = op->getAttrOfType<IntegerAttr>(kTmaParamAttr);
    auto swizzle = op->getAttrOfType<IntegerAttr>(kTmaSwizzleAttr);
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    if (!param || !swizzle || !func)
      return op.emitOpError("has no tensor-map parameter; run the copy "
                            "lowering on outlined kernels");
    MLIRContext *context = getContext();
    bool isStore = op.getTma();
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
    default:
      kind = nvgpu::TensorMapSwizzleKind::SWIZZLE_128B;
      break;
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
    auto descType = nvgpu::TensorMapDescriptorType::get(
        context, boxType, kind, nvgpu::TensorMapL2PromoKind::L2PROMO_128B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
    Value desc = UnrealizedConversionCastOp::create(
                     rewriter, loc, descType,
                     func.getArgument(param.getInt()))
                     .getResult(0);
    Value leader = isThreadZero(rewriter, loc);
    if (isStore) {
      // Every thread's writes to the tile reach the async proxy first.
      publishSharedWrites(rewriter, loc, chip);
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
      if (isStore)
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
    if (!chip.hasTma)
      return op.emitOpError("waits for TMA stores, which need TMA (sm_90 or "
                            "later); ")
             << chip.name << " has none";
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

void mlir::tile::populateTileCopyToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<CopyLowering, WaitTmaStoresLowering>(
      converter, patterns.getContext(), chip);
}
