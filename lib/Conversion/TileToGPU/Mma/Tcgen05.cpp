//===- Tcgen05.cpp - tile.gemm {mechanism = tcgen05} ----------------------===//
//
// sm_100a: A and B in swizzled shared tiles, C in tensor memory. One thread
// (thread 0 of the threads that run the gemm) orders itself after their
// synchronisation (tcgen05.fence::after_thread_sync), issues one
// tcgen05.mma per 32 bytes of K over the whole M x N tile, and commits them
// to the gemm's barrier, which tracks their completion: the product is
// asynchronous, and C, A and B are the program's again once that barrier's
// phase completes. The instruction descriptor and the constant part of the
// shared-memory descriptors are built at compile time
// (tile/Target/Tcgen05.h).
//
//===----------------------------------------------------------------------===//

#include "MmaCommon.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"
#include "tile/Target/Tcgen05.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static tcgen05::Format formatOf(Type type) {
  if (type.isBF16())
    return tcgen05::Format::BF16;
  if (type.isF16())
    return tcgen05::Format::F16;
  return type.isF32() ? tcgen05::Format::TF32 : tcgen05::Format::F32;
}

// The constant part of the shared-memory descriptor of `operand`.
static uint64_t fixedDescriptorBits(const SharedOperand &operand) {
  tcgen05::SmemDescriptor desc;
  desc.leadingByteOffset = operand.leadingBytes;
  desc.strideByteOffset = operand.strideBytes;
  desc.swizzle = *tcgen05::swizzleOfBytes(operand.swizzle);
  return tcgen05::encode(desc);
}

// tcgen05.commit of this thread's products so far to barrier `index` of a
// converted ring (one arrival once they are complete).
static void commitTo(OpBuilder &b, Location loc, Value barriers, Value index) {
  Value address =
      nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), barriers, index);
  auto shared = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  NVVM::Tcgen05CommitOp::create(
      b, loc, LLVM::IntToPtrOp::create(b, loc, shared, address),
      /*multicastMask=*/Value(),
      NVVM::CTAGroupKindAttr::get(b.getContext(), NVVM::CTAGroupKind::CTA_1));
}

namespace {
struct Tcgen05Lowering : MechanismPattern<GemmOp, MmaMechanism::tcgen05> {
  using MechanismPattern::MechanismPattern;

