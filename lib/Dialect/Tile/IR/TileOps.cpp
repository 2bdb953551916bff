//===- TileOps.cpp - tile dialect ops: syntax and verifiers ---------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared rules
//===----------------------------------------------------------------------===//

static LogicalResult verifyInKernel(Operation *op) {
  // After outlining, the kernel body lives in a gpu.func.
  if (!op->getParentOfType<KernelOp>() && !op->getParentOfType<gpu::GPUFuncOp>())
    return op->emitOpError("must be nested in a 'tile.kernel'");
  return success();
}

static std::string describe(Type type) {
  return stringifyMemorySpace(getMemorySpace(type)).str();
}

// A constant index into a barrier ring must name one of its barriers.
static LogicalResult verifyBarrierIndex(Operation *op, Value barrier,
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

// One offset per dimension of the side a copy addresses into.
static LogicalResult verifyOffsets(Operation *op, StringRef side, Type type,
                                   ValueRange offsets) {
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

  int32_t threads = 0;
  if (parser.parseKeyword("threads") || parser.parseLParen() ||
      parser.parseInteger(threads) || parser.parseRParen())
    return failure();
  result.addAttribute(getThreadsAttrName(result.name),
                      parser.getBuilder().getI32IntegerAttr(threads));

  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    SmallVector<int32_t> dims;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
              return parser.parseInteger(dims.emplace_back());
            }))
      return failure();
    result.addAttribute(getClusterAttrName(result.name),
                        parser.getBuilder().getDenseI32ArrayAttr(dims));
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
  p << " threads(" << getThreads() << ")";
  if (auto cluster = getCluster()) {
    p << " cluster(";
    llvm::interleaveComma(*cluster, p);
    p << ")";
  }
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymNameAttrName(), getFunctionTypeAttrName(), getThreadsAttrName(),
       getClusterAttrName(), getArgAttrsAttrName(), getResAttrsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
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

LogicalResult KernelOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("must not return values, got ")
           << getResultTypes().size() << " results";
  int64_t threads = getThreadsAttr().getInt();
  if (threads < 1 || threads > 1024)
    return emitOpError("expects threads in [1, 1024], got ") << threads;
  if (auto cluster = getCluster()) {
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
             << product;
  }
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
// Allocation
//===----------------------------------------------------------------------===//

LogicalResult AllocSharedOp::verify() {
  auto type = cast<MemRefType>(getType());
  if (!type.hasStaticShape() || type.getRank() == 0)
    return emitOpError("expects a static shape of rank 1 or more, got ")
           << type;
  // LLVM addresses sub-byte elements a byte each: their tiles would not
  // have the size their shape says.
  if (type.getElementTypeBitWidth() % 8 != 0)
    return emitOpError("expects elements of whole bytes, got ")
           << type.getElementType();
  if (!type.getLayout().isIdentity())
    return emitOpError("expects the identity layout: the lowering picks the "
                       "shared-memory layout");
  if (getMemorySpace(type) != MemorySpace::Shared)
    return emitOpError("expects a memref in #gpu.address_space<workgroup>, got ")
           << type;
  if (std::optional<uint64_t> swizzle = getSwizzle()) {
    int64_t rowBytes = type.getShape().back() * type.getElementTypeBitWidth() / 8;
    if (*swizzle != 0 && *swizzle != 32 && *swizzle != 64 && *swizzle != 128)
      return emitOpError("expects a swizzle of 0, 32, 64 or 128 bytes, got ")
             << *swizzle;
    if (*swizzle != 0 && rowBytes % static_cast<int64_t>(*swizzle) != 0)
      return emitOpError("expects rows of a multiple of ")
             << *swizzle << " bytes for a " << *swizzle
             << "-byte swizzle, got " << rowBytes;
  }
  return verifyInKernel(*this);
}

LogicalResult AllocFragmentOp::verify() {
  if (failed(verifyInKernel(*this)))
    return failure();
  // A layout spreads the tile over a number of threads: the kernel's.
  Attribute layout = getType().getLayout();
  int64_t layoutThreads = 0;
  if (auto blocked = dyn_cast_if_present<BlockedLayoutAttr>(layout))
    layoutThreads = blocked.getThreads();
  else if (auto wgmma = dyn_cast_if_present<WgmmaLayoutAttr>(layout))
    layoutThreads = 128 * wgmma.getWarpgroups();
  else if (auto mma = dyn_cast_if_present<MmaLayoutAttr>(layout))
    layoutThreads = 32 * mma.getWarpsM() * mma.getWarpsN();
  int64_t threads = getKernelThreads(*this);
  if (layoutThreads && threads && layoutThreads != threads)
    return emitOpError("has a layout for ")
           << layoutThreads << " threads in a kernel of " << threads;
  return success();
}

