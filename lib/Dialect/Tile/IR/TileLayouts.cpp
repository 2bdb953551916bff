//===- TileLayouts.cpp - what each fragment layout means -----------------===//
//
// FragmentLayoutAttrInterface for #tile.blocked, #tile.wgmma,
// #tile.tmem_32x32b, #tile.mma and #tile.slice (TileDialect.cpp holds the
// dialect, its types and the other attributes).
//
//===----------------------------------------------------------------------===//

#include "TileOpsCommon.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"
#include <limits>

using namespace mlir;
using namespace mlir::tile;
using mlir::tile::detail::formatShape;

//===----------------------------------------------------------------------===//
// Fragment layouts (FragmentLayoutAttrInterface)
//===----------------------------------------------------------------------===//

Value mlir::tile::detail::buildRoundRobinHasRun(OpBuilder &b, Location loc,
                                                int64_t runs, int64_t threads,
                                                Value tid, int64_t run) {
  Value index = arith::AddIOp::create(
      b, loc, tid, arith::ConstantIndexOp::create(b, loc, run * threads));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                               arith::ConstantIndexOp::create(b, loc, runs));
}

std::optional<bool> mlir::tile::detail::isRunInBox(
    FragmentLayoutAttrInterface layout, ArrayRef<int64_t> shape, int64_t run,
    ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  int64_t width = layout.getRunWidth(shape);
  std::optional<bool> inside;
  for (int64_t tid = 0, e = layout.getNumThreads(); tid < e; ++tid) {
    if (!layout.hasRun(shape, tid, run))
      continue;
    SmallVector<int64_t> coords = layout.getRunCoordinates(shape, tid, run);
    for (int64_t v = 0; v < width; ++v) {
      bool in = true;
      for (size_t d = 0; d < shape.size(); ++d) {
        int64_t c = coords[d] + (d + 1 == shape.size() ? v : 0);
        in &= c >= offsets[d] && c < offsets[d] + sizes[d];
      }
      if (inside && *inside != in)
        return std::nullopt;
      inside = in;
    }
  }
  return inside.value_or(false);
}

FailureOr<SmallVector<int64_t>>
mlir::tile::detail::spreadDims(FailureOr<SmallVector<DimSpread>> spread,
                               bool warps) {
  if (failed(spread))
    return failure();
  SmallVector<int64_t> dims;
  for (auto [d, s] : llvm::enumerate(*spread))
    if ((warps ? s.warps : s.lanes) > 1)
      dims.push_back(d);
  return dims;
}

// A layout error through `emitError`; silent when it is null (a query).
static LogicalResult layoutError(function_ref<InFlightDiagnostic()> emitError,
                                 const Twine &message) {
  if (emitError)
    return emitError() << message;
  return failure();
}

// A layout for `layoutThreads` threads used in a kernel (or team) of
// `threads` (0: unknown, anything goes); `instead` says what to write.
static LogicalResult verifyLayoutThreads(
    function_ref<InFlightDiagnostic()> emitError, int64_t layoutThreads,
    int64_t threads, const std::string &instead) {
  if (!threads || layoutThreads == threads)
    return success();
  return layoutError(emitError, "has a layout for " + Twine(layoutThreads) +
                                    " threads in a kernel of " +
                                    Twine(threads) + "; " + instead);
}

// Row-major coordinates of element `linear` of a tile of `shape`.
static SmallVector<int64_t> delinearize(ArrayRef<int64_t> shape,
                                        int64_t linear) {
  SmallVector<int64_t> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    coords[d] = d == 0 ? linear : linear % shape[d];
    linear /= shape[d];
  }
  return coords;
}

//===- #tile.blocked ------------------------------------------------------===//

// Threads per part, at least 1: queries may come before the verifier has
// refused a bad part (or thread count), and must not divide by zero.
static int64_t partThreads(BlockedLayoutAttr layout) {
  return std::max<int64_t>(1, layout.getPartThreads());
}

