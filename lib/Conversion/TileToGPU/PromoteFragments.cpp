//===- PromoteFragments.cpp - fragment storage to SSA values --------------===//
//
// Fragments lower to per-thread memref.allocas indexed by constants. LLVM
// would promote them as well, but only after every gemm had rebuilt its
// accumulator struct (128 values for a 64 x 256 wgmma) from scalars and
// taken it apart again, on every k-step: that traffic dominated compile
// time. Here a fragment becomes one SSA value of an LLVM struct type,
// carried through scf.for iter_args and scf.if results, so accumulators flow
// from matrix instruction to matrix instruction untouched.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

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
        !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat())
      return false;
    size = type.getNumElements();
    Region *home = storage->getParentRegion();
    for (OpOperand &use : storage->getUses()) {
      Operation *user = use.getOwner();
      if (!home->isAncestor(user->getParentRegion()))
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
        enclosing.insert(op);
        if (access->store)
          storing.insert(op);
      }
    }
    return true;
  }

  void promote() {
    MLIRContext *context = storage.getContext();
    structType = LLVM::LLVMStructType::getLiteral(
        context, SmallVector<Type>(size, storage.getType().getElementType()));
    IRRewriter rewriter(context);
    rewriter.setInsertionPoint(storage);
    Value initial = LLVM::UndefOp::create(rewriter, storage.getLoc(), structType);
    promoteBlock(rewriter, *storage->getBlock(), initial);
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

  // Rewrites the accesses in `block` given the fragment's value on entry;
  // returns its value at the end.
  Value promoteBlock(IRRewriter &rewriter, Block &block, Value current) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto it = accesses.find(&op); it != accesses.end()) {
        current = rewriteAccess(rewriter, &op, it->second, current);
        continue;
      }
      if (!enclosing.contains(&op))
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(op))
        current = promoteLoop(rewriter, loop, current);
      else
        current = promoteIf(rewriter, cast<scf::IfOp>(op), current);
    }
    return current;
  }

  Value rewriteAccess(IRRewriter &rewriter, Operation *op,
                      const Access &access, Value current) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (!access.store) {
      SmallVector<Value> elements;
      for (int64_t i = 0; i < access.width; ++i)
        elements.push_back(LLVM::ExtractValueOp::create(
            rewriter, loc, current, access.position + i));
      Value result = elements.front();
      if (auto load = dyn_cast<vector::LoadOp>(op))
        result = vector::FromElementsOp::create(rewriter, loc,
                                                load.getVectorType(), elements);
      rewriter.replaceOp(op, result);
      return current;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      current = LLVM::InsertValueOp::create(rewriter, loc, current,
                                            store.getValueToStore(),
                                            access.position);
    } else {
      auto vstore = cast<vector::StoreOp>(op);
      for (int64_t i = 0; i < access.width; ++i)
        current = LLVM::InsertValueOp::create(
            rewriter, loc, current,
            vector::ExtractOp::create(rewriter, loc, vstore.getValueToStore(),
                                      i),
            access.position + i);
    }
    rewriter.eraseOp(op);
    return current;
  }

  Value promoteLoop(IRRewriter &rewriter, scf::ForOp loop, Value current) {
    if (!storing.contains(loop)) {
      promoteBlock(rewriter, *loop.getBody(), current);
      return current;
    }
    FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
        rewriter, current, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
          // Called while the body still sits in the old loop.
          Value end = promoteBlock(rewriter, *loop.getBody(), args[0]);
          return SmallVector<Value>{end};
        });
    return grown->getOperation()->getResults().back();
  }

  Value promoteIf(IRRewriter &rewriter, scf::IfOp ifOp, Value current) {
    if (!storing.contains(ifOp)) {
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        if (!region->empty())
          promoteBlock(rewriter, region->front(), current);
      return current;
    }
    rewriter.setInsertionPoint(ifOp);
    SmallVector<Type> types(ifOp.getResultTypes());
    types.push_back(structType);
    auto grown = scf::IfOp::create(rewriter, ifOp.getLoc(), types,
                                   ifOp.getCondition(),
                                   /*withElseRegion=*/true);
    for (auto [from, to] : {std::pair{&ifOp.getThenRegion(),
                                      &grown.getThenRegion()},
                            {&ifOp.getElseRegion(), &grown.getElseRegion()}}) {
      to->getBlocks().clear();
      if (from->empty()) {
        Block *block = rewriter.createBlock(to);
        rewriter.setInsertionPointToEnd(block);
        scf::YieldOp::create(rewriter, ifOp.getLoc());
      } else {
        to->takeBody(*from);
      }
      Value end = promoteBlock(rewriter, to->front(), current);
      auto yield = cast<scf::YieldOp>(to->front().getTerminator());
      yield.getResultsMutable().append(end);
    }
    rewriter.replaceOp(ifOp, grown.getResults().drop_back());
    return grown.getResults().back();
  }

  memref::AllocaOp storage;
  int64_t size = 0;
  LLVM::LLVMStructType structType;
  DenseMap<Operation *, Access> accesses;
  DenseSet<Operation *> enclosing; // scf ops with accesses inside
  DenseSet<Operation *> storing;   // ... with stores inside
};
} // namespace

// A chain of insertvalues that puts element i of `R` at position i for
// every position is `R` itself: what a matrix instruction's operand struct
// rebuilt from the previous one's results amounts to.
static void foldRebuiltStructs(Operation *root) {
  root->walk([](LLVM::InsertValueOp top) {
    if (llvm::all_of(top->getUsers(), [](Operation *user) {
          return isa<LLVM::InsertValueOp>(user);
        }) && !top->use_empty())
      return;
    auto type = dyn_cast<LLVM::LLVMStructType>(top.getType());
    if (!type)
      return;
    size_t size = type.getBody().size();
    llvm::BitVector covered(size);
    Value source;
    Value v = top;
    while (auto insert = v.getDefiningOp<LLVM::InsertValueOp>()) {
      if (insert.getPosition().size() != 1)
        return;
      int64_t pos = insert.getPosition()[0];
      if (!covered.test(pos)) {
        auto extract = insert.getValue().getDefiningOp<LLVM::ExtractValueOp>();
        if (!extract || extract.getPosition() != insert.getPosition() ||
            extract.getContainer().getType() != type ||
            (source && extract.getContainer() != source))
          return;
        source = extract.getContainer();
        covered.set(pos);
        if (covered.all())
          break;
      }
      v = insert.getContainer();
    }
    if (source && covered.all())
      top.replaceAllUsesWith(source);
  });
}

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
    foldRebuiltStructs(getOperation());
  }
};
} // namespace
