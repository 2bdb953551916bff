//===- TileOps.cpp - tile dialect ops: syntax and verifiers ---------------===//

#include "TileOpsCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared rules
//===----------------------------------------------------------------------===//

LogicalResult mlir::tile::detail::verifyInKernel(Operation *op) {
  // After outlining, the kernel body lives in a gpu.func.
  if (!op->getParentOfType<KernelOp>() && !op->getParentOfType<gpu::GPUFuncOp>())
    return op->emitOpError("must be nested in a 'tile.kernel'");
  return success();
}

std::string mlir::tile::detail::describe(Type type) {
  return stringifyMemorySpace(getMemorySpace(type)).str();
}

LogicalResult mlir::tile::detail::verifyBarrierIndex(Operation *op,
                                                    Value barrier,
                                                    Value index) {
  if (!barrier)
    return success();
  int64_t count = cast<BarrierType>(barrier.getType()).getCount();
  APInt value;
  if (index && matchPattern(index, m_ConstantInt(&value)) &&
      (value.isNegative() || value.getSExtValue() >= count))
    return op->emitOpError() << "barrier index " << value.getSExtValue()
                             << " is outside the ring of " << count;
  return success();
}

LogicalResult mlir::tile::detail::verifyOffsets(Operation *op, StringRef side,
                                               Type type, ValueRange offsets) {
  auto shaped = cast<ShapedType>(type);
  if (offsets.size() != static_cast<size_t>(shaped.getRank()))
    return op->emitOpError() << "expects " << shaped.getRank() << " "
                             << side << " offsets (one per dimension), got "
                             << offsets.size();
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

// The kernel's custom syntax, clause by clause in the order it is written
// (print below mirrors it); each clause is a few lines.
ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  SmallVector<Type> argTypes;
  for (auto &arg : args)
    argTypes.push_back(arg.type);
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(parser.getBuilder().getFunctionType(
                          argTypes, resultTypes)));
  call_interface_impl::addArgAndResultAttrs(
      parser.getBuilder(), result, args, resultAttrs,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
  // The names as written (without '%'), for the kernel description and the
  // generated launchers; the printer gives them back to the arguments.
  SmallVector<StringRef> names;
  for (auto &arg : args)
    names.push_back(arg.ssaName.name.drop_front());
  if (!args.empty())
    result.addAttribute(getArgNamesAttrName(result.name),
                        parser.getBuilder().getStrArrayAttr(names));

  ArrayAttr params;
  if (succeeded(parser.parseOptionalKeyword("params"))) {
    if (parseKernelParams(parser, params))
      return failure();
    result.addAttribute(getParamsAttrName(result.name), params);
  }
  if (succeeded(parser.parseOptionalKeyword("configs"))) {
    ArrayAttr configs;
    if (parseKernelConfigs(parser, params, configs))
      return failure();
    result.addAttribute(getConfigsAttrName(result.name), configs);
  }

  // threads(N), or threads(NAME) in a family: the parameter's default (0
  // without one) stands in until tile-specialize sets it.
  int32_t threads = 0;
  if (parser.parseKeyword("threads") || parser.parseLParen())
    return failure();
  std::string threadsParam;
  OptionalParseResult number = parser.parseOptionalInteger(threads);
  if (number.has_value()) {
    if (failed(*number))
      return failure();
  } else {
    if (parser.parseKeywordOrString(&threadsParam))
      return failure();
    result.addAttribute(getThreadsParamAttrName(result.name),
                        parser.getBuilder().getStringAttr(threadsParam));
    if (params)
      for (ParamAttr decl : params.getAsRange<ParamAttr>())
        if (decl.getName().getValue() == threadsParam && decl.getDefaultValue())
          threads = paramValue(decl.getDefaultValue());
  }
  if (parser.parseRParen())
    return failure();
  result.addAttribute(getThreadsAttrName(result.name),
                      parser.getBuilder().getI32IntegerAttr(threads));

  // cluster(X, Y, Z), each dimension a number or, in a family, a parameter's
  // NAME (its default, 1 without one, stands in until tile-specialize).
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    SmallVector<int32_t> dims;
    SmallVector<std::string> names;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
              int32_t &dim = dims.emplace_back(1);
              std::string &name = names.emplace_back();
              OptionalParseResult number = parser.parseOptionalInteger(dim);
              if (number.has_value())
                return *number;
              if (parser.parseKeywordOrString(&name))
                return failure();
              if (params)
                for (ParamAttr decl : params.getAsRange<ParamAttr>())
                  if (decl.getName().getValue() == name &&
                      decl.getDefaultValue())
                    dim = paramValue(decl.getDefaultValue());
              return success();
            }))
      return failure();
    result.addAttribute(getClusterAttrName(result.name),
                        parser.getBuilder().getDenseI32ArrayAttr(dims));
    if (llvm::any_of(names, [](const std::string &n) { return !n.empty(); }))
      result.addAttribute(
          getClusterParamsAttrName(result.name),
          parser.getBuilder().getStrArrayAttr(
              SmallVector<StringRef>(names.begin(), names.end())));
  }

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  KernelOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  if (ArrayAttr params = getParamsAttr()) {
    p << " params";
    printKernelParams(p, params);
    if (ArrayAttr configs = getConfigsAttr()) {
      p << " configs";
      printKernelConfigs(p, params, configs);
    }
  }
  if (std::optional<StringRef> name = getThreadsParam())
    p << " threads(" << *name << ")";
  else
    p << " threads(" << getThreads() << ")";
  if (auto cluster = getCluster()) {
    p << " cluster(";
    ArrayAttr names = getClusterParamsAttr();
    llvm::interleaveComma(llvm::seq<size_t>(cluster->size()), p, [&](size_t i) {
      StringRef name;
      if (names && i < names.size())
        name = cast<StringAttr>(names[i]).getValue();
      if (name.empty())
        p << (*cluster)[i];
      else
        p << name;
    });
    p << ")";
  }
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymNameAttrName(), getFunctionTypeAttrName(), getThreadsAttrName(),
       getClusterAttrName(), getArgAttrsAttrName(), getResAttrsAttrName(),
       getParamsAttrName(), getConfigsAttrName(), getThreadsParamAttrName(),
       getClusterParamsAttrName(), getArgNamesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  ArrayAttr names = getArgNamesAttr();
  if (!names || region.empty())
    return;
  for (auto [arg, name] : llvm::zip(region.front().getArguments(),
                                    names.getAsValueRange<StringAttr>()))
    if (!name.empty())
      setNameFn(arg, name);
}