// Elements of each part: the whole tile when the layout has one part.
static int64_t partElements(BlockedLayoutAttr layout, ArrayRef<int64_t> shape) {
  int64_t parts = layout.getThreads() / partThreads(layout);
  return ShapedType::getNumElements(shape) / std::max<int64_t>(1, parts);
}

int64_t BlockedLayoutAttr::getNumThreads() const { return getThreads(); }

int64_t BlockedLayoutAttr::getRunWidth(ArrayRef<int64_t>) const {
  return getVector();
}

SmallVector<int64_t>
BlockedLayoutAttr::getRunCoordinates(ArrayRef<int64_t> shape, int64_t tid,
                                     int64_t run) const {
  int64_t group = partThreads(*this);
  return delinearize(shape, (tid / group) * partElements(*this, shape) +
                                (tid % group + run * group) * getVector());
}

SmallVector<Value>
BlockedLayoutAttr::buildRunCoordinates(OpBuilder &b, Location loc,
                                       ArrayRef<int64_t> shape, Value tid,
                                       int64_t run) const {
  // In 32 bits where every linear index fits (a register tile always
  // does): 64-bit divisions by the row width cost a dozen instructions
  // each, 32-bit ones a multiply-high and a shift.
  int64_t group = partThreads(*this);
  bool narrow = ShapedType::getNumElements(shape) +
                    (run + 1) * getThreads() * getVector() <
                std::numeric_limits<int32_t>::max();
  Type type = narrow ? Type(b.getI32Type()) : Type(b.getIndexType());
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
  };
  if (narrow)
    tid = arith::IndexCastUIOp::create(b, loc, type, tid);
  // linear = (tid + r * threads) * vector, then row-major delinearisation;
  // with parts, tid is the thread's index in its part, and the part's
  // first element is added.
  Value inPart = tid;
  if (getPart())
    inPart = arith::RemUIOp::create(b, loc, tid, cst(group));
  Value runIndex = arith::AddIOp::create(b, loc, inPart, cst(run * group));
  Value linear = arith::MulIOp::create(b, loc, runIndex, cst(getVector()));
  if (getPart()) {
    Value part = arith::DivUIOp::create(b, loc, tid, cst(group));
    Value first =
        arith::MulIOp::create(b, loc, part, cst(partElements(*this, shape)));
    linear = arith::AddIOp::create(b, loc, linear, first);
  }
  SmallVector<Value> coords(shape.size());
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value c = linear;
    if (stride != 1)
      c = arith::DivUIOp::create(b, loc, c, cst(stride));
    if (d != 0)
      c = arith::RemUIOp::create(b, loc, c, cst(shape[d]));
    coords[d] = narrow ? arith::IndexCastUIOp::create(b, loc,
                                                      b.getIndexType(), c)
                       : c;
    stride *= shape[d];
  }
  return coords;
}

std::optional<SmallVector<int64_t>>
BlockedLayoutAttr::getRunOffset(ArrayRef<int64_t> shape, int64_t run) const {
  // Constant when the step between a thread's runs (its part's threads x
  // vector) is whole rows, or divides a row and every thread's run 0 is
  // within the first step of its row (parts of whole rows), or the tile is
  // 1-D.
  int64_t groupStep = partThreads(*this) * getVector();
  int64_t step = run * groupStep;
  if (shape.size() == 1)
    return SmallVector<int64_t>{step};
  if (shape.size() == 2 &&
      (groupStep % shape[1] == 0 ||
       (shape[1] % groupStep == 0 &&
        partElements(*this, shape) % shape[1] == 0)))
    return SmallVector<int64_t>{step / shape[1], step % shape[1]};
  return std::nullopt;
}

