//===- TileDialect.h - tile dialect, types and attributes -------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Dialect.h"

#include <string>

#include "tile/Dialect/Tile/IR/TileOpsDialect.h.inc"
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

namespace mlir::tile {
/// How a fragment layout spreads one tile dimension over the CTA: the lanes
/// of a warp, and the warps, whose elements differ along it
/// (FragmentLayoutAttrInterface::getSpread).
struct DimSpread {
  int64_t lanes = 1;
  int64_t warps = 1;
  bool operator==(const DimSpread &other) const {
    return lanes == other.lanes && warps == other.warps;
  }
};

class FragmentLayoutAttrInterface;

namespace detail {
/// `tid + run * threads < runs`: whether thread `tid` holds run `run` when
/// `runs` runs are dealt round-robin over `threads` threads (the default of
/// FragmentLayoutAttrInterface::buildHasRun).
Value buildRoundRobinHasRun(OpBuilder &b, Location loc, int64_t runs,
                            int64_t threads, Value tid, int64_t run);
/// The default of FragmentLayoutAttrInterface::isRunInBox.
std::optional<bool> isRunInBox(FragmentLayoutAttrInterface layout,
                               ArrayRef<int64_t> shape, int64_t run,
                               ArrayRef<int64_t> offsets,
                               ArrayRef<int64_t> sizes);
/// The dimensions of `spread` with more than one lane (or warp).
FailureOr<SmallVector<int64_t>>
spreadDims(FailureOr<SmallVector<DimSpread>> spread, bool warps);
/// A shape as "4x1024" ('?' for a dynamic extent), for diagnostics.
std::string formatShape(ArrayRef<int64_t> shape);
} // namespace detail
} // namespace mlir::tile

#include "tile/Dialect/Tile/IR/TileLayoutInterface.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.h.inc"

namespace mlir::tile {
/// Whether layouts `a` and `b` put every element of a tile of `shape` in the
/// same register slot of the same thread (same threads, run width and runs,
/// run by run): e.g. the row sums of a 128x128 and of a 128x64 wgmma tile.
/// False when either cannot lay out `shape`. The one test of layout
/// equivalence: tile.reduce's verifier and lowering, the element-wise
/// lowering and tile-assign-layouts all ask it.
bool layoutsHoldAlike(FragmentLayoutAttrInterface a,
                      FragmentLayoutAttrInterface b, ArrayRef<int64_t> shape);

/// Where a tile operand lives, as far as the tile ops' rules are concerned.
enum class MemorySpace { Global, Shared, Fragment, Tmem, Other };

/// Classifies a tile-typed value's storage: memrefs by address space
/// (none or 1 is global; workgroup, #tile.shared or 3 is shared), fragments
/// and tmem by type.
MemorySpace getMemorySpace(Type type);
StringRef stringifyMemorySpace(MemorySpace space);

/// The swizzle of a shared tile of type `type` in bytes: its
/// #tile.shared<swizzle = N>, or 0 for a tile in
/// #gpu.address_space<workgroup> (none chosen); nullopt when `type` is not
/// a shared memref.
std::optional<int64_t> getSharedSwizzle(Type type);
/// The error for an op that would read or write a `swizzle`-byte swizzled
/// shared tile with ordinary loads and stores (which ignore the swizzle).
LogicalResult refuseSwizzledAccess(Operation *op, int64_t swizzle);
/// `type` in #tile.shared<swizzle = `swizzle`>.
MemRefType withSharedSwizzle(MemRefType type, int64_t swizzle);
/// `type` with #tile.shared<...> replaced by #gpu.address_space<workgroup>
/// (what the lowering makes of it); other types unchanged.
MemRefType withoutSharedSwizzle(MemRefType type);

/// Attributes the lowering leaves on kernels for the runtime's description
/// (tile-translate --kernel-info): dynamic shared memory bytes, and the TMA
/// tensor maps the kernel takes as extra parameters.
constexpr llvm::StringLiteral kDynamicSharedBytesAttrName =
    TileDialect::DynamicSharedBytesAttrHelper::getNameStr();
constexpr llvm::StringLiteral kTmaAttrName = TileDialect::TmaAttrHelper::getNameStr();
/// A specialised kernel's family and parameter values, and an outlined
/// kernel's arguments as written ({name, type} each): the kernel
/// description's config and args records.
constexpr llvm::StringLiteral kFamilyAttrName =
    TileDialect::FamilyAttrHelper::getNameStr();
constexpr llvm::StringLiteral kConfigAttrName =
    TileDialect::ConfigAttrHelper::getNameStr();
constexpr llvm::StringLiteral kSignatureAttrName =
    TileDialect::SignatureAttrHelper::getNameStr();
/// A kernel's grid rule (three strings, x y z; tile-record-grid): the kernel
/// description's grid record.
constexpr llvm::StringLiteral kGridRuleAttrName =
    TileDialect::GridRuleAttrHelper::getNameStr();
/// The memref arguments a kernel's launcher zeroes before each launch
/// (tile.zero_before_launch; tile-record-grid): the kernel description's
/// zero record.
constexpr llvm::StringLiteral kZeroedArgsAttrName =
    TileDialect::ZeroedArgsAttrHelper::getNameStr();

/// The threads that run `op` together: inside a tile.warp_specialize, its
/// role's (or team's); otherwise the kernel's threads per CTA (its
/// tile.kernel, or after outlining its gpu.func's known block size). 0 when
/// there is none. Layouts spread over these threads.
int64_t getThreadsRunning(Operation *op);

class AllocSharedOp;
/// The tile.alloc_shared a shared memref views (through subviews and casts),
/// or null.
AllocSharedOp getSharedAllocation(Value memref);

/// Where a part of a shared tile that TMA writes on its own may start, in
/// bytes from the tile's start: 128 (TMA), or 1024 (the swizzle pattern's
/// period) when the shared tile of type `sharedTile` is swizzled.
int64_t tmaPieceAlignment(Type sharedTile);
/// Whether shared tiles of type `sharedTile` can sit back to back as the
/// slots of one allocation (a ring's stages, a ping-pong team's pair), each
/// where TMA may write a piece and the swizzle pattern starts over: a
/// static shape of a whole multiple of tmaPieceAlignment bytes.
bool isSlotSized(MemRefType sharedTile);

/// The most elements a fragment may have (2^24): more could never fit the
/// registers of a CTA, and no lowering should unroll over them.
constexpr int64_t kMaxFragmentElements = int64_t(1) << 24;
/// The most 32-bit registers one fragment may take per thread (a thread has
/// 255).
constexpr int64_t kMaxFragmentRegisters = 255;

/// 32-bit registers each thread needs for a fragment of `type` under
/// `layout` (which must accept the shape).
int64_t getFragmentRegisters(FragmentType type,
                             FragmentLayoutAttrInterface layout);

/// Checks that a fragment of `type` under `layout` fits the register budget
/// of a thread, reporting through `emitError` (null: silent).
LogicalResult verifyRegisterBudget(function_ref<InFlightDiagnostic()> emitError,
                                   FragmentType type,
                                   FragmentLayoutAttrInterface layout);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
