//===- Wgmma.cpp - tile.gemm {mechanism = wgmma} and tile.wait_gemms ------===//
//
// sm_90a: A and B in swizzled shared tiles (K-major, or M/N-major as 128-byte
// column blocks), or A in registers with C's layout; C in #tile.wgmma
// registers. Warpgroup g multiplies its rows of op(A) (64, or blocks of 64)
// by all of op(B) with one wgmma.mma_async per block and 32 bytes of K (an
// inline-PTX block per block of rows), between one wgmma.fence and one
// commit, so ptxas sees the accumulators untouched while the group is in
// flight; then a wait, unless the gemm is {async} and a tile.wait_gemms
// waits for it.
//
//===----------------------------------------------------------------------===//

#include "MmaCommon.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"
#include "tile/Target/Swizzle.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;


// The constant part of the wgmma matrix descriptor of `operand`.
static uint64_t fixedDescriptorBits(const SharedOperand &operand) {
  // describeOperand accepted only swizzles the table has.
  uint64_t mode = swizzleEncoding(operand.swizzle)->wgmma;
  return (uint64_t(operand.leadingBytes / 16) << 16) |
         (uint64_t(operand.strideBytes / 16) << 32) | (mode << 62);
}

// The wgmma.mma_async of one gemm, K step after K step, as one inline-PTX
// block on the accumulator struct: LLVM's instruction selection spends
// milliseconds on each 256-operand asm statement, so one per gemm rather
// than one per instruction (what ptxas sees is the same). Each K step takes
// A as one descriptor or, from registers, as four 32-bit registers, and B as
// a descriptor.
static Value wgmmaSequence(OpBuilder &b, Location loc, ValueRange accumulators,
                           ArrayRef<SmallVector<Value>> aSteps,
                           ArrayRef<Value> bSteps, int64_t n, int64_t kStep,
                           StringRef inputType, bool aKMajor, bool bKMajor,
                           bool clearFirst) {
  int64_t regs = accumulators.size();
  auto structType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(regs, b.getF32Type()));
  SmallVector<Value> operands;
  SmallVector<std::string> names, constraints;
  for (int64_t i = 0; i < regs; ++i) {
    names.push_back("$" + std::to_string(i));
    constraints.push_back("=f");
  }
  for (int64_t i = 0; i < regs; ++i) {
    operands.push_back(accumulators[i]);
    constraints.push_back(std::to_string(i));
  }
  auto add = [&](Value v, StringRef constraint) {
    operands.push_back(v);
    constraints.push_back(constraint.str());
    return "$" + std::to_string(regs + operands.size() - 1);
  };
  std::string d = ptxRegisters(names);
  // Immediates: scale-a, scale-b, then the transposes bf16/f16 have (none
  // for A from registers, which is K-major); tf32 operands are K-major.
  bool aInRegisters = aSteps.front().size() > 1;
  std::string tail = ", 1, 1";
  if (inputType != "tf32") {
    if (!aInRegisters)
      tail += aKMajor ? ", 0" : ", 1";
    tail += bKMajor ? ", 0" : ", 1";
  }
  std::string text = "{\n.reg .pred first, rest;\nsetp.ne.b32 first, " +
                     std::string(clearFirst ? "0" : "1") +
                     ", 0;\nsetp.ne.b32 rest, 1, 0;\n";
  for (auto [i, aStep, bStep] : llvm::enumerate(aSteps, bSteps)) {
    SmallVector<std::string> aNames;
    for (Value v : aStep)
      aNames.push_back(add(v, aInRegisters ? "r" : "l"));
    std::string aText = ptxRegisters(aNames);
    std::string bText = add(bStep, "l");
    text += "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k" +
            std::to_string(kStep) + ".f32." + inputType.str() + "." +
            inputType.str() + " " + d + ", " + aText + ", " + bText + ", " +
            (i == 0 ? "first" : "rest") + tail + ";\n";
  }
  text += "}";
  return createInlinePtx(b, loc, structType, operands, text,
                         llvm::join(constraints, ","));
}

// K step `kk` of A in registers (the #tile.wgmma layout's storage of a
// 64 x K slice per warpgroup): runs 4 kk .. 4 kk + 3, one pair of 16-bit
// elements each, packed into the four 32-bit registers wgmma reads.
static SmallVector<Value> registersOfA(OpBuilder &b, Location loc,
                                      Value storage, int64_t kk) {
  auto type = cast<MemRefType>(storage.getType());
  auto pairType = VectorType::get({2}, type.getElementType());
  auto wordType = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> words;
  for (int64_t r = 4 * kk; r < 4 * kk + 4; ++r) {
    SmallVector<Value> pair;
    for (int64_t e = 0; e < 2; ++e)
      pair.push_back(memref::LoadOp::create(
          b, loc, storage, ValueRange{constIndex(b, loc, 2 * r + e)}));
    Value packed = vector::BitCastOp::create(
        b, loc, wordType, vector::FromElementsOp::create(b, loc, pairType, pair));
    words.push_back(vector::ExtractOp::create(b, loc, packed, 0));
  }
  return words;
}