LogicalResult AllocTmemOp::verify() { return verifyInKernel(*this); }

LogicalResult DeallocTmemOp::verify() {
  if (!getTmem().getDefiningOp<AllocTmemOp>())
    return emitOpError("expects a value produced by 'tile.alloc_tmem'");
  return success();
}

static constexpr int64_t kMaxMBarrierCount = (1 << 20) - 1;

LogicalResult AllocBarrierOp::verify() {
  int64_t arrivals = getArrivalsAttr().getInt();
  if (arrivals < 1 || arrivals > kMaxMBarrierCount)
    return emitOpError("expects arrivals in [1, ")
           << kMaxMBarrierCount << "], got " << arrivals;
  return verifyInKernel(*this);
}

LogicalResult MBarrierArriveOp::verify() {
  if (getLeader() && getCluster())
    return emitOpError("takes either `leader` (one thread of the CTA) or "
                       "`cluster` (one lane per warp, to every CTA), not both");
  return verifyBarrierIndex(*this, getBarrier(), getIndex());
}

LogicalResult MBarrierExpectTxOp::verify() {
  int64_t bytes = getBytesAttr().getInt();
  if (bytes < 1 || bytes > kMaxMBarrierCount)
    return emitOpError("expects bytes in [1, ")
           << kMaxMBarrierCount << "], got " << bytes;
  return verifyBarrierIndex(*this, getBarrier(), getIndex());
}

