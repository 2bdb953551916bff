//===- CheckBarriers.cpp - mbarrier protocols that cannot match -----------===//
//
// A compile-time check of hand-written mbarrier protocols: arrival counts
// per phase against `tile.alloc_barrier arrivals(N)`, loop-invariant wait
// parities, and expected bytes that nothing delivers. Each is a hang (or a
// phase completed early) on the GPU; here it is a located error. Only
// protocols whose counts are certain from the IR are checked (see the
// pass's description).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECHECKBARRIERS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A slot of a barrier ring as the IR names it: a constant, or a value
/// (two different values may name the same slot).
struct Slot {
  Value value;
  std::optional<int64_t> constant;

  static Slot of(Value index) { return {index, getConstantIntValue(index)}; }
  bool operator==(const Slot &other) const {
    return constant || other.constant ? constant == other.constant
                                      : value == other.value;
  }
  std::string describe() const {
    return constant ? "slot " + std::to_string(*constant) : "its slot";
  }
};

/// "1 time", "2 times".
std::string plural(int64_t n, StringRef noun) {
  return std::to_string(n) + " " + noun.str() + (n == 1 ? "" : "s");
}

/// One op's arrivals on a barrier slot each time it runs.
struct Arrival {
  Slot slot;
  int64_t count;
};

/// Teams running `op`'s code: those of its warp_specialize role, else 1.
int64_t teamsRunning(Operation *op) {
  Region *region = nullptr;
  WarpSpecializeOp ws = WarpSpecializeOp::getEnclosing(op, &region);
  return ws ? ws.getRoleTeams()[region->getRegionNumber()] : 1;
}

/// Threads running `op` (every team of its role); 0 when unknown.
int64_t threadsRunning(Operation *op) {
  return getThreadsRunning(op) * teamsRunning(op);
}

/// Whether `index` is the same in every thread running it: it does not
/// depend on a thread id or on a team's index.
bool isUniform(Value index) {
  SmallVector<Value> work{index};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (isa_and_nonnull<WarpSpecializeOp>(arg.getOwner()->getParentOp()))
        return false; // The team index.
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp>(def) ||
        def->getName().getStringRef().starts_with("nvvm.read.ptx.sreg.tid") ||
        def->getName().getStringRef().starts_with("nvvm.read.ptx.sreg.laneid"))
      return false;
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

/// What `user`, an op using `barrier`, arrives on it each time it runs;
/// none when it uses the barrier in a way the check does not model.
std::optional<Arrival> arrivalOf(Operation *user, Value barrier) {
  auto once = [&](Value index, int64_t count) -> std::optional<Arrival> {
    // A slot that differs between the threads or teams arriving is not one
    // slot: not modelled.
    if (count <= 0 || !isUniform(index))
      return std::nullopt;
    return Arrival{Slot::of(index), count};
  };
  if (auto copy = dyn_cast<CopyOp>(user))
    return once(copy.getBarrierIndex(), teamsRunning(user));
  if (auto gemm = dyn_cast<GemmOp>(user)) {
    // Into tensor memory one thread commits it; into registers every
    // thread arrives once its part is complete (in a role of several
    // teams the lowering asks for one team's threads: not modelled).
    if (isa<TmemType>(gemm.getC().getType()))
      return once(gemm.getBarrierIndex(), teamsRunning(user));
    if (teamsRunning(user) > 1)
      return std::nullopt;
    return once(gemm.getBarrierIndex(), threadsRunning(user));
  }
  if (auto commit = dyn_cast<CommitGemmsOp>(user))
    return once(commit.getBarrierIndex(), teamsRunning(user));
  if (auto expect = dyn_cast<MBarrierExpectTxOp>(user))
    return once(expect.getIndex(), teamsRunning(user));
  if (auto arrive = dyn_cast<MBarrierArriveOp>(user)) {
    if (arrive.getLeader())
      return once(arrive.getIndex(), teamsRunning(user));
    if (!arrive.getCluster())
      return once(arrive.getIndex(), threadsRunning(user));
    auto kernel = user->getParentOfType<KernelOp>();
    if (!kernel)
      return std::nullopt;
    return once(arrive.getIndex(),
                threadsRunning(user) / 32 * kernel.getClusterSize());
  }
  return std::nullopt;
}