namespace {
// What a wgmma gemm multiplies, checked against what the lowering handles.
// A is K-major unless transposed (K x M); B is K-major when transposed
// (N x K), M- or N-major otherwise (K x N).
struct WgmmaForm {
  WgmmaLayoutAttr layout;
  FragmentType c;
  ShapedType a;
  bool aInRegisters;
  bool aKMajor, bKMajor;
  StringRef inputName; // bf16, f16 or tf32 (f32 inputs)
  int64_t blocks;      // 64-row blocks per warpgroup
  int64_t n, k;
  int64_t kStep; // K elements per wgmma: 32 bytes
  SharedOperand opA, opB;
};
} // namespace

static FailureOr<WgmmaForm> checkWgmmaForm(GemmOp op) {
  WgmmaForm form;
  form.c = dyn_cast<FragmentType>(op.getC().getType());
  form.layout = form.c ? dyn_cast_if_present<WgmmaLayoutAttr>(form.c.getLayout())
                       : nullptr;
  if (!form.layout)
    return op.emitOpError("expects C in a fragment with the #tile.wgmma "
                          "layout (tile-assign-layouts)");
  if (failed(checkLoweredForms(op, /*registersA=*/true)))
    return failure();
  form.a = cast<ShapedType>(op.getA().getType());
  form.aInRegisters = isa<FragmentType>(form.a);
  Type element = form.a.getElementType();
  // f32 inputs multiply as tf32, as the tensor cores do.
  if (element.isBF16())
    form.inputName = "bf16";
  else if (element.isF16())
    form.inputName = "f16";
  else if (element.isF32())
    form.inputName = "tf32";
  else
    return op.emitOpError("wgmma lowering handles bf16, f16 and f32 (tf32) "
                          "inputs so far, got ")
           << element;
  if (failed(checkF32Accumulator(op, "wgmma")))
    return failure();
  // A from registers: C's layout (the pairs of its 64 x K slice are
  // wgmma's A registers, K step by K step), 16-bit elements.
  if (form.aInRegisters) {
    if (cast<FragmentType>(form.a).getLayout() != form.layout)
      return op.emitOpError("expects A in registers to have C's layout ")
             << form.layout << " (tile-assign-layouts gives it)";
    if (element.isF32())
      return op.emitOpError("takes A from registers for bf16 and f16 only; "
                            "tf32 A must be in shared memory");
    if (form.layout.getBlocks() != 1)
      return op.emitOpError("takes A from registers only with one 64-row "
                            "block per warpgroup; with ")
             << form.layout << " keep A in shared memory";
  }
  form.blocks = form.layout.getBlocks();
  form.aKMajor = !op.getTransposeA();
  form.bKMajor = op.getTransposeB();
  form.n = form.c.getShape()[1];
  form.k = form.aKMajor ? form.a.getShape()[1] : form.a.getShape()[0];
  std::pair<int64_t, int64_t> swizzles = operandSwizzles(op);
  if (!form.aInRegisters) {
    FailureOr<SharedOperand> opA =
        describeOperand(op, "A", cast<MemRefType>(form.a), form.aKMajor,
                        swizzles.first);
    if (failed(opA))
      return failure();
    form.opA = *opA;
  }
  FailureOr<SharedOperand> opB =
      describeOperand(op, "B", cast<MemRefType>(op.getB().getType()),
                      form.bKMajor, swizzles.second);
  if (failed(opB))
    return failure();
  form.opB = *opB;
  form.kStep = 256 / form.a.getElementTypeBitWidth();
  if (form.k % form.kStep != 0)
    return op.emitOpError("needs K to be a multiple of ") << form.kStep;
  return form;
}

// The shared address of this warpgroup's rows of A.
static Value warpgroupRowsOfA(OpBuilder &b, Location loc, const WgmmaForm &form,
                              Value sharedA) {
  Value warpgroup = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(),
      arith::DivUIOp::create(b, loc, threadId(b, loc),
                             constIndex(b, loc, 128)));
  return arith::AddIOp::create(
      b, loc, sharedAddress(b, loc, sharedA),
      arith::MulIOp::create(b, loc, warpgroup,
                            arith::ConstantIntOp::create(
                                b, loc, form.blocks * form.opA.mn64Bytes, 64)));
}

