//===- ReduceToGPU.cpp - tile.reduce: registers, shuffles, shared scratch -===//
//
// A reduction along dimension d of a fragment happens at three levels, each
// read off the source's layout through FragmentLayoutAttrInterface:
//   1. in each thread: its runs whose offsets from run 0 differ only along d
//      (and, when d is innermost, the elements of each run) are combined;
//   2. across lanes: every bit of the lane index whose flip moves a thread
//      only along d is a butterfly shuffle (shfl.sync.bfly);
//   3. across warps, when bits of the warp index move along d too: one lane
//      per warp writes its partial to shared scratch (placed by the shared
//      memory allocator, reduceScratchBytes), and after a CTA barrier every
//      thread combines the partials of its row in warp order.
// Combination is in a fixed order, so every holder gets the same value.
// Floats of at most 32 bits combine in f32 and integers in i32 (shuffles
// move 32-bit words); the result is truncated to the destination type.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "SharedMemoryAllocation.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
/// What the source's layout says about a reduction along `dim`.
struct ReducePlan {
  Distribution source;
  int64_t dim = 0;
  /// Elements per destination run: 1 when `dim` is innermost.
  int64_t outWidth = 1;
  /// Per destination run, the runs of the source that fold into it.
  SmallVector<SmallVector<int64_t>> groups;
  /// Thread-index bits whose flip moves only along `dim` (lanes: 0..4,
  /// warps: 5..), and those whose flip changes nothing (copies).
  SmallVector<int64_t> laneBits, warpBits;
  /// The source's layout sliced along `dim`: where each thread's results
  /// sit (dest's layout holds them alike).
  SliceLayoutAttr slice;
  int64_t copyLaneMask = 0;
  /// Destination elements (the scratch holds one per warp).
  int64_t outputs = 1;
  int64_t warps() const { return llvm::divideCeil(source.threads, 32); }
};
} // namespace

static FailureOr<ReducePlan> planReduce(ReduceOp op) {
  auto type = cast<FragmentType>(op.getSource().getType());
  FailureOr<Distribution> dist = Distribution::forFragment(type);
  if (failed(dist))
    return op.emitOpError("source has no layout; run tile-assign-layouts "
                          "first");
  ReducePlan plan{*dist, static_cast<int64_t>(op.getDim())};
  auto sourceLayout = dist->layout;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t dim = op.getDim(), rank = shape.size();
  auto dest = cast<FragmentType>(op.getDest().getType());
  if (!dest.getLayout())
    return op.emitOpError("destination has no layout; run "
                          "tile-assign-layouts first");
  // The verifier has checked that dest's layout holds its elements as the
  // source's slice does; the slice is what the plan is read from.
  plan.slice = op.getSourceSlice();
  if (!dist->isEven()) {
    // The narrowest wider tile that tile-assign-layouts spreads evenly
    // (runs of one element at least).
    int64_t outer = type.getNumElements() / shape.back(), wider = shape.back();
    while ((outer * wider) % dist->threads != 0)
      ++wider;
    SmallVector<int64_t> instead(shape);
    instead.back() = wider;
    return op.emitOpError("reduces a ")
           << tile::detail::formatShape(shape) << " fragment whose runs of "
           << dist->vector << " do not spread evenly over " << dist->threads
           << " threads (some hold fewer); reduce a tile whose element count "
              "is a multiple of the thread count ("
           << tile::detail::formatShape(instead)
           << " is), or run the kernel with fewer threads";
  }
  if (dist->threads % 32 != 0)
    return op.emitOpError("reduces over ")
           << dist->threads << " threads; reductions need whole warps";
  plan.outWidth = dim + 1 == rank ? 1 : dist->vector;
  plan.outputs = dest.getNumElements();

  // Level 1: runs whose offsets differ only along dim share a destination
  // run (the slice layout's grouping); offsets must not depend on the
  // thread, or runs of one row could not be found at compile time.
  for (int64_t r = 0; r < dist->runsPerThread(); ++r)
    if (!dist->runOffset(r))
      return op.emitOpError("reduces a fragment whose layout ")
             << sourceLayout << " does not place runs at fixed offsets on "
             << type << "; choose a tile whose rows are whole multiples of "
             << "the threads' step, or divide it";
  plan.groups.resize(plan.slice.getRunsPerThread(dest.getShape()));
  for (auto [r, run] :
       llvm::enumerate(plan.slice.getSliceRuns(dest.getShape())))
    plan.groups[run].push_back(r);

  // Levels 2 and 3: classify each bit of the thread index.
  int64_t threads = dist->threads;
  for (int64_t bit = 0; (int64_t(1) << bit) < threads; ++bit) {
    bool alongDim = true, acrossDim = true, nothing = true, partial = false;
    for (int64_t tid = 0; tid < threads; ++tid) {
      int64_t other = tid ^ (int64_t(1) << bit);
      if (other >= threads) {
        partial = true;
        continue;
      }
      // Run offsets are the same for every thread (checked above), so two
      // threads' runs differ as their runs 0 do.
      SmallVector<int64_t> a = sourceLayout.getRunCoordinates(shape, tid, 0);
      SmallVector<int64_t> b = sourceLayout.getRunCoordinates(shape, other, 0);
      for (int64_t d = 0; d < rank; ++d) {
        if (a[d] == b[d])
          continue;
        nothing = false;
        (d == dim ? acrossDim : alongDim) = false;
      }
    }
    if (partial && !acrossDim)
      return op.emitOpError("reduces along dim ")
             << dim << " of " << type << " over " << threads
             << " threads, whose rows span a number of warps that is not a "
                "power of two; use a power-of-two thread count or a tile "
                "whose rows a warp holds";
    if (partial)
      alongDim = nothing = false;
    if (nothing) {
      if (bit < 5)
        plan.copyLaneMask |= int64_t(1) << bit;
      continue;
    }
    if (alongDim)
      (bit < 5 ? plan.laneBits : plan.warpBits).push_back(bit);
    else if (!acrossDim)
      return op.emitOpError("reduces along dim ")
             << dim << " of " << type
             << ", whose layout mixes that dimension with others in thread "
                "index bit "
             << bit << "; reduce a tile with another shape or layout";
  }
  if (!plan.warpBits.empty() && op->getParentOfType<WarpSpecializeOp>())
    return op.emitOpError("reduces across warps inside a "
                          "tile.warp_specialize, whose teams cannot use the "
                          "CTA barrier; choose a tile whose rows a warp holds");
  return plan;
}