LogicalResult MBarrierWaitOp::verify() {
  return verifyBarrierIndex(*this, getBarrier(), getIndex());
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

static bool isLegalCopyDirection(MemorySpace src, MemorySpace dst) {
  using M = MemorySpace;
  switch (src) {
  case M::Global:
    return dst == M::Shared || dst == M::Fragment;
  case M::Shared:
    return dst == M::Global || dst == M::Fragment || dst == M::Tmem;
  case M::Fragment:
    return dst == M::Global || dst == M::Shared || dst == M::Tmem;
  case M::Tmem:
    return dst == M::Fragment;
  case M::Other:
    return false;
  }
  return false;
}

// A recorded mechanism must fit the copy's direction and flags (a
// hand-written one too): the lowering of each mechanism relies on it.
static LogicalResult verifyMechanism(CopyOp op, MemorySpace src,
                                     MemorySpace dst) {
  std::optional<CopyMechanism> mechanism = op.getMechanism();
  if (!mechanism)
    return success();
  bool globalToShared = src == MemorySpace::Global && dst == MemorySpace::Shared;
  switch (*mechanism) {
  case CopyMechanism::vector:
    if (op.getBarrier() || op.getTma())
      return op.emitOpError("is a TMA copy (barrier or {tma}); its mechanism "
                            "must be tma_load or tma_store, not vector");
    return success();
  case CopyMechanism::cp_async:
    if (!globalToShared || op.getBarrier())
      return op.emitOpError("takes mechanism cp_async only for a global to "
                            "shared copy without a barrier");
    return success();
  case CopyMechanism::tma_load:
    // Producers of a pipelined loop get their barrier from the pipeliner.
    if (!globalToShared ||
        (!op.getBarrier() && !isa<PipelinedForOp>(op->getParentOp())))
      return op.emitOpError("takes mechanism tma_load only for a global to "
                            "shared copy with a barrier (or a producer of a "
                            "tile.pipelined_for)");
    return success();
  case CopyMechanism::tma_store:
    if (!op.getTma())
      return op.emitOpError("takes mechanism tma_store only with {tma}");
    return success();
  }
  return success();
}

int64_t mlir::tile::getMaxRunElements(ShapedType type) {
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t vector = std::max<int64_t>(1, 16 / bytes);
  while (vector > 1 && type.getShape().back() % vector != 0)
    vector /= 2;
  return vector;
}

LogicalResult CopyOp::verify() {
  Type srcType = getSource().getType(), dstType = getDest().getType();
  MemorySpace src = getMemorySpace(srcType), dst = getMemorySpace(dstType);
  if (src == MemorySpace::Other || dst == MemorySpace::Other)
    return emitOpError("expects memrefs in global or workgroup memory, "
                       "fragments or tensor memory");
  if (!isLegalCopyDirection(src, dst))
    return emitOpError("cannot copy from ")
           << describe(srcType) << " memory to " << describe(dstType)
           << " memory";
  auto srcShaped = cast<ShapedType>(srcType);
  auto dstShaped = cast<ShapedType>(dstType);
  if (srcShaped.getElementType() != dstShaped.getElementType())
    return emitOpError("expects equal element types, got ")
           << srcShaped.getElementType() << " and "
           << dstShaped.getElementType();

  // The on-chip side is the tile; the global side is addressed by offsets.
  ShapedType tile = src == MemorySpace::Global ? dstShaped : srcShaped;
  if (!tile.hasStaticShape() || tile.getRank() == 0)
    return emitOpError("expects the tile side to have a static shape of rank "
                       "1 or more, got ")
           << tile;
  if (src == MemorySpace::Global || dst == MemorySpace::Global) {
    bool srcIsGlobal = src == MemorySpace::Global;
    ShapedType global = srcIsGlobal ? srcShaped : dstShaped;
    if (global.getRank() != tile.getRank())
      return emitOpError("expects the global operand's rank (")
             << global.getRank() << ") to equal the tile's rank ("
             << tile.getRank() << ")";
    if (failed(verifyOffsets(*this, "global",
                             global, srcIsGlobal ? getSourceOffsets()
                                                 : getDestOffsets())))
      return failure();
    if (!(srcIsGlobal ? getDestOffsets() : getSourceOffsets()).empty())
      return emitOpError("expects no offsets on the tile side");
  } else if (!getSourceOffsets().empty() && src == MemorySpace::Fragment &&
             dst == MemorySpace::Shared) {
    // A slice of the fragment, of the shared tile's shape.
    if (!getDestOffsets().empty())
      return emitOpError("expects offsets only on the fragment");
    if (!dstShaped.hasStaticShape())
      return emitOpError("expects a shared tile of static shape for a slice "
                         "of a fragment");
    if (static_cast<int64_t>(getSourceOffsets().size()) != srcShaped.getRank() ||
        dstShaped.getRank() != srcShaped.getRank())
      return emitOpError("expects one offset per fragment dimension and a "
                         "shared tile of the fragment's rank");
    for (auto [i, offset] : llvm::enumerate(getSourceOffsets())) {
      std::optional<int64_t> value = getConstantIntValue(offset);
      if (!value)
        return emitOpError("expects constant offsets into a fragment");
      if (*value < 0 ||
          *value + dstShaped.getDimSize(i) > srcShaped.getDimSize(i))
        return emitOpError("copies a slice of ")
               << dstShaped.getDimSize(i) << " at offset " << *value
               << " of a fragment dimension of " << srcShaped.getDimSize(i);
    }
  } else {
    if (!getSourceOffsets().empty() || !getDestOffsets().empty())
      return emitOpError("expects no offsets when neither side is global "
                         "memory (a fragment -> shared copy may take "
                         "offsets on the fragment)");
    if (srcShaped.getShape() != dstShaped.getShape())
      return emitOpError("expects equal shapes, got ")
             << srcType << " and " << dstType;
  }

  if (getTma() && (src != MemorySpace::Shared || dst != MemorySpace::Global ||
                   getBarrier()))
    return emitOpError("takes {tma} only for shared to global copies (loads "
                       "use TMA when they complete on a barrier)");
  if (getAsync() && !getTma() &&
      !(src == MemorySpace::Global && dst == MemorySpace::Shared &&
        !getBarrier()))
    return emitOpError("takes {async} only with {tma} (an asynchronous TMA "
                       "store) or on a global to shared copy without a "
                       "barrier (cp.async groups the program waits for)");
  if (getBarrier()) {
    if (src != MemorySpace::Global || dst != MemorySpace::Shared)
      return emitOpError("takes a barrier only for global to shared copies, "
                         "which complete on it asynchronously");
    if (!getBarrierIndex())
      return emitOpError("expects an index into the barrier ring");
  }
  if (getMulticast()) {
    if (src != MemorySpace::Global || dst != MemorySpace::Shared)
      return emitOpError("takes {multicast} only for global to shared copies");
    auto tile = cast<MemRefType>(getDest().getType());
    if (tile.getRank() < 2)
      return emitOpError("multicasts rows of a tile, so it takes a tile of "
                         "rank 2 or more");
    if (auto kernel = (*this)->getParentOfType<KernelOp>()) {
      int64_t ctas = kernel.getClusterSize();
      if (ctas < 2)
        return emitOpError("takes {multicast} only in a kernel whose cluster "
                           "has more than one CTA");
      if (tile.getShape().front() % ctas != 0)
        return emitOpError("multicasts a tile of ")
               << tile.getShape().front() << " rows, which its cluster's "
               << ctas << " CTAs cannot load in equal slices";
      // Each CTA's slice is a piece TMA writes on its own.
      int64_t sliceBytes = tile.getNumElements() / ctas *
                           tile.getElementTypeBitWidth() / 8;
      int64_t alignment = tmaPieceAlignment(getSharedAllocation(getDest()));
      if (sliceBytes % alignment != 0)
        return emitOpError("multicasts slices of ")
               << sliceBytes << " bytes per CTA; they must be a multiple of "
               << alignment << " bytes";
    }
  }
  if (failed(verifyMechanism(*this, src, dst)))
    return failure();
  return verifyBarrierIndex(*this, getBarrier(), getBarrierIndex());
}

LogicalResult WaitTmaStoresOp::verify() {
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0 || pending > 7)
    return emitOpError("expects pending in [0, 7], got ") << pending;
  return verifyInKernel(*this);
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

// Tensor-core operand/accumulator pairs common to mma.sync, wgmma and
// tcgen05.mma; the lowering checks what a given chip lacks.
static bool isLegalGemmTypes(Type ab, Type c) {
  if (ab.isBF16())
    return c.isF32();
  if (ab.isF16())
    return c.isF16() || c.isF32();
  if (ab.isF32())
    return c.isF32();
  if (ab.isSignlessInteger(8))
    return c.isSignlessInteger(32);
  if (isa<Float8E4M3FNType, Float8E5M2Type>(ab))
    return c.isF32();
  return false;
}

LogicalResult GemmOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto b = cast<ShapedType>(getB().getType());
  auto c = cast<ShapedType>(getC().getType());
  MemorySpace aSpace = getMemorySpace(a), bSpace = getMemorySpace(b),
              cSpace = getMemorySpace(c);
  if (aSpace != MemorySpace::Shared && aSpace != MemorySpace::Fragment &&
      aSpace != MemorySpace::Tmem)
    return emitOpError("expects A in shared memory, a fragment or tensor "
                       "memory, got ")
           << describe(a) << " memory";
  if (bSpace != MemorySpace::Shared)
    return emitOpError("expects B in shared memory, got ")
           << describe(b) << " memory";
  if (cSpace != MemorySpace::Fragment && cSpace != MemorySpace::Tmem)
    return emitOpError("expects C in a fragment or tensor memory, got ")
           << describe(c) << " memory";
  if (aSpace == MemorySpace::Tmem && cSpace != MemorySpace::Tmem)
    return emitOpError("expects C in tensor memory when A is");
  if (aSpace == MemorySpace::Fragment && getTransposeA())
    return emitOpError("takes A in registers as M x K: transpose_a applies "
                       "to shared tiles only");
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"A", a},
                            {"B", b}, {"C", c}})
    if (type.getRank() != 2 || !type.hasStaticShape())
      return emitOpError("expects ") << name << " to be a static 2-D tile, got "
                                     << type;
  if (a.getElementType() != b.getElementType())
    return emitOpError("expects A and B of one element type, got ")
           << a.getElementType() << " and " << b.getElementType();
  if (!isLegalGemmTypes(a.getElementType(), c.getElementType()))
    return emitOpError("has no tensor-core form for ")
           << a.getElementType() << " inputs with a " << c.getElementType()
           << " accumulator";

  int64_t m = getTransposeA() ? a.getDimSize(1) : a.getDimSize(0);
  int64_t ka = getTransposeA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t kb = getTransposeB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = getTransposeB() ? b.getDimSize(0) : b.getDimSize(1);
  if (ka != kb)
    return emitOpError("expects A's K (")
           << ka << ") to equal B's K (" << kb << ")";
  if (c.getDimSize(0) != m || c.getDimSize(1) != n)
    return emitOpError("expects C to be ")
           << m << "x" << n << " (M x N), got " << c.getDimSize(0) << "x"
           << c.getDimSize(1);
  if (getBarrier() && !getBarrierIndex())
    return emitOpError("expects an index into the barrier ring");
  if (auto fragment = dyn_cast<FragmentType>(c); fragment && getMechanism()) {
    Attribute layout = fragment.getLayout();
    bool wgmma = *getMechanism() == MmaMechanism::wgmma;
    if (layout && (wgmma ? !isa<WgmmaLayoutAttr>(layout)
                         : !isa<MmaLayoutAttr>(layout)))
      return emitOpError("takes mechanism ")
             << stringifyMmaMechanism(*getMechanism()) << ", whose C has the "
             << (wgmma ? "#tile.wgmma" : "#tile.mma") << " layout, not "
             << layout;
  }
  if (getAsync() && getBarrier())
    return emitOpError("takes {async} or a barrier, not both: a product "
                       "that completes on a barrier is waited for by it");
  return verifyBarrierIndex(*this, getBarrier(), getBarrierIndex());
}

