//===- layout-selftest.cpp - fragment layouts agree with themselves -------===//
//
// For every fragment layout on a few shapes, checks FragmentLayoutAttrInterface
// against itself: the index arithmetic buildRunCoordinates / buildHasRun emit
// computes what getRunCoordinates / hasRun say, for every thread and run; the
// runs (with their run width) cover every element once and fit the thread's
// register slots; getRunOffset is run r's offset from run 0 for every thread;
// getSpread counts the distinct coordinates lanes and warps take; and
// verifyShape accepts these shapes and refuses others. Runs without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tile;

static int failures = 0;

static void fail(FragmentLayoutAttrInterface layout, ArrayRef<int64_t> shape,
                 const Twine &what) {
  llvm::errs() << "FAIL " << layout << " on ";
  llvm::interleave(shape, llvm::errs(), "x");
  llvm::errs() << ": " << what << "\n";
  ++failures;
}

// The value of index arithmetic built from arith ops, with `tid` = tidValue.
static int64_t eval(Value v, Value tid, int64_t tidValue) {
  if (v == tid)
    return tidValue;
  Operation *op = v.getDefiningOp();
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return cast<IntegerAttr>(c.getValue()).getInt();
  auto lhs = [&] { return eval(op->getOperand(0), tid, tidValue); };
  auto rhs = [&] { return eval(op->getOperand(1), tid, tidValue); };
  if (isa<arith::IndexCastUIOp>(op)) // i32 <-> index: values are small
    return eval(op->getOperand(0), tid, tidValue);
  if (isa<arith::AddIOp>(op))
    return lhs() + rhs();
  if (isa<arith::MulIOp>(op))
    return lhs() * rhs();
  if (isa<arith::DivUIOp>(op))
    return lhs() / rhs();
  if (isa<arith::RemUIOp>(op))
    return lhs() % rhs();
  if (auto cmp = dyn_cast<arith::CmpIOp>(op);
      cmp && cmp.getPredicate() == arith::CmpIPredicate::ult)
    return lhs() < rhs();
  llvm::errs() << "cannot evaluate " << *op << "\n";
  std::abort();
}

