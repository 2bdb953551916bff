//===- RedundantBarriers.cpp - drop back-to-back CTA barriers -------------===//
//
// Lowered copies each synchronise the CTA on entry and on exit (with an
// async-proxy fence where TMA reads what they wrote), so back-to-back copies
// and waits meet barrier after barrier. A barrier is redundant when only
// side-effect-free ops separate it from the previous one, and so is a
// fenced one when that previous barrier was fenced too.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

// The nearest op before `op` in its block that has side effects.
static Operation *previousEffect(Operation *op) {
  do
    op = op->getPrevNode();
  while (op && isMemoryEffectFree(op));
  return op;
}

void mlir::tile::eraseRedundantBarriers(Operation *root) {
  SmallVector<Operation *> redundant;
  root->walk([&](gpu::BarrierOp barrier) {
    SmallVector<Operation *> fences;
    Operation *prev = previousEffect(barrier);
    while (auto fence = dyn_cast_or_null<NVVM::FenceProxyOp>(prev)) {
      fences.push_back(fence);
      prev = previousEffect(fence);
    }
    if (!isa_and_present<gpu::BarrierOp>(prev))
      return;
    // The earlier barrier's fence must be of every kind this one has.
    auto earlier = dyn_cast_or_null<NVVM::FenceProxyOp>(previousEffect(prev));
    for (Operation *op : fences) {
      auto fence = cast<NVVM::FenceProxyOp>(op);
      if (!earlier || fence.getKind() != earlier.getKind() ||
          fence.getSpace() != earlier.getSpace())
        return;
    }
    redundant.push_back(barrier);
    llvm::append_range(redundant, fences);
  });
  for (Operation *op : redundant)
    op->erase();
}