LogicalResult WaitGemmsOp::verify() {
  int64_t pending = getPendingAttr().getInt();
  if (pending < 0 || pending > 7)
    return emitOpError("expects pending in [0, 7], got ") << pending;
  return verifyInKernel(*this);
}

//===----------------------------------------------------------------------===//
// FillOp
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  MemorySpace space = getMemorySpace(getDest().getType());
  if (space != MemorySpace::Fragment && space != MemorySpace::Shared)
    return emitOpError("fills a fragment or a shared-memory tile, got ")
           << describe(getDest().getType()) << " memory";
  Type elementType = cast<ShapedType>(getDest().getType()).getElementType();
  if (getValue().getType() != elementType)
    return emitOpError("expects a value of the element type ")
           << elementType << ", got " << getValue().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

LogicalResult ElementwiseOp::verifyRegions() {
  if (getOutputs().empty())
    return emitOpError("expects at least one output");
  ArrayRef<int64_t> shape =
      cast<ShapedType>(getOutputs().front().getType()).getShape();
  for (Value operand : getOperation()->getOperands()) {
    MemorySpace space = getMemorySpace(operand.getType());
    if (space != MemorySpace::Fragment && space != MemorySpace::Shared)
      return emitOpError("works on fragments and shared-memory tiles, got ")
             << describe(operand.getType()) << " memory";
    auto shaped = cast<ShapedType>(operand.getType());
    if (!shaped.hasStaticShape() || shaped.getShape() != shape)
      return emitOpError("expects every tile to have the outputs' shape, got ")
             << operand.getType();
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("expects one body argument per input (")
           << getInputs().size() << "), got " << body.getNumArguments();
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    Type expected = cast<ShapedType>(input.getType()).getElementType();
    if (body.getArgument(i).getType() != expected)
      return emitOpError("expects body argument ")
             << i << " of type " << expected << ", got "
             << body.getArgument(i).getType();
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != getOutputs().size())
    return emitOpError("expects the body to yield one value per output (")
           << getOutputs().size() << "), got " << yield.getValues().size();
  for (auto [i, output] : llvm::enumerate(getOutputs())) {
    Type expected = cast<ShapedType>(output.getType()).getElementType();
    if (yield.getValues()[i].getType() != expected)
      return emitOpError("expects yielded value ")
             << i << " of type " << expected << ", got "
             << yield.getValues()[i].getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PipelinedForOp
//===----------------------------------------------------------------------===//

ParseResult PipelinedForOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  int32_t stages = 0;
  Type index = parser.getBuilder().getIndexType();
  iv.type = index;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) || parser.parseKeyword("step") ||
      parser.parseOperand(step) || parser.parseKeyword("stages") ||
      parser.parseLParen() || parser.parseInteger(stages) ||
      parser.parseRParen() ||
      parser.resolveOperands({lb, ub, step}, index, result.operands))
    return failure();
  result.addAttribute(getStagesAttrName(result.name),
                      parser.getBuilder().getI32IntegerAttr(stages));
  if (succeeded(parser.parseOptionalKeyword("warp_specialized")))
    result.addAttribute(getWarpSpecializedAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  if (succeeded(parser.parseOptionalKeyword("pingpong")))
    result.addAttribute(getPingpongAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  PipelinedForOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void PipelinedForOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = " << getLowerBound() << " to "
    << getUpperBound() << " step " << getStep() << " stages(" << getStages()
    << ")";
  if (getWarpSpecialized())
    p << " warp_specialized";
  if (getPingpong())
    p << " pingpong";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getStagesAttrName(), getWarpSpecializedAttrName(), getPingpongAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult PipelinedForOp::verify() {
  int64_t stages = getStagesAttr().getInt();
  if (stages < 1 || stages > 16)
    return emitOpError("expects stages in [1, 16], got ") << stages;
  if (getWarpSpecialized() && stages < 2)
    return emitOpError("with warp_specialized expects at least 2 stages");
  if (getPingpong() && !getWarpSpecialized())
    return emitOpError("takes pingpong only with warp_specialized (the "
                       "teams are consumers of a producer warp)");
  APInt step;
  if (matchPattern(getStep(), m_ConstantInt(&step)) && !step.isStrictlyPositive())
    return emitOpError("expects a positive step, got ") << step.getSExtValue();
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("expects one index induction variable");
  return verifyInKernel(*this);
}

SmallVector<Region *> PipelinedForOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> PipelinedForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}

std::optional<SmallVector<OpFoldResult>> PipelinedForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getLowerBound())};
}

