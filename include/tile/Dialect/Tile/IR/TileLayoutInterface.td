//===- TileLayoutInterface.td - what a fragment layout means -*- tablegen -*-===//
//
// The interface every fragment layout (`#tile.blocked`, `#tile.wgmma`,
// `#tile.mma`, `#tile.tmem_32x32b`) implements: which thread of the CTA holds which elements of a
// `!tile.fragment`. Verifiers, layout assignment and the lowerings of copies,
// element-wise ops and products ask the layout through it instead of
// switching over layout kinds.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_INTERFACE
#define TILE_LAYOUT_INTERFACE

include "mlir/IR/OpBase.td"

def Tile_FragmentLayoutAttrInterface
    : AttrInterface<"FragmentLayoutAttrInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A fragment layout says which thread of a CTA holds which elements of a
    statically shaped `!tile.fragment`, and where in its registers.

    **Runs.** Every layout hands each thread *runs*: `getRunWidth(shape)`
    consecutive elements of one row (consecutive in the innermost
    dimension). Thread `tid` holds runs `r = 0 .. getRunsPerThread(shape)-1`;
    run `r` starts at tile coordinates `getRunCoordinates(shape, tid, r)` and
    its element `v` sits in the thread's register slot `r * vector + v`
    (the lowering makes a fragment a per-thread array of
    `runsPerThread * vector` elements). When the layout is *uneven*
    (`isEven(shape)` false) a thread's last runs may not exist: guard them
    with `hasRun` / `buildHasRun`. Where run `r` lies at a constant offset
    from run 0 for every thread, `getRunOffset(shape, r)` gives it, so that
    addresses are computed once per thread and offset by constants;
    `findRunAtOffset` goes the other way (which slots hold a matrix
    instruction's tile), and `isRunInBox` says whether a run is in a slice
    of the tile whatever the thread.

    **Spread.** `getSpread(shape)` says, per tile dimension, how many lanes
    of a warp and how many warps of the CTA the layout spreads along it
    (the lanes multiply to 32, or to the thread count when smaller, the
    warps to the rest); the rest of a dimension is covered by each thread's
    runs and by the run width. A
    reduction along a dimension shuffles across its lanes and goes through
    shared memory across its warps; a broadcast goes the other way.
    `getLaneDims` / `getWarpDims` list the dimensions with more than one.

    **Verification.** `verifyShape(emitError, shape, threads)` checks that
    the layout fits a tile shape (and the kernel's thread count, when not
    0), reporting what to write instead; a null `emitError` makes it a
    silent query (`accepts`), which layout assignment uses to choose.

    The layouts (see each attribute for its parameters):

    * `#tile.blocked<threads = T, vector = V>`: run `n` of the tile (its
      elements `n V .. n V + V - 1` in row-major order) belongs to thread
      `n mod T`, as its run `n / T`. Any rank; even when `T V` divides the
      element count (with parts it must; otherwise the last threads hold a
      run fewer, or none). Run `r`'s offset from run 0 is constant when the
      CTA-wide step `T V` is whole rows or divides a row (or the tile is
      1-D). Lanes and
      warps spread from the innermost dimension outwards, as far as the
      shape factors.
    * `#tile.wgmma<warpgroups = G>` on a 64 G x N tile: runs of 2 columns.
      Thread `tid` = 128 g + 32 w + l holds run `r = 2 c + h` at row
      `64 g + 16 w + l / 4 + 8 h`, column `8 c + 2 (l mod 4)`; N / 4 runs.
      Lanes: 8 along rows, 4 along columns; warps: 4 G along rows.
    * `#tile.mma<warps_m = WM, warps_n = WN>` on an M x N tile: warp
      `wm WN + wn` holds the (M / WM) x (N / WN) block at (wm, wn) as
      tm x tn tiles of 16 x 8; run `r = 2 (i tn + j) + h` of lane `l` is at
      row `wm M / WM + 16 i + l / 4 + 8 h`, column
      `wn N / WN + 8 j + 2 (l mod 4)`. Lanes: 8 along rows, 4 along columns;
      warps: WM along rows, WN along columns.
    * `#tile.tmem_32x32b<warpgroups = G>` on a 128 x N tile (what
      `tcgen05.ld` 32x32b reads from tensor memory): thread
      `tid` = 128 g + 32 w + l holds row `32 w + l`, columns
      `g N / G .. (g + 1) N / G - 1`, in runs of 4. Lanes: 32 along rows;
      warps: 4 along rows, G along columns.

    **Slices.** A `#tile.slice<dim = d, extent = E, parent = P>` layout,
    the layout of a row or column of a tile laid out by `P` (what a
    reduction along `d` leaves, and what a broadcast along `d` reads),
    implements this interface by delegating to `P` on the parent shape with
    extent `E` at `d` (the tile the row was reduced from or is broadcast
    over): a thread holds one run per distinct position of its parent runs
    with the coordinate along `d` dropped; `getNumThreads` is `P`'s, and
    `getSpread` drops entry `d` — the lanes and warps spread along it hold
    copies of the same elements. Its run width is 1 when `d` is the
    innermost dimension. Since threads then share elements, its `isEven` /
    `hasRun` are its own (the default round-robin counting below assumes
    every element is held once). Slices of different extents can hold a
    tile alike (a wgmma row does not depend on the tile's width);
    `layoutsHoldAlike` compares two layouts element by element, and is the
    one test of layout equivalence: tile.reduce's verifier and lowering
    (a destination holding the source's slice alike), the element-wise
    lowering (operands of the outputs' shape, and broadcast inputs laid
    out alike as the outputs' own slice) and tile-assign-layouts ask it.
  }];

  let methods = [
    InterfaceMethod<[{
        Threads of the CTA the layout spreads a tile over (every thread of
        the kernel, or of a warp-specialised team).
      }], "int64_t", "getNumThreads", (ins)>,
    InterfaceMethod<[{
        Elements per run: consecutive elements of one row a thread holds in
        consecutive register slots.
      }], "int64_t", "getRunWidth", (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{
        Runs each thread holds (the most any thread holds, when uneven).
      }], "int64_t", "getRunsPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape), [{}], [{
        return ::llvm::divideCeil(
            ::mlir::ShapedType::getNumElements(shape) / $_attr.getRunWidth(shape),
            $_attr.getNumThreads());
      }]>,
    InterfaceMethod<[{
        True when every thread holds `getRunsPerThread` runs, so that no
        run needs a guard.
      }], "bool", "isEven", (ins "::llvm::ArrayRef<int64_t>":$shape), [{}], [{
        return (::mlir::ShapedType::getNumElements(shape) /
                $_attr.getRunWidth(shape)) % $_attr.getNumThreads() == 0;
      }]>,
    InterfaceMethod<[{
        Whether thread `tid` holds a run `run` (always, when even). The
        default deals runs round-robin: run `tid + run * threads` exists.
      }], "bool", "hasRun",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$tid,
           "int64_t":$run), [{}], [{
        return tid + run * $_attr.getNumThreads() <
               ::mlir::ShapedType::getNumElements(shape) /
                   $_attr.getRunWidth(shape);
      }]>,
    InterfaceMethod<[{
        `hasRun` for a thread index known at run time: an i1.
      }], "::mlir::Value", "buildHasRun",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Value":$tid,
           "int64_t":$run), [{}], [{
        return ::mlir::tile::detail::buildRoundRobinHasRun(
            b, loc, ::mlir::ShapedType::getNumElements(shape) /
                        $_attr.getRunWidth(shape),
            $_attr.getNumThreads(), tid, run);
      }]>,
    InterfaceMethod<[{
        Tile coordinates of the first element of run `run` of thread `tid`
        (the compile-time form of `buildRunCoordinates`).
      }], "::llvm::SmallVector<int64_t>", "getRunCoordinates",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$tid,
           "int64_t":$run)>,
    InterfaceMethod<[{
        Index arithmetic computing `getRunCoordinates(shape, tid, run)` for a
        thread index `tid` known at run time.
      }], "::llvm::SmallVector<::mlir::Value>", "buildRunCoordinates",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Value":$tid,
           "int64_t":$run)>,
    InterfaceMethod<[{
        Run `run`'s coordinates minus run 0's when that difference is the
        same for every thread; nullopt when it depends on the thread.
      }], "std::optional<::llvm::SmallVector<int64_t>>", "getRunOffset",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$run)>,
    InterfaceMethod<[{
        Whether run `run` lies inside the box `[offsets, offsets + sizes)`
        for every thread that holds it (true), outside for every one
        (false), or neither: the box cuts a run, or takes it from some
        threads only (nullopt). What a copy of a slice of a fragment asks to
        know which runs it moves without looking at the thread index. The
        default evaluates `getRunCoordinates` for every thread (compile
        time).
      }], "std::optional<bool>", "isRunInBox",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$run,
           "::llvm::ArrayRef<int64_t>":$offsets,
           "::llvm::ArrayRef<int64_t>":$sizes), [{}], [{
        return ::mlir::tile::detail::isRunInBox(
            ::llvm::cast<::mlir::tile::FragmentLayoutAttrInterface>($_attr),
            shape, run, offsets, sizes);
      }]>,
    InterfaceMethod<[{
        The run whose offset from run 0 (`getRunOffset`) is `offset`, or
        nullopt: which register slots (`run * width ..`) hold the elements
        at a constant offset from each thread's first, e.g. the accumulators
        of a matrix instruction's tile (i, j) at `{16 i, 8 j}`.
      }], "std::optional<int64_t>", "findRunAtOffset",
      (ins "::llvm::ArrayRef<int64_t>":$shape,
           "::llvm::ArrayRef<int64_t>":$offset), [{}], [{
        for (int64_t r = 0, e = $_attr.getRunsPerThread(shape); r < e; ++r)
          if (std::optional<::llvm::SmallVector<int64_t>> at =
                  $_attr.getRunOffset(shape, r);
              at && ::llvm::ArrayRef<int64_t>(*at) == offset)
            return r;
        return std::nullopt;
      }]>,
    InterfaceMethod<[{
        Per tile dimension, the lanes of a warp and the warps of the CTA
        spread along it; failure when the layout does not factor that way on
        this shape (some lanes or warps would hold no element, or a run of
        lanes wraps across a dimension unevenly).
      }], "::mlir::FailureOr<::llvm::SmallVector<::mlir::tile::DimSpread>>",
      "getSpread", (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{
        Checks that the layout fits a tile of `shape` (the layout's own
        parameters included) and, when `threads` is not 0, a kernel (or
        team) of that many threads. Reports through `emitError` what is
        wrong and what to write instead; a null `emitError` reports nothing.
      }], "::mlir::LogicalResult", "verifyShape",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$threads)>,
  ];

  let extraSharedClassDeclaration = [{
    /// Register slots each thread holds: runs per thread x run width.
    int64_t getSlotsPerThread(::llvm::ArrayRef<int64_t> shape) const {
      return $_attr.getRunsPerThread(shape) * $_attr.getRunWidth(shape);
    }
    /// Whether the layout fits `shape` (and `threads`, when not 0).
    bool accepts(::llvm::ArrayRef<int64_t> shape, int64_t threads = 0) const {
      return ::mlir::succeeded($_attr.verifyShape(nullptr, shape, threads));
    }
    /// Tile dimensions along which more than one lane of a warp spreads.
    ::mlir::FailureOr<::llvm::SmallVector<int64_t>>
    getLaneDims(::llvm::ArrayRef<int64_t> shape) const {
      return ::mlir::tile::detail::spreadDims(
          $_attr.getSpread(shape), /*warps=*/false);
    }
    /// Tile dimensions along which more than one warp spreads.
    ::mlir::FailureOr<::llvm::SmallVector<int64_t>>
    getWarpDims(::llvm::ArrayRef<int64_t> shape) const {
      return ::mlir::tile::detail::spreadDims(
          $_attr.getSpread(shape), /*warps=*/true);
    }
  }];
}

#endif // TILE_LAYOUT_INTERFACE