// `copies`: how many (thread, slot) pairs hold each element: 1, except for
// slice layouts, whose threads along the sliced dimension hold copies.
static void check(OpBuilder &b, FragmentLayoutAttrInterface layout,
                  ArrayRef<int64_t> shape, bool fragment = true,
                  int64_t copies = 1) {
  Location loc = b.getUnknownLoc();
  auto bad = [&](const Twine &what) { fail(layout, shape, what); };
  int64_t threads = layout.getNumThreads();
  if (fragment && !layout.accepts(shape, threads))
    bad("verifyShape refuses it");
  Value tid = arith::ConstantIndexOp::create(b, loc, -1); // stands for tid
  int64_t vector = layout.getRunWidth(shape);
  int64_t runs = layout.getRunsPerThread(shape);
  std::map<SmallVector<int64_t>, int64_t> held;
  bool even = true;
  for (int64_t t = 0; t < threads; ++t) {
    SmallVector<int64_t> run0 = layout.getRunCoordinates(shape, t, 0);
    for (int64_t r = 0; r < runs; ++r) {
      bool has = layout.hasRun(shape, t, r);
      even &= has;
      if (eval(layout.buildHasRun(b, loc, shape, tid, r), tid, t) != has)
        bad("buildHasRun disagrees with hasRun at tid " + Twine(t) +
            ", run " + Twine(r));
      if (!has)
        continue;
      SmallVector<int64_t> coords = layout.getRunCoordinates(shape, t, r);
      SmallVector<Value> built =
          layout.buildRunCoordinates(b, loc, shape, tid, r);
      for (auto [c, v] : llvm::zip_equal(coords, built))
        if (eval(v, tid, t) != c)
          bad("buildRunCoordinates disagrees with getRunCoordinates at tid " +
              Twine(t) + ", run " + Twine(r));
      if (std::optional<SmallVector<int64_t>> offset =
              layout.getRunOffset(shape, r))
        for (size_t d = 0; d < shape.size(); ++d)
          if (coords[d] - run0[d] != (*offset)[d])
            bad("getRunOffset is not run " + Twine(r) + "'s offset at tid " +
                Twine(t));
      for (int64_t v = 0; v < vector; ++v) {
        SmallVector<int64_t> element(coords);
        element.back() += v;
        for (size_t d = 0; d < shape.size(); ++d)
          if (element[d] < 0 || element[d] >= shape[d])
            bad("run " + Twine(r) + " of tid " + Twine(t) +
                " leaves the tile");
        if (r * vector + v >= layout.getSlotsPerThread(shape))
          bad("slot past getSlotsPerThread");
        ++held[element];
      }
    }
  }
  if (even != layout.isEven(shape))
    bad("isEven disagrees with hasRun");
  if (static_cast<int64_t>(held.size()) !=
      ShapedType::getNumElements(shape))
    bad("runs cover " + Twine(held.size()) + " elements");
  for (auto &[element, count] : held)
    if (count != copies)
      bad("an element is held " + Twine(count) + " times, not " +
          Twine(copies));

  // Spread: distinct coordinates of the lanes of warp 0 and of lane 0 of
  // each warp, at run 0.
  FailureOr<SmallVector<DimSpread>> spread = layout.getSpread(shape);
  if (failed(spread)) {
    if (fragment && layout.isEven(shape))
      bad("getSpread fails");
    return;
  }
  int64_t lanes = std::min<int64_t>(threads, 32);
  for (size_t d = 0; d < shape.size(); ++d) {
    std::set<int64_t> laneCoords, warpCoords;
    for (int64_t l = 0; l < lanes; ++l)
      laneCoords.insert(layout.getRunCoordinates(shape, l, 0)[d]);
    for (int64_t w = 0; w * 32 < threads; ++w)
      warpCoords.insert(layout.getRunCoordinates(shape, 32 * w, 0)[d]);
    if (static_cast<int64_t>(laneCoords.size()) != (*spread)[d].lanes ||
        static_cast<int64_t>(warpCoords.size()) != (*spread)[d].warps)
      bad("getSpread says " + Twine((*spread)[d].lanes) + " lanes, " +
          Twine((*spread)[d].warps) + " warps along dimension " + Twine(d) +
          "; they take " + Twine(laneCoords.size()) + " and " +
          Twine(warpCoords.size()) + " coordinates");
  }
}

