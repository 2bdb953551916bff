//===- TileComputeOps.cpp - gemm, fill and elementwise --------------------===//

#include "TileOpsCommon.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

// Tensor-core operand/accumulator pairs common to mma.sync, wgmma and
// tcgen05.mma; the lowering checks what a given chip lacks.
static bool isLegalGemmTypes(Type ab, Type c) {
  if (ab.isBF16())
    return c.isF32();
  if (ab.isF16())
    return c.isF16() || c.isF32();
  if (ab.isF32())
    return c.isF32();
  if (ab.isSignlessInteger(8))
    return c.isSignlessInteger(32);
  if (isa<Float8E4M3FNType, Float8E5M2Type>(ab))
    return c.isF32();
  return false;
}

LogicalResult GemmOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto b = cast<ShapedType>(getB().getType());
  auto c = cast<ShapedType>(getC().getType());
  MemorySpace aSpace = getMemorySpace(a), bSpace = getMemorySpace(b),
              cSpace = getMemorySpace(c);
  if (aSpace != MemorySpace::Shared && aSpace != MemorySpace::Fragment &&
      aSpace != MemorySpace::Tmem)
    return emitOpError("expects A in shared memory, a fragment or tensor "
                       "memory, got ")
           << describe(a) << " memory";
  if (bSpace != MemorySpace::Shared)
    return emitOpError("expects B in shared memory, got ")
           << describe(b) << " memory";
  if (cSpace != MemorySpace::Fragment && cSpace != MemorySpace::Tmem)
    return emitOpError("expects C in a fragment or tensor memory, got ")
           << describe(c) << " memory";
  if (aSpace == MemorySpace::Tmem && cSpace != MemorySpace::Tmem)
    return emitOpError("expects C in tensor memory when A is");
  if (aSpace == MemorySpace::Fragment && getTransposeA())
    return emitOpError("takes A in registers as M x K: transpose_a applies "
                       "to shared tiles only");
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"A", a},
                            {"B", b}, {"C", c}})
    if (type.getRank() != 2 || !type.hasStaticShape())
      return emitOpError("expects ") << name << " to be a static 2-D tile, got "
                                     << type;
  if (a.getElementType() != b.getElementType())
    return emitOpError("expects A and B of one element type, got ")
           << a.getElementType() << " and " << b.getElementType();
  if (!isLegalGemmTypes(a.getElementType(), c.getElementType()))
    return emitOpError("has no tensor-core form for ")
           << a.getElementType() << " inputs with a " << c.getElementType()
           << " accumulator";

  int64_t m = getTransposeA() ? a.getDimSize(1) : a.getDimSize(0);
  int64_t ka = getTransposeA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t kb = getTransposeB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = getTransposeB() ? b.getDimSize(0) : b.getDimSize(1);
  if (ka != kb)
    return emitOpError("expects A's K (")
           << ka << ") to equal B's K (" << kb << ")";
  if (c.getDimSize(0) != m || c.getDimSize(1) != n)
    return emitOpError("expects C to be ")
           << m << "x" << n << " (M x N), got " << c.getDimSize(0) << "x"
           << c.getDimSize(1);
  if (getBarrier() && !getBarrierIndex())
    return emitOpError("expects an index into the barrier ring");
  if (auto fragment = dyn_cast<FragmentType>(c); fragment && getMechanism()) {
    Attribute layout = fragment.getLayout();
    bool wgmma = *getMechanism() == MmaMechanism::wgmma;
    if (layout && (wgmma ? !isa<WgmmaLayoutAttr>(layout)
                         : !isa<MmaLayoutAttr>(layout)))
      return emitOpError("takes mechanism ")
             << stringifyMmaMechanism(*getMechanism()) << ", whose C has the "
             << (wgmma ? "#tile.wgmma" : "#tile.mma") << " layout, not "
             << layout;
  }
  if (getAsync() && getBarrier())
    return emitOpError("takes {async} or a barrier, not both: a product "
                       "that completes on a barrier is waited for by it");
  return verifyBarrierIndex(*this, getBarrier(), getBarrierIndex());
}

LogicalResult WaitGemmsOp::verify() {
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0 || pending > 7)
    return emitOpError("expects pending in [0, 7], got ") << pending;
  return verifyInKernel(*this);
}

//===----------------------------------------------------------------------===//
// FillOp
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  MemorySpace space = getMemorySpace(getDest().getType());
  if (space != MemorySpace::Fragment && space != MemorySpace::Shared)
    return emitOpError("fills a fragment or a shared-memory tile, got ")
           << describe(getDest().getType()) << " memory";
  Type elementType = cast<ShapedType>(getDest().getType()).getElementType();
  if (getValue().getType() != elementType)
    return emitOpError("expects a value of the element type ")
           << elementType << ", got " << getValue().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

LogicalResult ElementwiseOp::verifyRegions() {
  if (getOutputs().empty())
    return emitOpError("expects at least one output");
  ArrayRef<int64_t> shape =
      cast<ShapedType>(getOutputs().front().getType()).getShape();
  for (Value operand : getOperation()->getOperands()) {
    MemorySpace space = getMemorySpace(operand.getType());
    if (space != MemorySpace::Fragment && space != MemorySpace::Shared)
      return emitOpError("works on fragments and shared-memory tiles, got ")
             << describe(operand.getType()) << " memory";
    auto shaped = cast<ShapedType>(operand.getType());
    if (!shaped.hasStaticShape() || shaped.getShape() != shape)
      return emitOpError("expects every tile to have the outputs' shape, got ")
             << operand.getType();
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("expects one body argument per input (")
           << getInputs().size() << "), got " << body.getNumArguments();
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    Type expected = cast<ShapedType>(input.getType()).getElementType();
    if (body.getArgument(i).getType() != expected)
      return emitOpError("expects body argument ")
             << i << " of type " << expected << ", got "
             << body.getArgument(i).getType();
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != getOutputs().size())
    return emitOpError("expects the body to yield one value per output (")
           << getOutputs().size() << "), got " << yield.getValues().size();
  for (auto [i, output] : llvm::enumerate(getOutputs())) {
    Type expected = cast<ShapedType>(output.getType()).getElementType();
    if (yield.getValues()[i].getType() != expected)
      return emitOpError("expects yielded value ")
             << i << " of type " << expected << ", got "
             << yield.getValues()[i].getType();
  }
  return success();
}
