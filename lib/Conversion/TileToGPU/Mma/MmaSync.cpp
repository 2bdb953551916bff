//===- MmaSync.cpp - tile.gemm {mechanism = mma_sync} ---------------------===//
//
// sm_80 and later: per warp, mma.sync m16n8k16 tiles of C (#tile.mma
// layout), A and B fragments read from plain shared tiles with ldmatrix
// (.trans for A stored K x M and B stored K x N). mma.sync is synchronous,
// so an {async} gemm is complete when it returns too.
//
//===----------------------------------------------------------------------===//

#include "MmaCommon.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
// What an mma.sync gemm multiplies, checked against what the lowering
// handles. A stored K x M (transpose_a) and B stored K x N (no transpose_b)
// are read with ldmatrix.trans, which hands out the same registers.
struct MmaSyncForm {
  MmaLayoutAttr layout;
  FragmentType c;
  NVVM::MMATypes inputType;
  bool aKRows, bKRows;
  int64_t k;
};
} // namespace

static FailureOr<MmaSyncForm> checkMmaSyncForm(GemmOp op) {
  MmaSyncForm form;
  form.c = dyn_cast<FragmentType>(op.getC().getType());
  form.layout =
      form.c ? dyn_cast_if_present<MmaLayoutAttr>(form.c.getLayout()) : nullptr;
  if (!form.layout)
    return op.emitOpError("expects C in a fragment with the #tile.mma "
                          "layout (tile-assign-layouts)");
  if (failed(checkLoweredForms(op, /*registersA=*/false)))
    return failure();
  auto a = cast<MemRefType>(op.getA().getType());
  Type element = a.getElementType();
  if (element.isBF16())
    form.inputType = NVVM::MMATypes::bf16;
  else if (element.isF16())
    form.inputType = NVVM::MMATypes::f16;
  else
    return op.emitOpError("mma.sync lowering handles bf16 and f16 inputs "
                          "so far, got ")
           << element;
  if (failed(checkF32Accumulator(op, "mma.sync")))
    return failure();
  std::pair<int64_t, int64_t> swizzles = operandSwizzles(op);
  if (swizzles.first != 0 || swizzles.second != 0)
    return op.emitOpError("ldmatrix reads unswizzled shared tiles only");
  form.aKRows = op.getTransposeA();
  form.bKRows = !op.getTransposeB();
  form.k = form.aKRows ? a.getShape()[0] : a.getShape()[1];
  if (form.k % 16 != 0)
    return op.emitOpError("needs K to be a multiple of 16, got ") << form.k;
  return form;
}

// `num` 8x8 b16 matrices of `tile` from this lane's row address `at`
// (ldmatrix, .trans when `trans`), as their 32-bit registers.
static SmallVector<Value> loadMatrices(OpBuilder &b, Location loc, Value tile,
                                       std::pair<Value, Value> at, int64_t num,
                                       bool trans) {
  MLIRContext *context = b.getContext();
  Value ptr = elementPointer(b, loc, tile, {at.first, at.second}, 3);
  auto type = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(num, b.getI32Type()));
  Value frag = NVVM::LdMatrixOp::create(
      b, loc, type, ptr, b.getI32IntegerAttr(num),
      NVVM::MMALayoutAttr::get(context, trans ? NVVM::MMALayout::col
                                              : NVVM::MMALayout::row),
      NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
      NVVM::LdStMatrixEltTypeAttr::get(context, NVVM::LdStMatrixEltType::B16));
  SmallVector<Value> regs;
  for (int64_t r = 0; r < num; ++r)
    regs.push_back(LLVM::ExtractValueOp::create(b, loc, frag, r));
  return regs;
}

namespace {
struct MmaSyncLowering : MechanismPattern<GemmOp, MmaMechanism::mma_sync> {
  using MechanismPattern::MechanismPattern;

