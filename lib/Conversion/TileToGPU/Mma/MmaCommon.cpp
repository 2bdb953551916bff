//===- MmaCommon.cpp - what the matrix-instruction lowerings share --------===//

#include "MmaCommon.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

std::pair<int64_t, int64_t> mlir::tile::lowering::operandSwizzles(GemmOp op) {
  return {getSharedSwizzle(op.getA().getType()).value_or(0),
          getSharedSwizzle(op.getB().getType()).value_or(0)};
}

// What neither matrix instruction's lowering handles yet.
LogicalResult mlir::tile::lowering::checkLoweredForms(GemmOp op,
                                                    bool registersA) {
  MemorySpace a = getMemorySpace(op.getA().getType());
  if (a == MemorySpace::Tmem)
    return op.emitOpError("with A in tensor memory is not lowered yet");
  if (a == MemorySpace::Fragment && !registersA)
    return op.emitOpError("with A in registers is lowered for wgmma only so "
                          "far");
  // With registers as the accumulator, every thread holds part of the
  // product and arrives once it is complete in that thread.
  if (Value barrier = op.getBarrier()) {
    auto alloc = barrier.getDefiningOp<AllocBarrierOp>();
    int64_t threads = getThreadsRunning(op);
    if (!alloc)
      return op.emitOpError("completes on a barrier that is not a "
                            "tile.alloc_barrier of the kernel");
    if (alloc.getArrivals() != threads)
      return op.emitOpError("completes on a barrier with one arrival per "
                            "thread, so it needs arrivals(")
             << threads << "), not arrivals(" << alloc.getArrivals() << ")";
  }
  return success();
}

// A gemm with a barrier (null otherwise) arrives on it once the product
// is complete.
void mlir::tile::lowering::arriveOnCompletion(OpBuilder &b, Location loc,
                                               Value barrier, Value index) {
  if (!barrier)
    return;
  nvgpu::MBarrierArriveOp::create(
      b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), barrier, index);
}

LogicalResult mlir::tile::lowering::checkF32Accumulator(GemmOp op,
                                                      StringRef instruction) {
  if (!cast<ShapedType>(op.getC().getType()).getElementType().isF32())
    return op.emitOpError()
           << instruction << " lowering accumulates in f32 only so far";
  return success();
}


FailureOr<SharedOperand>
mlir::tile::lowering::describeOperand(GemmOp op, StringRef name,
                                      MemRefType tile, bool kMajor,
                                      int64_t swizzle) {
  int64_t elementBytes = tile.getElementTypeBitWidth() / 8;
  int64_t rowBytes = tile.getShape()[1] * elementBytes;
  if (kMajor) {
    // Rows wider than 128 bytes are 128-byte column blocks, each read as a
    // tile of 128-byte rows.
    if (rowBytes > 128 && rowBytes % 128 == 0 && swizzle == 128)
      return SharedOperand{128, 16, 1024, 32, 64 * 128,
                           tile.getShape()[0] * 128};
    if (swizzle != rowBytes || !llvm::is_contained({32, 64, 128}, rowBytes))
      return op.emitOpError("needs ")
             << name << "'s K-major rows of 32, 64 or 128 bytes, or of a "
             << "multiple of 128 bytes, swizzled to match (got " << rowBytes
             << "-byte rows, swizzle " << swizzle << ")";
    return SharedOperand{swizzle, 16, 8 * swizzle, 32, 64 * rowBytes};
  }
  if (elementBytes != 2)
    return op.emitOpError("needs ")
           << name << " K-major for 32-bit (tf32) elements";
  if (swizzle != 128 || rowBytes % 128 != 0)
    return op.emitOpError("needs ")
           << name << "'s M- or N-major rows in 128-byte swizzled column "
           << "blocks (got " << rowBytes << "-byte rows, swizzle " << swizzle
           << ")";
  int64_t blockBytes = tile.getShape()[0] * 128;
  return SharedOperand{128, blockBytes, 1024, 16 * 128, blockBytes};
}

Value mlir::tile::lowering::sharedAddress(OpBuilder &b, Location loc,
                                          Value memref) {
  SmallVector<Value> origin(cast<MemRefType>(memref.getType()).getRank(),
                            constIndex(b, loc, 0));
  return elementAddress(b, loc, memref, origin);
}

Value mlir::tile::lowering::matrixDescriptor(OpBuilder &b, Location loc,
                                             Value address, uint64_t fixed) {
  auto i64 = [&](uint64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, static_cast<int64_t>(v), 64);
  };
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, i64(0x3FFFF)), i64(4));
  return arith::OrIOp::create(b, loc, start, i64(fixed));
}

Value mlir::tile::lowering::advanceDescriptor(OpBuilder &b, Location loc,
                                              Value base, uint64_t fixed,
                                              int64_t bytes) {
  if (bytes == 0)
    return base;
  assert(bytes % 16 == 0 && bytes > 0 && "a start moves by whole 16 bytes");
  // The start field holds a shared address below 256 KiB (a CTA has at
  // most 227 KiB), so a start within the CTA's shared memory never carries
  // out of bits 0-13: the sum of the low words is the low word of the
  // descriptor, and the high word is fixed's.
  Value low = arith::TruncIOp::create(b, loc, b.getI32Type(), base);
  Value moved = arith::AddIOp::create(
      b, loc, low, arith::ConstantIntOp::create(b, loc, bytes / 16, 32));
  Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), moved);
  return arith::OrIOp::create(
      b, loc, wide,
      arith::ConstantIntOp::create(
          b, loc, static_cast<int64_t>(fixed & 0xFFFFFFFF00000000ull), 64));
}
