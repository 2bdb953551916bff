//===- RegisterCopy.cpp - runs moved by the CTA's threads -----------------===//

#include "RegisterCopy.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static bool hasUnitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         (strides.empty() || strides.back() == 1);
}

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

// Whether `view` is one whole slot of a row-major shared allocation of
// slots (a ring's, or a ping-pong team's tile) that are isSlotSized: its
// first element then sits where the swizzle pattern starts over, as the
// allocation's does.
static bool isAlignedSlot(Value view) {
  auto slot = view.getDefiningOp<memref::SubViewOp>();
  if (!slot || !slot.getSource().getDefiningOp<AllocSharedOp>())
    return false;
  auto whole = cast<MemRefType>(slot.getSource().getType());
  auto type = cast<MemRefType>(view.getType());
  if (!whole.getLayout().isIdentity() || !whole.hasStaticShape() ||
      whole.getRank() != type.getRank() + 1 || !type.hasStaticShape() ||
      whole.getShape().drop_front() != type.getShape() ||
      !slot.hasUnitStride())
    return false;
  // Sizes [1, the rest whole]: the first dimension is the one dropped.
  ArrayRef<int64_t> sizes = slot.getStaticSizes();
  if (sizes.empty() || sizes.front() != 1 ||
      sizes.drop_front() != whole.getShape().drop_front())
    return false;
  SmallVector<OpFoldResult> offsets = slot.getMixedOffsets();
  for (OpFoldResult offset : ArrayRef(offsets).drop_front())
    if (getConstantIntValue(offset) != 0)
      return false;
  return isSlotSized(type);
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

Value CopySide::read(OpBuilder &b, Location loc, ArrayRef<Value> coords,
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

void CopySide::write(OpBuilder &b, Location loc, Value run,
                     ArrayRef<Value> coords, int64_t r) const {
  auto type = cast<MemRefType>(value.getType());
  int64_t bytes = vector * type.getElementTypeBitWidth() / 8;
  switch (space) {
  case MemorySpace::Global:
    GlobalRunAccess(b, loc, value, addIndices(b, loc, offsets, coords), vector,
                    aligned, globalWrite)
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

// Whether upstream's value-bounds analysis proves the box of `shape` from
// `offsets` inside `memref` in every dimension (0 <= offset and offset +
// extent <= size): a chunk loop's copies, `scf.for %i = %c0 to %whole`
// with `%whole = arith.divui %n, %chunk` and the copy at `%i * %chunk`,
// are, and then need no run-time test. Asked of the copy's own operands,
// as the kernel states them, before the conversion changes any.
static bool boxProvablyInBounds(Value memref, ValueRange offsets,
                                ArrayRef<int64_t> shape) {
  if (offsets.size() != shape.size())
    return false;
  MLIRContext *ctx = memref.getContext();
  Builder b(ctx);
  using Cmp = ValueBoundsConstraintSet::ComparisonOperator;
  for (auto [d, offset] : llvm::enumerate(offsets)) {
    AffineMap end = AffineMap::get(
        1, 0, getAffineDimExpr(0, ctx) + shape[d]);
    if (!ValueBoundsConstraintSet::compare(
            offset, Cmp::GE, OpFoldResult(b.getIndexAttr(0))) ||
        !ValueBoundsConstraintSet::compare(
            ValueBoundsConstraintSet::Variable(end, ValueRange{offset}),
            Cmp::LE,
            ValueBoundsConstraintSet::Variable(memref, int64_t(d))))
      return false;
  }
  return true;
}

FailureOr<RegisterCopy>
RegisterCopy::prepare(CopyOp op, CopyOp::Adaptor adaptor, OpBuilder &b,
                      const TileToGPUTypeConverter &converter) {
  Location loc = op.getLoc();
  Type srcType = op.getSource().getType(), dstType = op.getDest().getType();
  MemorySpace src = getMemorySpace(srcType), dst = getMemorySpace(dstType);
  if (cast<ShapedType>(srcType).getElementTypeBitWidth() % 8 != 0)
    return op.emitOpError("copies of sub-byte elements are not lowered yet");
  if (src == MemorySpace::Tmem || dst == MemorySpace::Tmem)
    return op.emitOpError("moves tensor memory, which threads' loads and "
                          "stores cannot reach (tcgen05.ld/st, not lowered "
                          "yet)");

  // The fragment side's layout decides the distribution; otherwise split
  // the shared tile over the kernel's threads.
  FailureOr<Distribution> dist = failure();
  if (src == MemorySpace::Fragment)
    dist = Distribution::forFragment(srcType);
  else if (dst == MemorySpace::Fragment)
    dist = Distribution::forFragment(dstType);
  else {
    int64_t threads = getThreadsRunning(op);
    if (threads < 1)
      return op.emitOpError("is not inside a kernel with a thread count");
    dist = Distribution::forMemRef(
        cast<ShapedType>(src == MemorySpace::Shared ? srcType : dstType),
        threads);
  }
  if (failed(dist))
    return op.emitOpError("fragment operand has no layout; run "
                          "tile-assign-layouts first");

  RegisterCopy copy;
  copy.op = op;
  copy.dist = *dist;
  copy.dstShape = llvm::to_vector(cast<ShapedType>(dstType).getShape());
  // A slice of a fragment: the layout says, run by run, whether the run
  // is in it for every thread or for none, so the choice is made at
  // compile time; where it depends on the thread (a layout that splits
  // columns between warpgroups), a run-time check decides. A slice that
  // cuts runs is not lowered.
  for (Value offset : op.getSourceOffsets())
    if (src == MemorySpace::Fragment)
      copy.slice.push_back(getConstantIntValue(offset).value_or(-1));
  ArrayRef<int64_t> dstShape = copy.dstShape;
  if (!copy.slice.empty() && (copy.slice.back() % dist->vector != 0 ||
                              dstShape.back() % dist->vector != 0))
    return op.emitOpError("copies a slice of a fragment that cuts its ")
           << dist->layout << " runs: the slice's columns must start and "
           << "end on whole runs of " << dist->vector << " elements";
  for (int64_t r = 0; !copy.slice.empty() && r < dist->runsPerThread(); ++r)
    copy.runInSlice.push_back(
        dist->layout.isRunInBox(dist->shape, r, copy.slice, dstShape));
  // Fragment -> shared: the destination's swizzle, from its type.
  if (src == MemorySpace::Fragment && dst == MemorySpace::Shared)
    copy.destSwizzle = getSharedSwizzle(op.getDest().getType()).value_or(0);
  // The pattern follows absolute address bits, which the tile-relative
  // coordinates give only from the start of the (1024-byte aligned)
  // allocation or of one of its aligned slots, not through other views.
  if (copy.destSwizzle &&
      !cast<MemRefType>(op.getDest().getType()).getLayout().isIdentity() &&
      !isAlignedSlot(op.getDest()))
    return op.emitOpError("writes a swizzled shared tile through a view "
                          "other than a whole slot of a ring, which is not "
                          "lowered yet");
  int64_t elementBits = cast<ShapedType>(dstType).getElementTypeBitWidth();
  if (copy.destSwizzle && dstShape.back() * elementBits / 8 != copy.destSwizzle)
    return op.emitOpError("writes a ")
           << copy.destSwizzle
           << "-byte swizzled shared tile whose rows are not that wide, "
              "which is not lowered yet";
  // A swizzle moves 16-byte units: a run must sit in one.
  if (copy.destSwizzle && dist->vector * elementBits / 8 > 16)
    return op.emitOpError("writes runs of ")
           << dist->vector * elementBits / 8
           << " bytes into a swizzled shared tile; at most 16 are lowered";

  for (auto [type, space] : {std::pair{srcType, src}, {dstType, dst}}) {
    auto memref = dyn_cast<MemRefType>(type);
    // Runs are contiguous elements: a view's rows may be anywhere (a
    // subview bounds the copy by its own sizes), its columns not.
    if (space == MemorySpace::Global && !hasUnitInnerStride(memref))
      return op.emitOpError("expects global memrefs whose innermost "
                            "stride is 1; views with other strides are "
                            "not lowered yet: pass the row-major matrix "
                            "(memref<?x?xT>, or a subview of it) and give "
                            "the copy the view's first element as offsets "
                            "([%row, %col]); for a transposed matrix, "
                            "copy it as stored and transpose in the "
                            "consumer (tile.gemm's transpose_a / "
                            "transpose_b)");
    // Vector and cp.async accesses assume runs start 16-byte aligned in
    // a contiguous row-major tile (slot views of a ring are).
    if (space == MemorySpace::Shared && !isContiguousRowMajor(memref))
      return op.emitOpError("expects shared tiles laid out contiguously "
                            "row-major; other views are not lowered yet");
  }

  Type srcElement = cast<ShapedType>(srcType).getElementType();
  Type dstElement = cast<ShapedType>(dstType).getElementType();
  if (srcElement != dstElement)
    copy.roundTo = dstElement;
  copy.from = {src, adaptor.getSource(), adaptor.getSourceOffsets(), {},
               dist->vector};
  copy.to = {dst, adaptor.getDest(), adaptor.getDestOffsets(), {},
             dist->vector};
  for (CopySide *side : {&copy.from, &copy.to})
    if (side->space == MemorySpace::Global)
      side->aligned = runsAreAligned(b, loc, side->value, side->offsets.back(),
                                     dist->vector);
  copy.boxProvedInBounds = converter.isCopyBoxProved(op);
  return copy;
}

void TileToGPUTypeConverter::proveCopyBoxes(Operation *root) {
  root->walk([&](CopyOp op) {
    // The box is the other side's shape (the fragment's or the shared
    // tile's), as the copy's distribution takes it.
    Type srcType = op.getSource().getType(), dstType = op.getDest().getType();
    bool fromGlobal = getMemorySpace(srcType) == MemorySpace::Global;
    bool toGlobal = getMemorySpace(dstType) == MemorySpace::Global;
    if (fromGlobal == toGlobal)
      return;
    auto box = cast<ShapedType>(fromGlobal ? dstType : srcType);
    if (!box.hasStaticShape())
      return;
    if (fromGlobal ? boxProvablyInBounds(op.getSource(), op.getSourceOffsets(),
                                         box.getShape())
                   : boxProvablyInBounds(op.getDest(), op.getDestOffsets(),
                                         box.getShape()))
      provedCopies.insert(op);
  });
}

Value RegisterCopy::rounded(OpBuilder &b, Location loc, Value run) const {
  if (!roundTo)
    return run;
  return arith::TruncFOp::create(
      b, loc, VectorType::get({dist.vector}, roundTo), run);
}

Value RegisterCopy::readRun(OpBuilder &b, Location loc,
                            ArrayRef<Value> coords, int64_t r) const {
  return rounded(b, loc, from.read(b, loc, coords, r));
}

void RegisterCopy::emit(OpBuilder &b, Location loc, const ChipInfo &chip,
                        function_ref<void()> moveRuns) {
  bool synchronous = to.space == MemorySpace::Shared && !op.getAsync();
  if (synchronous)
    ctaBarrier(b, loc);
  tid = threadId(b, loc);
  moveRuns();
  if (synchronous)
    publishSharedWrites(b, loc, chip);
}

void RegisterCopy::forEachRun(OpBuilder &b, Location loc, RunFn fn,
                              function_ref<bool(int64_t)> keep) const {
  for (int64_t r = 0; r < dist.runsPerThread(); ++r) {
    if (keep && !keep(r))
      continue;
    if (dist.isEven()) {
      fn(b, loc, dist.runCoordinates(b, loc, tid, r), r);
      continue;
    }
    scf::IfOp::create(b, loc, dist.runExists(b, loc, tid, r),
                      [&](OpBuilder &ib, Location il) {
                        fn(ib, il, dist.runCoordinates(ib, il, tid, r), r);
                        scf::YieldOp::create(ib, il);
                      });
  }
}

// Whether every run of a global <-> fragment copy lies in bounds and is
// aligned: the box of the fragment's shape from the global side's offsets
// fits the memref (checked without overflow), and the runs are aligned.
static Value wholeBoxInBounds(OpBuilder &b, Location loc, const CopySide &side,
                              ArrayRef<int64_t> shape) {
  Value whole = side.aligned;
  for (auto [d, extent] : llvm::enumerate(shape)) {
    Value size = memref::DimOp::create(b, loc, side.value, d);
    Value box = constIndex(b, loc, extent);
    Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                       size, box);
    Value room = arith::SubIOp::create(b, loc, size, box);
    Value starts = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule, side.offsets[d], room);
    whole = arith::AndIOp::create(
        b, loc, whole, arith::AndIOp::create(b, loc, fits, starts));
  }
  return whole;
}

// The layout a slice (of a slice ...) of `layout` was cut from, or
// `layout` itself.
static Attribute unsliced(Attribute layout) {
  while (auto sliced = dyn_cast<SliceLayoutAttr>(layout))
    layout = sliced.getParent();
  return layout;
}

bool RegisterCopy::hasInBoundsPath() const {
  bool load = from.space == MemorySpace::Global &&
              to.space == MemorySpace::Fragment;
  bool store = from.space == MemorySpace::Fragment &&
               to.space == MemorySpace::Global &&
               to.globalWrite == GlobalWrite::store;
  // Blocked layouts (row kernels, elementwise ones): the matrix layouts'
  // GEMM epilogues keep one path for their tiles, whose code size they
  // are sensitive to. A run is one aligned vector access: a power of two
  // of at most 16 bytes (a run of 3 f32s is not, and keeps the guarded
  // path).
  int64_t bytes =
      dist.vector *
      cast<ShapedType>(globalSide().value.getType()).getElementTypeBitWidth() /
      8;
  // Loads also into a slice of any layout (a row broadcast over the tile:
  // layernorm's weights, a GEMM epilogue's bias), whose runs are few:
  // threads holding copies load them alike, and the guarded runs, which
  // ptxas predicates rather than branches around, would cost a GEMM's
  // epilogue more than its bias add.
  bool slice = load && isa<SliceLayoutAttr>(dist.layout);
  return (load || store) &&
         (isa<BlockedLayoutAttr>(dist.layout) || slice) &&
         dist.isEven() && dist.runOffset(0).has_value() &&
         llvm::isPowerOf2_64(bytes) && bytes <= 16;
}

// Whether every run of the copy is whole in bounds or wholly outside: its
// runs are aligned vectors and the columns from its offset to the memref's
// last are a multiple of the run (or there are none).
static Value runsWholeOrOutside(OpBuilder &b, Location loc,
                                const CopySide &side, int64_t vector) {
  int64_t last = cast<ShapedType>(side.value.getType()).getRank() - 1;
  Value size = memref::DimOp::create(b, loc, side.value, last);
  Value offset = side.offsets[last];
  Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                     offset, size);
  // Wraps when `past`, which then decides alone.
  Value left = arith::SubIOp::create(b, loc, size, offset);
  Value rem = arith::RemUIOp::create(b, loc, left, constIndex(b, loc, vector));
  Value multiple = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         rem, constIndex(b, loc, 0));
  return arith::AndIOp::create(
      b, loc, side.aligned, arith::OrIOp::create(b, loc, past, multiple));
}