FailureOr<SmallVector<DimSpread>>
BlockedLayoutAttr::getSpread(ArrayRef<int64_t> shape) const {
  // Parts split the outermost dimensions first (they are consecutive
  // elements); within a part, threads take consecutive runs: lanes the
  // innermost 32 (or all threads, when fewer), warps the next. Each must
  // factor along the dimensions.
  int64_t threads = getThreads(), group = partThreads(*this);
  if (threads < 1 || getVector() < 1 || shape.empty() ||
      shape.back() % getVector() != 0 || (threads > 32 && threads % 32 != 0) ||
      threads % group != 0)
    return failure();
  SmallVector<int64_t> left(shape);
  left.back() /= getVector();
  SmallVector<DimSpread> spread(shape.size());
  auto place = [&](int64_t count, bool warps, bool outerFirst) -> LogicalResult {
    for (int64_t i = 0, e = shape.size(); i < e && count > 1; ++i) {
      int64_t d = outerFirst ? i : e - 1 - i;
      int64_t take = std::min(count, left[d]);
      if (left[d] % take != 0 || count % take != 0)
        return failure();
      (warps ? spread[d].warps : spread[d].lanes) *= take;
      left[d] /= take;
      count /= take;
    }
    return success(count == 1);
  };
  if (failed(place(threads / group, /*warps=*/true, /*outerFirst=*/true)) ||
      failed(place(std::min<int64_t>(group, 32), /*warps=*/false,
                   /*outerFirst=*/false)) ||
      failed(place(llvm::divideCeil(group, 32), /*warps=*/true,
                   /*outerFirst=*/false)))
    return failure();
  return spread;
}

LogicalResult
BlockedLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, int64_t threads) const {
  int64_t vector = getVector();
  if (getThreads() < 1 || vector < 1)
    return layoutError(emitError,
                       "blocked layout needs positive threads and vector");
  // Bounded first, so that the products below cannot overflow.
  if (getThreads() > 1024 || vector > kMaxFragmentElements)
    return layoutError(emitError,
                       "blocked layout threads must be at most 1024 (a CTA) "
                       "and vector at most 2^24 (a fragment), got threads = " +
                           Twine(getThreads()) + ", vector = " +
                           Twine(vector));
  if (shape.empty())
    return layoutError(emitError, "blocked layout needs a tile of at least "
                                  "one dimension");
  if (int64_t part = getPart();
      part != 0 && (part < 0 || part % 32 != 0 || part >= getThreads() ||
                    getThreads() % part != 0))
    return layoutError(
        emitError,
        "blocked layout part (" + Twine(part) + ") must be a multiple of 32 "
            "that divides threads (" + Twine(getThreads()) +
            ") and is less than it; write part = 32 for a part per warp, or "
            "leave part out for one part of all threads");
  // The widest narrower power-of-two run that would fit, to suggest.
  int64_t elements = ShapedType::getNumElements(shape);
  auto fits = [&](int64_t v) {
    return shape.back() % v == 0 && elements % (getThreads() * v) == 0;
  };
  std::string instead;
  for (int64_t v = llvm::PowerOf2Ceil(vector) / 2; v >= 1; v /= 2)
    if (fits(v)) {
      instead = ("; vector = " + Twine(v) + " would fit").str();
      break;
    }
  if (shape.back() % vector != 0)
    return layoutError(emitError, "blocked layout vector (" + Twine(vector) +
                                      ") must divide the innermost "
                                      "dimension (" +
                                      Twine(shape.back()) + ")" + instead);
  // Without parts, runs are dealt round-robin and may run out before the
  // threads do (a 1x1 fragment in a CTA of 128: thread 0 holds it); the
  // lowerings guard the runs a thread lacks. Parts split the elements.
  if (getPart() && elements % (getThreads() * vector) != 0)
    return layoutError(emitError,
                       "blocked layout with parts spreads runs of " +
                           Twine(vector) + " over " + Twine(getThreads()) +
                           " threads, which does not divide the " +
                           Twine(elements) + " elements" + instead +
                           "; leave part out for a layout in which some "
                           "threads hold fewer runs");
  return verifyLayoutThreads(
      emitError, getThreads(), threads,
      ("write threads = " + Twine(threads) +
       " (or leave the layout to tile-assign-layouts)")
          .str());
}

//===- #tile.wgmma --------------------------------------------------------===//

int64_t WgmmaLayoutAttr::getNumThreads() const {
  return 128 * getWarpgroups();
}

int64_t WgmmaLayoutAttr::getRunWidth(ArrayRef<int64_t>) const { return 2; }

