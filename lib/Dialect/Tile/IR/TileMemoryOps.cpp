//===- TileMemoryOps.cpp - allocations ------------------------------------===//

#include "TileOpsCommon.h"

#include "mlir/IR/Matchers.h"
#include "tile/Target/Chip.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

/// One size operand per `?` dimension: a family's tile sized by its
/// parameters.
static LogicalResult verifyAllocSizes(Operation *op, ShapedType type,
                                      ValueRange sizes) {
  int64_t dynamic = type.getNumDynamicDims();
  if (static_cast<int64_t>(sizes.size()) == dynamic)
    return success();
  if (dynamic == 0)
    return op->emitOpError("takes sizes only for `?` dimensions, and ")
           << type << " has none";
  if (sizes.empty())
    return op->emitOpError("expects a static shape of rank 1 or more, got ")
           << type << "; in a kernel family, size each `?` dimension with an "
           << "operand: `[%size, ...]`";
  return op->emitOpError("expects one size per `?` dimension of ")
         << type << " (" << dynamic << "), got " << sizes.size()
         << "; in a kernel family write `[%size, ...]` with the parameters "
            "(tile.param) that size them";
}

LogicalResult AllocSharedOp::verify() {
  auto type = cast<MemRefType>(getType());
  if (type.getRank() == 0)
    return emitOpError("expects a static shape of rank 1 or more, got ")
           << type;
  if (failed(verifyAllocSizes(*this, type, getSizes())))
    return failure();
  if (!type.getElementType().isIntOrFloat())
    return emitOpError("expects integer or float elements, got ")
           << type.getElementType();
  // LLVM addresses sub-byte elements a byte each: their tiles would not
  // have the size their shape says.
  if (type.getElementTypeBitWidth() % 8 != 0)
    return emitOpError("expects elements of whole bytes, got ")
           << type.getElementType();
  if (getMemorySpace(type) != MemorySpace::Shared)
    return emitOpError("expects a memref in #gpu.address_space<workgroup> "
                       "or #tile.shared<swizzle = N>, got ")
           << type;
  // The swizzle was an attribute before it moved into the type.
  if ((*this)->hasAttr("swizzle"))
    return emitOpError("takes its swizzle in its type, not as an attribute: "
                       "write memref<..., #tile.shared<swizzle = N>>");
  if (!type.getLayout().isIdentity())
    return emitOpError("expects the identity layout: the lowering picks the "
                       "shared-memory layout");
  // A family's sizes are checked once tile-specialize has made them static.
  if (!type.hasStaticShape())
    return verifyInKernel(*this);
  for (int64_t dim : type.getShape())
    if (dim <= 0)
      return emitOpError("expects positive dimensions, got ")
             << dim << " in " << type;
  // Multiply with overflow checks: a huge shape must not wrap around to a
  // small (or zero) byte count.
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  int64_t maxBytes = maxSharedBytesOfAnyChip();
  for (int64_t dim : type.getShape())
    if (llvm::MulOverflow(bytes, dim, bytes) || bytes > maxBytes)
      return emitOpError("needs more shared memory than any chip has (")
             << maxBytes << " bytes per CTA at most) for " << type
             << "; split the tile or keep it in global memory";
  if (int64_t swizzle = *getSharedSwizzle(type)) {
    int64_t rowBytes =
        type.getShape().back() * type.getElementTypeBitWidth() / 8;
    if (rowBytes % swizzle != 0)
      return emitOpError("expects rows of a multiple of ")
             << swizzle << " bytes for a " << swizzle << "-byte swizzle, got "
             << rowBytes;
  }
  return verifyInKernel(*this);
}

LogicalResult AllocFragmentOp::verify() {
  if (failed(verifyInKernel(*this)) ||
      failed(verifyAllocSizes(*this, getType(), getSizes())))
    return failure();
  // A layout spreads the tile over a number of threads: the kernel's.
  auto layout =
      dyn_cast_if_present<FragmentLayoutAttrInterface>(getType().getLayout());
  if (!layout)
    return success();
  if (!getType().hasStaticShape())
    return emitOpError("takes a layout only on a static shape; let "
                       "tile-assign-layouts choose it after tile-specialize");
  if (failed(layout.verifyShape([&] { return emitOpError(); },
                                getType().getShape(), getThreadsRunning(*this))))
    return failure();
  return verifyRegisterBudget([&] { return emitOpError(); }, getType(),
                              layout);
}

LogicalResult AllocTmemOp::verify() { return verifyInKernel(*this); }

LogicalResult DeallocTmemOp::verify() {
  if (!getTmem().getDefiningOp<AllocTmemOp>())
    return emitOpError("expects a value produced by 'tile.alloc_tmem'");
  return success();
}
