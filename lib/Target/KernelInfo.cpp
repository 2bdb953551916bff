//===- KernelInfo.cpp - the runtime's description of each kernel ----------===//
//
// tile's runtime (include/tile/Runtime) reads this line format; the lowering
// leaves what it decided on each kernel as attributes, read back here.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Translate.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

static void printDims(llvm::raw_ostream &os, Operation *op, StringRef name) {
  SmallVector<int32_t, 3> dims{1, 1, 1};
  if (auto attr = op->getAttrOfType<DenseI32ArrayAttr>(name))
    llvm::copy(attr.asArrayRef().take_front(3), dims.begin());
  os << dims[0] << ' ' << dims[1] << ' ' << dims[2];
}

LogicalResult mlir::tile::writeKernelInfo(ModuleOp module,
                                          llvm::raw_ostream &os) {
  os << "# tile kernel description: launch shape, shared memory, TMA maps\n";
  Operation *device = getDeviceCode(module);
  if (!device)
    return failure();
  WalkResult result = device->walk([&](LLVM::LLVMFuncOp func) {
    if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
      return WalkResult::advance();
    StringRef block = func->hasAttr(NVVM::NVVMDialect::getReqntidAttrName())
                          ? NVVM::NVVMDialect::getReqntidAttrName()
                          : NVVM::NVVMDialect::getMaxntidAttrName();
    os << "kernel " << func.getSymName() << " block ";
    printDims(os, func, block);
    os << " cluster ";
    printDims(os, func, NVVM::NVVMDialect::getClusterDimAttrName());
    int64_t smem = 0;
    if (auto attr = func->getAttrOfType<IntegerAttr>(tile::kDynamicSharedBytesAttrName))
      smem = attr.getInt();
    os << " smem " << smem << "\n";
    auto tmas = func->getAttrOfType<ArrayAttr>(tile::kTmaAttrName);
    if (!tmas)
      return WalkResult::advance();
    for (Attribute entry : tmas) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      auto param = dict ? dict.getAs<IntegerAttr>("param") : nullptr;
      auto arg = dict ? dict.getAs<IntegerAttr>("arg") : nullptr;
      auto type = dict ? dict.getAs<StringAttr>("type") : nullptr;
      auto box = dict ? dict.getAs<DenseI64ArrayAttr>("box") : nullptr;
      auto swizzle = dict ? dict.getAs<IntegerAttr>("swizzle") : nullptr;
      if (!param || !arg || !type || !box || !swizzle) {
        func.emitError("malformed 'tile.tma' entry ") << entry;
        return WalkResult::interrupt();
      }
      os << "tma " << func.getSymName() << " param " << param.getInt()
         << " arg " << arg.getInt() << " type " << type.getValue() << " box ";
      llvm::interleave(box.asArrayRef(), os, "x");
      os << " swizzle " << swizzle.getInt() << "\n";
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