// Run r = (N / 4) i + 2 c + h (block i, 8-column chunk c, half h) sits at
// (64 i + 8 h, 8 c) from the thread's first run, the same for every thread.
std::optional<SmallVector<int64_t>>
WgmmaLayoutAttr::getRunOffset(ArrayRef<int64_t> shape, int64_t run) const {
  int64_t perBlock = shape[1] / 4;
  int64_t block = run / perBlock, inBlock = run % perBlock;
  return SmallVector<int64_t>{64 * block + 8 * (inBlock % 2),
                              8 * (inBlock / 2)};
}

SmallVector<int64_t>
WgmmaLayoutAttr::getRunCoordinates(ArrayRef<int64_t> shape, int64_t tid,
                                   int64_t run) const {
  // The first run: row 64 B g + 16 w + l / 4 (tid / 32 = 4 g + w), column
  // 2 (l % 4).
  int64_t lane = tid % 32, warp = tid / 32;
  SmallVector<int64_t> offset = *getRunOffset(shape, run);
  return {64 * getBlocks() * (warp / 4) + 16 * (warp % 4) + lane / 4 +
              offset[0],
          2 * (lane % 4) + offset[1]};
}

SmallVector<Value>
WgmmaLayoutAttr::buildRunCoordinates(OpBuilder &b, Location loc,
                                     ArrayRef<int64_t> shape, Value tid,
                                     int64_t run) const {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto div = [&](Value v, int64_t d) -> Value {
    return arith::DivUIOp::create(b, loc, v, cst(d));
  };
  auto rem = [&](Value v, int64_t d) -> Value {
    return arith::RemUIOp::create(b, loc, v, cst(d));
  };
  SmallVector<int64_t> offset = *getRunOffset(shape, run);
  Value lane = rem(tid, 32);
  // 16 w + 64 g = 16 (tid / 32) with one block; with B, warpgroup g's rows
  // start at 64 B g.
  Value row;
  if (getBlocks() == 1) {
    row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, div(tid, 32), cst(16)),
        div(lane, 4));
  } else {
    Value warp = div(tid, 32);
    row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, rem(warp, 4), cst(16)),
        arith::MulIOp::create(b, loc, div(warp, 4), cst(64 * getBlocks())));
    row = arith::AddIOp::create(b, loc, row, div(lane, 4));
  }
  row = arith::AddIOp::create(b, loc, row, cst(offset[0]));
  Value col = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, rem(lane, 4), cst(2)),
      cst(offset[1]));
  return {row, col};
}

FailureOr<SmallVector<DimSpread>>
WgmmaLayoutAttr::getSpread(ArrayRef<int64_t> shape) const {
  if (shape.size() != 2)
    return failure();
  return SmallVector<DimSpread>{{8, 4 * getWarpgroups()}, {4, 1}};
}

