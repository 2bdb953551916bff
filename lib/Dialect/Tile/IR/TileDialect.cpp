//===- TileDialect.cpp - tile dialect, types and attributes ---------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileOpsDialect.cpp.inc"
#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Storage classification
//===----------------------------------------------------------------------===//

MemorySpace mlir::tile::getMemorySpace(Type type) {
  if (isa<FragmentType>(type))
    return MemorySpace::Fragment;
  if (isa<TmemType>(type))
    return MemorySpace::Tmem;
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref)
    return MemorySpace::Other;
  Attribute space = memref.getMemorySpace();
  if (!space)
    return MemorySpace::Global;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return MemorySpace::Global;
    case gpu::AddressSpace::Workgroup:
      return MemorySpace::Shared;
    default:
      return MemorySpace::Other;
    }
  }
  // NVVM's numeric address spaces: 1 global, 3 shared.
  if (auto intSpace = dyn_cast<IntegerAttr>(space)) {
    if (intSpace.getInt() == 1)
      return MemorySpace::Global;
    if (intSpace.getInt() == 3)
      return MemorySpace::Shared;
  }
  return MemorySpace::Other;
}

StringRef mlir::tile::stringifyMemorySpace(MemorySpace space) {
  switch (space) {
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Shared:
    return "shared";
  case MemorySpace::Fragment:
    return "fragment";
  case MemorySpace::Tmem:
    return "tensor";
  case MemorySpace::Other:
    break;
  }
  return "unsupported";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// Shared by fragment and tmem: `<` static-dims `x` element-type `>`.
static Type
parseShapedStorage(AsmParser &parser,
                   function_ref<Type(ArrayRef<int64_t>, Type, Attribute)> build) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute layout;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(layout))
    return {};
  if (parser.parseGreater())
    return {};
  return build(shape, elementType, layout);
}

static void printShapedStorage(AsmPrinter &printer, ArrayRef<int64_t> shape,
                               Type elementType, Attribute layout) {
  printer << '<';
  for (int64_t dim : shape)
    printer << dim << 'x';
  printer << elementType;
  if (layout)
    printer << ", " << layout;
  printer << '>';
}

static LogicalResult
verifyShapedStorage(function_ref<InFlightDiagnostic()> emitError,
                    StringRef what, ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << what << " must have at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << what << " dimensions must be positive, got "
                         << dim;
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() == 0)
    return emitError() << what
                       << " element type must be a non-empty integer or float, got "
                       << elementType;
  return success();
}

Type FragmentType::parse(AsmParser &parser) {
  Location loc = parser.getEncodedSourceLoc(parser.getCurrentLocation());
  return parseShapedStorage(parser, [&](ArrayRef<int64_t> shape, Type elt, Attribute layout) {
    return FragmentType::getChecked(loc, loc.getContext(), shape, elt, layout);
  });
}

void FragmentType::print(AsmPrinter &printer) const {
  printShapedStorage(printer, getShape(), getElementType(), getLayout());
}

LogicalResult
FragmentType::verify(function_ref<InFlightDiagnostic()> emitError,
                     ArrayRef<int64_t> shape, Type elementType,
                     Attribute layout) {
  if (failed(verifyShapedStorage(emitError, "fragment", shape, elementType)))
    return failure();
  if (!layout)
    return success();
  if (auto mma = dyn_cast<MmaLayoutAttr>(layout)) {
    if (mma.getWarpsM() < 1 || mma.getWarpsN() < 1 || shape.size() != 2 ||
        shape[0] % (16 * mma.getWarpsM()) != 0 ||
        shape[1] % (8 * mma.getWarpsN()) != 0)
      return emitError() << "mma layout needs a 2-D tile whose rows split "
                            "into 16-row and columns into 8-column tiles "
                            "per warp";
    return success();
  }
  if (auto wgmma = dyn_cast<WgmmaLayoutAttr>(layout)) {
    if (shape.size() != 2 || shape[0] != 64 * wgmma.getWarpgroups() ||
        shape[1] % 8 != 0 || shape[1] > 256)
      return emitError() << "wgmma layout needs a (64 x warpgroups) x N tile "
                            "with N a multiple of 8 up to 256";
    return success();
  }
  auto blocked = dyn_cast<BlockedLayoutAttr>(layout);
  if (!blocked)
    return emitError() << "fragment layout must be a tile layout attribute, got "
                       << layout;
  if (blocked.getThreads() < 1 || blocked.getVector() < 1)
    return emitError() << "blocked layout needs positive threads and vector";
  if (shape.back() % blocked.getVector() != 0)
    return emitError() << "blocked layout vector (" << blocked.getVector()
                       << ") must divide the innermost dimension ("
                       << shape.back() << ")";
  int64_t elements = ShapedType::getNumElements(shape);
  if (elements % (blocked.getThreads() * blocked.getVector()) != 0)
    return emitError() << "blocked layout spreads runs of "
                       << blocked.getVector() << " over "
                       << blocked.getThreads()
                       << " threads, which does not divide the "
                       << elements << " elements";
  return success();
}

Type TmemType::parse(AsmParser &parser) {
  Location loc = parser.getEncodedSourceLoc(parser.getCurrentLocation());
  return parseShapedStorage(parser, [&](ArrayRef<int64_t> shape, Type elt, Attribute layout) {
    return TmemType::getChecked(loc, loc.getContext(), shape, elt, layout);
  });
}

void TmemType::print(AsmPrinter &printer) const {
  printShapedStorage(printer, getShape(), getElementType(), getLayout());
}

static constexpr int64_t kTmemColumns = 512;

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               Attribute layout) {
  if (layout)
    return emitError() << "tensor memory tiles take no layout";
  if (failed(verifyShapedStorage(emitError, "tensor memory tile", shape,
                                 elementType)))
    return failure();
  if (shape.size() != 2)
    return emitError() << "tensor memory tile must be 2-D (lanes x columns), got "
                       << shape.size() << " dimensions";
  if (shape[0] != 64 && shape[0] != 128)
    return emitError() << "tensor memory tile must span 64 or 128 lanes, got "
                       << shape[0];
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (bits > 32 || 32 % bits != 0)
    return emitError() << "tensor memory element width must divide 32 bits, got "
                       << bits;
  // Compare before multiplying: huge shapes must not wrap around.
  int64_t columns = shape[1] > kTmemColumns * 32
                        ? kTmemColumns + 1
                        : llvm::divideCeil(shape[1] * bits, 32);
  if (columns > kTmemColumns)
    return emitError() << "tensor memory tile needs " << columns
                       << " columns, more than the " << kTmemColumns
                       << " a CTA has";
  return success();
}

int64_t TmemType::getColumns() const {
  return llvm::divideCeil(getShape()[1] * getElementType().getIntOrFloatBitWidth(),
                          32);
}

int64_t TmemType::getAllocatedColumns() const {
  return std::max<int64_t>(32, llvm::PowerOf2Ceil(getColumns()));
}

LogicalResult BarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t count) {
  if (count <= 0 || count > 64)
    return emitError() << "barrier ring size must be in [1, 64], got " << count;
  return success();
}
