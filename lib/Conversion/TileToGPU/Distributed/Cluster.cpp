//===- Cluster.cpp - communication across the CTAs of a cluster -----------===//
//
// Mechanism `dsmem` (`level cluster`): the ranks are the CTAs of the
// kernel's cluster and the
// buffers shared tiles, the same in every CTA. A put writes the peer's tile
// through distributed shared memory: each thread of the scope moves its
// runs (the blocked layout over the scope's threads), storing to the peer's
// address that `mapa` gives for its local one. With a signal, the scope
// synchronises and one thread updates the peer's word with release
// semantics at cluster scope (`st.release` / `red.release ... add`), which
// orders every thread's stores before it. A get loads through `mapa`
// likewise, between two synchronisations of the scope. A wait spins one
// thread on acquire loads of the local word, then the scope synchronises;
// a signal is one thread's release after the scope's synchronisation;
// barrier_all is `barrier.cluster`. Runs are 16-byte accesses where the
// tiles' static layouts and offsets show them aligned (the p2p mechanism
// tests its addresses at run time instead: a shared tile's base is known
// aligned here, a symmetric buffer's peer address is not).
//
//===----------------------------------------------------------------------===//

#include "../SharedMemoryAllocation.h"
#include "PeerAccess.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// The peer CTA's address of element `indices` of shared tile `memref`.
static Value peerPointer(OpBuilder &b, Location loc, Value memref,
                         ValueRange indices, Value peer) {
  Value local = elementPointer(b, loc, memref, indices,
                               static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  auto cluster = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  return NVVM::MapaOp::create(b, loc, cluster, local, peer);
}

// Word `index` of the peer's signal tile updated with release semantics at
// cluster scope: stored (`set`) or added atomically (`add`).
static void signalPeer(OpBuilder &b, Location loc, Value signal, Value index,
                       SignalKind kind, Value value, Value peer) {
  Value word = peerPointer(b, loc, signal, ValueRange{index}, peer);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), word);
  StringRef text = kind == SignalKind::set
                       ? "st.release.cluster.shared::cluster.u64 [$0], $1;"
                       : "red.release.cluster.shared::cluster.add.u64 [$0], $1;";
  createInlinePtx(b, loc, Type(), ValueRange{address, value}, text, "l,l");
}

// Whether every run of `bytes` in `type` at element `offsets` (the tile's
// place in it; none for the tile itself) starts on a multiple of `bytes`:
// shared tiles start on kSharedAlignment, so it is where the layout's
// offset, its outer strides and the offsets are static multiples of it.
static bool runsAligned(MemRefType type, ValueRange offsets, int64_t bytes) {
  SmallVector<int64_t> strides;
  int64_t start;
  if (failed(type.getStridesAndOffset(strides, start)) ||
      ShapedType::isDynamic(start) || strides.empty() || strides.back() != 1)
    return false;
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  auto multiple = [&](std::optional<int64_t> elements) {
    if (!elements || ShapedType::isDynamic(*elements))
      return false;
    std::optional<int64_t> at = llvm::checkedMul(*elements, elementBytes);
    return at && *at % bytes == 0;
  };
  if (!multiple(start) ||
      !llvm::all_of(ArrayRef(strides).drop_back(),
                    [&](int64_t stride) { return multiple(stride); }))
    return false;
  for (auto [offset, stride] : llvm::zip(offsets, strides)) {
    std::optional<int64_t> known = getConstantIntValue(offset);
    if (!known || !multiple(llvm::checkedMul(*known, stride)))
      return false;
  }
  return true;
}

// Moves the tile between local memory and the peer's shared tile, each
// thread of the scope its runs; `toPeer` for a put. Runs are whole vector
// accesses (16-byte `st/ld.shared::cluster`) where the layouts and offsets
// show them aligned, else element by element (run-time offsets).
static void moveTile(OpBuilder &b, Location loc, Value local, Value remote,
                     ValueRange offsets, Value peer, const ScopeThreads &scope,
                     bool toPeer) {
  auto remotePointer = [&](OpBuilder &b, Location loc, ValueRange indices) {
    return peerPointer(b, loc, remote, indices, peer);
  };
  auto type = cast<MemRefType>(local.getType());
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t runBytes =
      Distribution::forMemRef(type, scope.count).vector * elementBytes;
  bool aligned = runBytes > elementBytes && runBytes <= kSharedAlignment &&
                 runsAligned(type, ValueRange{}, runBytes) &&
                 runsAligned(cast<MemRefType>(remote.getType()), offsets,
                             runBytes);
  unsigned align = static_cast<unsigned>(aligned ? runBytes : elementBytes);
  moveRuns(b, loc, local, offsets, scope, toPeer,
           {/*localPointer=*/nullptr, remotePointer, align});
}