std::optional<SmallVector<OpFoldResult>> PipelinedForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getUpperBound())};
}

std::optional<SmallVector<OpFoldResult>> PipelinedForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{OpFoldResult(getStep())};
}


//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

WarpSpecializeOp WarpSpecializeOp::getEnclosing(Operation *op,
                                                Region **region) {
  for (Region *r = op->getParentRegion(); r; r = r->getParentRegion()) {
    if (auto ws = dyn_cast<WarpSpecializeOp>(r->getParentOp())) {
      if (region)
        *region = r;
      return ws;
    }
  }
  return {};
}

WarpSpecializeOp WarpSpecializeOp::createWithRoles(OpBuilder &b, Location loc,
                                                   ArrayRef<Role> roles) {
  SmallVector<StringRef> names;
  SmallVector<int32_t> warps, registers, teams;
  for (const Role &role : roles) {
    names.push_back(role.name);
    warps.push_back(role.warps);
    registers.push_back(role.registers.value_or(0));
    teams.push_back(role.teams);
  }
  auto op = WarpSpecializeOp::create(b, loc, b.getStrArrayAttr(names), warps,
                                     registers, teams, roles.size());
  OpBuilder::InsertionGuard guard(b);
  for (auto [role, region] : llvm::zip(roles, op.getRoles())) {
    Block *block = b.createBlock(&region);
    if (role.teams > 1)
      block->addArgument(b.getIndexType(), loc);
    YieldOp::create(b, loc);
  }
  return op;
}