LogicalResult
WgmmaLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> shape, int64_t threads) const {
  int64_t groups = getWarpgroups(), blocks = getBlocks();
  if (groups < 1 || blocks < 1)
    return layoutError(emitError, "wgmma layout needs warpgroups >= 1 and "
                                  "blocks >= 1, got warpgroups = " +
                                      Twine(groups) +
                                      ", blocks = " + Twine(blocks));
  // At most a CTA's 8 warpgroups and a fragment's rows: 64 x blocks x
  // groups cannot overflow.
  if (groups > 8 || blocks > kMaxFragmentElements)
    return layoutError(emitError, "wgmma layout needs warpgroups of at most 8 "
                                  "(a CTA) and blocks of at most 2^24, got "
                                  "warpgroups = " +
                                      Twine(groups) +
                                      ", blocks = " + Twine(blocks));
  if (shape.size() != 2 || shape[0] != 64 * blocks * groups ||
      shape[1] % 8 != 0 || shape[1] > 256) {
    std::string instead;
    if (shape.size() == 2 && shape[0] != 64 * blocks * groups) {
      if (shape[0] % (64 * groups) == 0 && shape[0] > 64 * groups)
        instead = ("; for " + Twine(shape[0]) + " rows write #tile.wgmma<"
                   "warpgroups = " + Twine(groups) + ", blocks = " +
                   Twine(shape[0] / (64 * groups)) + ">")
                      .str();
      else if (shape[0] % 64 == 0)
        instead = ("; for " + Twine(shape[0]) + " rows write #tile.wgmma<"
                   "warpgroups = " + Twine(shape[0] / 64) + ">")
                      .str();
    }
    return layoutError(emitError,
                       "wgmma layout needs a (64 x blocks x warpgroups) x N "
                       "tile with N a multiple of 8 up to 256, got " +
                           formatShape(shape) + " with warpgroups = " +
                           Twine(groups) + ", blocks = " + Twine(blocks) +
                           instead);
  }
  // The layout for these threads that holds this tile: its blocks follow
  // from the rows.
  int64_t fitBlocks =
      threads >= 128 && shape[0] % (64 * (threads / 128)) == 0
          ? shape[0] / (64 * (threads / 128))
          : blocks;
  std::string blocksText =
      fitBlocks > 1 ? ", blocks = " + std::to_string(fitBlocks) : "";
  return verifyLayoutThreads(
      emitError, getNumThreads(), threads,
      threads % 128 == 0
          ? ("write #tile.wgmma<warpgroups = " + Twine(threads / 128) +
             blocksText + ">")
                .str()
          : std::string("wgmma layouts need a multiple of 128 threads"));
}

//===- #tile.tmem_32x32b --------------------------------------------------===//

// Thread 128 g + 32 w + l: row 32 w + l, columns from g N / G in runs of 4.
static constexpr int64_t kTmemRun = 4;

int64_t Tmem32x32bLayoutAttr::getNumThreads() const {
  return 128 * getWarpgroups();
}

int64_t Tmem32x32bLayoutAttr::getRunWidth(ArrayRef<int64_t>) const {
  return kTmemRun;
}

SmallVector<int64_t>
Tmem32x32bLayoutAttr::getRunCoordinates(ArrayRef<int64_t> shape, int64_t tid,
                                        int64_t run) const {
  int64_t columns = shape[1] / getWarpgroups();
  return {tid % 128, (tid / 128) * columns + kTmemRun * run};
}

SmallVector<Value>
Tmem32x32bLayoutAttr::buildRunCoordinates(OpBuilder &b, Location loc,
                                          ArrayRef<int64_t> shape, Value tid,
                                          int64_t run) const {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t columns = shape[1] / getWarpgroups();
  Value row = arith::RemUIOp::create(b, loc, tid, cst(128));
  Value col = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, tid, cst(128)),
                            cst(columns)),
      cst(kTmemRun * run));
  return {row, col};
}

std::optional<SmallVector<int64_t>>
Tmem32x32bLayoutAttr::getRunOffset(ArrayRef<int64_t>, int64_t run) const {
  return SmallVector<int64_t>{0, kTmemRun * run};
}

FailureOr<SmallVector<DimSpread>>
Tmem32x32bLayoutAttr::getSpread(ArrayRef<int64_t> shape) const {
  if (shape.size() != 2)
    return failure();
  return SmallVector<DimSpread>{{32, 4}, {1, getWarpgroups()}};
}

LogicalResult Tmem32x32bLayoutAttr::verifyShape(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
    int64_t threads) const {
  int64_t groups = getWarpgroups();
  if (groups < 1 || groups > 8 || shape.size() != 2 || shape[0] != 128 ||
      shape[1] % (kTmemRun * groups) != 0)
    return layoutError(emitError,
                       "tmem_32x32b layout needs a 128 x N tile (one row per "
                       "thread of a warpgroup) with N a multiple of 4 x "
                       "warpgroups, got " +
                           formatShape(shape) + " with warpgroups = " +
                           Twine(groups));
  return verifyLayoutThreads(
      emitError, getNumThreads(), threads,
      threads % 128 == 0
          ? ("write #tile.tmem_32x32b<warpgroups = " + Twine(threads / 128) +
             ">")
                .str()
          : std::string("tmem_32x32b layouts need a multiple of 128 threads"));
}