bool RegisterCopy::hasWholeRunsPath() const {
  // The predicated vector access of GlobalRunAccess: runs of more than one
  // element of at least 16 bits.
  // Not for the slices of matrix layouts (a GEMM epilogue's bias), whose
  // third path would cost registers in the consumers that hold the
  // accumulator (the 128 x 128 ping-pong team with GELU spilled).
  return hasInBoundsPath() && isa<BlockedLayoutAttr>(unsliced(dist.layout)) &&
         dist.vector > 1 &&
         cast<ShapedType>(globalSide().value.getType())
                 .getElementTypeBitWidth() >= 16;
}

void RegisterCopy::runsAtOffsets(OpBuilder &b, Location loc,
                                 bool inBounds) const {
  const CopySide &global = globalSide();
  GlobalRunAccess access(
      b, loc, global.value,
      addIndices(b, loc, global.offsets, dist.runCoordinates(b, loc, tid, 0)),
      dist.vector, global.aligned);
  if (!inBounds)
    access.assumeWholeRuns();
  SmallVector<Value> loaded;
  for (int64_t r = 0; r < dist.runsPerThread(); ++r) {
    SmallVector<int64_t> offset = *dist.runOffset(r);
    if (to.space == MemorySpace::Global) {
      Value run = readRun(b, loc, {}, r);
      if (inBounds)
        access.storeInBounds(b, loc, run, offset);
      else
        access.store(b, loc, run, offset);
      continue;
    }
    loaded.push_back(rounded(b, loc,
                             inBounds ? access.loadInBounds(b, loc, offset)
                                      : access.load(b, loc, offset)));
  }
  if (to.space != MemorySpace::Global)
    scf::YieldOp::create(b, loc, loaded);
}

