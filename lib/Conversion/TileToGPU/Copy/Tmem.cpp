//===- Tmem.cpp - tile.copy {mechanism = tmem_load | tmem_store} ----------===//
//
// sm_100a: a 128-lane tensor-memory tile moves to or from a fragment with
// the #tile.tmem_32x32b layout through tcgen05.ld / tcgen05.st of shape
// 32x32b. Warp w of a warpgroup reaches the lanes of its quarter only, so
// its address carries lane 32 (w mod 4) (bits 16 and up); warpgroup g
// takes its slice of the columns. Each thread moves whole chunks of its row
// (up to 64 columns per instruction), then waits for them
// (tcgen05.wait::ld / ::st). Fences order the accesses after the thread
// synchronisation that made the data ready (an MMA's barrier, a CTA
// barrier) and before the one that hands tensor memory on.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

// Columns of one tcgen05.ld/st: the most, up to 64, that divide a thread's.
static int64_t chunkColumns(int64_t columns) {
  int64_t chunk = 64;
  while (columns % chunk != 0)
    chunk /= 2;
  return chunk;
}

namespace {
template <CopyMechanism Mechanism>
struct TmemCopyLowering : MechanismPattern<CopyOp, Mechanism> {
  using MechanismPattern<CopyOp, Mechanism>::MechanismPattern;
  static constexpr bool isLoad = Mechanism == CopyMechanism::tmem_load;

  LogicalResult lower(CopyOp op, CopyOp::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Value tmem = isLoad ? adaptor.getSource() : adaptor.getDest();
    Value storage = isLoad ? adaptor.getDest() : adaptor.getSource();
    auto tmemType = cast<TmemType>(isLoad ? op.getSource().getType()
                                          : op.getDest().getType());
    auto fragment =
        cast<FragmentType>(isLoad ? op.getDest().getType() : op.getSource().getType());
    auto layout =
        dyn_cast_if_present<Tmem32x32bLayoutAttr>(fragment.getLayout());
    if (!layout)
      return op.emitOpError("moves tensor memory to or from a fragment with "
                            "the #tile.tmem_32x32b layout (tile-assign-layouts "
                            "gives it), not ")
             << fragment;
    if (tmemType.getElementTypeBitWidth() != 32)
      return op.emitOpError("moves 32-bit tensor-memory elements only so far, "
                            "got ")
             << tmemType.getElementType();
    if (tmemType.getShape()[0] != 128)
      return op.emitOpError("moves 128-lane tensor-memory tiles only so far "
                            "(tcgen05.ld 32x32b, one row per thread), got ")
             << tmemType.getShape()[0] << " lanes";

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type i32 = b.getI32Type();
    auto cst32 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    int64_t columns = tmemType.getShape()[1] / layout.getWarpgroups();
    int64_t chunk = chunkColumns(columns);
    // Lane 32 (w mod 4) in bits 16.., the warpgroup's first column below.
    Value tid = arith::IndexCastUIOp::create(b, loc, i32, threadId(b, loc));
    Value lane = arith::ShLIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc,
            arith::RemUIOp::create(
                b, loc, arith::DivUIOp::create(b, loc, tid, cst32(32)),
                cst32(4)),
            cst32(32)),
        cst32(16));
    Value column = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, tid, cst32(128)),
        cst32(columns));
    Value base = arith::AddIOp::create(
        b, loc, LLVM::PtrToIntOp::create(b, loc, i32, tmem),
        arith::AddIOp::create(b, loc, lane, column));
    auto address = [&](int64_t c) -> Value {
      return LLVM::IntToPtrOp::create(
          b, loc, tmem.getType(),
          arith::AddIOp::create(b, loc, base, cst32(c * chunk)).getResult());
    };
    auto shape = NVVM::Tcgen05LdStShapeAttr::get(
        b.getContext(), NVVM::Tcgen05LdStShape::SHAPE_32X32B);
    auto words = VectorType::get({chunk}, i32);
    auto values = VectorType::get({chunk}, fragment.getElementType());

    // Whatever made the data ready synchronised with this thread first.
    NVVM::Tcgen05FenceOp::create(b, loc,
                                 NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    if (isLoad) {
      SmallVector<Value> loaded;
      for (int64_t c = 0; c < columns / chunk; ++c)
        loaded.push_back(NVVM::Tcgen05LdOp::create(
            b, loc, words, /*pack=*/UnitAttr(), shape, address(c),
            /*offset=*/Value()));
      NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::LOAD);
      for (auto [c, word] : llvm::enumerate(loaded))
        vector::StoreOp::create(
            b, loc, vector::BitCastOp::create(b, loc, values, word), storage,
            ValueRange{constIndex(b, loc, c * chunk)});
    } else {
      for (int64_t c = 0; c < columns / chunk; ++c) {
        Value run = vector::LoadOp::create(
            b, loc, values, storage, ValueRange{constIndex(b, loc, c * chunk)});
        NVVM::Tcgen05StOp::create(b, loc, /*unpack=*/UnitAttr(), shape,
                                  address(c),
                                  vector::BitCastOp::create(b, loc, words, run),
                                  /*offset=*/Value());
      }
      NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::STORE);
    }
    // The next thread synchronisation hands tensor memory on (to an MMA
    // that overwrites what was read, or reads what was written).
    NVVM::Tcgen05FenceOp::create(b, loc,
                                 NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateTmemCopyPatterns(TileToGPUTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const ChipInfo &chip) {
  patterns.add<TmemCopyLowering<CopyMechanism::tmem_load>,
               TmemCopyLowering<CopyMechanism::tmem_store>>(
      converter, patterns.getContext(), chip);
}
