//===- SharedMemoryAllocation.cpp - shared memory placed by liveness ------===//
//
// Each outlined kernel's shared tiles (tile.alloc_shared) and scratch
// requests are placed in its dynamic shared memory; two of them share bytes
// only when their lifetimes do not overlap.
//
// Lifetimes are counted in the top-level ops of the kernel body (its one
// block, in program order). A tile is live from the first top-level op that
// uses it to the last one, following its uses through view-like ops
// (subviews, ring slots, casts); a use nested in a loop, a
// tile.warp_specialize or any other op with regions makes the tile live over
// that whole op. Asynchrony stretches this:
//   - a tile that an asynchronous copy writes (one with a barrier: TMA)
//     stays live to the last top-level op that uses the barrier (its wait);
//     a multicast destination (other CTAs write it), a cp.async one or
//     either side of a tensor-memory copy, for the whole kernel;
//   - a tile that a `{tma, async}` store reads stays live to the first later
//     top-level `tile.wait_tma_stores pending(0)`, or to the end of the
//     kernel if there is none or the store is in a tile.warp_specialize
//     (the top-level wait runs in thread 0, which need not be the issuer);
//   - a gemm that completes on a barrier keeps its shared operands live to
//     the barrier's last use. (A wgmma group left in flight by the pipeliner
//     is waited for right after its loop, before the next top-level op.)
// A tile without uses takes no bytes. One with a use that is none of the
// above (an op the allocator does not know, a call, a yield, a branch), or
// in a kernel whose body has several blocks, is live over the whole
// kernel. mbarriers are not placed here: they are static shared memory
// (nvgpu.mbarrier.create).
//
// Placement is first-fit in order of the first live op (ties: program
// order): each piece goes at the lowest offset, a multiple of its alignment
// (1024 for tiles), that overlaps no piece already placed whose lifetime
// overlaps its own. Where a piece takes bytes that an earlier-dead piece used, the
// CTA synchronises first (fence.proxy.async where there is TMA, then a CTA
// barrier, as publishSharedWrites emits) just before the piece's first
// top-level op: every thread, and every asynchronous access already waited
// for, is then done with the old contents.
//
//===----------------------------------------------------------------------===//

#include "SharedMemoryAllocation.h"
#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

#include <set>

using namespace mlir;
using namespace mlir::tile;

static constexpr llvm::StringLiteral kScratchRequestAttr =
    TileDialect::ScratchRequestAttrHelper::getNameStr();
static constexpr llvm::StringLiteral kScratchOffsetAttr = TileDialect::ScratchOffsetAttrHelper::getNameStr();
static constexpr llvm::StringLiteral kTestScratchBytesAttr =
    TileDialect::TestScratchBytesAttrHelper::getNameStr();

void mlir::tile::requestScratch(Operation *op, int64_t bytes, int64_t align) {
  assert(bytes > 0 && llvm::isPowerOf2_64(align) &&
         align <= kSharedAlignment && "bad scratch request");
  if (auto old = op->getAttrOfType<DenseI64ArrayAttr>(kScratchRequestAttr)) {
    bytes = std::max(bytes, old[0]);
    align = std::max(align, old[1]);
  }
  op->setAttr(kScratchRequestAttr,
              DenseI64ArrayAttr::get(op->getContext(), {bytes, align}));
}

std::optional<int64_t> mlir::tile::getScratchOffset(Operation *op) {
  if (auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr))
    return offset.getInt();
  return std::nullopt;
}

Value mlir::tile::createSharedView(OpBuilder &b, Location loc, MemRefType type,
                                   int64_t offset) {
  using lowering::constIndex;
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   nullptr, workgroup);
  Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, base);
  Value align = constIndex(b, loc, kSharedAlignment);
  // pad = (align - address % align) % align
  Value pad = arith::RemUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, align,
                            arith::RemUIOp::create(b, loc, address, align)),
      align);
  Value start = arith::AddIOp::create(b, loc, pad, constIndex(b, loc, offset));
  return memref::ViewOp::create(b, loc, withoutSharedSwizzle(type), base,
                                start, ValueRange{});
}

