//===- Common.h - helpers shared by the tile-to-GPU patterns ----*- C++ -*-===//
//
// Implemented by concern: TypeConverter.cpp (TileToGPUTypeConverter),
// Distribution.cpp (tiles spread over threads), GlobalAccess.cpp (guarded
// runs of global memory: bounds, alignment, predicated inline-PTX loads
// and stores) and Common.cpp (small builders: thread ids, barriers,
// addresses, inline PTX, TMA boxes).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_COMMON_H
#define TILE_LIB_CONVERSION_TILETOGPU_COMMON_H

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>


namespace mlir::tile::lowering {

/// A conversion pattern that lowers for one chip (what it has decides the
/// instructions).
template <typename OpT> struct ChipPattern : OpConversionPattern<OpT> {
  ChipPattern(TypeConverter &converter, MLIRContext *context,
              const ChipInfo &chip)
      : OpConversionPattern<OpT>(converter, context), chip(chip) {}
  const ChipInfo &chip;
};

/// A pattern for the ops (tile.copy, tile.gemm) whose recorded mechanism is
/// `Mechanism`: it matches only those, refuses a chip that cannot do the
/// mechanism (a hand-written one the selection did not check), and lowers
/// with `lower`.
template <typename OpT, auto Mechanism>
struct MechanismPattern : ChipPattern<OpT> {
  using ChipPattern<OpT>::ChipPattern;
  using Adaptor = typename OpT::Adaptor;

  LogicalResult
  matchAndRewrite(OpT op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (op.getMechanism() != Mechanism)
      return rewriter.notifyMatchFailure(op, "another mechanism");
    if (failed(requireMechanism(op, this->chip, Mechanism)))
      return failure();
    return lower(op, adaptor, rewriter);
  }
  virtual LogicalResult lower(OpT op, Adaptor adaptor,
                              ConversionPatternRewriter &rewriter) const = 0;
};

/// How a tile's elements are spread over a CTA's threads: a fragment layout
/// (FragmentLayoutAttrInterface, which says what each layout means) applied
/// to a tile shape. Thread `tid` handles runs r = 0 .. runsPerThread-1 of
/// `vector` consecutive row-major elements. Shared tiles (copies, fills)
/// are split by the #tile.blocked layout for the kernel's threads.
/// A thin wrapper: every question goes to `layout`.
struct Distribution {
  SmallVector<int64_t> shape;
  /// The layout all methods below delegate to; set by forLayout,
  /// forFragment and forMemRef.
  FragmentLayoutAttrInterface layout;
  /// Copies of layout.getNumThreads(), layout.getRunWidth(shape) and
  /// layout.getRunsPerThread(shape) (a slice layout computes the last anew
  /// on every call; loops over runs ask it every iteration).
  int64_t threads = 1;
  int64_t vector = 1;
  int64_t runs = 0;

  int64_t numElements() const;
  int64_t runsPerThread() const { return runs; }
  /// True when every thread has the same number of runs (no guard needed).
  bool isEven() const { return layout.isEven(shape); }

  /// `layout` on a tile of `shape`.
  static Distribution forLayout(FragmentLayoutAttrInterface layout,
                                ArrayRef<int64_t> shape);
  /// A fragment's layout.
  static FailureOr<Distribution> forFragment(Type fragmentType);
  /// The widest run of at most 16 bytes that divides the innermost
  /// dimension, as a #tile.blocked layout over `threads`.
  static Distribution forMemRef(ShapedType type, int64_t threads);

