//===- TmaParameters.cpp - tensor-map parameters of TMA copies ------------===//
//
// A TMA copy reads global memory through a tensor map (CUtensorMap) the host
// builds with cuTensorMapEncodeTiled. Each kernel takes one, as a pointer to
// 128 bytes of device memory, per distinct (argument, box, swizzle); the
// runtime learns which from the kernel description. The swizzle is the
// shared tile's (its type's #tile.shared), so the copy lowering reads the
// same one.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::tile;

static std::optional<StringRef> tmaElementType(Type type) {
  if (type.isBF16())
    return StringRef("bf16");
  if (type.isF16())
    return StringRef("f16");
  if (type.isF32())
    return StringRef("f32");
  if (type.isInteger(8))
    return StringRef("i8");
  if (type.isInteger(32))
    return StringRef("i32");
  return std::nullopt;
}

LogicalResult mlir::tile::assignTmaParameters(Operation *root) {
  WalkResult result = root->walk([&](gpu::GPUFuncOp func) {
    MLIRContext *context = func.getContext();
    Builder b(context);
    SmallVector<Attribute> entries;
    std::map<std::tuple<unsigned, std::vector<int64_t>, int64_t>, unsigned>
        params;
    WalkResult inner = func.walk([&](CopyOp copy) {
      // The copies tile-select-instructions made TMA loads and stores.
      std::optional<CopyMechanism> mechanism = copy.getMechanism();
      bool isStore = mechanism == CopyMechanism::tma_store;
      if (mechanism != CopyMechanism::tma_load && !isStore)
        return WalkResult::advance();
      Value global = isStore ? copy.getDest() : copy.getSource();
      Value shared = isStore ? copy.getSource() : copy.getDest();
      auto arg = dyn_cast<BlockArgument>(global);
      if (!arg || arg.getOwner() != &func.getBody().front()) {
        copy.emitOpError("goes through TMA, which needs the global side to "
                         "be a kernel argument");
        return WalkResult::interrupt();
      }
      auto tile = cast<MemRefType>(shared.getType());
      std::optional<StringRef> element = tmaElementType(tile.getElementType());
      if (!element) {
        copy.emitOpError("has no TMA element type for ")
            << tile.getElementType();
        return WalkResult::interrupt();
      }
      int64_t swizzle = getSharedSwizzle(tile).value_or(0);
      std::optional<int64_t> slices = lowering::multicastSlices(copy);
      if (!slices) {
        copy.emitOpError("is a multicast copy in a kernel without a known "
                         "cluster size");
        return WalkResult::interrupt();
      }
      SmallVector<int64_t> box =
          lowering::getTmaBox(tile, swizzle, *slices).shape;
      if (llvm::any_of(box, [](int64_t d) { return d > 256; })) {
        copy.emitOpError("TMA boxes are at most 256 elements per dimension, "
                         "got ")
            << tile;
        return WalkResult::interrupt();
      }
      auto key = std::make_tuple(arg.getArgNumber(),
                                 std::vector<int64_t>(box.begin(), box.end()),
                                 swizzle);
      auto [it, inserted] = params.try_emplace(key, func.getNumArguments());
      if (inserted) {
        if (failed(func.insertArgument(it->second,
                                       LLVM::LLVMPointerType::get(context),
                                       DictionaryAttr::get(context),
                                       copy.getLoc())))
          return WalkResult::interrupt();
        entries.push_back(b.getDictionaryAttr({
            b.getNamedAttr("param", b.getI64IntegerAttr(it->second)),
            b.getNamedAttr("arg", b.getI64IntegerAttr(arg.getArgNumber())),
            b.getNamedAttr("type", b.getStringAttr(*element)),
            b.getNamedAttr("box", b.getDenseI64ArrayAttr(box)),
            b.getNamedAttr("swizzle", b.getI64IntegerAttr(swizzle)),
        }));
      }
      copy->setAttr(lowering::kTmaParamAttr, b.getI64IntegerAttr(it->second));
      return WalkResult::advance();
    });
    if (inner.wasInterrupted())
      return WalkResult::interrupt();
    if (!entries.empty())
      func->setAttr(kTmaAttrName, b.getArrayAttr(entries));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