Value mlir::tile::createScratchView(OpBuilder &b, Location loc, Operation *op,
                                    MemRefType type) {
  std::optional<int64_t> offset = getScratchOffset(op);
  auto request = op->getAttrOfType<DenseI64ArrayAttr>(kScratchRequestAttr);
  if (!offset || !request ||
      type.getNumElements() * type.getElementTypeBitWidth() / 8 > request[0])
    return nullptr;
  return createSharedView(b, loc, type, *offset);
}

namespace {
/// Positions of top-level ops of the kernel body, both ends included.
struct Interval {
  int64_t first, last;
  bool overlaps(const Interval &other) const {
    return first <= other.last && other.first <= last;
  }
};

/// A tile or a scratch request to place.
struct Piece {
  Operation *owner; // the tile.alloc_shared, or the op with the scratch
  int64_t bytes;
  int64_t align;
  Interval live;
  int64_t offset = 0;
  int64_t end() const { return offset + bytes; }
};

/// Lifetimes in one kernel's top-level ops.
class KernelLiveness {
public:
  explicit KernelLiveness(gpu::GPUFuncOp func) {
    Region &region = func.getBody();
    if (region.hasOneBlock())
      body = &region.front();
    int64_t i = 0;
    if (body)
      for (Operation &op : *body) {
        position[&op] = i++;
        topLevel.push_back(&op);
      }
    kernel = {0, std::max<int64_t>(i - 1, 0)};
  }

  Interval tileLifetime(AllocSharedOp alloc);
  /// Only over the top-level op holding `op`.
  Interval opLifetime(Operation *op) {
    std::optional<int64_t> at = positionOf(op);
    return at ? Interval{*at, *at} : kernel;
  }
  Operation *topLevelOp(int64_t at) const { return topLevel[at]; }

private:
  std::optional<int64_t> positionOf(Operation *op) const {
    if (!body)
      return std::nullopt;
    Operation *top = body->findAncestorOpInBlock(*op);
    if (!top)
      return std::nullopt;
    return position.lookup(top);
  }
  /// The last top-level op that uses `barrier`; none when it does not come
  /// straight from a tile.alloc_barrier of this kernel.
  std::optional<int64_t> lastBarrierUse(Value barrier) const;
  /// The first top-level `tile.wait_tma_stores pending(0)` (`tile.wait_gemms
  /// pending(0)`) after `at`.
  template <typename WaitOp>
  std::optional<int64_t> nextFullWait(int64_t at) const;

  Block *body = nullptr;
  DenseMap<Operation *, int64_t> position;
  SmallVector<Operation *> topLevel;
  Interval kernel;
};
} // namespace

std::optional<int64_t> KernelLiveness::lastBarrierUse(Value barrier) const {
  if (!barrier.getDefiningOp<AllocBarrierOp>())
    return std::nullopt;
  std::optional<int64_t> last;
  for (Operation *user : barrier.getUsers()) {
    std::optional<int64_t> at = positionOf(user);
    if (!at)
      return std::nullopt;
    last = std::max(last.value_or(*at), *at);
  }
  return last;
}

template <typename WaitOp>
std::optional<int64_t> KernelLiveness::nextFullWait(int64_t at) const {
  for (int64_t i = at + 1, e = topLevel.size(); i < e; ++i)
    if (auto wait = dyn_cast<WaitOp>(topLevel[i]); wait && wait.getPending() == 0)
      return i;
  return std::nullopt;
}