/// The block whose arrivals `op`'s count is part of: the first ancestor
/// block that is not a branch of an scf.if.
Block *countingBlock(Operation *op) {
  Block *block = op->getBlock();
  while (isa_and_nonnull<scf::IfOp>(block->getParentOp()))
    block = block->getParentOp()->getBlock();
  return block;
}

/// The error for a barrier, with the reason and where its arrivals are.
class BarrierChecker {
public:
  explicit BarrierChecker(AllocBarrierOp alloc)
      : alloc(alloc), barrier(alloc.getResult()),
        expected(alloc.getArrivals()) {}

  LogicalResult check() {
    for (Operation *user : barrier.getUsers()) {
      if (auto wait = dyn_cast<MBarrierWaitOp>(user)) {
        waits.push_back(wait);
        continue;
      }
      std::optional<Arrival> arrival = arrivalOf(user, barrier);
      if (!arrival)
        return success(); // A use the check does not model.
      arrivals.insert({user, *arrival});
    }
    bool ok = succeeded(checkExpectedBytes());
    for (MBarrierWaitOp wait : waits)
      ok &= succeeded(checkParity(wait));
    if (!arrivals.empty())
      ok &= succeeded(checkArrivals());
    return success(ok);
  }

private:
  LogicalResult checkExpectedBytes() {
    bool ok = true;
    for (Operation *user : barrier.getUsers())
      if (auto expect = dyn_cast<MBarrierExpectTxOp>(user)) {
        expect.emitOpError("raises the phase's expected bytes by ")
            << expect.getBytes()
            << " that no copy delivers (each tile.copy with a barrier "
               "announces its own bytes), so the phase never completes; "
               "drop this op, or use tile.mbarrier.arrive";
        ok = false;
      }
    return success(ok);
  }

  /// A loop that waits once per iteration on one slot with one parity.
  LogicalResult checkParity(MBarrierWaitOp wait) {
    auto loop = dyn_cast_or_null<LoopLikeOpInterface>(wait->getParentOp());
    if (!loop || !loop.isDefinedOutsideOfLoop(wait.getIndex()) ||
        !loop.isDefinedOutsideOfLoop(wait.getParity()))
      return success();
    Slot slot = Slot::of(wait.getIndex());
    if (llvm::count_if(waits, [&](MBarrierWaitOp other) {
          return loop->isAncestor(other) && Slot::of(other.getIndex()) == slot;
        }) != 1)
      return success();
    // Only a barrier the loop itself completes again: one completed once,
    // before the loop, is rightly waited for with one parity (it passes).
    if (llvm::none_of(arrivals, [&](const auto &arrival) {
          return loop->isAncestor(arrival.first);
        }))
      return success();
    if (auto tripCount = loop.getStaticTripCount())
      if (tripCount->ule(1))
        return success();
    return wait.emitOpError("waits on ")
           << slot.describe() << " with the same parity in every iteration"
           << " of its loop, but the slot's phases alternate parity: from the"
           << " second iteration on the wait passes at once or hangs; flip"
           << " the parity each time the loop comes back to the slot (e.g."
           << " (iteration / slots) mod 2)";
  }

  /// Arrivals per phase against `arrivals(N)`.
  LogicalResult checkArrivals() {
    Block *block = countingBlock(arrivals.front().first);
    if (llvm::any_of(arrivals, [&](const auto &arrival) {
          return countingBlock(arrival.first) != block;
        }))
      return success(); // Arrivals from several places: not modelled.
    // Slots: one value, or constants only.
    SmallVector<Slot> slots;
    auto addSlot = [&](Value index) {
      Slot slot = Slot::of(index);
      if (!llvm::is_contained(slots, slot))
        slots.push_back(slot);
    };
    SmallVector<MBarrierWaitOp> blockWaits;
    for (MBarrierWaitOp wait : waits) {
      Operation *ancestor = block->findAncestorOpInBlock(*wait);
      if (!ancestor)
        continue;
      if (ancestor != wait.getOperation())
        return success(); // A conditional or nested wait: not modelled.
      blockWaits.push_back(wait);
      addSlot(wait.getIndex());
    }
    for (const auto &arrival : arrivals)
      addSlot(arrival.second.slot.value);
    if (slots.size() > 1 &&
        llvm::any_of(slots, [](const Slot &s) { return !s.constant; }))
      return success();

    bool loop = isa<LoopLikeOpInterface>(block->getParentOp());
    // A loop that arrives while a wait after it (in an enclosing block)
    // waits for all its iterations together: not modelled.
    if (loop && blockWaits.empty() &&
        llvm::any_of(waits, [&](MBarrierWaitOp wait) {
          return wait->getBlock()->findAncestorOpInBlock(
                     *block->getParentOp()) != nullptr;
        }))
      return success();
    bool ok = true;
    for (const Slot &slot : slots)
      ok &= succeeded(checkSlot(block, slot, loop));
    return success(ok);
  }