namespace {
template <typename OpT> struct ClusterPattern : ChipPattern<OpT> {
  using ChipPattern<OpT>::ChipPattern;
  using Adaptor = typename OpT::Adaptor;
  LogicalResult
  matchAndRewrite(OpT op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (op.getMechanism() != CommMechanism::dsmem)
      return rewriter.notifyMatchFailure(op, "not mechanism dsmem");
    if (failed(requireFeature(op, this->chip, Feature::Clusters,
                              "level cluster")))
      return failure();
    lower(op, adaptor, rewriter);
    return success();
  }
  // Replaces or erases `op`.
  virtual void lower(OpT op, Adaptor adaptor,
                     ConversionPatternRewriter &rewriter) const = 0;
};

struct PutLowering : ClusterPattern<PutOp> {
  using ClusterPattern::ClusterPattern;
  void lower(PutOp op, Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ScopeThreads scope = scopeThreads(rewriter, loc, op, op.getScope());
    // The source tile is complete for the scope before it is read.
    syncScope(rewriter, loc, scope);
    moveTile(rewriter, loc, adaptor.getSource(), adaptor.getDest(),
             adaptor.getDestOffsets(), adaptor.getPeer(), scope,
             /*toPeer=*/true);
    syncScope(rewriter, loc, scope);
    if (op.getSignal())
      inLeader(rewriter, loc, scope, [&](OpBuilder &b) {
        signalPeer(b, loc, adaptor.getSignal(), adaptor.getSignalIndex(),
                   *op.getSignalKind(), adaptor.getSignalValue(),
                   adaptor.getPeer());
      });
    rewriter.eraseOp(op);
  }
};

struct GetLowering : ClusterPattern<GetOp> {
  using ClusterPattern::ClusterPattern;
  void lower(GetOp op, Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ScopeThreads scope = scopeThreads(rewriter, loc, op, op.getScope());
    // What the scope's threads read of the destination before is read (a
    // get in a loop reusing it), as p2p's gets and NVSHMEM's begin.
    syncScope(rewriter, loc, scope);
    moveTile(rewriter, loc, adaptor.getDest(), adaptor.getSource(),
             adaptor.getSourceOffsets(), adaptor.getPeer(), scope,
             /*toPeer=*/false);
    syncScope(rewriter, loc, scope);
    rewriter.eraseOp(op);
  }
};

struct SignalLowering : ClusterPattern<SignalOp> {
  using ClusterPattern::ClusterPattern;
  void lower(SignalOp op, Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ScopeThreads scope = scopeThreads(rewriter, loc, op, Scope::block);
    syncScope(rewriter, loc, scope);
    inLeader(rewriter, loc, scope, [&](OpBuilder &b) {
      signalPeer(b, loc, adaptor.getSignal(), adaptor.getIndex(),
                 op.getKind(), adaptor.getValue(), adaptor.getPeer());
    });
    rewriter.eraseOp(op);
  }
};

// A wait on the local word of the cluster's shared signal tile: one thread
// spins on acquire loads at cluster scope, then the CTA synchronises.
struct WaitLowering : ClusterPattern<WaitOp> {
  using ClusterPattern::ClusterPattern;
  void lower(WaitOp op, Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value word = elementPointer(
        rewriter, loc, adaptor.getSignal(), ValueRange{adaptor.getIndex()},
        static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    waitOnWord(rewriter, loc, op, word, adaptor.getValue(),
               "ld.acquire.cluster.shared::cta.u64 $0, [$1];",
               [](OpBuilder &, Location) {});
    rewriter.eraseOp(op);
  }
};

// Every thread of every CTA of the cluster (barrier.cluster arrive/wait,
// release/acquire). Barrier initialisations are published to the cluster
// first, so that after it other CTAs may arrive on this CTA's mbarriers
// and multicast copies may complete on them (at a barrier that ends the
// kernel the fence is one idle instruction).
struct BarrierAllLowering : ClusterPattern<BarrierAllOp> {
  using ClusterPattern::ClusterPattern;
  void lower(BarrierAllOp op, Adaptor,
             ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/nullptr);
    NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/nullptr);
    rewriter.eraseOp(op);
  }
};

// Puts are stores that complete as they are issued: fence and quiet both
// order them before what follows, at cluster scope.
template <typename OpT> struct FenceLowering : ClusterPattern<OpT> {
  using ClusterPattern<OpT>::ClusterPattern;
  void lower(OpT op, typename OpT::Adaptor,
             ConversionPatternRewriter &rewriter) const override {
    createInlinePtx(rewriter, op.getLoc(), Type(), ValueRange{},
                    "fence.acq_rel.cluster;", "");
    rewriter.eraseOp(op);
  }
};

struct RankLowering : ClusterPattern<RankOp> {
  using ClusterPattern::ClusterPattern;
  void lower(RankOp op, Adaptor,
             ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, NVVM::ClusterId::create(rewriter, op.getLoc(),
                                                   rewriter.getI32Type()));
  }
};

struct NumRanksLowering : ClusterPattern<NumRanksOp> {
  using ClusterPattern::ClusterPattern;
  void lower(NumRanksOp op, Adaptor,
             ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, NVVM::ClusterDim::create(rewriter, op.getLoc(),
                                                    rewriter.getI32Type()));
  }
};
} // namespace

void mlir::tile::populateClusterCommunicationPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<PutLowering, GetLowering, SignalLowering, WaitLowering,
               BarrierAllLowering, FenceLowering<FenceOp>,
               FenceLowering<QuietOp>, RankLowering, NumRanksLowering>(
      converter, patterns.getContext(), chip);
}