Interval KernelLiveness::tileLifetime(AllocSharedOp alloc) {
  std::optional<Interval> live;
  auto cover = [&](int64_t at) {
    live = live ? Interval{std::min(live->first, at), std::max(live->last, at)}
                : Interval{at, at};
  };
  SmallVector<Value> worklist{alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      std::optional<int64_t> at = positionOf(user);
      if (!at)
        return kernel;
      cover(*at);
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() != value)
          return kernel;
        llvm::append_range(worklist, user->getResults());
        continue;
      }
      if (isa<memref::LoadOp, memref::StoreOp, memref::DimOp, vector::LoadOp,
              vector::StoreOp, vector::MaskedLoadOp, vector::MaskedStoreOp,
              vector::TransferReadOp, vector::TransferWriteOp, FillOp,
              ElementwiseOp>(user))
        continue;
      if (auto gemm = dyn_cast<GemmOp>(user)) {
        if (Value barrier = gemm.getBarrier()) {
          std::optional<int64_t> wait = lastBarrierUse(barrier);
          if (!wait)
            return kernel;
          cover(*wait);
        }
        // An {async} product reads its operands until it is waited for.
        if (gemm.getAsync())
          cover(nextFullWait<WaitGemmsOp>(*at).value_or(kernel.last));
        continue;
      }
      auto copy = dyn_cast<CopyOp>(user);
      if (!copy)
        return kernel;
      // Tensor-memory copies (tcgen05.cp) read asynchronously.
      if (getMemorySpace(copy.getSource().getType()) == MemorySpace::Tmem ||
          getMemorySpace(copy.getDest().getType()) == MemorySpace::Tmem)
        return kernel;
      if (copy.getDest() == value) {
        // Multicast peers and cp.async groups (an {async} load without a
        // barrier) write it when the program's own waits say.
        if (copy.getMulticast() ||
            (copy.getAsync() && !copy.getTma() && !copy.getBarrier()))
          return kernel;
        if (Value barrier = copy.getBarrier()) {
          std::optional<int64_t> wait = lastBarrierUse(barrier);
          if (!wait)
            return kernel;
          cover(*wait);
        }
      }
      if (copy.getSource() == value && copy.getTma() && copy.getAsync()) {
        std::optional<int64_t> wait;
        if (!copy->getParentOfType<WarpSpecializeOp>())
          wait = nextFullWait<WaitTmaStoresOp>(*at);
        cover(wait.value_or(kernel.last));
      }
    }
  }
  return live.value_or(kernel);
}

