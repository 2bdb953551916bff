//===- PromoteFragments.cpp - fragment storage to SSA values --------------===//
//
// Fragments lower to per-thread memref.allocas indexed by constants. LLVM
// would promote them as well, but a gemm's accumulators (128 values a
// thread for a 64 x 256 wgmma) went through memory on every k-step until
// then, and LLVM spent much of the compile on that traffic. Here each
// element becomes an SSA value, carried through scf.for iter_args and
// scf.if results (only those a loop or branch writes), so the matrix
// instructions' results flow to the next one directly.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPROMOTEFRAGMENTS
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
// One access to the storage: `width` elements from `position`.
struct Access {
  int64_t position = 0;
  int64_t width = 1;
  bool store = false;
};

class FragmentPromoter {
public:
  explicit FragmentPromoter(memref::AllocaOp storage) : storage(storage) {}

  // Every use is a load or store at constant positions, nested in the
  // storage's region through scf.for and scf.if only.
  bool analyse() {
    MemRefType type = storage.getType();
    if (type.getRank() != 1 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat())
      return false;
    size = type.getNumElements();
    Region *home = storage->getParentRegion();
    for (OpOperand &use : storage->getUses()) {
      Operation *user = use.getOwner();
      // Promotion walks the alloca's block and the scf ops nested in it.
      if (!storage->getBlock()->findAncestorOpInBlock(*user))
        return false;
      std::optional<Access> access = describe(user, use.getOperandNumber());
      if (!access || access->position < 0 ||
          access->position + access->width > size)
        return false;
      accesses[user] = *access;
      for (Region *region = user->getParentRegion(); region != home;
           region = region->getParentOp()->getParentRegion()) {
        Operation *op = region->getParentOp();
        if (!isa<scf::ForOp, scf::IfOp>(op))
          return false;
        llvm::BitVector &written = writes[op];
        written.resize(size);
        if (access->store)
          written.set(access->position, access->position + access->width);
      }
    }
    return true;
  }

  void promote() {
    IRRewriter rewriter(storage.getContext());
    rewriter.setInsertionPoint(storage);
    // Poison, not llvm.mlir.undef: vector.from_elements folds poison
    // operands, but its folder reads an undef operand's attribute as a
    // number (garbage; found by tile-fuzz).
    Value poison = ub::PoisonOp::create(rewriter, storage.getLoc(),
                                        storage.getType().getElementType());
    SmallVector<Value> elements(size, poison);
    promoteBlock(rewriter, *storage->getBlock(), elements);
    rewriter.eraseOp(storage);
  }

private:
  static std::optional<int64_t> constantPosition(ValueRange indices) {
    APInt value;
    if (indices.size() != 1 || !matchPattern(indices[0], m_ConstantInt(&value)))
      return std::nullopt;
    return value.getSExtValue();
  }