WarpSpecializeOp::Role WarpSpecializeOp::getRole(unsigned role) {
  int32_t registers = getRoleRegisters()[role];
  return {getRoleName(role).str(), getRoleWarps()[role],
          registers ? std::optional<int64_t>(registers) : std::nullopt,
          getRoleTeams()[role]};
}

// Roles in order from warp 0; a role of whole warpgroups or with a register
// budget starts on a warpgroup boundary, and one with a budget ends on one.
SmallVector<WarpSpecializeOp::Placement> WarpSpecializeOp::getPlacement() {
  auto alignUp = [](int64_t x) {
    return llvm::alignTo(x, static_cast<uint64_t>(kWarpgroupThreads));
  };
  SmallVector<Placement> placement;
  int64_t next = 0;
  for (unsigned i = 0, e = getNumRoles(); i < e; ++i) {
    Role role = getRole(i);
    int64_t begin = next;
    if (role.registers || role.warps % 4 == 0)
      begin = alignUp(begin);
    if (!placement.empty())
      placement.back().end = begin;
    int64_t active = begin + role.warps * kWarpThreads;
    next = role.registers ? alignUp(active) : active;
    placement.push_back({begin, active, next});
  }
  return placement;
}

// Syntax: `{ role "name" (warps(N) | warpgroups(N)) (registers(R))?
// (teams(T) as %team)? region ... }` and the attribute dictionary.
ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  Builder &builder = parser.getBuilder();
  SmallVector<Attribute> names;
  SmallVector<int32_t> warps, registers, teams;
  if (parser.parseLBrace())
    return failure();
  while (succeeded(parser.parseOptionalKeyword("role"))) {
    std::string name;
    int32_t count = 0, budget = 0, teamCount = 1;
    if (parser.parseString(&name))
      return failure();
    bool groups = succeeded(parser.parseOptionalKeyword("warpgroups"));
    if (!groups && parser.parseKeyword("warps", " or 'warpgroups'"))
      return failure();
    if (parser.parseLParen() || parser.parseInteger(count) ||
        parser.parseRParen())
      return failure();
    if (succeeded(parser.parseOptionalKeyword("registers")) &&
        (parser.parseLParen() || parser.parseInteger(budget) ||
         parser.parseRParen()))
      return failure();
    SmallVector<OpAsmParser::Argument> args;
    if (succeeded(parser.parseOptionalKeyword("teams"))) {
      if (parser.parseLParen() || parser.parseInteger(teamCount) ||
          parser.parseRParen())
        return failure();
      if (succeeded(parser.parseOptionalKeyword("as"))) {
        OpAsmParser::Argument &team = args.emplace_back();
        if (parser.parseArgument(team))
          return failure();
        team.type = builder.getIndexType();
      }
    }
    Region *region = result.addRegion();
    if (parser.parseRegion(*region, args))
      return failure();
    ensureTerminator(*region, builder, result.location);
    names.push_back(builder.getStringAttr(name));
    warps.push_back(groups ? count * 4 : count);
    registers.push_back(budget);
    teams.push_back(teamCount);
  }
  if (parser.parseRBrace() ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addAttribute(getRoleNamesAttrName(result.name),
                      builder.getArrayAttr(names));
  result.addAttribute(getRoleWarpsAttrName(result.name),
                      builder.getDenseI32ArrayAttr(warps));
  result.addAttribute(getRoleRegistersAttrName(result.name),
                      builder.getDenseI32ArrayAttr(registers));
  result.addAttribute(getRoleTeamsAttrName(result.name),
                      builder.getDenseI32ArrayAttr(teams));
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &p) {
  p << " {";
  p.increaseIndent();
  for (unsigned i = 0, e = getNumRoles(); i < e; ++i) {
    Role role = getRole(i);
    Region &region = getRoles()[i];
    p.printNewline();
    p << "role ";
    p.printString(role.name);
    if (role.warps % 4 == 0)
      p << " warpgroups(" << role.warps / 4 << ")";
    else
      p << " warps(" << role.warps << ")";
    if (role.registers)
      p << " registers(" << *role.registers << ")";
    if (role.teams != 1) {
      p << " teams(" << role.teams << ")";
      if (!region.empty() && region.getNumArguments() == 1) {
        p << " as ";
        p.printRegionArgument(region.getArgument(0), {}, /*omitType=*/true);
      }
    }
    p << ' ';
    p.printRegion(region, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/false);
  }
  p.decreaseIndent();
  p.printNewline();
  p << "}";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getRoleNamesAttrName(), getRoleWarpsAttrName(),
                           getRoleRegistersAttrName(), getRoleTeamsAttrName()});
}