/// Asks for the scratch the ops of `func` need; fails on a bad test request.
static LogicalResult collectScratchRequests(gpu::GPUFuncOp func) {
  WalkResult result = func.walk([&](Operation *op) {
    // Ops whose lowerings need scratch go here.
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      FailureOr<int64_t> bytes = reduceScratchBytes(reduce);
      if (failed(bytes))
        return WalkResult::interrupt();
      if (*bytes)
        requestScratch(op, *bytes, 16);
    }
    if (Attribute attr = op->getAttr(kTestScratchBytesAttr)) {
      auto bytes = dyn_cast<IntegerAttr>(attr);
      if (!bytes || bytes.getInt() <= 0) {
        op->emitOpError("has ") << kTestScratchBytesAttr
                                << " that is not a positive integer";
        return WalkResult::interrupt();
      }
      requestScratch(op, bytes.getInt(), 16);
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Notes on `diag` for what is live when the most shared memory is: the
/// pieces that overlap the one placed highest, largest first, each at its
/// tile's allocation or at the op whose lowering needs the scratch.
static void noteLargestAtPeak(InFlightDiagnostic &diag,
                              ArrayRef<Piece> pieces) {
  const Piece *top = nullptr;
  for (const Piece &piece : pieces)
    if (!top || piece.end() > top->end())
      top = &piece;
  SmallVector<const Piece *> live;
  for (const Piece &piece : pieces)
    if (piece.live.overlaps(top->live))
      live.push_back(&piece);
  llvm::stable_sort(live, [](const Piece *a, const Piece *b) {
    return a->bytes > b->bytes;
  });
  for (const Piece *piece : ArrayRef(live).take_front(4)) {
    if (isa<AllocSharedOp>(piece->owner))
      diag.attachNote(piece->owner->getLoc())
          << piece->bytes << " bytes: this shared tile";
    else
      diag.attachNote(piece->owner->getLoc())
          << piece->bytes << " bytes: scratch for this op's lowering"
          << (isa<ReduceOp>(piece->owner)
                  ? " (each warp's partial results; a reduction whose "
                    "rows lie within one warp needs none)"
                  : "");
  }
}

/// Places `pieces` (sorted) first-fit; returns the end of the last byte used.
static int64_t place(MutableArrayRef<Piece> pieces) {
  int64_t top = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    Piece &piece = pieces[i];
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (size_t j = 0; j < i; ++j)
      if (pieces[j].live.overlaps(piece.live))
        busy.push_back({pieces[j].offset, pieces[j].end()});
    llvm::sort(busy);
    int64_t offset = 0;
    for (auto [begin, end] : busy) {
      if (offset + piece.bytes <= begin)
        break;
      offset = std::max(offset, static_cast<int64_t>(
                                    llvm::alignTo(end, piece.align)));
    }
    piece.offset = offset;
    top = std::max(top, piece.end());
  }
  return top;
}

LogicalResult mlir::tile::assignSharedOffsets(Operation *root,
                                              const ChipInfo &chip,
                                              bool skipOversizedConfigs) {
  SmallVector<gpu::GPUFuncOp> oversized;
  WalkResult result = root->walk([&](gpu::GPUFuncOp func) {
    if (failed(collectScratchRequests(func)))
      return WalkResult::interrupt();
    KernelLiveness liveness(func);
    SmallVector<Piece> pieces;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto alloc = dyn_cast<AllocSharedOp>(op)) {
        // Nothing reads or writes a tile without uses (a family's buffer
        // its configuration leaves unused): it takes no bytes.
        if (alloc->use_empty()) {
          alloc->setAttr(kSharedOffsetAttrName,
                         IntegerAttr::get(IndexType::get(op->getContext()), 0));
          return;
        }
        auto type = cast<MemRefType>(alloc.getType());
        int64_t bytes =
            type.getNumElements() * type.getElementTypeBitWidth() / 8;
        pieces.push_back({op, bytes, kSharedAlignment,
                          liveness.tileLifetime(alloc)});
      } else if (auto request =
                     op->getAttrOfType<DenseI64ArrayAttr>(kScratchRequestAttr)) {
        pieces.push_back(
            {op, request[0], request[1], liveness.opLifetime(op)});
      }
    });
    if (pieces.empty())
      return WalkResult::advance();
    llvm::stable_sort(pieces, [](const Piece &a, const Piece &b) {
      return a.live.first < b.live.first;
    });
    int64_t used = place(pieces);

    // Room to realign the base at run time.
    int64_t total = llvm::alignTo(used, kSharedAlignment) + kSharedAlignment;
    if (total > chip.maxSharedBytes) {
      if (skipOversizedConfigs && func->hasAttr(kFamilyAttrName)) {
        func.emitWarning("leaves out kernel @")
            << func.getName() << ": it needs " << total
            << " bytes of shared memory; " << chip.name << " allows "
            << chip.maxSharedBytes << " per CTA";
        oversized.push_back(func);
        return WalkResult::advance();
      }
      InFlightDiagnostic diag =
          func.emitOpError("@")
          << func.getName() << " needs " << total
          << " bytes of shared memory (its tiles and 1 KiB to align them); "
          << chip.name << " allows " << chip.maxSharedBytes
          << " per CTA: use smaller tiles or fewer pipeline stages (what "
             "is live at the most is noted)";
      if (func->hasAttr(kFamilyAttrName))
        diag << ", or leave the configuration out (tile-translate "
                "--skip-failing-configs)";
      noteLargestAtPeak(diag, pieces);
      return WalkResult::interrupt();
    }

    MLIRContext *context = func.getContext();
    auto indexAttr = [&](int64_t v) {
      return IntegerAttr::get(IndexType::get(context), v);
    };
    std::set<int64_t> syncBefore;
    for (const Piece &piece : pieces) {
      piece.owner->setAttr(isa<AllocSharedOp>(piece.owner)
                               ? kSharedOffsetAttrName
                               : kScratchOffsetAttr,
                           indexAttr(piece.offset));
      for (const Piece &old : pieces)
        if (old.live.last < piece.live.first && old.offset < piece.end() &&
            piece.offset < old.end())
          syncBefore.insert(piece.live.first);
    }
    OpBuilder builder(context);
    for (int64_t at : syncBefore) {
      Operation *op = liveness.topLevelOp(at);
      builder.setInsertionPoint(op);
      lowering::publishSharedWrites(builder, op->getLoc(), chip);
    }
    func->setAttr(kDynamicSharedBytesAttrName,
                  IntegerAttr::get(IntegerType::get(context, 32), total));
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (oversized.empty())
    return success();
  Location where = oversized.front().getLoc();
  for (gpu::GPUFuncOp func : oversized)
    func.erase();
  bool anyKernel = false;
  root->walk([&](gpu::GPUFuncOp func) { anyKernel |= func.isKernel(); });
  if (!anyKernel)
    return emitError(where, "every configuration needs more shared memory "
                            "than ")
           << chip.name << " allows per CTA (" << chip.maxSharedBytes
           << " bytes)";
  return success();
}
