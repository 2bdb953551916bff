//===- Nvshmem.cpp - put/get/signal/wait across GPUs through NVSHMEM ------===//
//
// Mechanism `nvshmem` (`level world`): the ranks are NVSHMEM processing elements (one process per
// GPU) and the buffers symmetric ones. Each op becomes a call of NVSHMEM's
// device library, declared here as an external function with C linkage
// and generic pointers (the same declarations nvcc sees in
// nvshmem_defines.h): the PTX references it unresolved, ptxas assembles the
// kernel as relocatable code, and the runtime links libnvshmem_device.a
// into it when it loads the module (docs/design.md, "NVSHMEM in the
// runtime"). Block and warp scope pick the `_block` and `_warp` forms, which
// every thread of the scope calls. A tile that is one contiguous block on
// both sides moves in one call, any other row by row.
//
// Mechanism `p2p` (puts and gets of tiles NVSHMEM would move row by row):
// `nvshmem_ptr` gives the peer's address of the tile's origin in the remote
// buffer, and each thread of the scope moves its runs with its own loads
// and stores to it (16 bytes where both sides' origins and row strides
// allow, checked at run time); a signal is thread 0's `nvshmem_fence` and
// `nvshmemx_signal_op` after the scope synchronised, as NVSHMEM's own
// put-with-signal over NVLink does. A peer `nvshmem_ptr` cannot reach (on
// another node) takes the `nvshmem` calls.
//
//===----------------------------------------------------------------------===//

#include "PeerAccess.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// nvshmem_constants.h: signal operations and wait comparisons.
static int64_t nvshmemSignalOp(SignalKind kind) {
  return kind == SignalKind::set ? 9 : 10;
}
static int64_t nvshmemCmp(Cmp cmp) {
  switch (cmp) {
  case Cmp::eq:
    return 0;
  case Cmp::ne:
    return 1;
  case Cmp::gt:
    return 2;
  case Cmp::le:
    return 3;
  case Cmp::lt:
    return 4;
  case Cmp::ge:
    return 5;
  }
  llvm_unreachable("unknown comparison");
}

namespace {
// Calls to NVSHMEM device functions, declared in the kernel's gpu.module on
// first use.
class NvshmemCalls {
public:
  // Fails, saying why, where `op` is not in an outlined kernel: there is no
  // gpu.module to declare the functions in.
  static FailureOr<NvshmemCalls> forOp(OpBuilder &b, Operation *op) {
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    if (!module)
      return op->emitOpError("at level world must be in an outlined kernel "
                             "(convert-tile-kernel-to-gpu first)");
    return NvshmemCalls(b, op->getLoc(), module);
  }

  Value call(StringRef name, Type result, ValueRange args) {
    auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!function) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      SmallVector<Type> params(args.getTypes());
      function = LLVM::LLVMFuncOp::create(
          b, loc, name,
          LLVM::LLVMFunctionType::get(
              result ? result : LLVM::LLVMVoidType::get(b.getContext()),
              params));
    }
    auto call = LLVM::CallOp::create(b, loc, function, args);
    return result ? call.getResult() : Value();
  }

  Type ptr() { return LLVM::LLVMPointerType::get(b.getContext()); }
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }

  // The generic address of `memref[indices]` (a shared tile's is converted
  // from the shared window).
  Value address(Value memref, ValueRange indices) {
    if (getMemorySpace(memref.getType()) == MemorySpace::Shared)
      return LLVM::AddrSpaceCastOp::create(
          b, loc, ptr(),
          elementPointer(b, loc, memref, indices,
                         static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared)));
    return elementPointer(b, loc, memref, indices, 0);
  }

private:
  NvshmemCalls(OpBuilder &b, Location loc, gpu::GPUModuleOp module)
      : b(b), loc(loc), module(module) {}

  OpBuilder &b;
  Location loc;
  gpu::GPUModuleOp module;
};
} // namespace