//===- #tile.mma ----------------------------------------------------------===//

int64_t MmaLayoutAttr::getNumThreads() const {
  return 32 * getWarpsM() * getWarpsN();
}

int64_t MmaLayoutAttr::getRunWidth(ArrayRef<int64_t>) const { return 2; }

SmallVector<int64_t>
MmaLayoutAttr::getRunCoordinates(ArrayRef<int64_t> shape, int64_t tid,
                                 int64_t run) const {
  // Run r = 2 (i tn + j) + h of warp (wm, wn): row wm TM + 16 i + l / 4 + 8 h,
  // column wn TN + 8 j + 2 (l % 4).
  int64_t tileM = shape[0] / getWarpsM(), tileN = shape[1] / getWarpsN();
  int64_t tn = tileN / 8;
  int64_t i = (run / 2) / tn, j = (run / 2) % tn, h = run % 2;
  int64_t warp = tid / 32, lane = tid % 32;
  int64_t wm = warp / getWarpsN(), wn = warp % getWarpsN();
  return {wm * tileM + lane / 4 + 16 * i + 8 * h,
          wn * tileN + 2 * (lane % 4) + 8 * j};
}

SmallVector<Value>
MmaLayoutAttr::buildRunCoordinates(OpBuilder &b, Location loc,
                                   ArrayRef<int64_t> shape, Value tid,
                                   int64_t run) const {
  int64_t warpsM = getWarpsM(), warpsN = getWarpsN();
  int64_t tileM = shape[0] / warpsM, tileN = shape[1] / warpsN;
  int64_t tn = tileN / 8;
  int64_t i = (run / 2) / tn, j = (run / 2) % tn, h = run % 2;
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value warp = arith::DivUIOp::create(b, loc, tid, cst(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, cst(32));
  Value wm = arith::DivUIOp::create(b, loc, warp, cst(warpsN));
  Value wn = arith::RemUIOp::create(b, loc, warp, cst(warpsN));
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, wm, cst(tileM)),
      arith::DivUIOp::create(b, loc, lane, cst(4)));
  row = arith::AddIOp::create(b, loc, row, cst(16 * i + 8 * h));
  Value col = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, wn, cst(tileN)),
      arith::MulIOp::create(b, loc, arith::RemUIOp::create(b, loc, lane, cst(4)),
                            cst(2)));
  col = arith::AddIOp::create(b, loc, col, cst(8 * j));
  return {row, col};
}

std::optional<SmallVector<int64_t>>
MmaLayoutAttr::getRunOffset(ArrayRef<int64_t> shape, int64_t run) const {
  int64_t tn = shape[1] / getWarpsN() / 8;
  int64_t i = (run / 2) / tn, j = (run / 2) % tn, h = run % 2;
  return SmallVector<int64_t>{16 * i + 8 * h, 8 * j};
}

FailureOr<SmallVector<DimSpread>>
MmaLayoutAttr::getSpread(ArrayRef<int64_t> shape) const {
  if (shape.size() != 2)
    return failure();
  return SmallVector<DimSpread>{{8, getWarpsM()}, {4, getWarpsN()}};
}

LogicalResult
MmaLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> shape, int64_t threads) const {
  int64_t warpsM = getWarpsM(), warpsN = getWarpsN();
  // At most a CTA's 32 warps, so that the products below cannot overflow.
  if (warpsM > 32 || warpsN > 32 ||
      (warpsM >= 1 && warpsN >= 1 && warpsM * warpsN > 32))
    return layoutError(emitError,
                       "mma layout needs warps_m x warps_n of at most 32 (a "
                       "CTA's warps), got warps_m = " +
                           Twine(warpsM) + ", warps_n = " + Twine(warpsN));
  if (warpsM < 1 || warpsN < 1 || shape.size() != 2 ||
      shape[0] % (16 * warpsM) != 0 || shape[1] % (8 * warpsN) != 0)
    return layoutError(
        emitError,
        "mma layout needs a 2-D tile whose rows split into 16-row and "
        "columns into 8-column tiles per warp, got " +
            formatShape(shape) + " over warps_m = " + Twine(warpsM) +
            ", warps_n = " + Twine(warpsN) +
            " (rows a multiple of 16 x warps_m, columns of 8 x warps_n)");
  return verifyLayoutThreads(
      emitError, getNumThreads(), threads,
      threads % 32 == 0
          ? ("write warps_m x warps_n = " + Twine(threads / 32)).str()
          : std::string("mma layouts need a multiple of 32 threads"));
}