// One role's own rules: a positive warp count that its teams divide, the
// team's index as its only argument with teams, a legal setmaxnreg budget
// and a wait for its asynchronous TMA stores.
static LogicalResult verifyRole(WarpSpecializeOp op, unsigned i) {
  WarpSpecializeOp::Role role = op.getRole(i);
  auto error = [&]() {
    return op.emitOpError("role '") << role.name << "' ";
  };
  if (role.warps <= 0)
    return error() << "expects a positive warp count, got " << role.warps
                   << "; write warps(N) with N >= 1";
  if (role.teams < 1 || role.warps % role.teams != 0)
    return error() << "has " << role.warps << " warp(s), which teams("
                   << role.teams
                   << ") does not divide; give it a multiple of the team "
                      "count in warps";
  Block &block = op.getRoles()[i].front();
  if (role.teams > 1 && (block.getNumArguments() != 1 ||
                         !block.getArgument(0).getType().isIndex()))
    return error() << "expects the team's index as its only argument "
                      "(write `teams("
                   << role.teams << ") as %team`)";
  if (role.teams == 1 && block.getNumArguments() != 0)
    return error() << "takes no arguments without teams (write `teams(T) as "
                      "%team` for a team index)";
  if (role.registers &&
      (*role.registers < 24 || *role.registers > 256 ||
       *role.registers % 8 != 0))
    return error() << "asks for " << *role.registers
                   << " registers; setmaxnreg takes a multiple of 8 in [24, "
                      "256] (write "
                   << std::clamp<int64_t>((*role.registers + 7) / 8 * 8, 24,
                                          256)
                   << ")";
  // Only the thread that issued an asynchronous TMA store can wait for it:
  // a role that issues them waits in the same role.
  bool stores = false, waits = false;
  op.getRoles()[i].walk([&](Operation *inner) {
    if (auto copy = dyn_cast<CopyOp>(inner))
      stores |= copy.getAsync();
    waits |= isa<WaitTmaStoresOp>(inner);
  });
  if (stores && !waits)
    return error() << "has asynchronous TMA stores but no "
                      "tile.wait_tma_stores (only the threads that issue "
                      "them can wait; add one in this role)";
  return success();
}

// The roles' threads against the kernel's, and the registers they ask for
// against what the CTA holds.
static LogicalResult verifyRoleThreads(WarpSpecializeOp op, int64_t threads) {
  SmallVector<WarpSpecializeOp::Placement> placement = op.getPlacement();
  int64_t placed = placement.back().end;
  if (placed != threads)
    return op.emitOpError("places its roles on ")
           << placed << " threads (warpgroup alignment included) but the "
           << "kernel has " << threads << "; write threads(" << placed
           << ") on the kernel or change the roles' warp counts";
  if (!op.setsRegisters())
    return success();
  int64_t entry = WarpSpecializeOp::entryRegisters(threads);
  int64_t asked = 0;
  for (unsigned i = 0, e = op.getNumRoles(); i < e; ++i) {
    int64_t span = placement[i].end - placement[i].begin;
    asked += span * op.getRole(i).registers.value_or(entry);
  }
  if (asked > threads * entry)
    return op.emitOpError("asks for ")
           << asked << " registers; the CTA holds " << threads * entry << " ("
           << threads << " threads x " << entry
           << "); lower some role's registers(...)";
  return success();
}

LogicalResult WarpSpecializeOp::verify() {
  if (!isa_and_present<KernelOp, gpu::GPUFuncOp>((*this)->getParentOp()))
    return emitOpError("must be directly in a 'tile.kernel' body");
  unsigned roles = getNumRoles();
  if (roles == 0)
    return emitOpError("expects at least one role (`role \"name\" warps(N) "
                       "{ ... }`)");
  if (getRoleNames().size() != roles || getRoleWarps().size() != roles ||
      getRoleRegisters().size() != roles || getRoleTeams().size() != roles)
    return emitOpError("expects a name, warp count, register budget and team "
                       "count per role (")
           << roles << " roles)";
  for (unsigned i = 0; i < roles; ++i) {
    if (llvm::any_of(llvm::seq(0u, i),
                     [&](unsigned j) { return getRoleName(j) == getRoleName(i); }))
      return emitOpError("has two roles named '")
             << getRoleName(i) << "'; give each role its own name";
    if (failed(verifyRole(*this, i)))
      return failure();
  }
  int64_t threads = getKernelThreads(*this);
  return threads ? verifyRoleThreads(*this, threads) : success();
}

