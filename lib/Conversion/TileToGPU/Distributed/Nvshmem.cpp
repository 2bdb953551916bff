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
// every thread of the scope calls. A tile whose rows are not contiguous in
// the remote buffer moves row by row.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"
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

// Bytes of one row (innermost dimension) of `tile`, as NVSHMEM's size_t.
static Value rowBytes(NvshmemCalls &calls, MemRefType tile) {
  return calls.i64(tile.getShape().back() * tile.getElementTypeBitWidth() / 8);
}

static StringRef suffix(Scope scope) {
  return scope == Scope::warp ? "_warp" : "_block";
}

// `body(row, remoteIndices, localIndices)` for each row of the tile (its
// innermost dimension), the remote indices offset by `offsets`.
static void forEachRow(
    OpBuilder &b, Location loc, MemRefType tile, ValueRange offsets,
    function_ref<void(Value, ArrayRef<Value>, ArrayRef<Value>)> body) {
  int64_t rank = tile.getRank();
  int64_t rows = tile.getNumElements() / tile.getShape().back();
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
template <typename OpT> struct WorldPattern : ChipPattern<OpT> {
  using ChipPattern<OpT>::ChipPattern;
  using Adaptor = typename OpT::Adaptor;
  LogicalResult
  matchAndRewrite(OpT op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (op.getMechanism() != CommMechanism::nvshmem)
      return rewriter.notifyMatchFailure(op, "not mechanism nvshmem");
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

struct PutLowering : WorldPattern<PutOp> {
  using WorldPattern::WorldPattern;
  void lower(PutOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    Location loc = op.getLoc();
    auto tile = cast<MemRefType>(op.getSource().getType());
    int64_t rows = tile.getNumElements() / tile.getShape().back();
    Value bytes = rowBytes(calls, tile);
    StringRef scope = suffix(op.getScope());
    // The source tile is complete for the scope before NVSHMEM reads it.
    if (getMemorySpace(tile) == MemorySpace::Shared &&
        op.getScope() == Scope::block)
      ctaBarrier(rewriter, loc);
    Value peer = adaptor.getPeer();
    if (!op.getSignal()) {
      forEachRow(rewriter, loc, tile, adaptor.getDestOffsets(),
                 [&](Value, ArrayRef<Value> remote, ArrayRef<Value> local) {
                   calls.call(("nvshmemx_putmem" + scope).str(), Type(),
                              {calls.address(adaptor.getDest(), remote),
                               calls.address(adaptor.getSource(), local),
                               bytes, peer});
                 });
      rewriter.eraseOp(op);
      return;
    }
    // With a signal: every row but the last without one, a fence (the
    // earlier rows land first), the last with the signal.
    Value last = constIndex(rewriter, loc, rows - 1);
    Value signalWord =
        calls.address(adaptor.getSignal(), ValueRange{adaptor.getSignalIndex()});
    Value kind = calls.i32(nvshmemSignalOp(*op.getSignalKind()));
    forEachRow(
        rewriter, loc, tile, adaptor.getDestOffsets(),
        [&](Value row, ArrayRef<Value> remote, ArrayRef<Value> local) {
          Value dest = calls.address(adaptor.getDest(), remote);
          Value src = calls.address(adaptor.getSource(), local);
          auto signalled = [&] {
            calls.call(("nvshmemx_putmem_signal_nbi" + scope).str(), Type(),
                       {dest, src, bytes, signalWord,
                        adaptor.getSignalValue(), kind, peer});
          };
          if (rows == 1)
            return signalled();
          Value isLast = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, row, last);
          auto branch = scf::IfOp::create(rewriter, loc, isLast,
                                          /*withElse=*/true);
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(branch.thenBlock());
          calls.call("nvshmem_fence", Type(), {});
          signalled();
          rewriter.setInsertionPointToStart(branch.elseBlock());
          calls.call(("nvshmemx_putmem_nbi" + scope).str(), Type(),
                     {dest, src, bytes, peer});
        });
    rewriter.eraseOp(op);
  }
};

struct GetLowering : WorldPattern<GetOp> {
  using WorldPattern::WorldPattern;
  void lower(GetOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    Location loc = op.getLoc();
    auto tile = cast<MemRefType>(op.getDest().getType());
    Value bytes = rowBytes(calls, tile);
    forEachRow(rewriter, loc, tile, adaptor.getSourceOffsets(),
               [&](Value, ArrayRef<Value> remote, ArrayRef<Value> local) {
                 calls.call(("nvshmemx_getmem" + suffix(op.getScope())).str(),
                            Type(),
                            {calls.address(adaptor.getDest(), local),
                             calls.address(adaptor.getSource(), remote),
                             bytes, adaptor.getPeer()});
               });
    // A shared destination is complete for the CTA when the op returns.
    if (getMemorySpace(tile) == MemorySpace::Shared &&
        op.getScope() == Scope::block)
      ctaBarrier(rewriter, loc);
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
      calls.call("nvshmem_fence", Type(), {});
      calls.call("nvshmemx_signal_op", Type(),
                 {calls.address(adaptor.getSignal(),
                                ValueRange{adaptor.getIndex()}),
                  adaptor.getValue(),
                  calls.i32(nvshmemSignalOp(op.getKind())),
                  adaptor.getPeer()});
    });
    rewriter.eraseOp(op);
  }
};

// A wait on a symmetric signal word: thread 0 waits, then the CTA.
struct WaitLowering : WorldPattern<WaitOp> {
  using WorldPattern::WorldPattern;
  void lower(WaitOp op, Adaptor adaptor, ConversionPatternRewriter &rewriter,
             NvshmemCalls &calls) const override {
    Location loc = op.getLoc();
    buildIf(rewriter, loc, isThreadZero(rewriter, loc), [&](OpBuilder &) {
      calls.call("nvshmem_signal_wait_until", rewriter.getI64Type(),
                 {calls.address(adaptor.getSignal(),
                                ValueRange{adaptor.getIndex()}),
                  calls.i32(nvshmemCmp(op.getCmp())), adaptor.getValue()});
    });
    ctaBarrier(rewriter, loc);
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
  patterns.add<PutLowering, GetLowering, SignalLowering, WaitLowering>(
      converter, context, chip);
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