bool mlir::tile::layoutsHoldAlike(FragmentLayoutAttrInterface a,
                                  FragmentLayoutAttrInterface b,
                                  ArrayRef<int64_t> shape) {
  if (a == b)
    return true;
  if (!a || !b || !a.accepts(shape) || !b.accepts(shape))
    return false;
  int64_t runs = a.getRunsPerThread(shape);
  if (a.getNumThreads() != b.getNumThreads() ||
      a.getRunWidth(shape) != b.getRunWidth(shape) ||
      runs != b.getRunsPerThread(shape) || a.isEven(shape) != b.isEven(shape))
    return false;
  for (int64_t tid = 0; tid < a.getNumThreads(); ++tid)
    for (int64_t run = 0; run < runs; ++run) {
      bool held = a.hasRun(shape, tid, run);
      if (held != b.hasRun(shape, tid, run) ||
          (held && a.getRunCoordinates(shape, tid, run) !=
                       b.getRunCoordinates(shape, tid, run)))
        return false;
    }
  return true;
}

//===- #tile.slice --------------------------------------------------------===//
//
// Everything is asked of the parent on the parent's shape (`dim` widened to
// `extent`); the coordinate along `dim` is then dropped to 0.

FragmentLayoutAttrInterface SliceLayoutAttr::getParentLayout() const {
  return dyn_cast_or_null<FragmentLayoutAttrInterface>(getParent());
}

SmallVector<int64_t>
SliceLayoutAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parent(shape);
  if (getDim() >= 0 && getDim() < static_cast<int64_t>(parent.size()))
    parent[getDim()] = getExtent();
  return parent;
}

int64_t SliceLayoutAttr::getNumThreads() const {
  return getParentLayout().getNumThreads();
}

int64_t SliceLayoutAttr::getRunWidth(ArrayRef<int64_t> shape) const {
  // A run along `dim` collapses to one element.
  if (getDim() + 1 == static_cast<int64_t>(shape.size()))
    return 1;
  return getParentLayout().getRunWidth(getParentShape(shape));
}

// Parent runs grouped by their offset from run 0 with the coordinate along
// `dim` dropped (one group per parent run where offsets depend on the
// thread, or the parent is uneven): group of each parent run, and the first
// parent run of each group.
static std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
groupParentRuns(SliceLayoutAttr slice, ArrayRef<int64_t> shape) {
  FragmentLayoutAttrInterface parent = slice.getParentLayout();
  SmallVector<int64_t> parentShape = slice.getParentShape(shape);
  int64_t runs = parent.getRunsPerThread(parentShape);
  SmallVector<int64_t> groupOf, firsts;
  SmallVector<SmallVector<int64_t>> keys;
  bool fixed = parent.isEven(parentShape);
  for (int64_t r = 0; r < runs && fixed; ++r) {
    std::optional<SmallVector<int64_t>> offset =
        parent.getRunOffset(parentShape, r);
    if (!offset) {
      fixed = false;
      break;
    }
    (*offset)[slice.getDim()] = 0;
    auto *it = llvm::find(keys, *offset);
    if (it == keys.end()) {
      keys.push_back(*offset);
      firsts.push_back(r);
    }
    groupOf.push_back(llvm::find(keys, *offset) - keys.begin());
  }
  if (!fixed) {
    groupOf.clear();
    firsts.clear();
    for (int64_t r = 0; r < runs; ++r) {
      groupOf.push_back(r);
      firsts.push_back(r);
    }
  }
  return {groupOf, firsts};
}