  std::optional<Access> describe(Operation *user, unsigned operand) {
    std::optional<int64_t> position;
    Access access;
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      position = constantPosition(load.getIndices());
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      if (operand != store.getMemrefMutable().getOperandNumber())
        return std::nullopt;
      position = constantPosition(store.getIndices());
      access.store = true;
    } else if (auto load = dyn_cast<vector::LoadOp>(user)) {
      if (load.getVectorType().getRank() != 1)
        return std::nullopt;
      position = constantPosition(load.getIndices());
      access.width = load.getVectorType().getNumElements();
    } else if (auto store = dyn_cast<vector::StoreOp>(user)) {
      if (operand != store.getBaseMutable().getOperandNumber() ||
          store.getVectorType().getRank() != 1)
        return std::nullopt;
      position = constantPosition(store.getIndices());
      access.width = store.getVectorType().getNumElements();
      access.store = true;
    }
    if (!position)
      return std::nullopt;
    access.position = *position;
    return access;
  }

  // Rewrites the accesses in `block` given the elements' values on entry,
  // which it updates to their values at the end.
  void promoteBlock(IRRewriter &rewriter, Block &block,
                    SmallVectorImpl<Value> &elements) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      // Entries leave the maps before their ops are erased, so that a new op
      // at a reused address is never mistaken for one of them.
      if (auto it = accesses.find(&op); it != accesses.end()) {
        Access access = it->second;
        accesses.erase(it);
        rewriteAccess(rewriter, &op, access, elements);
        continue;
      }
      auto it = writes.find(&op);
      if (it == writes.end())
        continue;
      SmallVector<unsigned> carried = llvm::to_vector(it->second.set_bits());
      writes.erase(it);
      if (auto loop = dyn_cast<scf::ForOp>(op))
        promoteLoop(rewriter, loop, carried, elements);
      else
        promoteIf(rewriter, cast<scf::IfOp>(op), carried, elements);
    }
  }

  void rewriteAccess(IRRewriter &rewriter, Operation *op, const Access &access,
                     SmallVectorImpl<Value> &elements) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    ArrayRef<Value> run =
        ArrayRef<Value>(elements).slice(access.position, access.width);
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      rewriter.replaceOp(op, vector::FromElementsOp::create(
                                 rewriter, loc, load.getVectorType(), run));
      return;
    }
    if (isa<memref::LoadOp>(op)) {
      rewriter.replaceOp(op, run.front());
      return;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      elements[access.position] = store.getValueToStore();
    } else {
      Value value = cast<vector::StoreOp>(op).getValueToStore();
      for (int64_t i = 0; i < access.width; ++i)
        elements[access.position + i] =
            vector::ExtractOp::create(rewriter, loc, value, i);
    }
    rewriter.eraseOp(op);
  }

  // `carried`: the positions the loop writes.
  void promoteLoop(IRRewriter &rewriter, scf::ForOp loop,
                   ArrayRef<unsigned> carried,
                   SmallVectorImpl<Value> &elements) {
    SmallVector<Value> inits;
    for (unsigned p : carried)
      inits.push_back(elements[p]);
    unsigned results = loop.getNumResults();
    FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
        rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
          SmallVector<Value> inner = llvm::to_vector(elements);
          for (auto [p, arg] : llvm::zip_equal(carried, args))
            inner[p] = arg;
          // Called while the body still sits in the old loop.
          promoteBlock(rewriter, *loop.getBody(), inner);
          SmallVector<Value> yields;
          for (unsigned p : carried)
            yields.push_back(inner[p]);
          return yields;
        });
    for (auto [i, p] : llvm::enumerate(carried))
      elements[p] = grown->getOperation()->getResult(results + i);
  }

  void promoteIf(IRRewriter &rewriter, scf::IfOp ifOp,
                 ArrayRef<unsigned> carried, SmallVectorImpl<Value> &elements) {
    if (carried.empty()) {
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        SmallVector<Value> inner = llvm::to_vector(elements);
        if (!region->empty())
          promoteBlock(rewriter, region->front(), inner);
      }
      return;
    }
    rewriter.setInsertionPoint(ifOp);
    SmallVector<Type> types(ifOp.getResultTypes());
    for (unsigned p : carried)
      types.push_back(elements[p].getType());
    auto grown =
        scf::IfOp::create(rewriter, ifOp.getLoc(), types, ifOp.getCondition(),
                          /*withElseRegion=*/true);
    for (auto [from, to] :
         {std::pair{&ifOp.getThenRegion(), &grown.getThenRegion()},
          {&ifOp.getElseRegion(), &grown.getElseRegion()}}) {
      to->getBlocks().clear();
      if (from->empty()) {
        Block *block = rewriter.createBlock(to);
        rewriter.setInsertionPointToEnd(block);
        scf::YieldOp::create(rewriter, ifOp.getLoc());
      } else {
        to->takeBody(*from);
      }
      SmallVector<Value> inner = llvm::to_vector(elements);
      promoteBlock(rewriter, to->front(), inner);
      auto yield = cast<scf::YieldOp>(to->front().getTerminator());
      for (unsigned p : carried)
        yield.getResultsMutable().append(inner[p]);
    }
    unsigned results = ifOp.getNumResults();
    rewriter.replaceOp(ifOp, grown.getResults().take_front(results));
    for (auto [i, p] : llvm::enumerate(carried))
      elements[p] = grown.getResult(results + i);
  }

  memref::AllocaOp storage;
  int64_t size = 0;
  DenseMap<Operation *, Access> accesses;
  // scf ops with accesses inside, and the positions written inside them.
  DenseMap<Operation *, llvm::BitVector> writes;
};
} // namespace

namespace {
struct TilePromoteFragmentsPass
    : tile::impl::TilePromoteFragmentsBase<TilePromoteFragmentsPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      func.walk([&](memref::AllocaOp storage) { allocas.push_back(storage); });
    });
    for (memref::AllocaOp storage : allocas) {
      FragmentPromoter promoter(storage);
      if (promoter.analyse())
        promoter.promote();
    }
  }
};
} // namespace
