//===- ElementwiseToGPU.cpp - tile.elementwise and tile.fill --------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/IR/IRMapping.h"
#include "tile/Target/Chip.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// Fragments carry their distribution; shared tiles take the blocked split for
// the kernel's threads, unless a fragment operand already fixed one.
// Operands of another shape (broadcast inputs) do not take part.
static FailureOr<Distribution> chooseDistribution(Operation *op,
                                                  ValueRange tiles) {
  std::optional<Distribution> chosen;
  ArrayRef<int64_t> shape = cast<ShapedType>(tiles.back().getType()).getShape();
  for (Value tile : tiles) {
    if (getMemorySpace(tile.getType()) != MemorySpace::Fragment ||
        cast<ShapedType>(tile.getType()).getShape() != shape)
      continue;
    FailureOr<Distribution> dist = Distribution::forFragment(tile.getType());
    if (failed(dist))
      return op->emitOpError("fragment operand has no layout; run "
                             "tile-assign-layouts first");
    // Layouts that hold the tile alike put each element in the same slot:
    // one distribution reads them all.
    if (chosen && !layoutsHoldAlike(chosen->layout, dist->layout, shape))
      return op->emitOpError("mixes fragments whose layouts ")
             << chosen->layout << " and " << dist->layout
             << " place the elements of "
             << tile::detail::formatShape(shape)
             << " differently; give them one layout (leave it to "
                "tile-assign-layouts)";
    if (!chosen)
      chosen = *dist;
  }
  if (chosen)
    return *chosen;
  int64_t threads = getThreadsRunning(op);
  if (threads < 1)
    return op->emitOpError("is not inside a kernel with a thread count");
  return Distribution::forMemRef(cast<ShapedType>(tiles.back().getType()),
                                 threads);
}

// Where a broadcast input's element for run r, element v of `dist` sits in
// its registers: its layout must be `dist`'s layout sliced along its
// extent-1 dimensions (what tile-assign-layouts gives it); run r of the
// distribution is in the run each slice maps it to, which holds one element
// when the innermost dimension is sliced.
namespace {
struct BroadcastAccess {
  int64_t width = 0;
  SmallVector<int64_t> runOf; // per run of the distribution
  int64_t slot(int64_t r, int64_t v) const {
    return runOf[r] * width + (width > 1 ? v : 0);
  }
};
} // namespace

static FailureOr<BroadcastAccess>
broadcastAccess(Operation *op, Value input, const Distribution &dist) {
  auto type = cast<FragmentType>(input.getType());
  Attribute layout = type.getLayout();
  // A layout that holds the input as the outputs' slice would (the row
  // sums of a wider tile of the same layout) is read as that slice.
  Attribute expected = dist.layout;
  for (auto [dim, extent] : llvm::enumerate(dist.shape))
    if (type.getDimSize(dim) == 1 && extent != 1)
      expected = SliceLayoutAttr::get(op->getContext(), dim, extent, expected);
  if (layout != expected &&
      layoutsHoldAlike(dyn_cast_or_null<FragmentLayoutAttrInterface>(layout),
                       cast<FragmentLayoutAttrInterface>(expected),
                       type.getShape()))
    layout = expected;
  Attribute readAs = layout; // checked below to be a slice chain
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<std::pair<SliceLayoutAttr, SmallVector<int64_t>>> chain;
  while (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout)) {
    chain.push_back({slice, shape});
    shape = slice.getParentShape(shape);
    layout = slice.getParent();
  }
  if (layout != dist.layout || shape != dist.shape)
    return op->emitOpError("broadcasts ")
           << type << ", whose layout is not a slice of the outputs' layout "
           << dist.layout << " (leave broadcast inputs' layouts to "
           << "tile-assign-layouts)";
  BroadcastAccess access;
  access.width = cast<FragmentLayoutAttrInterface>(readAs).getRunWidth(
      type.getShape());
  // From the distribution's runs through each slice, innermost first.
  for (int64_t r = 0; r < dist.runsPerThread(); ++r)
    access.runOf.push_back(r);
  for (auto &[slice, sliceShape] : llvm::reverse(chain)) {
    SmallVector<int64_t> runs = slice.getSliceRuns(sliceShape);
    for (int64_t &run : access.runOf)
      run = runs[run];
  }
  return access;
}

// Index of element v of run r: fragment slot, or shared-tile coordinates.
static SmallVector<Value> elementIndex(OpBuilder &b, Location loc,
                                       MemorySpace space,
                                       ArrayRef<Value> coords, int64_t r,
                                       int64_t v, int64_t vector) {
  if (space == MemorySpace::Fragment)
    return {constIndex(b, loc, r * vector + v)};
  SmallVector<Value> index(coords);
  if (v != 0)
    index.back() =
        arith::AddIOp::create(b, loc, index.back(), constIndex(b, loc, v));
  return index;
}

