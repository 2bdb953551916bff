//===- AssignLayouts.cpp - choose fragment layouts and shared swizzles ----===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

// The widest run (at most 16 bytes) whose blocked layout fits: it divides
// the innermost dimension and spreads evenly over the threads; failing
// that (a tile with fewer runs than threads, or a count they do not
// divide), the widest that divides the innermost dimension, some threads
// then holding a run fewer (guarded by the lowerings; reductions refuse).
static FailureOr<BlockedLayoutAttr> chooseBlocked(FragmentType type,
                                                  int64_t threads) {
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  for (bool even : {true, false})
    for (int64_t vector = std::max<int64_t>(1, 16 / bytes); vector >= 1;
         vector /= 2) {
      auto layout = BlockedLayoutAttr::get(type.getContext(), threads, vector);
      auto face = cast<FragmentLayoutAttrInterface>(layout);
      if (face.accepts(type.getShape(), threads) &&
          face.isEven(type.getShape()) == even)
        return layout;
    }
  return failure();
}

// The warp grid for mma.sync whose warp tiles are closest to square.
static FailureOr<MmaLayoutAttr> chooseMma(FragmentType c, int64_t threads) {
  int64_t warps = threads / 32;
  if (warps < 1 || threads % 32 != 0)
    return failure();
  std::optional<std::pair<int64_t, int64_t>> best;
  int64_t bestSkew = 0;
  for (int64_t wm = 1; wm <= warps; ++wm) {
    if (warps % wm != 0)
      continue;
    int64_t wn = warps / wm;
    auto layout = MmaLayoutAttr::get(c.getContext(), wm, wn);
    if (!cast<FragmentLayoutAttrInterface>(layout).accepts(c.getShape(),
                                                           threads))
      continue;
    int64_t tileM = c.getShape()[0] / wm, tileN = c.getShape()[1] / wn;
    int64_t skew = std::max(tileM, tileN) / std::min(tileM, tileN);
    if (!best || skew < bestSkew) {
      best = {wm, wn};
      bestSkew = skew;
    }
  }
  if (!best)
    return failure();
  return MmaLayoutAttr::get(c.getContext(), best->first, best->second);
}

// Gives `fragment` a layout chosen here, after checking it as the verifiers
// would (the shape, then the register budget): no pass leaves a layout its
// verifier rejects. Errors are reported at `op`.
static LogicalResult setCheckedLayout(Operation *op, Value fragment,
                                      Attribute layout, int64_t threads) {
  auto type = cast<FragmentType>(fragment.getType());
  auto typed = FragmentType::get(type.getContext(), type.getShape(),
                                 type.getElementType(), layout);
  auto interface = cast<FragmentLayoutAttrInterface>(layout);
  auto emit = [&] { return op->emitOpError(); };
  if (failed(interface.verifyShape(emit, type.getShape(), threads)) ||
      failed(verifyRegisterBudget(emit, typed, interface)))
    return failure();
  fragment.setType(typed);
  return success();
}

// Writes `swizzle` into the type of the shared tile `tile` and of the views
// of it (which keep their memory space), so that every op reading them
// sees it.
static LogicalResult setSharedSwizzle(Value tile, int64_t swizzle) {
  tile.setType(withSharedSwizzle(cast<MemRefType>(tile.getType()), swizzle));
  for (Operation *user : tile.getUsers()) {
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    if (!view || view.getViewSource() != tile)
      continue;
    // The views among its results (metadata such as sizes is not one).
    for (Value result : user->getResults()) {
      if (!isa<MemRefType>(result.getType()))
        continue;
      if (getMemorySpace(result.getType()) != MemorySpace::Shared)
        return user->emitOpError("views a shared tile as ")
               << result.getType()
               << ", which tile-assign-layouts cannot give its swizzle";
      if (failed(setSharedSwizzle(result, swizzle)))
        return failure();
    }
  }
  return success();
}