  LogicalResult lower(GemmOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<MmaSyncForm> form = checkMmaSyncForm(op);
    if (failed(form))
      return failure();
    FragmentType c = form->c;
    MmaLayoutAttr layout = form->layout;
    bool aKRows = form->aKRows, bKRows = form->bKRows;
    int64_t k = form->k;
    NVVM::MMATypes inputType = form->inputType;

    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    int64_t warpsM = layout.getWarpsM(), warpsN = layout.getWarpsN();
    int64_t tileM = c.getShape()[0] / warpsM, tileN = c.getShape()[1] / warpsN;
    int64_t tm = tileM / 16, tn = tileN / 8;
    auto cst = [&](int64_t v) { return constIndex(rewriter, loc, v); };
    Value tid = threadId(rewriter, loc);
    Value warp = arith::DivUIOp::create(rewriter, loc, tid, cst(32));
    Value lane = arith::RemUIOp::create(rewriter, loc, tid, cst(32));
    auto mul = [&](Value v, int64_t c) {
      return arith::MulIOp::create(rewriter, loc, v, cst(c));
    };
    auto div = [&](Value v, int64_t c) {
      return arith::DivUIOp::create(rewriter, loc, v, cst(c));
    };
    auto rem = [&](Value v, int64_t c) {
      return arith::RemUIOp::create(rewriter, loc, v, cst(c));
    };
    auto add = [&](Value x, Value y) {
      return arith::AddIOp::create(rewriter, loc, x, y);
    };
    Value warpM = mul(div(warp, warpsN), tileM);
    Value warpN = mul(rem(warp, warpsN), tileN);
    // Each lane's row address for ldmatrix, as (M or N, K) offsets. A, x4:
    // matrices (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15,
    // k 8-15), lanes 8 q .. 8 q + 7 addressing matrix q; B, x2: (n 0-7,
    // k 0-7), (n 0-7, k 8-15) from lanes 0-15. Stored M x K or N x K a lane
    // addresses a row of M or N; stored K x M or K x N (.trans) one of K.
    struct LaneOffsets {
      Value mn, k;
    };
    LaneOffsets laneA =
        aKRows ? LaneOffsets{mul(rem(div(lane, 8), 2), 8),
                             add(rem(lane, 8), mul(div(lane, 16), 8))}
               : LaneOffsets{rem(lane, 16), mul(div(lane, 16), 8)};
    LaneOffsets laneB =
        bKRows ? LaneOffsets{cst(0), rem(lane, 16)}
               : LaneOffsets{rem(lane, 8), mul(rem(div(lane, 8), 2), 8)};
    auto rowCol = [&](bool kRows, Value warpBase, const LaneOffsets &l,
                      int64_t mnOffset,
                      int64_t kOffset) -> std::pair<Value, Value> {
      Value mn = add(add(warpBase, l.mn), cst(mnOffset));
      Value kk = add(l.k, cst(kOffset));
      return kRows ? std::pair{kk, mn} : std::pair{mn, kk};
    };

    Type f32 = rewriter.getF32Type();
    auto ldmatrix = [&](Value tile, std::pair<Value, Value> at, int64_t num,
                        bool trans) {
      return loadMatrices(rewriter, loc, tile, at, num, trans);
    };

    Value acc = adaptor.getC();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(4, f32));
    Value zero = arith::ConstantOp::create(rewriter, loc, f32,
                                           rewriter.getF32FloatAttr(0));
    for (int64_t kk = 0; kk < k / 16; ++kk) {
      SmallVector<SmallVector<Value>> bFrags;
      for (int64_t j = 0; j < tn; ++j)
        bFrags.push_back(
            ldmatrix(adaptor.getB(),
                     rowCol(bKRows, warpN, laneB, 8 * j, 16 * kk), 2, bKRows));
      for (int64_t i = 0; i < tm; ++i) {
        SmallVector<Value> aFrag =
            ldmatrix(adaptor.getA(),
                     rowCol(aKRows, warpM, laneA, 16 * i, 16 * kk), 4, aKRows);
        for (int64_t j = 0; j < tn; ++j) {
          int64_t slot = (i * tn + j) * 4;
          SmallVector<Value> cRegs;
          for (int64_t e = 0; e < 4; ++e)
            cRegs.push_back(kk == 0 && op.getClearAccum()
                                ? zero
                                : memref::LoadOp::create(
                                      rewriter, loc, acc,
                                      ValueRange{cst(slot + e)}));
          Value d = NVVM::MmaOp::create(
              rewriter, loc, resultType, aFrag, bFrags[j], cRegs, {16, 8, 16},
              std::nullopt, std::nullopt,
              std::array<NVVM::MMATypes, 2>{inputType, inputType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          for (int64_t e = 0; e < 4; ++e)
            memref::StoreOp::create(
                rewriter, loc, LLVM::ExtractValueOp::create(rewriter, loc, d, e),
                acc, ValueRange{cst(slot + e)});
        }
      }
    }
    arriveOnCompletion(rewriter, loc, adaptor.getBarrier(),
                       adaptor.getBarrierIndex());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateMmaSyncPatterns(TileToGPUTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const ChipInfo &chip) {
  patterns.add<MmaSyncLowering>(converter, patterns.getContext(), chip);
}
