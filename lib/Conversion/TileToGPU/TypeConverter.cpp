//===- TypeConverter.cpp - tile types as the lowering sees them -----------===//

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
// Type converter
//===----------------------------------------------------------------------===//

TileToGPUTypeConverter::TileToGPUTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  // Lowered shared tiles are plain workgroup memory: a #tile.shared
  // swizzle stays in the types of the ops being lowered (their
  // OpAdaptor's originals), where the lowerings read it.
  addConversion([](MemRefType type) -> Type {
    return withoutSharedSwizzle(type);
  });
  addConversion([](FragmentType type) -> std::optional<Type> {
    auto layout =
        dyn_cast_if_present<FragmentLayoutAttrInterface>(type.getLayout());
    if (!layout)
      return std::nullopt;
    return MemRefType::get({layout.getSlotsPerThread(type.getShape())},
                           type.getElementType());
  });
  // A tensor-memory tile is its address: lane in bits 16.., column below.
  addConversion([context](TmemType) -> Type {
    return LLVM::LLVMPointerType::get(
        context, static_cast<unsigned>(NVVM::NVVMMemorySpace::Tensor));
  });
  addConversion([context](BarrierType type) -> Type {
    return nvgpu::MBarrierGroupType::get(
        context,
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup),
        type.getCount());
  });
  // Passes that convert part of the ops meet the rest through casts, which
  // a later pass (or reconcile-unrealized-casts) folds away.
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}