SmallVector<int64_t>
SliceLayoutAttr::getParentRuns(ArrayRef<int64_t> shape) const {
  return groupParentRuns(*this, shape).second;
}

SmallVector<int64_t>
SliceLayoutAttr::getSliceRuns(ArrayRef<int64_t> shape) const {
  return groupParentRuns(*this, shape).first;
}

int64_t SliceLayoutAttr::getRunsPerThread(ArrayRef<int64_t> shape) const {
  return getParentRuns(shape).size();
}

bool SliceLayoutAttr::isEven(ArrayRef<int64_t> shape) const {
  return getParentLayout().isEven(getParentShape(shape));
}

bool SliceLayoutAttr::hasRun(ArrayRef<int64_t> shape, int64_t tid,
                             int64_t run) const {
  return getParentLayout().hasRun(getParentShape(shape), tid,
                                  getParentRuns(shape)[run]);
}

Value SliceLayoutAttr::buildHasRun(OpBuilder &b, Location loc,
                                   ArrayRef<int64_t> shape, Value tid,
                                   int64_t run) const {
  return getParentLayout().buildHasRun(b, loc, getParentShape(shape), tid,
                                       getParentRuns(shape)[run]);
}

SmallVector<int64_t>
SliceLayoutAttr::getRunCoordinates(ArrayRef<int64_t> shape, int64_t tid,
                                   int64_t run) const {
  SmallVector<int64_t> coords = getParentLayout().getRunCoordinates(
      getParentShape(shape), tid, getParentRuns(shape)[run]);
  coords[getDim()] = 0;
  return coords;
}

SmallVector<Value>
SliceLayoutAttr::buildRunCoordinates(OpBuilder &b, Location loc,
                                     ArrayRef<int64_t> shape, Value tid,
                                     int64_t run) const {
  SmallVector<Value> coords = getParentLayout().buildRunCoordinates(
      b, loc, getParentShape(shape), tid, getParentRuns(shape)[run]);
  coords[getDim()] = arith::ConstantIndexOp::create(b, loc, 0);
  return coords;
}

std::optional<SmallVector<int64_t>>
SliceLayoutAttr::getRunOffset(ArrayRef<int64_t> shape, int64_t run) const {
  std::optional<SmallVector<int64_t>> offset = getParentLayout().getRunOffset(
      getParentShape(shape), getParentRuns(shape)[run]);
  if (offset)
    (*offset)[getDim()] = 0;
  return offset;
}

FailureOr<SmallVector<DimSpread>>
SliceLayoutAttr::getSpread(ArrayRef<int64_t> shape) const {
  FailureOr<SmallVector<DimSpread>> spread =
      getParentLayout().getSpread(getParentShape(shape));
  if (succeeded(spread))
    (*spread)[getDim()] = DimSpread();
  return spread;
}

LogicalResult
SliceLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> shape, int64_t threads) const {
  if (!getParentLayout())
    return layoutError(emitError, "slice layout's parent must be a fragment "
                                  "layout");
  if (getDim() < 0 || getDim() >= static_cast<int64_t>(shape.size()))
    return layoutError(emitError, "slice layout dim " + Twine(getDim()) +
                                      " is not a dimension of " +
                                      formatShape(shape));
  if (shape[getDim()] != 1)
    return layoutError(emitError,
                       "slice layout along dim " + Twine(getDim()) +
                           " needs extent 1 there, got " + formatShape(shape));
  if (getExtent() < 1 || getExtent() > kMaxFragmentElements)
    return layoutError(emitError, "slice layout extent must be in [1, 2^24], "
                                  "got " +
                                      Twine(getExtent()));
  // The parent's tile must be one a fragment may be (checked without
  // overflow): its runs are enumerated at compile time.
  int64_t elements = 1;
  for (int64_t dim : getParentShape(shape))
    if (llvm::MulOverflow(elements, dim, elements) ||
        elements > kMaxFragmentElements)
      return layoutError(emitError,
                         "slice layout's parent tile has more than 2^24 "
                         "elements");
  return getParentLayout().verifyShape(emitError, getParentShape(shape),
                                       threads);
}
