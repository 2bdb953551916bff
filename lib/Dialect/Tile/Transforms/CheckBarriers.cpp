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

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// A slot of a ring of `size` barriers as the IR names it: a constant, or
/// a value plus a constant offset modulo the ring's size (`(x + c) mod S`,
/// as a pipeline names its slots), so that two names of one slot compare
/// equal and slots a constant apart are known to differ.
struct Slot {
  Value root; // null for a constant
  int64_t offset = 0;

  static Slot of(Value index, int64_t size) {
    int64_t offset = 0;
    Value v = index;
    while (true) {
      if (std::optional<int64_t> c = getConstantIntValue(v))
        return {Value(), ((offset + *c % size) % size + size) % size};
      if (auto rem = v.getDefiningOp<arith::RemUIOp>();
          rem && getConstantIntValue(rem.getRhs()) == size) {
        v = rem.getLhs();
        continue;
      }
      // Only non-negative addends: (i - 1) mod S wraps at 2^w, not at S.
      if (auto add = v.getDefiningOp<arith::AddIOp>()) {
        if (std::optional<int64_t> c = getConstantIntValue(add.getRhs());
            c && *c >= 0) {
          // Modulo the ring at each step: no overflow on any constant.
          offset = (offset + *c % size) % size;
          v = add.getLhs();
          continue;
        }
      }
      return {v, (offset % size + size) % size};
    }
  }
  bool operator==(const Slot &other) const {
    return root == other.root && offset == other.offset;
  }
  /// Different slots whatever the values: constants, or one value a
  /// constant apart.
  bool differsFrom(const Slot &other) const {
    return root == other.root && offset != other.offset;
  }
  std::string describe() const {
    return root ? "its slot" : "slot " + std::to_string(offset);
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
      Operation *parent = arg.getOwner()->getParentOp();
      if (isa_and_nonnull<WarpSpecializeOp>(parent))
        return false; // The team index.
      // A loop's values are uniform where its start, step, initial values
      // and yields are (a team's tiles start at the team's index).
      if (auto loop = dyn_cast_or_null<scf::ForOp>(parent)) {
        work.push_back(loop.getLowerBound());
        work.push_back(loop.getStep());
        if (arg != loop.getInductionVar()) {
          work.push_back(loop.getTiedLoopInit(arg)->get());
          work.push_back(loop.getTiedLoopYieldedValue(arg)->get());
        }
      }
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

/// What `user`, an op using `barrier`, arrives on it each time it runs (its
/// BarrierArrivalOpInterface rule); none when it uses the barrier in a way
/// the check does not model.
std::optional<Arrival> arrivalOf(Operation *user, Value barrier) {
  auto arriving = dyn_cast<BarrierArrivalOpInterface>(user);
  if (!arriving || arriving.getArrivalBarrier() != barrier)
    return std::nullopt;
  ArrivingThreads by{getThreadsRunning(user), teamsRunning(user), 0};
  if (auto kernel = user->getParentOfType<KernelOp>())
    by.clusterSize = kernel.getClusterSize();
  std::optional<int64_t> count = arriving.getArrivals(by);
  // A slot that differs between the threads or teams arriving is not one
  // slot: not modelled.
  Value index = arriving.getArrivalSlot();
  if (!count || *count <= 0 || !isUniform(index))
    return std::nullopt;
  int64_t size = cast<BarrierType>(barrier.getType()).getCount();
  return Arrival{Slot::of(index, size), *count};
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
        expected(alloc.getArrivals()),
        size(cast<BarrierType>(barrier.getType()).getCount()) {}

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
    // Each block's phases alone: a pipeline arrives in its prologue, its
    // loop and after it, each a whole phase.
    llvm::MapVector<Block *, SmallVector<Operation *>> byBlock;
    for (const auto &arrival : arrivals)
      byBlock[countingBlock(arrival.first)].push_back(arrival.first);
    for (auto &[block, sites] : byBlock)
      ok &= succeeded(checkArrivals(block, sites, byBlock.size() == 1));
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
    Slot slot = Slot::of(wait.getIndex(), size);
    if (llvm::count_if(waits, [&](MBarrierWaitOp other) {
          return loop->isAncestor(other) &&
                 !Slot::of(other.getIndex(), size).differsFrom(slot);
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

  /// Arrivals per phase against `arrivals(N)`, for the arrivals `sites`
  /// counted in `block` (through scf.if branches). Fewer arrivals than N
  /// are an error only where `block` makes all of the barrier's (`only`):
  /// elsewhere another block may complete the phase.
  LogicalResult checkArrivals(Block *block, ArrayRef<Operation *> sites,
                              bool only) {
    // Slots: each known to differ from the others.
    SmallVector<Slot> slots;
    auto addSlot = [&](const Slot &slot) {
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
      addSlot(Slot::of(wait.getIndex(), size));
    }
    for (Operation *site : sites)
      addSlot(arrivals.lookup(site).slot);
    for (const Slot &a : slots)
      for (const Slot &b : slots)
        if (!(a == b) && !a.differsFrom(b))
          return success(); // Slots that may be one: not modelled.

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
      ok &= succeeded(checkSlot(block, slot, loop, only));
    return success(ok);
  }

  /// What one run of an op arrives on a slot: `conditional` when an
  /// scf.if makes the arrivals in one branch and none in the other (a
  /// phase that happens or not, as a pipeline's first and last ones).
  struct Count {
    int64_t n = 0;
    bool conditional = false;
  };

  /// The arrivals one run of `op` (an arrival, or an scf.if holding some)
  /// makes on `slot`, or failure where its branches arrive differently or
  /// an op of another kind holds arrivals or waits.
  FailureOr<Count> arrivalsIn(Operation *op, const Slot &slot) {
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      auto branch = [&](Region &region) -> FailureOr<Count> {
        Count total;
        for (Block &b : region)
          for (Operation &inner : b) {
            FailureOr<Count> c = arrivalsIn(&inner, slot);
            if (failed(c))
              return failure();
            total.n += c->n;
            total.conditional |= c->conditional;
          }
        return total;
      };
      FailureOr<Count> thenCount = branch(ifOp.getThenRegion());
      FailureOr<Count> elseCount = branch(ifOp.getElseRegion());
      if (failed(thenCount) || failed(elseCount))
        return failure();
      if (thenCount->n == elseCount->n)
        return Count{thenCount->n,
                     thenCount->conditional || elseCount->conditional};
      // One branch only: a phase that happens or not, where every thread
      // takes the same branch.
      if ((thenCount->n && elseCount->n) || !isUniform(ifOp.getCondition()))
        return failure();
      return Count{thenCount->n + elseCount->n, true};
    }
    if (isa<MBarrierWaitOp>(op) && llvm::is_contained(op->getOperands(), barrier))
      return failure();
    auto it = arrivals.find(op);
    if (it != arrivals.end())
      return Count{it->second.slot == slot ? it->second.count : 0, false};
    // Arrivals inside a loop or another region: counted in their own block,
    // not known here.
    bool nested = op->getNumRegions() &&
                  op->walk([&](Operation *inner) {
                      return inner != op && arrivals.count(inner)
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    }).wasInterrupted();
    if (nested)
      return failure();
    return Count{};
  }

  /// One slot's phases in `block`: what arrives between its waits.
  LogicalResult checkSlot(Block *block, const Slot &slot, bool loop,
                          bool only) {
    struct Segment {
      int64_t count = 0;
      bool conditional = false;
      SmallVector<Operation *> sites;
    };
    SmallVector<Segment> segments(1);
    SmallVector<Operation *> ends;
    for (Operation &op : *block) {
      if (auto wait = dyn_cast<MBarrierWaitOp>(op);
          wait && wait.getBarrier() == barrier) {
        if (Slot::of(wait.getIndex(), size) == slot) {
          ends.push_back(wait);
          segments.emplace_back();
        }
        continue;
      }
      FailureOr<Count> c = arrivalsIn(&op, slot);
      if (failed(c))
        return success(); // Not modelled.
      if (c->n) {
        segments.back().count += c->n;
        segments.back().conditional |= c->conditional;
        segments.back().sites.push_back(&op);
      }
    }
    // In a loop the arrivals after the last wait and those before the first
    // make one phase; a loop without waits arrives one phase per iteration.
    if (loop && segments.size() > 1) {
      Segment &last = segments.back();
      segments.front().count += last.count;
      segments.front().conditional |= last.conditional;
      segments.front().sites.append(last.sites);
      segments.pop_back();
    }
    bool ok = true;
    for (auto [i, segment] : llvm::enumerate(segments)) {
      // A conditional phase is one only when nothing else arrives in it;
      // fewer arrivals than expected may be completed by another block, or
      // by later runs of a condition.
      if (segment.count == 0 || segment.count == expected ||
          (segment.conditional && segment.sites.size() > 1) ||
          (segment.count < expected && (!only || segment.conditional)))
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
  int64_t size;
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