SmallVector<int32_t, 3> KernelOp::getClusterShape() {
  SmallVector<int32_t, 3> shape{1, 1, 1};
  if (auto cluster = getCluster())
    llvm::copy(*cluster, shape.begin());
  return shape;
}

int64_t KernelOp::getClusterSize() {
  SmallVector<int32_t, 3> shape = getClusterShape();
  return int64_t(shape[0]) * shape[1] * shape[2];
}

// A name PTX takes as an entry point and LLVM's NVPTX backend emits as
// given: letters, digits and '_', not starting with a digit.
static bool isPtxName(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

// `name` with every other character replaced by '_', and a '_' before a
// leading digit: the name to suggest.
static std::string ptxNameFor(StringRef name) {
  std::string out;
  if (name.empty() || llvm::isDigit(name.front()))
    out = "_";
  for (char c : name)
    out += llvm::isAlnum(c) ? c : '_';
  return out;
}

// Integers and floats an NVIDIA GPU computes with; anything else (f80,
// f128, i128, i7, ...) would reach the NVPTX backend and abort it.
static bool isDeviceScalarType(Type type) {
  if (isa<IndexType>(type))
    return true;
  if (auto integer = dyn_cast<IntegerType>(type))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type,
             FloatTF32Type, Float8E4M3FNType, Float8E5M2Type>(type);
}

// The integer or float `type` holds: itself, or its elements.
static Type scalarOf(Type type) {
  if (auto fragment = dyn_cast<FragmentType>(type))
    return fragment.getElementType();
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

// Refuses, at `loc`, a value of `type` whose integers or floats no NVIDIA
// GPU computes with. A family's type parameter is checked once
// tile-specialize has replaced it.
static LogicalResult verifyDeviceType(Location loc, Type type) {
  Type scalar = scalarOf(type);
  if (!isa<IntegerType, FloatType>(scalar) || isa<TypeParamType>(scalar) ||
      isDeviceScalarType(scalar))
    return success();
  return emitError(loc) << "kernel value of type " << type << ": " << scalar
                        << " has no arithmetic on NVIDIA GPUs; use i1, i8, "
                           "i16, i32 or i64 integers and f64, f32, tf32, "
                           "f16, bf16, f8E4M3FN or f8E5M2 floats";
}

LogicalResult KernelOp::verify() {
  if (!isPtxName(getSymName()))
    return emitOpError("name \"")
           << getSymName()
           << "\" is not a PTX entry name: use letters, digits and '_', not "
              "starting with a digit, e.g. @"
           << ptxNameFor(getSymName());
  if (!getResultTypes().empty())
    return emitOpError("must not return values, got ")
           << getResultTypes().size() << " results";
  if (failed(verifyKernelFamily(*this)))
    return failure();
  // threads(NAME) is checked once tile-specialize has set it.
  int64_t threads = getThreadsAttr().getInt();
  if (!getThreadsParam() && (threads < 1 || threads > 1024))
    return emitOpError("expects threads in [1, 1024], got ") << threads;
  // Cluster dimensions that name parameters are checked once set.
  if (auto cluster = getCluster(); cluster && !getClusterParams()) {
    if (cluster->size() != 3)
      return emitOpError("expects a cluster shape of 3 dimensions, got ")
             << cluster->size();
    int64_t product = 1;
    for (int32_t dim : *cluster) {
      if (dim < 1)
        return emitOpError("expects positive cluster dimensions, got ") << dim;
      // Saturate: the limit is 16, and huge dims must not wrap around.
      product = std::min<int64_t>(product * dim, 1 << 20);
    }
    if (product > 16)
      return emitOpError("expects at most 16 CTAs in a cluster, got ")
             << product
             << "; 8 is the portable limit, and 9 to 16 run as a "
                "non-portable cluster (which the runtime opts in to, on "
                "GPUs that allow it)";
  }
  if (ArrayAttr names = getArgNamesAttr();
      names && names.size() != getArgumentTypes().size())
    return emitOpError("names ")
           << names.size() << " arguments but takes "
           << getArgumentTypes().size();
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    if (type.isIntOrIndexOrFloat())
      continue;
    if (isa<MemRefType>(type) && getMemorySpace(type) == MemorySpace::Global)
      continue;
    return emitOpError("argument ")
           << i << " must be a global-memory memref or a scalar, got " << type;
  }
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  // Every value of the kernel, its arguments included.
  WalkResult types = walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(verifyDeviceType(arg.getLoc(), arg.getType())))
            return WalkResult::interrupt();
    for (Value result : op->getResults())
      if (failed(verifyDeviceType(op->getLoc(), result.getType())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (types.wasInterrupted())
    return failure();
  // A memref allocated in the kernel is per-thread stack memory: a tile op
  // would take it for global memory (ld.global of a stack address).
  WalkResult local = walk([&](Operation *alloc) {
    if (!isa<memref::AllocaOp, memref::AllocOp>(alloc) ||
        getMemorySpace(alloc->getResult(0).getType()) != MemorySpace::Global)
      return WalkResult::advance();
    SmallVector<Value> views{alloc->getResult(0)};
    while (!views.empty()) {
      Value view = views.pop_back_val();
      for (Operation *user : view.getUsers()) {
        if (isa<ViewLikeOpInterface>(user)) {
          llvm::append_range(views, user->getResults());
          continue;
        }
        if (!isa<TileDialect>(user->getDialect()))
          continue;
        InFlightDiagnostic diag =
            user->emitOpError("takes a memref allocated in the kernel (")
            << alloc->getName()
            << ": per-thread stack memory) as global memory; use "
               "tile.alloc_fragment for a thread's tile or tile.alloc_shared "
               "for the CTA's";
        diag.attachNote(alloc->getLoc()) << "allocated here";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (local.wasInterrupted())
    return failure();
  int64_t columns = 0;
  WalkResult result = walk([&](AllocTmemOp alloc) {
    columns += alloc.getType().getAllocatedColumns();
    if (columns > 512) {
      alloc.emitOpError("exceeds the 512 tensor-memory columns of a CTA: the "
                        "kernel's allocations need ")
          << columns;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  if (!isa<ElementwiseOp>((*this)->getParentOp()) && !getValues().empty())
    return emitOpError("yields values only in a 'tile.elementwise' body");
  return success();
}

//===----------------------------------------------------------------------===//
// Queries the lowerings share
//===----------------------------------------------------------------------===//

int64_t mlir::tile::getThreadsRunning(Operation *op) {
  // Layouts in a warp-specialised kernel spread over the threads of the
  // role (or team) that runs them.
  Region *region = nullptr;
  if (WarpSpecializeOp ws = WarpSpecializeOp::getEnclosing(op, &region))
    return ws.getTeamThreads(region->getRegionNumber());
  if (auto kernel = op->getParentOfType<KernelOp>())
    return kernel.getThreadsParam() ? 0 : kernel.getThreadsAttr().getInt();
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>())
    if (auto known = func.getKnownBlockSizeAttr())
      return known[0];
  return 0;
}

int64_t mlir::tile::tmaPieceAlignment(Type sharedTile) {
  return getSharedSwizzle(sharedTile).value_or(0) ? 1024 : 128;
}

bool mlir::tile::isSlotSized(MemRefType sharedTile) {
  return sharedTile.hasStaticShape() &&
         sharedTile.getNumElements() * sharedTile.getElementTypeBitWidth() /
                     8 % tmaPieceAlignment(sharedTile) ==
             0;
}

AllocSharedOp mlir::tile::getSharedAllocation(Value memref) {
  while (Operation *op = memref.getDefiningOp()) {
    if (auto alloc = dyn_cast<AllocSharedOp>(op))
      return alloc;
    if (auto view = dyn_cast<memref::SubViewOp>(op))
      memref = view.getSource();
    else if (auto cast = dyn_cast<memref::CastOp>(op))
      memref = cast.getSource();
    else
      break;
  }
  return nullptr;
}
