//===- GemmToNVVM.cpp - tile.gemm to wgmma or mma.sync --------------------===//
//
// sm_90a: A and B in swizzled shared tiles (K-major, or M/N-major as 128-byte
// column blocks), or A in registers with C's layout; C in #tile.wgmma
// registers. Warpgroup g multiplies rows [64 g, 64 g + 64) of op(A) by all
// of op(B) with one wgmma.mma_async per 32 bytes of K, all in one inline-PTX
// block between one wgmma.fence and one commit + wait, so ptxas sees the
// accumulators untouched while the group is in flight.
//
// Other sm_80+ chips, and C in #tile.mma registers on any chip: per warp,
// mma.sync m16n8k16 tiles of C, A and B fragments read from plain shared
// tiles with ldmatrix (.trans for A stored K x M and B stored K x N).
//
// With a barrier, every thread arrives on it once its part of C is complete.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"
#include "tile/Target/Chip.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static constexpr llvm::StringLiteral kSwizzleA = "tile.swizzle_a";
static constexpr llvm::StringLiteral kSwizzleB = "tile.swizzle_b";

LogicalResult mlir::tile::annotateSharedSwizzles(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    // gemm records its operands' swizzles for the descriptors.
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      Builder b(gemm.getContext());
      for (auto [operand, attr] : {std::pair{Value(gemm.getA()), kSwizzleA},
                                   {Value(gemm.getB()), kSwizzleB}}) {
        if (getMemorySpace(operand.getType()) != MemorySpace::Shared)
          continue;
        // Unknown once memory is lowered: the gemm lowering then refuses.
        if (std::optional<int64_t> swizzle = sharedSwizzle(operand))
          gemm->setAttr(attr, b.getI64IntegerAttr(*swizzle));
      }
      return WalkResult::advance();
    }
    // Ordinary loads and stores would ignore a swizzle: refuse rather than
    // move the wrong bytes.
    bool plainAccess = isa<FillOp, ElementwiseOp>(op);
    if (auto copy = dyn_cast<CopyOp>(op)) {
      plainAccess = !copy.getBarrier() && !copy.getTma();
      // Fragment -> shared copies swizzle their addresses themselves: they
      // learn the swizzle here (0 included) and refuse to lower without it.
      if (getMemorySpace(copy.getSource().getType()) == MemorySpace::Fragment &&
          getMemorySpace(copy.getDest().getType()) == MemorySpace::Shared) {
        plainAccess = false;
        std::optional<int64_t> swizzle = sharedSwizzle(copy.getDest());
        if (!swizzle)
          return WalkResult::advance();
        // The pattern follows absolute address bits: through a view the
        // tile-relative coordinates would not give them.
        if (*swizzle && !copy.getDest().getDefiningOp<AllocSharedOp>()) {
          copy.emitOpError("writes a swizzled shared tile through a view, "
                           "which is not lowered yet");
          return WalkResult::interrupt();
        }
        copy->setAttr(kSwizzleDestAttrName,
                      Builder(op->getContext()).getI64IntegerAttr(*swizzle));
      }
    }
    if (!plainAccess)
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      if (getMemorySpace(operand.getType()) != MemorySpace::Shared)
        continue;
      std::optional<int64_t> swizzle = sharedSwizzle(operand);
      if (swizzle && *swizzle != 0) {
        op->emitOpError("accesses a ")
            << *swizzle
            << "-byte swizzled shared tile with ordinary loads and stores, "
               "which is not lowered yet (TMA, wgmma and copies from fragments "
               "handle swizzled tiles)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

// The swizzles annotateSharedSwizzles recorded for A and B.
static FailureOr<std::pair<int64_t, int64_t>> recordedSwizzles(GemmOp op) {
  auto a = op->getAttrOfType<IntegerAttr>(kSwizzleA);
  auto b = op->getAttrOfType<IntegerAttr>(kSwizzleB);
  bool aShared = getMemorySpace(op.getA().getType()) == MemorySpace::Shared;
  if ((aShared && !a) || !b)
    return op.emitOpError("has no recorded operand swizzles: lower it before "
                          "convert-tile-memory-to-gpu, through the "
                          "tile-to-GPU passes");
  return std::make_pair(a ? a.getInt() : 0, b.getInt());
}

// Shared-window byte address of a shared tile's first element, as i64.
static Value sharedAddress(OpBuilder &b, Location loc, Value memref) {
  SmallVector<Value> origin(cast<MemRefType>(memref.getType()).getRank(),
                            constIndex(b, loc, 0));
  return elementAddress(b, loc, memref, origin);
}

namespace {
// How wgmma reads one shared operand (PTX ISA, "Shared Memory Matrix
// Layout"): K-major tiles have rows of K (32/64/128 bytes, swizzled by
// their size); MN-major tiles have rows of M or N stored as 128-byte
// swizzled column blocks (64 16-bit elements), one block after another.
struct WgmmaOperand {
  int64_t swizzle;
  int64_t leadingBytes; // MN-major: between 64-element column blocks
  int64_t strideBytes;  // between groups of 8 rows (K-major) or 8 K (MN-major)
  int64_t kStepBytes;   // start advance per wgmma along K
  int64_t mn64Bytes;    // start advance per 64 elements of M or N
};
} // namespace

static FailureOr<WgmmaOperand> describeOperand(GemmOp op, StringRef name,
                                               MemRefType tile, bool kMajor,
                                               int64_t swizzle) {
  int64_t elementBytes = tile.getElementTypeBitWidth() / 8;
  int64_t rowBytes = tile.getShape()[1] * elementBytes;
  if (kMajor) {
    if (swizzle != rowBytes || !llvm::is_contained({32, 64, 128}, rowBytes))
      return op.emitOpError("needs ")
             << name << "'s K-major rows of 32, 64 or 128 bytes, swizzled to "
             << "match (got " << rowBytes << "-byte rows, swizzle " << swizzle
             << ")";
    return WgmmaOperand{swizzle, 16, 8 * swizzle, 32, 64 * rowBytes};
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
  return WgmmaOperand{128, blockBytes, 1024, 16 * 128, blockBytes};
}

// The wgmma matrix descriptor of an operand whose tile starts at `address`.
static Value descriptor(OpBuilder &b, Location loc, Value address,
                        const WgmmaOperand &operand) {
  auto i64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  int64_t swizzle = operand.swizzle;
  int64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  int64_t fixed = (int64_t(operand.leadingBytes / 16) << 16) |
                  (int64_t(operand.strideBytes / 16) << 32) | (mode << 62);
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, i64(0x3FFFF)), i64(4));
  return arith::OrIOp::create(b, loc, start, i64(fixed));
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

// What neither matrix instruction's lowering handles yet.
static LogicalResult checkLoweredForms(GemmOp op, bool registersA) {
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
    int64_t threads = getKernelThreads(op);
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
static void arriveOnCompletion(OpBuilder &b, Location loc, Value barrier,
                               Value index) {
  if (!barrier)
    return;
  nvgpu::MBarrierArriveOp::create(
      b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), barrier, index);
}

static LogicalResult checkF32Accumulator(GemmOp op, StringRef instruction) {
  if (!cast<ShapedType>(op.getC().getType()).getElementType().isF32())
    return op.emitOpError()
           << instruction << " lowering accumulates in f32 only so far";
  return success();
}

namespace {
struct GemmLowering : ChipPattern<GemmOp> {
  using ChipPattern::ChipPattern;

  LogicalResult
  matchAndRewrite(GemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto c = dyn_cast<FragmentType>(op.getC().getType());
    // mma.sync where there is no wgmma, or where the IR asks for it with an
    // #tile.mma accumulator (the fallback on any sm_80+ chip).
    if (!chip.hasWgmma || (c && isa_and_present<MmaLayoutAttr>(c.getLayout())))
      return lowerToMmaSync(op, adaptor, rewriter);
    auto layout = c ? dyn_cast_if_present<WgmmaLayoutAttr>(c.getLayout())
                    : nullptr;
    if (!layout)
      return op.emitOpError("expects C in a fragment with the #tile.wgmma "
                            "layout (tile-assign-layouts)");
    if (failed(checkLoweredForms(op, /*registersA=*/true)))
      return failure();
    auto a = cast<ShapedType>(op.getA().getType());
    bool aInRegisters = isa<FragmentType>(a);
    auto bType = cast<MemRefType>(op.getB().getType());
    Type element = a.getElementType();
    // f32 inputs multiply as tf32, as the tensor cores do.
    StringRef inputName;
    if (element.isBF16())
      inputName = "bf16";
    else if (element.isF16())
      inputName = "f16";
    else if (element.isF32())
      inputName = "tf32";
    else
      return op.emitOpError("wgmma lowering handles bf16, f16 and f32 (tf32) "
                            "inputs so far, got ")
             << element;
    if (failed(checkF32Accumulator(op, "wgmma")))
      return failure();
    // A from registers: C's layout (the pairs of its 64 x K slice are
    // wgmma's A registers, K step by K step), 16-bit elements.
    if (aInRegisters) {
      if (cast<FragmentType>(a).getLayout() != layout)
        return op.emitOpError("expects A in registers to have C's layout ")
               << layout << " (tile-assign-layouts gives it)";
      if (element.isF32())
        return op.emitOpError("takes A from registers for bf16 and f16 only; "
                              "tf32 A must be in shared memory");
    }
    // A is K-major unless transposed (K x M); B is K-major when transposed
    // (N x K), M- or N-major otherwise (K x N).
    bool aKMajor = !op.getTransposeA(), bKMajor = op.getTransposeB();
    int64_t n = c.getShape()[1];
    int64_t k = aKMajor ? a.getShape()[1] : a.getShape()[0];
    FailureOr<std::pair<int64_t, int64_t>> swizzles = recordedSwizzles(op);
    if (failed(swizzles))
      return failure();
    FailureOr<WgmmaOperand> opA = WgmmaOperand{};
    if (!aInRegisters)
      opA = describeOperand(op, "A", cast<MemRefType>(a), aKMajor,
                            swizzles->first);
    if (failed(opA))
      return failure();
    FailureOr<WgmmaOperand> opB =
        describeOperand(op, "B", bType, bKMajor, swizzles->second);
    if (failed(opB))
      return failure();

    Location loc = op.getLoc();
    Value addrA;
    if (!aInRegisters) {
      Value warpgroup = arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getI64Type(),
          arith::DivUIOp::create(rewriter, loc, threadId(rewriter, loc),
                                 constIndex(rewriter, loc, 128)));
      addrA = arith::AddIOp::create(
          rewriter, loc, sharedAddress(rewriter, loc, adaptor.getA()),
          arith::MulIOp::create(
              rewriter, loc, warpgroup,
              arith::ConstantIntOp::create(rewriter, loc, opA->mn64Bytes, 64)));
    }
    Value addrB = sharedAddress(rewriter, loc, adaptor.getB());

    // The accumulators wgmma reads; it returns them as a struct.
    Value acc = adaptor.getC();
    SmallVector<Value> accumulators;
    for (int64_t i = 0; i < n / 2; ++i)
      accumulators.push_back(memref::LoadOp::create(
          rewriter, loc, acc, ValueRange{constIndex(rewriter, loc, i)}));

    // Each wgmma takes 32 bytes of K: 16 bf16/f16 or 8 tf32 elements.
    int64_t kStep = 256 / a.getElementTypeBitWidth();
    if (k % kStep != 0)
      return op.emitOpError("needs K to be a multiple of ") << kStep;
    SmallVector<SmallVector<Value>> aSteps;
    SmallVector<Value> bSteps;
    for (int64_t kk = 0; kk < k / kStep; ++kk) {
      auto step = [&](const WgmmaOperand &operand) -> Value {
        return arith::ConstantIntOp::create(rewriter, loc,
                                            kk * operand.kStepBytes, 64);
      };
      if (aInRegisters)
        aSteps.push_back(registersOfA(rewriter, loc, adaptor.getA(), kk));
      else
        aSteps.push_back({descriptor(
            rewriter, loc,
            arith::AddIOp::create(rewriter, loc, addrA, step(*opA)), *opA)});
      bSteps.push_back(descriptor(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, addrB, step(*opB)),
          *opB));
    }
    // The fence orders every write of the accumulator and A registers
    // (A's words are packed above) before the wgmmas read them.
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    Value inout =
        wgmmaSequence(rewriter, loc, accumulators, aSteps, bSteps, n, kStep,
                      inputName, aKMajor, bKMajor, op.getClearAccum());
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // In a pipelined loop the group may stay in flight, unless the product
    // must complete on a barrier: wgmma groups cannot arrive on an mbarrier
    // by themselves, so the warpgroup waits for its group, then arrives.
    int64_t inFlight = 0;
    if (auto attr = op->getAttrOfType<IntegerAttr>(kGemmInFlightAttrName);
        attr && !op.getBarrier())
      inFlight = attr.getInt();
    auto loop = op->getParentOfType<scf::ForOp>();
    if (inFlight && !loop)
      return op.emitOpError("is marked in flight outside a loop");
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc,
                                       rewriter.getI64IntegerAttr(inFlight));
    if (inFlight) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(loop);
      auto next = dyn_cast_or_null<NVVM::WgmmaWaitGroupSyncOp>(
          loop->getNextNode());
      if (!next || next.getGroup() != 0)
        NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc,
                                           rewriter.getI64IntegerAttr(0));
    }
    for (int64_t i = 0; i < n / 2; ++i) {
      Value v = LLVM::ExtractValueOp::create(rewriter, loc, inout, i);
      memref::StoreOp::create(rewriter, loc, v, acc,
                              ValueRange{constIndex(rewriter, loc, i)});
    }
    arriveOnCompletion(rewriter, loc, adaptor.getBarrier(),
                       adaptor.getBarrierIndex());
    rewriter.eraseOp(op);
    return success();
  }

  // sm_80 and later without wgmma: per warp, tm x tn mma.sync m16n8k16
  // tiles, A and B fragments read from plain shared tiles with ldmatrix.
  LogicalResult lowerToMmaSync(GemmOp op, OpAdaptor adaptor,
                               ConversionPatternRewriter &rewriter) const {
    if (chip.computeCapability < 80)
      return op.emitOpError("needs tensor cores of sm_80 or later");
    auto c = dyn_cast<FragmentType>(op.getC().getType());
    auto layout =
        c ? dyn_cast_if_present<MmaLayoutAttr>(c.getLayout()) : nullptr;
    if (!layout)
      return op.emitOpError("expects C in a fragment with the #tile.mma "
                            "layout (tile-assign-layouts)");
    if (failed(checkLoweredForms(op, /*registersA=*/false)))
      return failure();
    auto a = cast<MemRefType>(op.getA().getType());
    Type element = a.getElementType();
    NVVM::MMATypes inputType;
    if (element.isBF16())
      inputType = NVVM::MMATypes::bf16;
    else if (element.isF16())
      inputType = NVVM::MMATypes::f16;
    else
      return op.emitOpError("mma.sync lowering handles bf16 and f16 inputs "
                            "so far, got ")
             << element;
    if (failed(checkF32Accumulator(op, "mma.sync")))
      return failure();
    FailureOr<std::pair<int64_t, int64_t>> swizzles = recordedSwizzles(op);
    if (failed(swizzles))
      return failure();
    if (swizzles->first != 0 || swizzles->second != 0)
      return op.emitOpError("ldmatrix reads unswizzled shared tiles only");
    // A stored K x M (transpose_a) and B stored K x N (no transpose_b) are
    // read with ldmatrix.trans, which hands out the same registers.
    bool aKRows = op.getTransposeA(), bKRows = !op.getTransposeB();
    int64_t k = aKRows ? a.getShape()[0] : a.getShape()[1];
    if (k % 16 != 0)
      return op.emitOpError("needs K to be a multiple of 16, got ") << k;

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

    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    auto ldmatrix = [&](Value tile, std::pair<Value, Value> at, int64_t num,
                        bool trans) {
      Value ptr = elementPointer(rewriter, loc, tile, {at.first, at.second}, 3);
      auto type = LLVM::LLVMStructType::getLiteral(
          context, SmallVector<Type>(num, i32));
      Value frag = NVVM::LdMatrixOp::create(
          rewriter, loc, type, ptr, rewriter.getI32IntegerAttr(num),
          NVVM::MMALayoutAttr::get(context, trans ? NVVM::MMALayout::col
                                                  : NVVM::MMALayout::row),
          NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
          NVVM::LdStMatrixEltTypeAttr::get(context,
                                           NVVM::LdStMatrixEltType::B16));
      SmallVector<Value> regs;
      for (int64_t r = 0; r < num; ++r)
        regs.push_back(LLVM::ExtractValueOp::create(rewriter, loc, frag, r));
      return regs;
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

void mlir::tile::populateTileGemmToNVVMPatterns(
    TileToGPUTypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<GemmLowering>(converter, patterns.getContext(), chip);
}