//===----------------------------------------------------------------------===//
// Distributed ops
//===----------------------------------------------------------------------===//

// World-level buffers are symmetric global memory; cluster-level remote
// buffers are shared memory of a peer CTA.
static LogicalResult verifyPeerBuffer(Operation *op, StringRef name, Type type,
                                      Level level) {
  MemorySpace space = getMemorySpace(type);
  MemorySpace expected =
      level == Level::world ? MemorySpace::Global : MemorySpace::Shared;
  if (space != expected)
    return op->emitOpError("expects ")
           << name << " in " << stringifyMemorySpace(expected)
           << " memory at level '" << stringifyLevel(level) << "', got "
           << stringifyMemorySpace(space) << " memory";
  return success();
}

static LogicalResult verifyLocalTile(Operation *op, StringRef name, Type type) {
  MemorySpace space = getMemorySpace(type);
  if (space != MemorySpace::Global && space != MemorySpace::Shared)
    return op->emitOpError("expects ")
           << name << " in global or shared memory, got "
           << stringifyMemorySpace(space) << " memory";
  if (!cast<MemRefType>(type).hasStaticShape())
    return op->emitOpError("expects ") << name << " to have a static shape";
  return success();
}

static LogicalResult verifyTransfer(Operation *op, Type tileType,
                                    Type remoteType, ValueRange offsets) {
  auto tile = cast<MemRefType>(tileType);
  auto remote = cast<MemRefType>(remoteType);
  if (tile.getElementType() != remote.getElementType())
    return op->emitOpError("expects equal element types, got ")
           << tile.getElementType() << " and " << remote.getElementType();
  if (tile.getRank() != remote.getRank())
    return op->emitOpError("expects the remote buffer's rank (")
           << remote.getRank() << ") to equal the tile's rank ("
           << tile.getRank() << ")";
  return verifyOffsets(op, "remote", remote, offsets);
}

static LogicalResult verifySignalWord(Operation *op, Type type) {
  auto memref = cast<MemRefType>(type);
  if (memref.getRank() != 1 || !memref.getElementType().isInteger(64))
    return op->emitOpError("expects signal words in a 1-D memref of i64, got ")
           << type;
  return success();
}

LogicalResult PutOp::verify() {
  if (failed(verifyLocalTile(*this, "the source", getSource().getType())) ||
      failed(verifyPeerBuffer(*this, "the destination", getDest().getType(),
                              getLevel())) ||
      failed(verifyTransfer(*this, getSource().getType(), getDest().getType(),
                            getDestOffsets())))
    return failure();
  bool anySignal = getSignal() || getSignalIndex() || getSignalKind() ||
                   getSignalValue();
  bool allSignal = getSignal() && getSignalIndex() && getSignalKind() &&
                   getSignalValue();
  if (anySignal && !allSignal)
    return emitOpError("expects a signal buffer, index, kind and value "
                       "together");
  if (getSignal()) {
    if (failed(verifySignalWord(*this, getSignal().getType())) ||
        failed(verifyPeerBuffer(*this, "the signal", getSignal().getType(),
                                getLevel())))
      return failure();
  }
  return success();
}

LogicalResult GetOp::verify() {
  if (failed(verifyLocalTile(*this, "the destination", getDest().getType())) ||
      failed(verifyPeerBuffer(*this, "the source", getSource().getType(),
                              getLevel())))
    return failure();
  return verifyTransfer(*this, getDest().getType(), getSource().getType(),
                        getSourceOffsets());
}

LogicalResult SignalOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())))
    return failure();
  return verifyPeerBuffer(*this, "the signal", getSignal().getType(),
                          getLevel());
}

LogicalResult WaitOp::verify() {
  if (failed(verifySignalWord(*this, getSignal().getType())))
    return failure();
  MemorySpace space = getMemorySpace(getSignal().getType());
  if (space != MemorySpace::Global && space != MemorySpace::Shared)
    return emitOpError("expects the signal in global or shared memory");
  return success();
}

int64_t mlir::tile::getKernelThreads(Operation *op) {
  // Layouts in a warp-specialised kernel spread over the threads of the
  // role (or team) that runs them.
  Region *region = nullptr;
  if (WarpSpecializeOp ws = WarpSpecializeOp::getEnclosing(op, &region))
    return ws.getTeamThreads(region->getRegionNumber());
  if (auto kernel = op->getParentOfType<KernelOp>())
    return kernel.getThreadsAttr().getInt();
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>())
    if (auto known = func.getKnownBlockSizeAttr())
      return known[0];
  return 0;
}

int64_t mlir::tile::tmaPieceAlignment(AllocSharedOp alloc) {
  return alloc && alloc.getSwizzle().value_or(0) ? 1024 : 128;
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