  /// Index of run r's first element for thread `tid`, as tile coordinates.
  SmallVector<Value> runCoordinates(OpBuilder &b, Location loc, Value tid,
                                    int64_t r) const {
    return layout.buildRunCoordinates(b, loc, shape, tid, r);
  }
  /// Run r's coordinates minus run 0's when they are the same for every
  /// thread (the matrix layouts; blocked ones whose CTA-wide step is whole
  /// rows), so that run addresses differ from run 0's by constants.
  std::optional<SmallVector<int64_t>> runOffset(int64_t r) const {
    return layout.getRunOffset(shape, r);
  }
  /// Whether thread `tid` has run r, for uneven distributions.
  Value runExists(OpBuilder &b, Location loc, Value tid, int64_t r) const {
    return layout.buildHasRun(b, loc, shape, tid, r);
  }
};

/// Thread index within the CTA (kernels are 1-D in threads).
Value threadId(OpBuilder &b, Location loc);
/// `threadId == 0`: the thread that issues single-thread work (TMA,
/// barrier initialisation, leader arrivals).
Value isThreadZero(OpBuilder &b, Location loc);
/// `body` under `condition` (an scf.if without results), built at `b`'s
/// insertion point, which it leaves after the if.
void buildIf(OpBuilder &b, Location loc, Value condition,
             function_ref<void(OpBuilder &)> body);
Value constIndex(OpBuilder &b, Location loc, int64_t value);

struct RunBounds {
  Value full;  // every element of the run is in bounds
  Value count; // elements of the run in bounds (0 when its row is outside)
};
/// Bounds of the run of `vector` elements of `memref` starting at `indices`.
RunBounds computeRunBounds(OpBuilder &b, Location loc, Value memref,
                           ValueRange indices, int64_t vector);

/// The byte address of `memref[indices]` as an i64 (generic for global
/// memory, the shared window's for shared memory).
Value elementAddress(OpBuilder &b, Location loc, Value memref,
                     ValueRange indices);
/// The address of `memref[indices]` as an LLVM pointer in `addressSpace`
/// (1 global, 3 shared), for NVVM ops that take pointers.
Value elementPointer(OpBuilder &b, Location loc, Value memref,
                     ValueRange indices, unsigned addressSpace);

/// An inline-PTX statement with side effects (the form every hand-written
/// PTX block of the lowering takes); `resultType` null for none. Returns
/// its result, or null.
Value createInlinePtx(OpBuilder &b, Location loc, Type resultType,
                      ValueRange operands, StringRef text,
                      StringRef constraints);
/// A PTX vector operand `{a, b, ...}`, or the register alone.
std::string ptxRegisters(ArrayRef<std::string> registers);

/// Reads `vector` consecutive elements of a global memref starting at
/// `indices` (GlobalRunAccess::load on one run).
Value loadGlobalRun(OpBuilder &b, Location loc, Value memref,
                    ValueRange indices, int64_t vector, Value aligned);
/// How GlobalRunAccess::store writes a run: plain stores, or atomic f32
/// additions (`red.global.add`), element by element or, on sm_90+, as
/// `.v2`/`.v4` vectors.
enum class GlobalWrite { store, atomicAdd, atomicAddVector };

/// Reads or writes runs of `vector` elements of one copy in a global memref,
/// each as one predicated inline-PTX block (out-of-bounds elements are
/// skipped, and read as 0).
/// Runs are addressed as `base + offset` with a constant offset: sizes,
/// strides and the base address are computed once per writer, row and
/// column terms once per distinct offset, and the offset's columns go into
/// the store's immediate. Every store must be emitted in the block (or a
/// block dominated by the point) where the writer was created.
class GlobalRunAccess {
public:
  GlobalRunAccess(OpBuilder &b, Location loc, Value memref, ValueRange base,
                  int64_t vector, Value aligned,
                  GlobalWrite write = GlobalWrite::store);
  void store(OpBuilder &b, Location loc, Value value,
             ArrayRef<int64_t> offset);
  /// The run at `base + offset`, as a vector of the memref's elements.
  Value load(OpBuilder &b, Location loc, ArrayRef<int64_t> offset);
  /// The same, for a run the caller knows is in bounds and aligned: one
  /// plain vector load or store, no predicates and no element path (the
  /// inside of a copy whose whole box is in bounds).
  Value loadInBounds(OpBuilder &b, Location loc, ArrayRef<int64_t> offset);
  /// From now on, runs are known to be whole in bounds or wholly outside
  /// (the caller checked): load and store guard a vector run by its one
  /// predicate, without the element-by-element path.
  void assumeWholeRuns() { wholeRuns = true; }
  void storeInBounds(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> offset);

private:
  struct Row {
    Value inBounds; // i1
    Value pointer;  // global address of (row, base column)
  };
  struct Column {
    Value count; // i32: elements in bounds from this column, 0 .. vector
    Value full;  // count == vector and runs are aligned
  };
  const Row &row(OpBuilder &b, Location loc, ArrayRef<int64_t> offset);
  /// The address of the run at `base + offset`.
  Value runPointer(OpBuilder &b, Location loc, ArrayRef<int64_t> offset);
  const Column &column(OpBuilder &b, Location loc, int64_t offset);
  Value loadWholeRun(OpBuilder &b, Location loc, Value rowIn, Value whole,
                     Value pointer, int64_t immediate);

  Value memref;
  SmallVector<Value> base, sizes, strides;
  Value baseAddress, aligned;
  int64_t vector;
  GlobalWrite write;
  bool wholeRuns = false;
  std::map<SmallVector<int64_t>, Row> rows;
  std::map<int64_t, Column> columns;
};
/// Whether runs of `vector` elements of `memref` starting at a column that is
/// a multiple of `vector` past `columnOffset` are 16-byte-aligned vectors:
/// checked once per copy at run time.
Value runsAreAligned(OpBuilder &b, Location loc, Value memref,
                     Value columnOffset, int64_t vector);

/// Adds `base[i]` to `coords[i]`.
SmallVector<Value> addIndices(OpBuilder &b, Location loc, ValueRange base,
                              ValueRange coords);
/// A CTA-wide barrier (bar.sync).
void ctaBarrier(OpBuilder &b, Location loc);
/// Ends a write of shared memory by ordinary stores: on chips whose TMA and
/// matrix units read shared memory through the async proxy, each writing
/// thread fences that proxy first; then the CTA synchronises.
void publishSharedWrites(OpBuilder &b, Location loc, const ChipInfo &chip);

/// The TMA box for a shared tile: the tile itself, or, when its rows are
/// wider than its swizzle, one column block (`blocks` of them per row); of
/// each, one of `slices` equal row slices (a multicast copy's per CTA).
struct TmaBox {
  SmallVector<int64_t> shape;
  int64_t blocks = 1;
};
TmaBox getTmaBox(MemRefType tile, int64_t swizzle, int64_t slices = 1);

/// How many CTAs share a copy's tile: the kernel's cluster size for a
/// {multicast} copy (nullopt when the outlined kernel has no cluster size),
/// 1 otherwise.
std::optional<int64_t> multicastSlices(CopyOp copy);

/// Set on TMA copies by assignTmaParameters: the kernel parameter holding
/// their tensor map.
constexpr llvm::StringLiteral kTmaParamAttr = TileDialect::TmaParamAttrHelper::getNameStr();

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_COMMON_H
