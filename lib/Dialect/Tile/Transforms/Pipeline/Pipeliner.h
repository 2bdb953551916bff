//===- Pipeliner.h - tile-pipeline-loops internals --------------*- C++ -*-===//
//
// Private to the pipelining passes: Schedule.cpp holds the rules of a
// schedule (tile-schedule-loops writes it, tile-pipeline-loops reads it),
// the rest the rewrite of one tile.pipelined_for.
// Rings.cpp builds the rings and holds the slot and phase arithmetic,
// SoftwarePipeline.cpp the single-role schedule, WarpSpecialize.cpp the
// producer/consumer split, Stages.cpp the consumers' loop when the kernel
// author gave ops stages.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PIPELINE_PIPELINER_H
#define TILE_DIALECT_TILE_TRANSFORMS_PIPELINE_PIPELINER_H

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile::pipeline {

/// The producer warpgroup of a warp-specialised loop (its warp 0 issues the
/// copies) and the register budget it drops to.
constexpr int64_t kProducerThreads = 128;
constexpr int64_t kProducerRegisters = 40;

/// The stage the kernel author gave a body op (`tile.stage`; 0 without).
int64_t stageOf(Operation *op);
/// Whether some op of `loop`'s body is of stage 1.
bool hasStages(PipelinedForOp loop);
/// The copies `loop` multi-buffers (global to shared, in its body).
SmallVector<CopyOp> producersOf(PipelinedForOp loop);
/// Whether `loop` is split for tcgen05 (sm_100a) products.
bool usesTcgen05(PipelinedForOp loop);

// Schedule.cpp: the rules both pipelining passes share.

/// Drops explicit stage-0 attributes; a loop that runs plain (stages(1),
/// or nothing to multi-buffer) gets stages(1), and stage-1 ops in it are an
/// error. Returns whether the loop runs plain.
FailureOr<bool> runsPlain(PipelinedForOp loop);
/// A located error for a schedule the pipeline cannot build; otherwise
/// whether the producers complete in cp.async commit groups (chips without
/// TMA) rather than on an mbarrier ring.
FailureOr<bool> checkSchedule(PipelinedForOp loop);
/// Leaves the products that may run one iteration late in flight: such a
/// gemm becomes {async}, followed by tile.wait_gemms pending(1) (not with
/// cp.async loads, `cpAsync`).
void scheduleProducts(PipelinedForOp loop, bool cpAsync);
/// Whether an iteration ends with a product in flight (then its slot is
/// released one iteration late); an error for more than one, and for one
/// with cp.async loads.
FailureOr<bool> productsInFlight(PipelinedForOp loop, bool cpAsync);

struct Ring {
  AllocSharedOp original;
  AllocSharedOp ring;
};

/// The kernel around a warp-specialised loop and what the split decides.
struct WarpSplit {
  KernelOp kernel;
  /// The op the split starts at: the loop, or the persistent tile loop
  /// (`outer`) that holds it.
  Operation *top = nullptr;
  scf::ForOp outer;
  bool pingpong = false;
  int64_t teams = 1;
  /// Threads of one consumer team (the kernel's original threads).
  int64_t consumerThreads = 0;
  /// Ops of the kernel body only the consumers run.
  llvm::SetVector<Operation *> moved;
  /// Pure ops of the tile loop the producer's copy of it recomputes.
  llvm::SetVector<Operation *> outerSlice;
  /// The tile.waits before the split in the kernel body and before the
  /// k-loop in the tile loop, which the producer runs too before it loads.
  llvm::SetVector<Operation *> gates;
  /// The role of the consumer threads (the kernel's original ones).
  unsigned consumerRole = 1;
  /// Slot releases, and with ping-pong the teams' turns.
  Value empty, turn;
  /// With ping-pong: the consumers' team index, and the first tile and
  /// the tile step of its team.
  Value team, lbTeam, stepTeam;
  /// With ping-pong: the shared tiles each team gets its own of.
  SmallVector<AllocSharedOp> teamTiles;
  WarpSpecializeOp ws;
};

class LoopPipeliner {
public:
  // `cpAsync`: the copies become cp.async in commit groups (chips without
  // TMA) rather than TMA completing on an mbarrier ring.
  LoopPipeliner(PipelinedForOp loop, bool cpAsync)
      : loop(loop), b(loop), cpAsync(cpAsync) {}

  LogicalResult run();

private:
  // Rings.cpp: the producers, their rings and the ops they need.
  LogicalResult collectProducers();
  LogicalResult buildRing(CopyOp copy);
  LogicalResult collectGates();
  LogicalResult sliceProducers();

  // The two schedules run() chooses between, after the rings are built.
  LogicalResult emitSoftwarePipelined();
  LogicalResult emitWarpSpecialized();
  // Tcgen05Split.cpp: the sm_100a split (producer, MMA and epilogue roles,
  // accumulators in tensor memory).
  LogicalResult emitTcgen05Split();

  // WarpSpecialize.cpp, in the order emitWarpSpecialized takes them.
  LogicalResult checkSplitPlacement(WarpSplit &split);
  LogicalResult partitionKernelBody(WarpSplit &split);
  LogicalResult sliceTileLoop(WarpSplit &split);
  LogicalResult collectGates(WarpSplit &split, Block &block, Operation *end);
  LogicalResult checkPingpongSharing(WarpSplit &split);
  void giveTeamsOwnTiles(WarpSplit &split);
  void allocateSplitBarriers(WarpSplit &split);
  WarpSpecializeOp createRoles(WarpSplit &split);
  void emitProducer(WarpSplit &split);
  Value moveIntoConsumers(WarpSplit &split);
  void emitConsumerLoop(WarpSplit &split, Value base);
  void emitConsumerIteration(WarpSplit &split, scf::ForOp consumerLoop,
                             Value base, Value iterations);
  Value emitTurnWait(WarpSplit &split);
  // Stages.cpp: the consumers' loop of a body with ops of stage 1.
  void emitStagedConsumerLoop(WarpSplit &split, Value base, Value iterations);
  // Clones the body but its producers: stage 0 for iteration `k0` reading
  // slot `slot0` and stage 1 for `k1` / `slot1`, in body order; a null `k`
  // leaves its stage out, and then every tile.wait_gemms waits for all.
  void cloneStages(Value k0, Value slot0, Value k1, Value slot1);
  Operation *cloneWithOperands(Operation &op, IRMapping &mapping);
  // Tcgen05Split.cpp, in the order emitTcgen05Split takes them.
  LogicalResult checkTcgen05Body(GemmOp &gemm, FillOp &clear);
  void emitMmaRole(WarpSplit &split, GemmOp gemm, ArrayRef<Value> accumulators,
                   Value accFull, Value accEmpty);
  void emitEpilogueWait(WarpSplit &split, GemmOp gemm,
                        ArrayRef<Value> accumulators, Value accFull,
                        Value accEmpty);
  // The tile-loop iteration the current insertion point is in (0 outside
  // one): which accumulator buffer it uses, and that buffer's round.
  Value tileOrdinal(WarpSplit &split);
  void emitTurnHandOver(WarpSplit &split, scf::ForOp consumerLoop,
                        Value iterations, Value otherTeam);

  Value cst(int64_t v) {
    return arith::ConstantIndexOp::create(b, loop.getLoc(), v);
  }
  int64_t stages() { return loop.getStagesAttr().getInt(); }
  // The original induction value of iteration `it`, and how many
  // iterations the loop runs (built at the insertion point, with the loop's
  // bounds seen through `outerMapping`).
  Value kOf(Value it);
  Value iterationCount();
  Value roundParity(Value it, bool flip);
  // A ring of `stages` mbarriers expecting `arrivals` per phase.
  Value allocRing(int64_t arrivals);
  // The slot before `x`'s: (x + stages - 1) mod stages.
  Value priorSlot(Value x);
  // A copy of tile loop `outer` that also counts k-iterations (iter_arg 0)
  // and the yield that adds `iterations` to the count `base`.
  scf::ForOp countingCopy(scf::ForOp outer);
  void yieldCount(Value base, Value iterations);
  // `base + it` (just `it` without a base).
  Value globalIteration(Value base, Value it);
  // Clones the body but its producers and gates for induction value `k`
  // reading slot `slot`.
  void cloneCompute(Value k, Value slot);
  // Whether the producer alone runs body op `op`: a pipelined copy, or a
  // gate of the iteration's loads.
  bool producerOnly(Operation &op) const {
    return llvm::is_contained(producers, dyn_cast<CopyOp>(op)) ||
           llvm::is_contained(gates, &op);
  }

  // The body's values for iteration `k` reading slot `slot` (through
  // `outerMapping`): what producers and compute clones map.
  IRMapping iterationMapping(Value k, Value slot);
  // A tile of `count` slots shaped like `tile`, allocated after it (a
  // ring's, or the ping-pong teams' pair).
  AllocSharedOp allocSlots(AllocSharedOp tile, int64_t count);
  // memref<shape> view of slot `slot` of `ring`.
  Value slotView(Location loc, AllocSharedOp ring, Value slot);
  // Clones the producers (and the pure ops they need) for iteration `k`
  // into slot `slot`, completing on barrier `slot` of `full`.
  void issueProducers(Value k, Value slot);

  PipelinedForOp loop;
  OpBuilder b;
  SmallVector<CopyOp> producers;
  // The body's gates: tile.waits, and scf.ifs that hold only waits (a wait
  // on the first iteration of a chunk, say). Each gates the loads of its
  // iteration (a peer's chunk of K), so the producer runs it before them,
  // iterations ahead of the compute, which needs no wait of its own (it
  // reads what the loads brought).
  SmallVector<Operation *> gates;
  // The producers, the gates and the ops computing their operands, in body
  // order.
  SmallVector<Operation *> producerSlice;
  SmallVector<Ring> rings;
  Value full;
  // Values of an enclosing loop body as the producer's clone of it sees
  // them (warp specialisation inside a persistent tile loop).
  IRMapping outerMapping;
  bool cpAsync;
  // Some copy is multicast: slots are released to every CTA of the cluster.
  bool multicast = false;
  // An iteration ends with a product in flight (productsInFlight): its
  // slot is refilled or released after the next iteration's wait.
  bool inFlight = false;
  // cp.async groups: one per iteration issued (empty ones included), so
  // that `wait_group S - 2` means "iteration i's copies have landed".
  void commitGroup() { NVVM::CpAsyncCommitGroupOp::create(b, loop.getLoc()); }
};

} // namespace mlir::tile::pipeline

#endif // TILE_DIALECT_TILE_TRANSFORMS_PIPELINE_PIPELINER_H
