//===- Distribution.cpp - tiles spread over threads -----------------------===//

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
// Distribution
//===----------------------------------------------------------------------===//

int64_t Distribution::numElements() const {
  return ShapedType::getNumElements(shape);
}

Distribution Distribution::forLayout(FragmentLayoutAttrInterface layout,
                                     ArrayRef<int64_t> shape) {
  Distribution dist;
  dist.layout = layout;
  dist.shape = llvm::to_vector(shape);
  dist.threads = layout.getNumThreads();
  dist.vector = layout.getRunWidth(shape);
  dist.runs = layout.getRunsPerThread(shape);
  return dist;
}

FailureOr<Distribution> Distribution::forFragment(Type fragmentType) {
  auto type = dyn_cast<FragmentType>(fragmentType);
  if (!type)
    return failure();
  auto layout =
      dyn_cast_if_present<FragmentLayoutAttrInterface>(type.getLayout());
  if (!layout)
    return failure();
  return forLayout(layout, type.getShape());
}

Distribution Distribution::forMemRef(ShapedType type, int64_t threads) {
  return forLayout(BlockedLayoutAttr::get(type.getContext(), threads,
                                         getMaxRunElements(type)),
                   type.getShape());
}