int main() {
  MLIRContext context;
  context.loadDialect<TileDialect, arith::ArithDialect>();
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(module->getBody());
  auto blocked = [&](int64_t threads, int64_t vector, int64_t part = 0) {
    return cast<FragmentLayoutAttrInterface>(
        BlockedLayoutAttr::get(&context, threads, vector, part));
  };
  auto wgmma = [&](int64_t groups, int64_t blocks = 1) {
    return cast<FragmentLayoutAttrInterface>(
        WgmmaLayoutAttr::get(&context, groups, blocks));
  };
  auto mma = [&](int64_t warpsM, int64_t warpsN) {
    return cast<FragmentLayoutAttrInterface>(
        MmaLayoutAttr::get(&context, warpsM, warpsN));
  };

  auto tmem = [&](int64_t groups) {
    return cast<FragmentLayoutAttrInterface>(
        Tmem32x32bLayoutAttr::get(&context, groups));
  };

  auto slice = [&](int64_t dim, int64_t extent,
                   FragmentLayoutAttrInterface parent) {
    return cast<FragmentLayoutAttrInterface>(
        SliceLayoutAttr::get(&context, dim, extent, parent));
  };

  check(b, blocked(128, 4), {128, 64});
  check(b, blocked(128, 4), {1024});
  // Row sums of a 4x1024 tile (one run per thread and row: 128 holders),
  // its broadcast row (a thread's four runs share one: one holder), a
  // scalar of it (one run per thread), row sums of a wgmma accumulator
  // (4 lanes; a thread's column runs share one) and a row of a tile whose
  // step is 16 rows.
  check(b, slice(1, 1024, blocked(128, 8)), {4, 1}, true, 128);
  check(b, slice(0, 4, blocked(128, 8)), {1, 1024}, true, 1);
  check(b, slice(0, 4, slice(1, 1024, blocked(128, 8))), {1, 1}, true, 128);
  check(b, slice(1, 64, wgmma(1)), {64, 1}, true, 4);
  check(b, slice(0, 128, blocked(256, 4)), {1, 64}, true, 16);
  // Rows of two CTA-wide steps: runs at constant offsets within a row.
  check(b, blocked(256, 8), {2, 4096});
  check(b, slice(1, 4096, blocked(256, 8)), {2, 1}, true, 256);
  check(b, blocked(64, 8), {4, 8, 16});
  check(b, blocked(32, 1), {96});
  check(b, blocked(256, 2), {16, 32});
  check(b, blocked(16, 4), {8, 8});
  // Shared tiles split unevenly (not a valid fragment): guards and coverage.
  check(b, blocked(32, 4), {100}, /*fragment=*/false);
  check(b, blocked(128, 8), {40, 24}, /*fragment=*/false);
  check(b, wgmma(1), {64, 64});
  check(b, wgmma(1), {64, 8});
  check(b, wgmma(2), {128, 256});
  // 128-row warpgroup tiles: two 64-row blocks each.
  check(b, wgmma(2, 2), {256, 128});
  check(b, wgmma(1, 2), {128, 128});
  check(b, slice(1, 128, wgmma(2, 2)), {256, 1}, true, 4);
  check(b, mma(2, 2), {64, 32});
  check(b, mma(1, 4), {16, 64});
  check(b, mma(4, 1), {128, 16});
  check(b, tmem(1), {128, 32});
  check(b, tmem(2), {128, 256});
  check(b, tmem(4), {128, 64});

  // Lanes and warps per dimension, spelled out.
  if (blocked(128, 4).getLaneDims({128, 64}) != SmallVector<int64_t>{0, 1} ||
      blocked(128, 4).getWarpDims({128, 64}) != SmallVector<int64_t>{0} ||
      wgmma(2).getWarpDims({128, 64}) != SmallVector<int64_t>{0} ||
      mma(2, 2).getWarpDims({64, 32}) != SmallVector<int64_t>{0, 1}) {
    llvm::errs() << "FAIL getLaneDims / getWarpDims\n";
    ++failures;
  }

  // Layouts that hold a tile alike: a wgmma tile's row values do not depend
  // on its width; a blocked tile's do.
  auto alike = [&](FragmentLayoutAttrInterface a, FragmentLayoutAttrInterface c,
                   ArrayRef<int64_t> shape, bool expected) {
    if (layoutsHoldAlike(a, c, shape) != expected)
      fail(a, shape, Twine("layoutsHoldAlike should be ") +
                         (expected ? "true" : "false"));
  };
  alike(slice(1, 128, wgmma(2)), slice(1, 64, wgmma(2)), {128, 1}, true);
  alike(slice(1, 256, wgmma(1)), slice(1, 8, wgmma(1)), {64, 1}, true);
  alike(slice(1, 1024, blocked(128, 8)), slice(1, 512, blocked(128, 8)),
        {4, 1}, false);
  alike(slice(1, 64, wgmma(2)), slice(1, 64, blocked(256, 4)), {128, 1},
        false);
  alike(blocked(128, 4), blocked(128, 4), {64, 64}, true);
  // Rows held by every thread, whether in runs of 4 or of 8: alike; a row
  // per warp is not.
  alike(slice(1, 1024, blocked(128, 4)), slice(1, 1024, blocked(128, 8)),
        {4, 1}, true);
  alike(slice(1, 1024, blocked(128, 4)),
        slice(1, 1024, blocked(128, 8, 32)), {4, 1}, false);
  // Layouts that cannot lay out the shape hold nothing alike, even where
  // their formulas would agree (a wgmma tile needs a multiple of 64 rows).
  alike(wgmma(1), wgmma(1, 2), {32, 8}, false);

  // Runs in boxes (slices of a fragment) and runs at offsets (a matrix
  // instruction's tiles).
  auto inBox = [&](FragmentLayoutAttrInterface layout,
                   ArrayRef<int64_t> shape, ArrayRef<int64_t> offsets,
                   ArrayRef<int64_t> sizes,
                   function_ref<std::optional<bool>(int64_t)> expected) {
    for (int64_t r = 0; r < layout.getRunsPerThread(shape); ++r)
      if (layout.isRunInBox(shape, r, offsets, sizes) != expected(r))
        fail(layout, shape, "isRunInBox is wrong for run " + Twine(r));
  };
  // wgmma: whole rows and 8-column groups decide by run alone.
  inBox(wgmma(1), {64, 64}, {0, 8}, {64, 16},
        [](int64_t r) -> std::optional<bool> { return r / 2 == 1 || r / 2 == 2; });
  inBox(wgmma(1), {64, 64}, {0, 4}, {64, 8},
        [](int64_t r) -> std::optional<bool> {
          return r / 2 <= 1 ? std::nullopt : std::optional<bool>(false);
        });
  inBox(wgmma(2), {128, 64}, {0, 0}, {64, 64},
        [](int64_t) -> std::optional<bool> { return std::nullopt; });
  // mma: columns decide by run alone only with one warp across them.
  inBox(mma(2, 1), {64, 16}, {0, 8}, {64, 8},
        [](int64_t r) -> std::optional<bool> { return (r / 2) % 2 == 1; });
  // With two: tile j = 1 is inside for warp column 0 only; j = 0 outside
  // for both.
  inBox(mma(2, 2), {64, 32}, {0, 8}, {64, 8},
        [](int64_t r) -> std::optional<bool> {
          return (r / 2) % 2 == 0 ? std::optional<bool>(false) : std::nullopt;
        });
  // blocked: a CTA-wide step of 8 rows.
  inBox(blocked(128, 4), {128, 64}, {8, 0}, {8, 64},
        [](int64_t r) -> std::optional<bool> { return r == 1; });
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j)
      if (mma(2, 2).findRunAtOffset({64, 32}, {16 * i, 8 * j}) !=
          2 * (i * 2 + j))
        fail(mma(2, 2), {64, 32}, "findRunAtOffset misses tile (" +
                                      Twine(i) + ", " + Twine(j) + ")");
  for (int64_t r = 0; r < 32; ++r)
    if (wgmma(1).findRunAtOffset({64, 128}, {8 * (r % 2), 8 * (r / 2)}) != r)
      fail(wgmma(1), {64, 128}, "findRunAtOffset misses run " + Twine(r));
  // With blocks, block i's runs follow block i - 1's, 64 rows down.
  for (int64_t r = 0; r < 64; ++r)
    if (wgmma(2, 2).findRunAtOffset(
            {256, 128}, {64 * (r / 32) + 8 * (r % 2), 8 * ((r % 32) / 2)}) != r)
      fail(wgmma(2, 2), {256, 128}, "findRunAtOffset misses run " + Twine(r));
  if (mma(2, 2).findRunAtOffset({64, 32}, {4, 0}))
    fail(mma(2, 2), {64, 32}, "findRunAtOffset finds a run at {4, 0}");

  // What verifyShape refuses (the messages are tested in
  // layout-verify-invalid.mlir).
  struct Refused {
    FragmentLayoutAttrInterface layout;
    SmallVector<int64_t> shape;
    int64_t threads;
  } refused[] = {
      {blocked(32, 8), {64, 12}, 0},   {blocked(128, 4, 32), {256}, 0},
      {blocked(128, 4), {1024}, 256},  {wgmma(2), {64, 64}, 0},
      {wgmma(1), {64, 264}, 0},        {wgmma(1), {64, 64}, 256},
      {wgmma(2, 2), {128, 64}, 0},     {wgmma(1, 2), {192, 64}, 0},
      {wgmma(2, 0), {0, 64}, 0},
      {mma(2, 2), {48, 32}, 0},        {mma(1, 1), {16, 8, 8}, 0},
      {mma(2, 2), {64, 32}, 64},
      {tmem(1), {64, 32}, 0},          {tmem(2), {128, 12}, 0},
      {tmem(2), {128, 64}, 128},
  };
  for (const Refused &r : refused)
    if (r.layout.accepts(r.shape, r.threads))
      fail(r.layout, r.shape,
           "verifyShape accepts it for " + Twine(r.threads) + " threads");

  if (failures)
    return 1;
  llvm::outs() << "layout-selftest: all checks passed\n";
  return 0;
}