void RegisterCopy::throughRegisters(OpBuilder &b, Location loc) const {
  if (!hasInBoundsPath())
    return guardedRuns(b, loc);
  // Chosen once per copy: the inside of the tensor takes plain vector
  // accesses; a box at its edge whose runs are each whole or outside (rows
  // a multiple of the run wide, as a 768-wide row in a 1024-wide tile)
  // takes one predicated vector access per run; any other box the guarded
  // runs. A load's paths yield its runs, written to the fragment after
  // them: what reads the fragment then sees each run as one vector (whose
  // 16-bit halves tile-pack-conversions widens with one instruction each),
  // not elements merged one by one.
  bool load = to.space == MemorySpace::Fragment;
  SmallVector<Type> runTypes;
  if (load)
    runTypes.assign(
        dist.runsPerThread(),
        VectorType::get({dist.vector},
                        cast<ShapedType>(to.value.getType()).getElementType()));
  auto guarded = [&] {
    if (!load)
      return guardedRuns(b, loc);
    SmallVector<Value> runs;
    for (int64_t r = 0; r < dist.runsPerThread(); ++r)
      runs.push_back(readRun(b, loc, dist.runCoordinates(b, loc, tid, r), r));
    scf::YieldOp::create(b, loc, runs);
  };
  // A box proved in bounds (boxProvablyInBounds) tests only the alignment
  // of its runs: misaligned ones take the guarded runs.
  auto inside = scf::IfOp::create(
      b, loc, runTypes,
      boxProvedInBounds ? globalSide().aligned
                        : wholeBoxInBounds(b, loc, globalSide(), dist.shape),
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&inside.getThenRegion().front());
    runsAtOffsets(b, loc, /*inBounds=*/true);
    b.setInsertionPointToStart(&inside.getElseRegion().front());
    if (boxProvedInBounds || !hasWholeRunsPath()) {
      guarded();
    } else {
      auto whole = scf::IfOp::create(
          b, loc, runTypes,
          runsWholeOrOutside(b, loc, globalSide(), dist.vector),
          /*withElseRegion=*/true);
      if (load)
        scf::YieldOp::create(b, loc, whole.getResults());
      b.setInsertionPointToStart(&whole.getThenRegion().front());
      runsAtOffsets(b, loc, /*inBounds=*/false);
      b.setInsertionPointToStart(&whole.getElseRegion().front());
      guarded();
    }
  }
  for (int64_t r = 0; load && r < dist.runsPerThread(); ++r)
    to.write(b, loc, inside.getResult(r), {}, r);
}