  /// The arrivals one run of `op` (an arrival, or an scf.if holding some)
  /// makes on `slot`, or failure where its branches differ.
  FailureOr<int64_t> arrivalsIn(Operation *op, const Slot &slot) {
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      auto branch = [&](Region &region) -> FailureOr<int64_t> {
        int64_t total = 0;
        for (Block &b : region)
          for (Operation &inner : b) {
            FailureOr<int64_t> n = arrivalsIn(&inner, slot);
            if (failed(n))
              return failure();
            total += *n;
          }
        return total;
      };
      FailureOr<int64_t> thenCount = branch(ifOp.getThenRegion());
      FailureOr<int64_t> elseCount = branch(ifOp.getElseRegion());
      if (failed(thenCount) || failed(elseCount) || *thenCount != *elseCount)
        return failure();
      return *thenCount;
    }
    if (isa<MBarrierWaitOp>(op) && llvm::is_contained(op->getOperands(), barrier))
      return failure();
    auto it = arrivals.find(op);
    return it != arrivals.end() && it->second.slot == slot ? it->second.count
                                                           : 0;
  }

  /// One slot's phases in `block`: what arrives between its waits.
  LogicalResult checkSlot(Block *block, const Slot &slot, bool loop) {
    struct Segment {
      int64_t count = 0;
      SmallVector<Operation *> sites;
    };
    SmallVector<Segment> segments(1);
    SmallVector<Operation *> ends;
    for (Operation &op : *block) {
      if (auto wait = dyn_cast<MBarrierWaitOp>(op);
          wait && wait.getBarrier() == barrier) {
        if (Slot::of(wait.getIndex()) == slot) {
          ends.push_back(wait);
          segments.emplace_back();
        }
        continue;
      }
      FailureOr<int64_t> n = arrivalsIn(&op, slot);
      if (failed(n))
        return success(); // Branches that arrive differently.
      if (*n) {
        segments.back().count += *n;
        segments.back().sites.push_back(&op);
      }
    }
    // In a loop the arrivals after the last wait and those before the first
    // make one phase; a loop without waits arrives one phase per iteration.
    if (loop && segments.size() > 1) {
      Segment &last = segments.back();
      segments.front().count += last.count;
      segments.front().sites.append(last.sites);
      segments.pop_back();
    }
    bool ok = true;
    for (auto [i, segment] : llvm::enumerate(segments)) {
      if (segment.count == 0 || segment.count == expected)
        continue;
      std::string where;
      if (loop)
        where = ends.empty() ? "each iteration of its loop arrives"
                             : "each phase of its loop arrives";
      else if (i < ends.size())
        where = "its block arrives, before the wait noted,";
      else
        where = ends.empty() ? "its block arrives"
                             : "its block arrives, after its last wait,";
      InFlightDiagnostic diag =
          alloc.emitOpError("expects ")
          << plural(expected, "arrival") << " per phase, but " << where << " "
          << plural(segment.count, "time") << " on " << slot.describe()
          << ": write arrivals(" << segment.count << "), or arrive "
          << plural(expected, "time") << " per phase";
      for (Operation *site : segment.sites)
        diag.attachNote(site->getLoc()) << "arrives here";
      if (i < ends.size())
        diag.attachNote(ends[i]->getLoc()) << "the phase is waited for here";
      ok = false;
    }
    return success(ok);
  }

  AllocBarrierOp alloc;
  Value barrier;
  int64_t expected;
  /// Each op arriving on the barrier, in use order, and its arrival.
  llvm::MapVector<Operation *, Arrival> arrivals;
  SmallVector<MBarrierWaitOp> waits;
};

struct TileCheckBarriersPass
    : tile::impl::TileCheckBarriersBase<TileCheckBarriersPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](AllocBarrierOp alloc) {
      ok &= succeeded(BarrierChecker(alloc).check());
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