// What one NVSHMEM call moves of a put or get of `tile` to or from
// `remote`: the whole tile where it is one block on both sides, else a row.
struct Blocks {
  int64_t count;
  int64_t bytes;
};
static Blocks blocksOf(MemRefType tile, MemRefType remote) {
  int64_t bytes = tile.getNumElements() * tile.getElementTypeBitWidth() / 8;
  if (movesAsOneBlock(tile, remote))
    return {1, bytes};
  int64_t rows = tile.getNumElements() / tile.getShape().back();
  return {rows, bytes / rows};
}

// A world put or get through NVSHMEM's calls: the local tile, what one call
// moves of it, and that many bytes as the calls' size argument.
struct NvshmemTransfer {
  MemRefType tile;
  Blocks blocks;
  Value bytes;
};
static NvshmemTransfer transferOf(Value local, Value remote,
                                  NvshmemCalls &calls) {
  auto tile = cast<MemRefType>(local.getType());
  Blocks blocks = blocksOf(tile, cast<MemRefType>(remote.getType()));
  return {tile, blocks, calls.i64(blocks.bytes)};
}

// Thread 0's (or the caller's) update of a peer's signal word once its
// earlier puts have landed: a fence, then the update.
static void emitFencedSignal(NvshmemCalls &calls, Value word, Value value,
                             SignalKind kind, Value peer) {
  calls.call("nvshmem_fence", Type(), {});
  calls.call("nvshmemx_signal_op", Type(),
             {word, value, calls.i32(nvshmemSignalOp(kind)), peer});
}

static StringRef suffix(Scope scope) {
  return scope == Scope::warp ? "_warp" : "_block";
}