// Per 64-row block of the warpgroup's rows, A's operands for each K step
// (a descriptor from `addrA`, or four registers of `registersA`), and B's
// descriptors from `addrB`, which the blocks share.
static void kStepOperands(OpBuilder &b, Location loc, const WgmmaForm &form,
                          Value addrA, Value registersA, Value addrB,
                          SmallVector<SmallVector<SmallVector<Value>>> &aSteps,
                          SmallVector<Value> &bSteps) {
  aSteps.assign(form.blocks, {});
  uint64_t fixedA = form.aInRegisters ? 0 : fixedDescriptorBits(form.opA);
  uint64_t fixedB = fixedDescriptorBits(form.opB);
  Value baseA = form.aInRegisters ? Value()
                                  : matrixDescriptor(b, loc, addrA, fixedA);
  Value baseB = matrixDescriptor(b, loc, addrB, fixedB);
  for (int64_t kk = 0; kk < form.k / form.kStep; ++kk) {
    for (int64_t block = 0; block < form.blocks; ++block)
      aSteps[block].push_back(
          form.aInRegisters
              ? registersOfA(b, loc, registersA, kk)
              : SmallVector<Value>{advanceDescriptor(
                    b, loc, baseA, fixedA,
                    block * form.opA.mn64Bytes + form.opA.kStepOffset(kk))});
    bSteps.push_back(advanceDescriptor(b, loc, baseB, fixedB,
                                       form.opB.kStepOffset(kk)));
  }
}

namespace {
struct WgmmaLowering : MechanismPattern<GemmOp, MmaMechanism::wgmma> {
  using MechanismPattern::MechanismPattern;

  LogicalResult lower(GemmOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<WgmmaForm> form = checkWgmmaForm(op);
    if (failed(form))
      return failure();
    Location loc = op.getLoc();
    int64_t blocks = form->blocks;
    Value addrA = form->aInRegisters
                      ? Value()
                      : warpgroupRowsOfA(rewriter, loc, *form, adaptor.getA());
    Value addrB = sharedAddress(rewriter, loc, adaptor.getB());
    // The accumulators wgmma reads; it returns them as a struct.
    SmallVector<Value> accumulators;
    int64_t slots = cast<FragmentLayoutAttrInterface>(Attribute(form->layout))
                        .getSlotsPerThread(form->c.getShape());
    for (int64_t i = 0; i < slots; ++i)
      accumulators.push_back(
          memref::LoadOp::create(rewriter, loc, adaptor.getC(),
                                 ValueRange{constIndex(rewriter, loc, i)}));
    SmallVector<SmallVector<SmallVector<Value>>> aSteps;
    SmallVector<Value> bSteps;
    kStepOperands(rewriter, loc, *form, addrA, adaptor.getA(), addrB, aSteps,
                  bSteps);
    // The fence orders every write of the accumulator and A registers
    // (A's words are packed above) before the wgmmas read them.
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    // One sequence per block, on its N / 2 accumulators.
    int64_t perBlock = slots / blocks;
    SmallVector<Value> inouts;
    for (int64_t block = 0; block < blocks; ++block)
      inouts.push_back(wgmmaSequence(
          rewriter, loc,
          ArrayRef<Value>(accumulators).slice(block * perBlock, perBlock),
          aSteps[block], bSteps, form->n, form->kStep, form->inputName,
          form->aKMajor, form->bKMajor, op.getClearAccum()));
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // An {async} product stays in flight until a tile.wait_gemms; otherwise
    // (and before arriving on a barrier: wgmma groups cannot arrive on an
    // mbarrier by themselves) the warpgroup waits for its group now.
    if (!op.getAsync())
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc,
                                         rewriter.getI64IntegerAttr(0));
    for (int64_t i = 0; i < slots; ++i) {
      Value v = LLVM::ExtractValueOp::create(rewriter, loc,
                                             inouts[i / perBlock], i % perBlock);
      memref::StoreOp::create(rewriter, loc, v, adaptor.getC(),
                              ValueRange{constIndex(rewriter, loc, i)});
    }
    arriveOnCompletion(rewriter, loc, adaptor.getBarrier(),
                       adaptor.getBarrierIndex());
    rewriter.eraseOp(op);
    return success();
  }
};

// wgmma.wait_group; where no gemm takes wgmma nothing is ever in flight.
struct WaitGemmsLowering : ChipPattern<WaitGemmsOp> {
  using ChipPattern::ChipPattern;
  LogicalResult
  matchAndRewrite(WaitGemmsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (chip.has(Feature::Wgmma))
      NVVM::WgmmaWaitGroupSyncOp::create(
          rewriter, op.getLoc(), rewriter.getI64IntegerAttr(op.getPending()));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateWgmmaPatterns(TileToGPUTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const ChipInfo &chip) {
  patterns.add<WgmmaLowering, WaitGemmsLowering>(converter,
                                                 patterns.getContext(), chip);
}
