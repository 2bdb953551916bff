//===- RegisterCopy.h - copies whose threads move the runs ------*- C++ -*-===//
//
// What the `vector` and `cp_async` copy lowerings share: the distribution
// of the tile's runs over the threads, how each side reads or writes run r,
// and the register path (which cp.async takes for rows that are not 16-byte
// aligned at run time).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_COPY_REGISTERCOPY_H
#define TILE_LIB_CONVERSION_TILETOGPU_COPY_REGISTERCOPY_H

#include "../Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

namespace mlir::tile::lowering {

/// One side of a copy after conversion: how to read or write run r.
struct CopySide {
  MemorySpace space;
  Value value;        // converted operand (fragment storage or memref)
  ValueRange offsets; // global side only
  Value aligned;      // global side only
  int64_t vector = 1;
  GlobalWrite globalWrite = GlobalWrite::store; // global destination only

  Value read(OpBuilder &b, Location loc, ArrayRef<Value> coords,
             int64_t r) const;
  void write(OpBuilder &b, Location loc, Value run, ArrayRef<Value> coords,
             int64_t r) const;
};

/// A copy whose runs the CTA's threads move themselves, checked and
/// distributed. `prepare` emits the located error for what is not lowered.
struct RegisterCopy {
  using RunFn =
      function_ref<void(OpBuilder &, Location, ArrayRef<Value>, int64_t)>;

  static FailureOr<RegisterCopy>
  prepare(CopyOp op, CopyOp::Adaptor adaptor, OpBuilder &b,
          const TileToGPUTypeConverter &converter);

  /// Calls `fn` for each of this thread's runs that `keep` accepts (all
  /// when null), guarded where the distribution is uneven.
  void forEachRun(OpBuilder &b, Location loc, RunFn fn,
                  function_ref<bool(int64_t)> keep = nullptr) const;
  /// Moves every run through registers (the plain path): where the copy
  /// has an in-bounds path, that when its whole box is in bounds and
  /// aligned, else the guarded runs.
  void throughRegisters(OpBuilder &b, Location loc) const;
  /// Every run guarded (out-of-bounds elements skipped or read as 0).
  void guardedRuns(OpBuilder &b, Location loc) const;
  /// A global <-> fragment copy of an even blocked layout whose runs sit
  /// at constant offsets: it can take plain vector accesses when in bounds.
  bool hasInBoundsPath() const;
  /// Where every run is whole or outside (checked at run time), runs of
  /// more than one element of 16 bits or more take one predicated vector
  /// access each.
  bool hasWholeRunsPath() const;
  /// Every run at its constant offset from run 0: by one unpredicated
  /// vector access when `inBounds`, else by one predicated vector access
  /// (runs whole or outside); a load yields its runs (a branch of
  /// throughRegisters' scf.if).
  void runsAtOffsets(OpBuilder &b, Location loc, bool inBounds) const;
  /// Moves the runs one by one to their (swizzled) place, skipping runs
  /// outside a fragment slice.
  void runByRun(OpBuilder &b, Location loc) const;
  /// A fragment slice or a swizzled destination: runByRun's case.
  bool needsRunByRun() const { return !slice.empty() || destSwizzle; }

  CopyOp op;
  Distribution dist;
  CopySide from, to;
  SmallVector<int64_t> slice;  // fragment offsets of a sliced source
  /// Per run of a sliced source: in the slice for every thread (true), for
  /// none (false), or for some (nullopt: checked at run time).
  SmallVector<std::optional<bool>> runInSlice;
  SmallVector<int64_t> dstShape;
  int64_t destSwizzle = 0; // the destination's swizzle (bytes), 0 for none
  /// The global side's box is inside its memref whatever the sizes (the
  /// value-bounds analysis proved it before the conversion,
  /// TileToGPUTypeConverter::proveCopyBoxes): no run-time bounds test.
  bool boxProvedInBounds = false;
  /// The destination's element type where a fragment's floats are rounded
  /// to a narrower type on the way (null otherwise).
  Type roundTo;
  /// Run r as read from the source, rounded to `roundTo` where set.
  Value readRun(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                int64_t r) const;
  /// `run` rounded to `roundTo` where set.
  Value rounded(OpBuilder &b, Location loc, Value run) const;
  /// The global side of a copy between global memory and elsewhere.
  const CopySide &globalSide() const {
    return from.space == MemorySpace::Global ? from : to;
  }
  /// The thread id, read where the runs start (set by `emit`).
  Value tid;

  /// Emits `moveRuns` between what a copy into shared memory owes the CTA
  /// unless it is {async}: a CTA barrier before (earlier readers are done
  /// with the tile) and the published writes after (the copy is complete
  /// for the whole CTA when the op returns).
  void emit(OpBuilder &b, Location loc, const ChipInfo &chip,
            function_ref<void()> moveRuns);
};

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_COPY_REGISTERCOPY_H
