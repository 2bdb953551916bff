//===- PeerAccess.cpp - threads that move a tile to or from a peer --------===//

#include "PeerAccess.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

ScopeThreads lowering::scopeThreads(OpBuilder &b, Location loc, Operation *op,
                                    Scope scope) {
  if (scope == Scope::warp)
    return {arith::IndexCastUIOp::create(
                b, loc, b.getIndexType(),
                NVVM::LaneIdOp::create(b, loc, b.getI32Type())),
            32, true};
  return {threadId(b, loc), getThreadsRunning(op), false};
}

void lowering::syncScope(OpBuilder &b, Location loc,
                         const ScopeThreads &scope) {
  if (scope.warp)
    NVVM::SyncWarpOp::create(b, loc,
                             arith::ConstantIntOp::create(b, loc, -1, 32));
  else
    ctaBarrier(b, loc);
}

void lowering::inLeader(OpBuilder &b, Location loc, const ScopeThreads &scope,
                        function_ref<void(OpBuilder &)> body) {
  buildIf(b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, scope.tid,
                                constIndex(b, loc, 0)),
          body);
}

void lowering::moveRuns(OpBuilder &b, Location loc, Value local,
                        ValueRange offsets, const ScopeThreads &scope,
                        bool toPeer, const RunAccess &access) {
  auto type = cast<MemRefType>(local.getType());
  Distribution dist = Distribution::forMemRef(type, scope.count);
  auto vecType = VectorType::get({dist.vector}, type.getElementType());
  // Run r's two ends: its local coordinates, its local pointer (null: the
  // local tile is accessed as a memref) and the peer's pointer.
  struct Ends {
    SmallVector<Value> coords;
    Value here, at;
  };
  auto ends = [&](OpBuilder &b, Location loc, int64_t r) {
    Ends e;
    e.coords = dist.runCoordinates(b, loc, scope.tid, r);
    e.at = access.remotePointer(b, loc, addIndices(b, loc, offsets, e.coords));
    if (access.localPointer)
      e.here = access.localPointer(b, loc, e.coords);
    return e;
  };
  auto load = [&](OpBuilder &b, Location loc, const Ends &e) -> Value {
    if (!toPeer)
      return LLVM::LoadOp::create(b, loc, vecType, e.at, access.align);
    if (e.here)
      return LLVM::LoadOp::create(b, loc, vecType, e.here, access.align);
    return vector::LoadOp::create(b, loc, vecType, local, e.coords);
  };
  auto store = [&](OpBuilder &b, Location loc, const Ends &e, Value run) {
    if (toPeer)
      LLVM::StoreOp::create(b, loc, run, e.at, access.align);
    else if (e.here)
      LLVM::StoreOp::create(b, loc, run, e.here, access.align);
    else
      vector::StoreOp::create(b, loc, run, local, e.coords);
  };
  // The runs of an even distribution go in batches, each loaded whole
  // before any of it is stored, so that the loads' latencies overlap
  // (nothing may move a load above a store through a pointer that could
  // alias it); batches bound the registers held.
  constexpr int64_t kBatch = 8;
  if (dist.isEven()) {
    for (int64_t first = 0; first < dist.runsPerThread(); first += kBatch) {
      SmallVector<Ends> batch;
      SmallVector<Value> runs;
      for (int64_t r = first;
           r < std::min(first + kBatch, dist.runsPerThread()); ++r) {
        batch.push_back(ends(b, loc, r));
        runs.push_back(load(b, loc, batch.back()));
      }
      for (auto [e, run] : llvm::zip_equal(batch, runs))
        store(b, loc, e, run);
    }
    return;
  }
  for (int64_t r = 0; r < dist.runsPerThread(); ++r)
    scf::IfOp::create(b, loc, dist.runExists(b, loc, scope.tid, r),
                      [&](OpBuilder &ib, Location il) {
                        Ends e = ends(ib, il, r);
                        store(ib, il, e, load(ib, il, e));
                        scf::YieldOp::create(ib, il);
                      });
}

// Unsigned: signal words are u64.
static Value compare(OpBuilder &b, Location loc, Cmp cmp, Value lhs,
                     Value rhs) {
  arith::CmpIPredicate predicate = arith::CmpIPredicate::eq;
  switch (cmp) {
  case Cmp::eq:
    predicate = arith::CmpIPredicate::eq;
    break;
  case Cmp::ne:
    predicate = arith::CmpIPredicate::ne;
    break;
  case Cmp::gt:
    predicate = arith::CmpIPredicate::ugt;
    break;
  case Cmp::ge:
    predicate = arith::CmpIPredicate::uge;
    break;
  case Cmp::lt:
    predicate = arith::CmpIPredicate::ult;
    break;
  case Cmp::le:
    predicate = arith::CmpIPredicate::ule;
    break;
  }
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}

void lowering::waitOnWord(OpBuilder &b, Location loc, WaitOp op, Value word,
                          Value value, StringRef load,
                          function_ref<void(OpBuilder &, Location)> after) {
  ScopeThreads scope = scopeThreads(b, loc, op, Scope::block);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), word);
  inLeader(b, loc, scope, [&](OpBuilder &b) {
    auto spin = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
    b.createBlock(&spin.getBefore());
    Value seen = createInlinePtx(b, loc, b.getI64Type(), ValueRange{address},
                                 load, "=l,l");
    Value done = compare(b, loc, op.getCmp(), seen, value);
    scf::ConditionOp::create(
        b, loc,
        arith::XOrIOp::create(b, loc, done,
                              arith::ConstantIntOp::create(b, loc, 1, 1)),
        ValueRange{});
    b.createBlock(&spin.getAfter());
    scf::YieldOp::create(b, loc);
    b.setInsertionPointAfter(spin);
    after(b, loc);
  });
  syncScope(b, loc, scope);
}