// Runs `body(b, loc, coords, r)` for each run of the calling thread, guarded
// where the distribution is uneven, between CTA barriers if shared memory is
// written.
static void forEachRun(ConversionPatternRewriter &rewriter, Location loc,
                       const Distribution &dist, bool writesShared,
                       const ChipInfo &chip,
                       function_ref<void(OpBuilder &, Location,
                                         ArrayRef<Value>, int64_t)>
                           body) {
  if (writesShared)
    ctaBarrier(rewriter, loc);
  Value tid = threadId(rewriter, loc);
  for (int64_t r = 0; r < dist.runsPerThread(); ++r) {
    auto emit = [&](OpBuilder &b, Location l) {
      body(b, l, dist.runCoordinates(b, l, tid, r), r);
    };
    if (dist.isEven()) {
      emit(rewriter, loc);
      continue;
    }
    scf::IfOp::create(rewriter, loc, dist.runExists(rewriter, loc, tid, r),
                      [&](OpBuilder &b, Location l) {
                        emit(b, l);
                        scf::YieldOp::create(b, l);
                      });
  }
  if (writesShared)
    publishSharedWrites(rewriter, loc, chip);
}

static bool anyShared(ValueRange values) {
  return llvm::any_of(values, [](Value v) {
    return getMemorySpace(v.getType()) == MemorySpace::Shared;
  });
}

namespace {
struct ElementwiseLowering : ChipPattern<ElementwiseOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(ElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Distribution> dist =
        chooseDistribution(op, op->getOperands());
    if (failed(dist))
      return failure();
    // Per input: none when it has the outputs' shape.
    SmallVector<std::optional<BroadcastAccess>> broadcasts;
    for (Value input : op.getInputs()) {
      if (cast<ShapedType>(input.getType()).getShape() ==
          ArrayRef<int64_t>(dist->shape)) {
        broadcasts.push_back(std::nullopt);
        continue;
      }
      FailureOr<BroadcastAccess> access = broadcastAccess(op, input, *dist);
      if (failed(access))
        return failure();
      broadcasts.push_back(*access);
    }
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    size_t numInputs = op.getInputs().size();
    forEachRun(
        rewriter, op.getLoc(), *dist, anyShared(op.getOutputs()), chip,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> coords, int64_t r) {
          for (int64_t v = 0; v < dist->vector; ++v) {
            IRMapping mapping;
            for (auto [i, orig, conv] :
                 llvm::enumerate(op.getInputs(), adaptor.getInputs())) {
              SmallVector<Value> index;
              if (broadcasts[i])
                index = {constIndex(b, loc, broadcasts[i]->slot(r, v))};
              else
                index = elementIndex(b, loc, getMemorySpace(orig.getType()),
                                     coords, r, v, dist->vector);
              mapping.map(body.getArgument(i),
                          memref::LoadOp::create(b, loc, conv, index));
            }
            // Coordinate arguments: the element's, as a shared tile's
            // index (the run's, plus v along the innermost).
            if (body.getNumArguments() > numInputs) {
              SmallVector<Value> at = elementIndex(
                  b, loc, MemorySpace::Shared, coords, r, v, dist->vector);
              for (size_t d = 0; numInputs + d < body.getNumArguments(); ++d)
                mapping.map(body.getArgument(numInputs + d), at[d]);
            }
            for (Operation &inner : body.without_terminator())
              b.clone(inner, mapping);
            for (auto [value, orig, conv] :
                 llvm::zip_equal(yield.getValues(), op.getOutputs(),
                                 adaptor.getOutputs()))
              memref::StoreOp::create(
                  b, loc, mapping.lookupOrDefault(value), conv,
                  elementIndex(b, loc, getMemorySpace(orig.getType()), coords,
                               r, v, dist->vector));
          }
        });
    rewriter.eraseOp(op);
    return success();
  }
};

struct FillLowering : ChipPattern<FillOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Distribution> dist =
        chooseDistribution(op, ValueRange{op.getDest()});
    if (failed(dist))
      return failure();
    MemorySpace space = getMemorySpace(op.getDest().getType());
    auto vecType = VectorType::get({dist->vector}, op.getValue().getType());
    Value splat = vector::BroadcastOp::create(rewriter, op.getLoc(), vecType,
                                              adaptor.getValue());
    forEachRun(rewriter, op.getLoc(), *dist, space == MemorySpace::Shared, chip,
               [&](OpBuilder &b, Location loc, ArrayRef<Value> coords,
                   int64_t r) {
                 vector::StoreOp::create(
                     b, loc, splat, adaptor.getDest(),
                     elementIndex(b, loc, space, coords, r, 0, dist->vector));
               });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateTileElementwiseToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<ElementwiseLowering, FillLowering>(
      converter, patterns.getContext(), chip);
}