/// f32 for floats, i32 for integers: the width shuffles move.
static FailureOr<Type> accumulatorType(ReduceOp op) {
  Type element = cast<FragmentType>(op.getDest().getType()).getElementType();
  if (element.getIntOrFloatBitWidth() > 32)
    return op.emitOpError("reduces ")
           << element << ", wider than the 32 bits lowered so far";
  Builder b(op.getContext());
  return isa<FloatType>(element) ? Type(b.getF32Type()) : Type(b.getI32Type());
}

FailureOr<int64_t> mlir::tile::reduceScratchBytes(ReduceOp op) {
  FailureOr<ReducePlan> plan = planReduce(op);
  if (failed(plan))
    return failure();
  if (plan->warpBits.empty())
    return 0;
  return plan->warps() * plan->outputs * 4;
}

static Value extend(OpBuilder &b, Location loc, Value v, Type acc) {
  if (v.getType() == acc)
    return v;
  if (isa<FloatType>(acc))
    return arith::ExtFOp::create(b, loc, acc, v);
  return arith::ExtSIOp::create(b, loc, acc, v);
}

static Value truncate(OpBuilder &b, Location loc, Value v, Type to) {
  if (v.getType() == to)
    return v;
  if (isa<FloatType>(to))
    return arith::TruncFOp::create(b, loc, to, v);
  return arith::TruncIOp::create(b, loc, to, v);
}

static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                     Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, x, y))
                   : Value(arith::AddIOp::create(b, loc, x, y));
  case ReduceKind::max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, x, y))
                   : Value(arith::MaxSIOp::create(b, loc, x, y));
  case ReduceKind::min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, x, y))
                   : Value(arith::MinSIOp::create(b, loc, x, y));
  }
  llvm_unreachable("reduce kind");
}

namespace {
using GroupValues = SmallVector<SmallVector<Value>>;
} // namespace

// Level 1: in each thread, the values of each group of runs:
// values[g][j] for group g, destination element j of its run.
static GroupValues reduceInThreads(OpBuilder &b, Location loc,
                                   const ReducePlan &plan, ReduceKind kind,
                                   Type acc, Value source) {
  const Distribution &src = plan.source;
  bool innermost = plan.dim + 1 == int64_t(src.shape.size());
  SmallVector<SmallVector<Value>> values;
  for (ArrayRef<int64_t> group : plan.groups) {
    SmallVector<Value> row;
    for (int64_t j = 0; j < plan.outWidth; ++j) {
      Value value;
      for (int64_t r : group)
        for (int64_t v = innermost ? 0 : j;
             v < (innermost ? src.vector : j + 1); ++v) {
          Value element = extend(
              b, loc,
              memref::LoadOp::create(
                  b, loc, source,
                  ValueRange{constIndex(b, loc, r * src.vector + v)}),
              acc);
          value = value ? combine(b, loc, kind, value, element) : element;
        }
      row.push_back(value);
    }
    values.push_back(row);
  }
  return values;
}