void RegisterCopy::guardedRuns(OpBuilder &b, Location loc) const {
  if (to.space == MemorySpace::Global && dist.isEven() && dist.runOffset(0)) {
    // Runs at constant offsets from run 0 share one writer.
    GlobalRunAccess writer(
        b, loc, to.value,
        addIndices(b, loc, to.offsets, dist.runCoordinates(b, loc, tid, 0)),
        dist.vector, to.aligned, to.globalWrite);
    for (int64_t r = 0; r < dist.runsPerThread(); ++r) {
      SmallVector<Value> coords;
      if (from.space != MemorySpace::Fragment)
        coords = dist.runCoordinates(b, loc, tid, r);
      writer.store(b, loc, readRun(b, loc, coords, r), *dist.runOffset(r));
    }
    return;
  }
  forEachRun(b, loc,
             [&](OpBuilder &rb, Location rl, ArrayRef<Value> coords,
                 int64_t r) {
               to.write(rb, rl, readRun(rb, rl, coords, r), coords, r);
             });
}

void RegisterCopy::runByRun(OpBuilder &b, Location loc) const {
  int64_t elementBytes =
      cast<ShapedType>(to.value.getType()).getElementTypeBitWidth() / 8;
  ArrayRef<int64_t> shape = dstShape;
  auto inSlice = [&](int64_t r) { return runInSlice[r] != false; };
  auto move = [&](OpBuilder &rb, Location rl, ArrayRef<Value> coords,
                  int64_t r) {
    SmallVector<Value> at(coords);
    for (auto [d, offset] : llvm::enumerate(slice))
      if (offset != 0)
        at[d] = arith::SubIOp::create(rb, rl, at[d],
                                      constIndex(rb, rl, offset));
    if (destSwizzle)
      at = swizzledCoordinates(rb, rl, at, shape, elementBytes,
                               destSwizzle);
    to.write(rb, rl, readRun(rb, rl, coords, r), at, r);
  };
  forEachRun(
      b, loc,
      [&](OpBuilder &rb, Location rl, ArrayRef<Value> coords, int64_t r) {
        if (slice.empty() || runInSlice[r])
          return move(rb, rl, coords, r);
        // In the slice for some threads: runs are whole in the slice or
        // out of it (checked when prepared), so the first element decides.
        Value inside;
        for (auto [d, offset] : llvm::enumerate(slice)) {
          Value c = coords[d];
          Value lo = arith::CmpIOp::create(rb, rl, arith::CmpIPredicate::uge,
                                           c, constIndex(rb, rl, offset));
          Value hi = arith::CmpIOp::create(
              rb, rl, arith::CmpIPredicate::ult, c,
              constIndex(rb, rl, offset + shape[d]));
          Value both = arith::AndIOp::create(rb, rl, lo, hi);
          inside = inside ? arith::AndIOp::create(rb, rl, inside, both) : both;
        }
        scf::IfOp::create(rb, rl, inside, [&](OpBuilder &ib, Location il) {
          move(ib, il, coords, r);
          scf::YieldOp::create(ib, il);
        });
      },
      slice.empty() ? function_ref<bool(int64_t)>() : inSlice);
}
