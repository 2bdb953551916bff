//===- Common.cpp - helpers shared by the tile-to-GPU patterns ------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Target/Chip.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value lowering::threadId(OpBuilder &b, Location loc) {
  return gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
}

Value lowering::constIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

SmallVector<Value> lowering::addIndices(OpBuilder &b, Location loc,
                                      ValueRange base, ValueRange coords) {
  SmallVector<Value> sum;
  for (auto [x, y] : llvm::zip_equal(base, coords))
    sum.push_back(arith::AddIOp::create(b, loc, x, y));
  return sum;
}

void lowering::ctaBarrier(OpBuilder &b, Location loc) {
  gpu::BarrierOp::create(b, loc);
}

Value lowering::createInlinePtx(OpBuilder &b, Location loc, Type resultType,
                                ValueRange operands, StringRef text,
                                StringRef constraints) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, resultType ? TypeRange(resultType) : TypeRange(), operands, text,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return resultType ? op.getResult(0) : Value();
}

std::string lowering::ptxRegisters(ArrayRef<std::string> registers) {
  return registers.size() > 1 ? "{" + llvm::join(registers, ", ") + "}"
                              : registers.front();
}

Value lowering::elementAddress(OpBuilder &b, Location loc, Value memref,
                               ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = meta.getOffset();
  for (auto [index, stride] : llvm::zip_equal(indices, meta.getStrides()))
    linear = arith::AddIOp::create(b, loc, linear,
                                   arith::MulIOp::create(b, loc, index, stride));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, linear,
          constIndex(b, loc, type.getElementTypeBitWidth() / 8)));
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
}

Value lowering::elementPointer(OpBuilder &b, Location loc, Value memref,
                               ValueRange indices, unsigned addressSpace) {
  Value i64 = elementAddress(b, loc, memref, indices);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), addressSpace), i64);
}

void lowering::publishSharedWrites(OpBuilder &b, Location loc,
                                   const ChipInfo &chip) {
  if (chip.has(Feature::Tma))
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  ctaBarrier(b, loc);
}

void lowering::buildIf(OpBuilder &b, Location loc, Value condition,
                       function_ref<void(OpBuilder &)> body) {
  auto branch = scf::IfOp::create(b, loc, condition, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  body(b);
}

Value lowering::isThreadZero(OpBuilder &b, Location loc) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                               threadId(b, loc), constIndex(b, loc, 0));
}

TmaBox lowering::getTmaBox(MemRefType tile, int64_t swizzle, int64_t slices) {
  TmaBox box{llvm::to_vector(tile.getShape()), 1};
  box.shape.front() /= slices;
  int64_t elementBytes = tile.getElementTypeBitWidth() / 8;
  if (swizzle && box.shape.back() * elementBytes > swizzle) {
    box.blocks = box.shape.back() * elementBytes / swizzle;
    box.shape.back() = swizzle / elementBytes;
  }
  return box;
}

std::optional<int64_t> lowering::multicastSlices(CopyOp copy) {
  if (!copy.getMulticast())
    return 1;
  auto func = copy->getParentOfType<gpu::GPUFuncOp>();
  std::optional<ArrayRef<int32_t>> cluster =
      func ? func.getKnownClusterSize() : std::nullopt;
  if (!cluster)
    return std::nullopt;
  int64_t ctas = 1;
  for (int32_t d : *cluster)
    ctas *= d;
  return ctas;
}
