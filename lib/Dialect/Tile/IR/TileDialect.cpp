//===- TileDialect.cpp - tile dialect, types and attributes ---------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "TileOpsCommon.h"
#include "tile/Target/Swizzle.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using mlir::tile::detail::formatShape;

#include "tile/Dialect/Tile/IR/TileOpsDialect.cpp.inc"
#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#include "tile/Dialect/Tile/IR/TileLayoutInterface.cpp.inc"

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
  if (isa<SharedAttr>(space))
    return MemorySpace::Shared;
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

std::optional<int64_t> mlir::tile::getSharedSwizzle(Type type) {
  if (getMemorySpace(type) != MemorySpace::Shared)
    return std::nullopt;
  auto shared =
      dyn_cast_if_present<SharedAttr>(cast<MemRefType>(type).getMemorySpace());
  return shared ? shared.getSwizzle() : 0;
}

MemRefType mlir::tile::withSharedSwizzle(MemRefType type, int64_t swizzle) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout(),
                         SharedAttr::get(type.getContext(), swizzle));
}

MemRefType mlir::tile::withoutSharedSwizzle(MemRefType type) {
  if (!isa_and_present<SharedAttr>(type.getMemorySpace()))
    return type;
  return MemRefType::get(
      type.getShape(), type.getElementType(), type.getLayout(),
      gpu::AddressSpaceAttr::get(type.getContext(),
                                 gpu::AddressSpace::Workgroup));
}

LogicalResult mlir::tile::refuseSwizzledAccess(Operation *op,
                                              int64_t swizzle) {
  InFlightDiagnostic diag =
      op->emitOpError("accesses a ")
      << swizzle
      << "-byte swizzled shared tile with ordinary loads and stores, "
         "which is not lowered (TMA, wgmma, tcgen05 and copies from "
         "fragments handle swizzled tiles)";
  // A copy between global memory and the tile: say how to make it a TMA
  // copy (sm_90a and newer), which writes or reads the swizzle itself.
  if (auto copy = dyn_cast<CopyOp>(op)) {
    MemorySpace src = getMemorySpace(copy.getSource().getType());
    MemorySpace dst = getMemorySpace(copy.getDest().getType());
    if (src == MemorySpace::Global && dst == MemorySpace::Shared)
      diag << "; make it a TMA load, which completes on a barrier: "
              "`%bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>`, "
              "`tile.copy ... to %tile[] barrier %bar[%c0]`, then "
              "`tile.mbarrier.wait %bar[%c0], %false` before the tile is "
              "read; or leave the swizzle out";
    else if (src == MemorySpace::Shared && dst == MemorySpace::Global)
      diag << "; make it a TMA store (`tile.copy %tile[] to ... {tma}`, "
              "then tile.wait_tma_stores before the tile is written "
              "again), or leave the swizzle out";
  }
  return diag;
}

LogicalResult SharedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t swizzle) {
  if (!swizzleEncoding(swizzle))
    return emitError() << "expects a swizzle of 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  return success();
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
                   function_ref<Type(ArrayRef<int64_t>, Type, Attribute)> build,
                   bool allowDynamic = false) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute layout;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, allowDynamic) ||
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
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << elementType;
  if (layout)
    printer << ", " << layout;
  printer << '>';
}

std::string mlir::tile::detail::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      "x");
  return text;
}

static LogicalResult
verifyShapedStorage(function_ref<InFlightDiagnostic()> emitError,
                    StringRef what, ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << what << " must have at least one dimension";
  // `?`: sized by a kernel family's parameter until tile-specialize.
  for (int64_t dim : shape)
    if (dim <= 0 && !ShapedType::isDynamic(dim))
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
  // `?` dimensions: a kernel family's, sized by its parameters.
  return parseShapedStorage(
      parser,
      [&](ArrayRef<int64_t> shape, Type elt, Attribute layout) {
        return FragmentType::getChecked(loc, loc.getContext(), shape, elt,
                                        layout);
      },
      /*allowDynamic=*/true);
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
  // Multiply with overflow checks: a huge shape must not wrap around.
  int64_t elements = 1;
  for (int64_t dim : shape)
    if (ShapedType::isDynamic(dim))
      continue;
    else if (llvm::MulOverflow(elements, dim, elements) ||
        elements > kMaxFragmentElements)
      return emitError() << "fragment of more than " << kMaxFragmentElements
                         << " elements (2^24) cannot be held in registers, got "
                         << formatShape(shape)
                         << "; keep a tile that large in shared or global "
                            "memory, or split it";
  if (!layout)
    return success();
  auto fragmentLayout = dyn_cast<FragmentLayoutAttrInterface>(layout);
  if (!fragmentLayout)
    return emitError() << "fragment layout must be a tile layout attribute, got "
                       << layout;
  if (ShapedType::isDynamicShape(shape))
    return emitError() << "a fragment with `?` dimensions takes no layout "
                          "(tile-assign-layouts chooses one after "
                          "tile-specialize)";
  return fragmentLayout.verifyShape(emitError, shape, /*threads=*/0);
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

int64_t mlir::tile::getFragmentRegisters(FragmentType type,
                                         FragmentLayoutAttrInterface layout) {
  int64_t slots = layout.getSlotsPerThread(type.getShape());
  return llvm::divideCeil(slots * type.getElementTypeBitWidth(), 32);
}

LogicalResult
mlir::tile::verifyRegisterBudget(function_ref<InFlightDiagnostic()> emitError,
                                 FragmentType type,
                                 FragmentLayoutAttrInterface layout) {
  int64_t registers = getFragmentRegisters(type, layout);
  if (registers <= kMaxFragmentRegisters)
    return success();
  if (!emitError)
    return failure();
  return emitError() << "needs " << registers
                     << " 32-bit registers per thread for " << type
                     << ", more than the " << kMaxFragmentRegisters
                     << " a thread has; use more threads, a smaller tile, or "
                        "keep it in shared memory (tile.alloc_shared)";
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