  LogicalResult lower(GemmOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    auto a = dyn_cast<MemRefType>(op.getA().getType());
    auto bType = cast<MemRefType>(op.getB().getType());
    auto c = dyn_cast<TmemType>(op.getC().getType());
    if (!a || getMemorySpace(a) != MemorySpace::Shared)
      return op.emitOpError("tcgen05 lowering takes A from shared memory "
                            "only so far");
    if (!c)
      return op.emitOpError("expects C in tensor memory (tile.alloc_tmem); a "
                            "fragment accumulator is placed there by a "
                            "warp_specialized tile.pipelined_for");
    if (!op.getBarrier())
      return op.emitOpError("expects a barrier to commit the product to");
    if (failed(checkF32Accumulator(op, "tcgen05")))
      return failure();
    Type element = a.getElementType();
    tcgen05::InstrDescriptor idesc;
    idesc.a = idesc.b = formatOf(element);
    idesc.d = tcgen05::Format::F32;
    std::optional<const char *> kind =
        tcgen05::kindOf(idesc.a, idesc.b, idesc.d);
    if (!kind)
      return op.emitOpError("has no tcgen05.mma kind for ")
             << element << " inputs (bf16, f16 and f32 as tf32 are lowered)";
    // A is K-major unless transposed (K x M); B is K-major when transposed
    // (N x K), N-major otherwise (K x N).
    bool aKMajor = !op.getTransposeA(), bKMajor = op.getTransposeB();
    idesc.transposeA = !aKMajor;
    idesc.transposeB = !bKMajor;
    idesc.m = c.getShape()[0];
    idesc.n = c.getShape()[1];
    if (std::optional<std::string> why = tcgen05::checkMmaShape(idesc.m, idesc.n))
      return op.emitOpError("cannot issue tcgen05.mma: ") << *why;
    std::pair<int64_t, int64_t> swizzles = operandSwizzles(op);
    FailureOr<SharedOperand> opA =
        describeOperand(op, "A", a, aKMajor, swizzles.first);
    FailureOr<SharedOperand> opB =
        describeOperand(op, "B", bType, bKMajor, swizzles.second);
    if (failed(opA) || failed(opB))
      return failure();
    int64_t k = aKMajor ? a.getShape()[1] : a.getShape()[0];
    int64_t kStep = tcgen05::mmaK(a.getElementTypeBitWidth());
    if (k % kStep != 0)
      return op.emitOpError("needs K to be a multiple of ") << kStep;

    Location loc = op.getLoc();
    Value addrA = sharedAddress(rewriter, loc, adaptor.getA());
    Value addrB = sharedAddress(rewriter, loc, adaptor.getB());
    Value instr = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int64_t>(tcgen05::encode(idesc)), 32);
    auto kindAttr = NVVM::Tcgen05MMAKindAttr::get(
        rewriter.getContext(), StringRef(*kind) == "tf32"
                                   ? NVVM::Tcgen05MMAKind::TF32
                                   : NVVM::Tcgen05MMAKind::F16);
    auto group = NVVM::CTAGroupKindAttr::get(rewriter.getContext(),
                                             NVVM::CTAGroupKind::CTA_1);
    buildIf(rewriter, loc, isThreadZero(rewriter, loc), [&](OpBuilder &b) {
      // The operands' writers and C's readers synchronised with this thread
      // (a barrier wait, a CTA barrier): order the MMAs after that.
      NVVM::Tcgen05FenceOp::create(b, loc,
                                   NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
      uint64_t fixedA = fixedDescriptorBits(*opA);
      uint64_t fixedB = fixedDescriptorBits(*opB);
      Value baseA = matrixDescriptor(b, loc, addrA, fixedA);
      Value baseB = matrixDescriptor(b, loc, addrB, fixedB);
      for (int64_t kk = 0; kk < k / kStep; ++kk) {
        // The first step overwrites C when the gemm clears it.
        Value accumulate = arith::ConstantIntOp::create(
            b, loc, kk > 0 || !op.getClearAccum(), 1);
        NVVM::Tcgen05MMAOp::create(
            b, loc, kindAttr, group,
            NVVM::Tcgen05MMACollectorOpAttr::get(
                b.getContext(), NVVM::Tcgen05MMACollectorOp::DISCARD),
            /*aShift=*/UnitAttr(), adaptor.getC(),
            advanceDescriptor(b, loc, baseA, fixedA, opA->kStepOffset(kk)),
            advanceDescriptor(b, loc, baseB, fixedB, opB->kStepOffset(kk)),
            instr, accumulate, /*scaleInputD=*/Value(),
            /*disableOutputLane=*/Value());
      }
      commitTo(b, loc, adaptor.getBarrier(), adaptor.getBarrierIndex());
    });
    rewriter.eraseOp(op);
    return success();
  }
};

// tcgen05.commit by the thread that issues the products (thread 0).
struct CommitGemmsLowering : ChipPattern<CommitGemmsOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(CommitGemmsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireFeature(op, chip, Feature::Tcgen05, "(tcgen05.commit)")))
      return failure();
    Location loc = op.getLoc();
    buildIf(rewriter, loc, isThreadZero(rewriter, loc), [&](OpBuilder &b) {
      commitTo(b, loc, adaptor.getBarrier(), adaptor.getBarrierIndex());
    });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateTcgen05Patterns(TileToGPUTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const ChipInfo &chip) {
  patterns.add<Tcgen05Lowering, CommitGemmsLowering>(
      converter, patterns.getContext(), chip);
}