// `body(block, remoteIndices, localIndices)` for each of `blocks` blocks of
// the tile (the whole tile, or each row: its innermost dimension), the
// remote indices offset by `offsets`.
static void forEachBlock(
    OpBuilder &b, Location loc, MemRefType tile, int64_t blocks,
    ValueRange offsets,
    function_ref<void(Value, ArrayRef<Value>, ArrayRef<Value>)> body) {
  int64_t rank = tile.getRank();
  int64_t rows = blocks;
  auto emit = [&](OpBuilder &b, Location loc, Value row) {
    // Row -> tile coordinates of its first element.
    SmallVector<Value> local(rank, constIndex(b, loc, 0));
    Value rest = row;
    for (int64_t d = rank - 2; d >= 0; --d) {
      Value extent = constIndex(b, loc, tile.getShape()[d]);
      local[d] = arith::RemUIOp::create(b, loc, rest, extent);
      rest = arith::DivUIOp::create(b, loc, rest, extent);
    }
    body(row, addIndices(b, loc, offsets, local), local);
  };
  if (rows == 1)
    return emit(b, loc, constIndex(b, loc, 0));
  auto loop = scf::ForOp::create(b, loc, constIndex(b, loc, 0),
                                 constIndex(b, loc, rows),
                                 constIndex(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  emit(b, loc, loop.getInductionVar());
}

namespace {
template <typename OpT, CommMechanism Mechanism = CommMechanism::nvshmem>
struct WorldPattern : ChipPattern<OpT> {
  using ChipPattern<OpT>::ChipPattern;
  using Adaptor = typename OpT::Adaptor;
  LogicalResult
  matchAndRewrite(OpT op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (op.getMechanism() != Mechanism)
      return rewriter.notifyMatchFailure(op, "another mechanism");
    FailureOr<NvshmemCalls> calls = NvshmemCalls::forOp(rewriter, op);
    if (failed(calls))
      return failure();
    lower(op, adaptor, rewriter, *calls);
    return success();
  }
  // Replaces or erases `op`.
  virtual void lower(OpT op, Adaptor adaptor,
                     ConversionPatternRewriter &rewriter,
                     NvshmemCalls &calls) const = 0;
};

// A put through NVSHMEM's calls, after the source is complete: one call per
// block; with a signal every block but the last without one, a fence (the
// earlier blocks land first), the last with the signal.
static void emitNvshmemPut(PutOp op, PutOp::Adaptor adaptor, OpBuilder &b,
                           NvshmemCalls &calls) {
  Location loc = op.getLoc();
  NvshmemTransfer move = transferOf(op.getSource(), op.getDest(), calls);
  StringRef scope = suffix(op.getScope());
  Value peer = adaptor.getPeer();
  if (!op.getSignal()) {
    forEachBlock(b, loc, move.tile, move.blocks.count, adaptor.getDestOffsets(),
                 [&](Value, ArrayRef<Value> remote, ArrayRef<Value> local) {
                   calls.call(("nvshmemx_putmem" + scope).str(), Type(),
                              {calls.address(adaptor.getDest(), remote),
                               calls.address(adaptor.getSource(), local),
                               move.bytes, peer});
                 });
    return;
  }
  Value last = constIndex(b, loc, move.blocks.count - 1);
  Value signalWord =
      calls.address(adaptor.getSignal(), ValueRange{adaptor.getSignalIndex()});
  Value kind = calls.i32(nvshmemSignalOp(*op.getSignalKind()));
  forEachBlock(
      b, loc, move.tile, move.blocks.count, adaptor.getDestOffsets(),
      [&](Value block, ArrayRef<Value> remote, ArrayRef<Value> local) {
        Value dest = calls.address(adaptor.getDest(), remote);
        Value src = calls.address(adaptor.getSource(), local);
        auto signalled = [&] {
          calls.call(("nvshmemx_putmem_signal_nbi" + scope).str(), Type(),
                     {dest, src, move.bytes, signalWord, adaptor.getSignalValue(),
                      kind, peer});
        };
        if (move.blocks.count == 1)
          return signalled();
        Value isLast =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, block, last);
        auto branch = scf::IfOp::create(b, loc, isLast, /*withElse=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(branch.thenBlock());
        calls.call("nvshmem_fence", Type(), {});
        signalled();
        b.setInsertionPointToStart(branch.elseBlock());
        calls.call(("nvshmemx_putmem_nbi" + scope).str(), Type(),
                   {dest, src, move.bytes, peer});
      });
}

// A get through NVSHMEM's calls, one per block; a shared destination is
// complete for the CTA when the op returns.
static void emitNvshmemGet(GetOp op, GetOp::Adaptor adaptor, OpBuilder &b,
                           NvshmemCalls &calls) {
  Location loc = op.getLoc();
  NvshmemTransfer move = transferOf(op.getDest(), op.getSource(), calls);
  forEachBlock(b, loc, move.tile, move.blocks.count, adaptor.getSourceOffsets(),
               [&](Value, ArrayRef<Value> remote, ArrayRef<Value> local) {
                 calls.call(("nvshmemx_getmem" + suffix(op.getScope())).str(),
                            Type(),
                            {calls.address(adaptor.getDest(), local),
                             calls.address(adaptor.getSource(), remote),
                             move.bytes, adaptor.getPeer()});
               });
  if (getMemorySpace(move.tile) == MemorySpace::Shared &&
      op.getScope() == Scope::block)
    ctaBarrier(b, loc);
}

// The source tile is complete for the scope before it is read.
static void awaitSource(OpBuilder &b, PutOp op) {
  if (getMemorySpace(op.getSource().getType()) == MemorySpace::Shared &&
      op.getScope() == Scope::block)
    ctaBarrier(b, op.getLoc());
}

struct PutLowering : WorldPattern<PutOp> {
  using WorldPattern::WorldPattern;
  void lower(PutOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    awaitSource(rewriter, op);
    emitNvshmemPut(op, adaptor, rewriter, calls);
    rewriter.eraseOp(op);
  }
};

struct GetLowering : WorldPattern<GetOp> {
  using WorldPattern::WorldPattern;
  void lower(GetOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    emitNvshmemGet(op, adaptor, rewriter, calls);
    rewriter.eraseOp(op);
  }
};

// The peer's copy of `remote` (a symmetric buffer) at `offsets`, as its
// distance from this PE's copy (i64, to add to local addresses), and
// whether the peer is reachable by loads and stores at all (nvshmem_ptr
// gives null where not).
struct PeerWindow {
  Value delta;
  Value reachable;
};
static PeerWindow peerWindow(OpBuilder &b, Location loc, NvshmemCalls &calls,
                             Value remote, ValueRange offsets, Value peer) {
  Value origin = elementAddress(b, loc, remote, offsets);
  Value there = calls.call(
      "nvshmem_ptr", calls.ptr(),
      {LLVM::IntToPtrOp::create(b, loc, calls.ptr(), origin), peer});
  Value at = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), there);
  return {arith::SubIOp::create(b, loc, at, origin),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, at,
                                calls.i64(0))};
}

// Each thread of the scope moves its runs between `local` and the peer's
// copy of `remote` at `offsets`, `delta` bytes from this PE's: as whole
// runs (up to 16 bytes) where both sides' tile origins and row strides are
// multiples of a run, else element by element.
static void moveThroughPeerWindow(OpBuilder &b, Location loc, Value local,
                                  Value remote, ValueRange offsets,
                                  Value delta, const ScopeThreads &scope,
                                  bool toPeer) {
  auto tile = cast<MemRefType>(local.getType());
  int64_t elementBytes = tile.getElementTypeBitWidth() / 8;
  int64_t runBytes =
      Distribution::forMemRef(tile, scope.count).vector * elementBytes;
  auto space = static_cast<unsigned>(getMemorySpace(tile) == MemorySpace::Shared
                                         ? NVVM::NVVMMemorySpace::Shared
                                         : NVVM::NVVMMemorySpace::Global);
  auto global = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Global));
  auto localPointer = [&](OpBuilder &b, Location loc, ValueRange coords) {
    return elementPointer(b, loc, local, coords, space);
  };
  auto remotePointer = [&](OpBuilder &b, Location loc, ValueRange indices) {
    Value at = arith::AddIOp::create(
        b, loc, elementAddress(b, loc, remote, indices), delta);
    return LLVM::IntToPtrOp::create(b, loc, global, at).getResult();
  };
  auto move = [&](OpBuilder &b, int64_t align) {
    moveRuns(b, loc, local, offsets, scope, toPeer,
             {localPointer, remotePointer, static_cast<unsigned>(align)});
  };
  if (runBytes == elementBytes)
    return move(b, elementBytes);
  // Addresses and strides in bytes, ORed: a run's multiple when all are.
  SmallVector<Value> zeros(tile.getRank(), constIndex(b, loc, 0));
  Value bits = arith::OrIOp::create(
      b, loc, elementAddress(b, loc, local, zeros),
      arith::AddIOp::create(b, loc, elementAddress(b, loc, remote, offsets),
                            delta));
  for (Value memref : {local, remote}) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    for (auto [d, stride] : llvm::enumerate(meta.getStrides().drop_back()))
      // A dimension of one element of the tile takes no step.
      if (tile.getDimSize(d) != 1)
        bits = arith::OrIOp::create(
            b, loc, bits,
            arith::IndexCastUIOp::create(
                b, loc, b.getI64Type(),
                arith::MulIOp::create(b, loc, stride,
                                      constIndex(b, loc, elementBytes))));
  }
  Value aligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(
          b, loc, bits,
          arith::ConstantIntOp::create(b, loc, runBytes - 1, 64)),
      arith::ConstantIntOp::create(b, loc, 0, 64));
  auto branch = scf::IfOp::create(b, loc, aligned, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  move(b, runBytes);
  b.setInsertionPointToStart(branch.elseBlock());
  move(b, elementBytes);
}

// A p2p put or get of `local` to or from the peer's copy of `remote` at
// `offsets`: where the peer is reachable by loads and stores, the scope's
// threads synchronise (what they wrote before is complete, what they read
// before is read: NVSHMEM's own threadgroup puts and gets begin so), move
// their runs and synchronise again, then `after(scope)`; elsewhere
// `fallback()`, NVSHMEM's calls. `peer` is the same in every thread of the
// scope, as for NVSHMEM's threadgroup calls.
static void moveOrFallBack(OpBuilder &b, Operation *op, Scope scopeKind,
                           NvshmemCalls &calls, Value local, Value remote,
                           ValueRange offsets, Value peer, bool toPeer,
                           function_ref<void(const ScopeThreads &)> after,
                           function_ref<void()> fallback) {
  Location loc = op->getLoc();
  PeerWindow window = peerWindow(b, loc, calls, remote, offsets, peer);
  auto branch = scf::IfOp::create(b, loc, window.reachable, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  ScopeThreads scope = scopeThreads(b, loc, op, scopeKind);
  syncScope(b, loc, scope);
  moveThroughPeerWindow(b, loc, local, remote, offsets, window.delta, scope,
                        toPeer);
  syncScope(b, loc, scope);
  after(scope);
  b.setInsertionPointToStart(branch.elseBlock());
  fallback();
}

struct P2pPutLowering : WorldPattern<PutOp, CommMechanism::p2p> {
  using WorldPattern::WorldPattern;
  void lower(PutOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    Value peer = adaptor.getPeer();
    auto signal = [&](const ScopeThreads &scope) {
      if (!op.getSignal())
        return;
      inLeader(rewriter, op.getLoc(), scope, [&](OpBuilder &) {
        emitFencedSignal(calls,
                         calls.address(adaptor.getSignal(),
                                       ValueRange{adaptor.getSignalIndex()}),
                         adaptor.getSignalValue(), *op.getSignalKind(), peer);
      });
    };
    moveOrFallBack(rewriter, op, op.getScope(), calls, adaptor.getSource(),
                   adaptor.getDest(), adaptor.getDestOffsets(), peer,
                   /*toPeer=*/true, signal,
                   [&] {
                     awaitSource(rewriter, op);
                     emitNvshmemPut(op, adaptor, rewriter, calls);
                   });
    rewriter.eraseOp(op);
  }
};

struct P2pGetLowering : WorldPattern<GetOp, CommMechanism::p2p> {
  using WorldPattern::WorldPattern;
  void lower(GetOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    moveOrFallBack(
        rewriter, op, op.getScope(), calls, adaptor.getDest(),
        adaptor.getSource(), adaptor.getSourceOffsets(), adaptor.getPeer(),
        /*toPeer=*/false, [](const ScopeThreads &) {},
        [&] { emitNvshmemGet(op, adaptor, rewriter, calls); });
    rewriter.eraseOp(op);
  }
};

// Once for the CTA, after its earlier puts: fence, then the update.
struct SignalLowering : WorldPattern<SignalOp> {
  using WorldPattern::WorldPattern;
  void lower(SignalOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    Location loc = op.getLoc();
    ctaBarrier(rewriter, loc);
    buildIf(rewriter, loc, isThreadZero(rewriter, loc), [&](OpBuilder &) {
      emitFencedSignal(
          calls, calls.address(adaptor.getSignal(), ValueRange{adaptor.getIndex()}),
          adaptor.getValue(), op.getKind(), adaptor.getPeer());
    });
    rewriter.eraseOp(op);
  }
};

// After a world-level wait, on chips whose TMA reads global memory through
// the async proxy: orders that proxy after the wait, so that a TMA load the
// wait gates (a warp-specialised producer's) sees what was put before the
// signal.
static void fenceTmaAfterWait(OpBuilder &b, Location loc,
                              const ChipInfo &chip) {
  if (chip.has(Feature::Tma))
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_global,
                               NVVM::SharedSpaceAttr());
}

// A wait on a symmetric signal word through NVSHMEM's call (a hand-written
// mechanism; selection takes p2p): thread 0 waits and fences TMA's proxy
// (fenceTmaAfterWait); then the CTA (or the role).
struct WaitLowering : WorldPattern<WaitOp> {
  using WorldPattern::WorldPattern;
  void lower(WaitOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    Location loc = op.getLoc();
    buildIf(rewriter, loc, isThreadZero(rewriter, loc), [&](OpBuilder &b) {
      calls.call("nvshmem_signal_wait_until", rewriter.getI64Type(),
                 {calls.address(adaptor.getSignal(),
                                ValueRange{adaptor.getIndex()}),
                  calls.i32(nvshmemCmp(op.getCmp())), adaptor.getValue()});
      fenceTmaAfterWait(b, loc, chip);
    });
    ctaBarrier(rewriter, loc);
    rewriter.eraseOp(op);
  }
};

// A wait on the local word of a symmetric buffer, without a call (which
// would make ptxas serialise a GEMM's wgmmas and drop setmaxnreg): an
// acquire spin at system scope, which sees whatever wrote the word (a
// peer's SM, NVSHMEM's proxy, the copy engine), then fenceTmaAfterWait.
struct P2pWaitLowering : WorldPattern<WaitOp, CommMechanism::p2p> {
  using WorldPattern::WorldPattern;
  void lower(WaitOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &) const override {
    Location loc = op.getLoc();
    Value word = elementPointer(rewriter, loc, adaptor.getSignal(),
                                ValueRange{adaptor.getIndex()},
                                static_cast<unsigned>(NVVM::NVVMMemorySpace::Global));
    waitOnWord(rewriter, loc, op, word, adaptor.getValue(),
               "ld.acquire.sys.global.u64 $0, [$1];",
               [&](OpBuilder &b, Location loc) {
                 fenceTmaAfterWait(b, loc, chip);
               });
    rewriter.eraseOp(op);
  }
};

template <typename OpT>
struct NoArgumentCall : WorldPattern<OpT> {
  NoArgumentCall(TypeConverter &converter, MLIRContext *context,
                 const ChipInfo &chip, StringRef name)
      : WorldPattern<OpT>(converter, context, chip), name(name) {}
  void lower(OpT op, typename OpT::Adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    Type result = op->getNumResults() ? op->getResult(0).getType() : Type();
    Value value = calls.call(name, result, {});
    if (result)
      rewriter.replaceOp(op, value);
    else
      rewriter.eraseOp(op);
  }
  std::string name;
};
} // namespace

bool mlir::tile::lowersThroughNvshmem(Operation *op) {
  auto comm = dyn_cast<CommunicationOpInterface>(op);
  return comm && comm.getLevel() == Level::world;
}

void mlir::tile::populateNvshmemCommunicationPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  MLIRContext *context = patterns.getContext();
  patterns.add<PutLowering, GetLowering, P2pPutLowering, P2pGetLowering,
               SignalLowering, WaitLowering, P2pWaitLowering>(converter,
                                                              context, chip);
  patterns.add<NoArgumentCall<FenceOp>>(converter, context, chip,
                                        "nvshmem_fence");
  patterns.add<NoArgumentCall<QuietOp>>(converter, context, chip,
                                        "nvshmem_quiet");
  // Every thread of the CTA calls the block form.
  patterns.add<NoArgumentCall<BarrierAllOp>>(converter, context, chip,
                                             "nvshmemx_barrier_all_block");
  patterns.add<NoArgumentCall<RankOp>>(converter, context, chip,
                                       "nvshmem_my_pe");
  patterns.add<NoArgumentCall<NumRanksOp>>(converter, context, chip,
                                           "nvshmem_n_pes");
}

void mlir::tile::populateTileDistributedToGPUPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  populateClusterCommunicationPatterns(converter, patterns, chip);
  populateNvshmemCommunicationPatterns(converter, patterns, chip);
  populateUnselectedCommunicationPatterns(converter, patterns, chip);
}