// Level 2: butterfly shuffles over the lanes along the reduced dimension.
static void reduceAcrossLanes(OpBuilder &b, Location loc,
                              const ReducePlan &plan, ReduceKind kind,
                              GroupValues &values) {
  for (int64_t bit : plan.laneBits)
    for (SmallVector<Value> &row : values)
      for (Value &value : row) {
        Value other = gpu::ShuffleOp::create(
                          b, loc, value, int32_t(1) << bit, 32,
                          gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        value = combine(b, loc, kind, value, other);
      }
}

// Level 3: across warps through shared scratch: the lanes that hold a
// warp's partial result write it, and every thread combines its warps'.
static LogicalResult reduceAcrossWarps(OpBuilder &b, Location loc, ReduceOp op,
                                       const ReducePlan &plan, Type acc,
                                       GroupValues &values) {
  ReduceKind kind = op.getKind();
  auto scratchType = MemRefType::get(
      {plan.warps(), plan.outputs}, acc, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(op.getContext(),
                                 gpu::AddressSpace::Workgroup));
  Value scratch = createScratchView(b, loc, op, scratchType);
  if (!scratch)
    return op.emitOpError("has no shared scratch placed for its cross-warp "
                          "step: run tile-assign-shared-offsets on the "
                          "outlined kernel first");
  Value tid = threadId(b, loc);
  auto cst = [&](int64_t v) { return constIndex(b, loc, v); };
  Value warp = arith::DivUIOp::create(b, loc, tid, cst(32));
  // Destination elements by linear index in the destination's shape.
  auto dest = cast<FragmentType>(op.getDest().getType());
  auto linearIndex = [&](OpBuilder &at, int64_t g, int64_t j) {
    SmallVector<Value> coords = plan.slice.buildRunCoordinates(
        at, loc, dest.getShape(), tid, g);
    Value linear = constIndex(at, loc, 0);
    for (auto [d, c] : llvm::enumerate(coords)) {
      if (d + 1 == coords.size() && j)
        c = arith::AddIOp::create(at, loc, c, constIndex(at, loc, j));
      linear = arith::AddIOp::create(
          at, loc,
          arith::MulIOp::create(at, loc, linear,
                                constIndex(at, loc, dest.getShape()[d])),
          c);
    }
    return linear;
  };
  int64_t writerMask = plan.copyLaneMask;
  for (int64_t bit : plan.laneBits)
    writerMask |= int64_t(1) << bit;
  // Protects the scratch from the previous execution's readers.
  ctaBarrier(b, loc);
  Value writer = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, tid, cst(writerMask)), cst(0));
  buildIf(b, loc, writer, [&](OpBuilder &then) {
    for (auto [g, row] : llvm::enumerate(values))
      for (auto [j, value] : llvm::enumerate(row))
        memref::StoreOp::create(then, loc, value, scratch,
                                ValueRange{warp, linearIndex(then, g, j)});
  });
  ctaBarrier(b, loc);
  int64_t warpMask = 0;
  for (int64_t bit : plan.warpBits)
    warpMask |= int64_t(1) << (bit - 5);
  Value baseWarp = arith::AndIOp::create(b, loc, warp, cst(~warpMask));
  int64_t combos = int64_t(1) << plan.warpBits.size();
  for (auto [g, row] : llvm::enumerate(values))
    for (auto [j, value] : llvm::enumerate(row)) {
      Value linear = linearIndex(b, g, j);
      Value total;
      for (int64_t c = 0; c < combos; ++c) {
        int64_t deposit = 0;
        for (auto [k, bit] : llvm::enumerate(plan.warpBits))
          if (c & (int64_t(1) << k))
            deposit |= int64_t(1) << (bit - 5);
        Value from = arith::OrIOp::create(b, loc, baseWarp, cst(deposit));
        Value partial = memref::LoadOp::create(b, loc, scratch,
                                               ValueRange{from, linear});
        total = total ? combine(b, loc, kind, total, partial) : partial;
      }
      value = total;
    }
  return success();
}

namespace {
struct ReduceLowering : ChipPattern<ReduceOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ReducePlan> plan = planReduce(op);
    FailureOr<Type> acc = accumulatorType(op);
    if (failed(plan) || failed(acc))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    ReduceKind kind = op.getKind();
    Type destElement =
        cast<FragmentType>(op.getDest().getType()).getElementType();
    GroupValues values =
        reduceInThreads(b, loc, *plan, kind, *acc, adaptor.getSource());
    reduceAcrossLanes(b, loc, *plan, kind, values);
    if (!plan->warpBits.empty() &&
        failed(reduceAcrossWarps(b, loc, op, *plan, *acc, values)))
      return failure();
    for (auto [g, row] : llvm::enumerate(values))
      for (auto [j, value] : llvm::enumerate(row))
        memref::StoreOp::create(
            b, loc, truncate(b, loc, value, destElement), adaptor.getDest(),
            ValueRange{constIndex(b, loc, g * plan->outWidth + j)});
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateTileReduceToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<ReduceLowering>(converter, patterns.getContext(), chip);
}