namespace {
struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(assignMatrixLayouts()) || failed(assignBlocked()))
      signalPassFailure();
  }

  // gemm accumulators take the matrix instruction's layout; fragments that
  // meet them in an elementwise op take it too, so no shuffle is needed.
  LogicalResult assignMatrixLayouts() {
    WalkResult result = getOperation().walk([&](GemmOp gemm) {
      // The layouts follow the gemm's instruction: wgmma and tcgen05.mma
      // read swizzled tiles (the same canonical layouts); ldmatrix reads
      // them plain.
      std::optional<MmaMechanism> mechanism = gemm.getMechanism();
      if (!mechanism) {
        gemm.emitOpError("has no mechanism: run tile-select-instructions "
                         "first");
        return WalkResult::interrupt();
      }
      bool wgmma = *mechanism == MmaMechanism::wgmma;
      bool swizzled = wgmma || *mechanism == MmaMechanism::tcgen05;
      for (Value operand : {Value(gemm.getA()), Value(gemm.getB())}) {
        AllocSharedOp alloc = getSharedAllocation(operand);
        // A swizzle written in the type stays.
        if (!alloc || isa<SharedAttr>(alloc.getType().getMemorySpace()))
          continue;
        auto type = cast<MemRefType>(alloc.getType());
        int64_t rowBytes =
            type.getShape().back() * type.getElementTypeBitWidth() / 8;
        // K-major rows of 32/64/128 bytes swizzle by their size; wider
        // (MN-major) rows are stored as 128-byte column blocks.
        int64_t swizzle = 0;
        if (swizzled && (rowBytes == 32 || rowBytes == 64))
          swizzle = rowBytes;
        else if (swizzled && rowBytes % 128 == 0)
          swizzle = 128;
        if (failed(setSharedSwizzle(alloc.getResult(), swizzle)))
          return WalkResult::interrupt();
      }
      auto c = dyn_cast<FragmentType>(gemm.getC().getType());
      if (!c)
        return WalkResult::advance();
      if (!c.getLayout() &&
          failed(assignAccumulatorLayout(gemm, c, *mechanism)))
        return WalkResult::interrupt();
      // A in registers takes C's wgmma layout: a warpgroup's 64 x K slice of
      // A sits in wgmma's A registers as the pairs of an accumulator would.
      Attribute cLayout = cast<FragmentType>(gemm.getC().getType()).getLayout();
      auto a = dyn_cast<FragmentType>(gemm.getA().getType());
      if (a && !a.getLayout() && isa_and_present<WgmmaLayoutAttr>(cLayout) &&
          failed(setCheckedLayout(gemm, gemm.getA(), cLayout,
                                  getThreadsRunning(gemm))))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
    if (failed(assignTensorMemoryCopyLayouts()))
      return failure();
    // Fragments that meet accumulators in elementwise ops take their
    // layout (sliced, for broadcast rows), so no shuffle is needed.
    return propagate();
  }

  // A fragment copied from or to tensor memory has the layout of the
  // tcgen05.ld/st that moves it.
  LogicalResult assignTensorMemoryCopyLayouts() {
    WalkResult result = getOperation().walk([&](CopyOp copy) {
      std::optional<CopyMechanism> mechanism = copy.getMechanism();
      if (mechanism != CopyMechanism::tmem_load &&
          mechanism != CopyMechanism::tmem_store)
        return WalkResult::advance();
      Value fragment = *mechanism == CopyMechanism::tmem_load ? copy.getDest()
                                                              : copy.getSource();
      if (cast<FragmentType>(fragment.getType()).getLayout())
        return WalkResult::advance();
      int64_t threads = getThreadsRunning(copy);
      return failed(setTmemLayout(copy, fragment, threads))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  LogicalResult setTmemLayout(Operation *op, Value fragment, int64_t threads) {
    if (threads % 128 != 0)
      return op->emitOpError("reads tensor memory with tcgen05.ld/st, which "
                             "needs whole warpgroups; the kernel has ")
             << threads << " threads";
    return setCheckedLayout(
        op, fragment,
        Tmem32x32bLayoutAttr::get(op->getContext(), threads / 128), threads);
  }

  LogicalResult assignAccumulatorLayout(GemmOp gemm, FragmentType c,
                                        MmaMechanism mechanism) {
    int64_t threads = getThreadsRunning(gemm);
    if (mechanism == MmaMechanism::tcgen05)
      return setTmemLayout(gemm, gemm.getC(), threads);
    if (mechanism == MmaMechanism::mma_sync) {
      FailureOr<MmaLayoutAttr> mma = chooseMma(c, threads);
      if (failed(mma))
        return gemm.emitOpError("has no mma.sync warp grid: a ")
               << c.getShape()[0] << "x" << c.getShape()[1] << " tile over "
               << threads / 32
               << " warps needs 16-row by 8-column tiles per warp";
      return setCheckedLayout(gemm, gemm.getC(), *mma, threads);
    }
    // Each warpgroup takes 64 rows, or blocks of 64 (two m64 wgmmas per K
    // step for a 128-row warpgroup tile).
    int64_t groups = threads / 128;
    if (groups < 1 || threads % 128 != 0 ||
        c.getShape()[0] % (64 * groups) != 0)
      return gemm.emitOpError("wgmma needs M = 64 x blocks x warpgroups: ")
             << c.getShape()[0] << " rows with " << threads << " threads";
    return setCheckedLayout(
        gemm, gemm.getC(),
        WgmmaLayoutAttr::get(gemm.getContext(), groups,
                             c.getShape()[0] / (64 * groups)),
        threads);
  }

  // Fragments without a matrix layout: each group of fragments that meet in
  // elementwise ops with one shape takes one blocked layout, with runs of
  // 16 bytes of its narrowest element type; reduction results and
  // broadcast inputs then take slices of their partners' layouts.
  LogicalResult assignBlocked() {
    SmallVector<AllocFragmentOp> allocs;
    getOperation().walk([&](AllocFragmentOp alloc) {
      if (!alloc.getType().getLayout())
        allocs.push_back(alloc);
    });
    if (failed(propagate()))
      return failure();
    // Fragments that take a slice once their partner has a layout go last,
    // so that a row of sums is not given a blocked layout of its own.
    for (bool derived : {false, true})
      for (AllocFragmentOp alloc : allocs) {
        if (alloc.getType().getLayout() || isDerived(alloc) != derived)
          continue;
        if (failed(assignBlockedGroup(alloc)) || failed(propagate()))
          return failure();
      }
    return success();
  }

  // Whether a fragment is written by a tile.reduce or broadcast into a
  // tile.elementwise (its layout follows from another fragment's).
  static bool isDerivedValue(Value v) {
    for (Operation *user : v.getUsers()) {
      if (isReduceDest(v, user))
        return true;
      if (auto op = dyn_cast<ElementwiseOp>(user))
        if (cast<ShapedType>(v.getType()).getShape() != outputShape(op))
          return true;
    }
    return false;
  }

  static bool isReduceDest(Value v, Operation *user) {
    auto reduce = dyn_cast<ReduceOp>(user);
    return reduce && reduce.getDest() == v;
  }

  // Whether every tile.reduce writing `v` accepts `layout` for it (holds
  // the results as its source's slice does). A reduction's result takes
  // an element-wise partner's layout only then; otherwise it waits for
  // its source's slice.
  static bool reducesAccept(Value v, Attribute layout) {
    return llvm::all_of(v.getUsers(), [&](Operation *user) {
      return !isReduceDest(v, user) ||
             cast<ReduceOp>(user).acceptsDestLayout(layout);
    });
  }

  // Whether `alloc`'s group (its elementwise partners of one shape) holds a
  // derived fragment: then the whole group waits for that one's layout.
  static bool isDerived(AllocFragmentOp alloc) {
    return llvm::any_of(elementwiseGroup(alloc.getResult()), isDerivedValue);
  }

  static ArrayRef<int64_t> outputShape(ElementwiseOp op) {
    return cast<ShapedType>(op.getOutputs().front().getType()).getShape();
  }

  // The fragments that meet `alloc` in elementwise ops with the outputs'
  // shape, transitively (it included).
  static SmallVector<Value> elementwiseGroup(Value start) {
    SmallVector<Value> group{start}, work{start};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        auto op = dyn_cast<ElementwiseOp>(user);
        if (!op || cast<ShapedType>(v.getType()).getShape() != outputShape(op))
          continue;
        for (Value other : op->getOperands())
          if (isa<FragmentType>(other.getType()) &&
              cast<ShapedType>(other.getType()).getShape() ==
                  outputShape(op) &&
              !llvm::is_contained(group, other)) {
            group.push_back(other);
            work.push_back(other);
          }
      }
    }
    return group;
  }

  LogicalResult assignBlockedGroup(AllocFragmentOp alloc) {
    FragmentType type = alloc.getType();
    int64_t threads = getThreadsRunning(alloc);
    if (threads < 1)
      return alloc.emitOpError("has no enclosing kernel with a thread count");
    // The narrowest element type decides the run: 16-byte accesses for it.
    FragmentType narrowest = type;
    SmallVector<Value> group = elementwiseGroup(alloc.getResult());
    for (Value v : group) {
      auto t = cast<FragmentType>(v.getType());
      if (t.getElementTypeBitWidth() < narrowest.getElementTypeBitWidth())
        narrowest = t;
    }
    FailureOr<BlockedLayoutAttr> layout = chooseBlocked(narrowest, threads);
    if (failed(layout)) {
      // Any element count spreads (unevenly if need be): only a thread
      // count no CTA has, or a tile of no dimension, gets here.
      InFlightDiagnostic diag = alloc.emitOpError("has no blocked layout for ")
                                << type << " over " << threads
                                << " threads (a CTA runs 1 to 1024)";
      if (isDerived(alloc))
        diag << " (a row or column takes its layout from the tile it is "
                "reduced from or broadcast over: check that one has a "
                "layout)";
      return diag;
    }
    BlockedLayoutAttr chosen = *layout;
    if (BlockedLayoutAttr perWarp = partPerWarp(chosen, group))
      chosen = perWarp;
    for (Value v : group)
      if (!cast<FragmentType>(v.getType()).getLayout() &&
          failed(setCheckedLayout(alloc, v, chosen, threads)))
        return failure();
    return success();
  }

  // `layout` with a part per warp (part = 32) where the group holds a tile
  // reduced along its rows and each warp then holds whole rows: the
  // reductions need shuffles only, no shared memory and no CTA barrier.
  // Null where that does not hold, buys nothing (one warp) or costs
  // registers: a row vector broadcast over the tile (layernorm's weight)
  // holds the columns of every run, which a part per warp spreads over
  // more columns per thread (measured: 109 -> 136 registers and a slower
  // residual+layernorm, docs/measurements.md).
  static BlockedLayoutAttr partPerWarp(BlockedLayoutAttr layout,
                                       ArrayRef<Value> group) {
    int64_t threads = layout.getThreads();
    if (threads <= 32 || threads % 32 != 0)
      return {};
    auto perWarp = BlockedLayoutAttr::get(layout.getContext(), threads,
                                          layout.getVector(), 32);
    auto face = cast<FragmentLayoutAttrInterface>(Attribute(perWarp));
    bool reducedAlongRows = false;
    for (Value v : group) {
      ArrayRef<int64_t> shape = cast<FragmentType>(v.getType()).getShape();
      for (Operation *user : v.getUsers()) {
        auto reduce = dyn_cast<ReduceOp>(user);
        if (!reduce || reduce.getSource() != v ||
            int64_t(reduce.getDim()) + 1 != int64_t(shape.size()) ||
            shape.size() < 2)
          continue;
        FailureOr<SmallVector<int64_t>> warpDims = face.getWarpDims(shape);
        if (!face.accepts(shape, threads) || failed(warpDims) ||
            llvm::is_contained(*warpDims, int64_t(shape.size()) - 1))
          return {};
        for (int64_t r = 0, e = face.getRunsPerThread(shape); r < e; ++r)
          if (!face.getRunOffset(shape, r))
            return {};
        reducedAlongRows = true;
      }
    }
    if (!reducedAlongRows || broadcastsGrow(layout, perWarp, group))
      return {};
    return perWarp;
  }

  // Whether a fragment broadcast over the group's tile holds more register
  // slots per thread under `to` than under `from`.
  static bool broadcastsGrow(BlockedLayoutAttr from, BlockedLayoutAttr to,
                             ArrayRef<Value> group) {
    for (Value v : group)
      for (Operation *user : v.getUsers()) {
        auto op = dyn_cast<ElementwiseOp>(user);
        if (!op)
          continue;
        ArrayRef<int64_t> shape = outputShape(op);
        for (Value input : op->getOperands()) {
          auto f = dyn_cast<FragmentType>(input.getType());
          if (!f || f.getShape() == shape)
            continue;
          auto slots = [&](Attribute layout) {
            for (auto [d, extent] : llvm::enumerate(shape))
              if (f.getShape()[d] != extent)
                layout = SliceLayoutAttr::get(op->getContext(), d, extent,
                                              layout);
            return cast<FragmentLayoutAttrInterface>(layout)
                .getSlotsPerThread(f.getShape());
          };
          if (slots(to) > slots(from))
            return true;
        }
      }
    return false;
  }

  // Until nothing changes: fragments with the outputs' shape in an
  // elementwise op share a layout; broadcast inputs take it sliced along
  // their extent-1 dimensions; a reduction's result takes the source's
  // sliced along the reduced dimension.
  LogicalResult propagate() {
    bool changed = true;
    auto give = [&](Operation *op, Value v, Attribute layout) {
      if (cast<FragmentType>(v.getType()).getLayout())
        return success();
      changed = true;
      Operation *owner = v.getDefiningOp();
      return setCheckedLayout(op, v, layout,
                              getThreadsRunning(owner ? owner : op));
    };
    while (changed) {
      changed = false;
      WalkResult result = getOperation().walk([&](Operation *op) {
        if (auto reduce = dyn_cast<ReduceOp>(op)) {
          SliceLayoutAttr slice = reduce.getSourceSlice();
          if (!slice)
            return WalkResult::advance();
          return failed(give(op, reduce.getDest(), slice))
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        }
        auto elementwise = dyn_cast<ElementwiseOp>(op);
        if (!elementwise)
          return WalkResult::advance();
        ArrayRef<int64_t> shape = outputShape(elementwise);
        Attribute layout;
        for (Value v : op->getOperands())
          if (auto f = dyn_cast<FragmentType>(v.getType());
              f && f.getShape() == shape && f.getLayout())
            layout = f.getLayout();
        if (!layout)
          return WalkResult::advance();
        for (Value v : op->getOperands()) {
          auto f = dyn_cast<FragmentType>(v.getType());
          if (!f)
            continue;
          Attribute mine = layout;
          for (auto [d, extent] : llvm::enumerate(shape))
            if (f.getShape()[d] != extent)
              mine = SliceLayoutAttr::get(op->getContext(), d, extent, mine);
          if (!reducesAccept(v, mine))
            continue;
          if (failed(give(op, v, mine)))
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return failure();
    }
    return success();
  }
};
} // namespace
