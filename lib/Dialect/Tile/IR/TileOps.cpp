//===- TileOps.cpp - tile dialect ops: syntax and verifiers ---------------===//

#include "TileOpsCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

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

LogicalResult WarpSpecializeOp::verify() {
  if (!isa_and_present<KernelOp, gpu::GPUFuncOp>((*this)->getParentOp()))
    return emitOpError("must be directly in a 'tile.kernel' body");
  int64_t threads = getKernelThreads(*this);
  int64_t teams = getNumTeams();
  if (getProducer().front().getNumArguments() != 0)
    return emitOpError("expects the producer region to take no arguments");
  if (teams != 1 && teams != 2)
    return emitOpError("expects 1 or 2 consumer teams, got ") << teams;
  unsigned teamArgs = getConsumers().front().getNumArguments();
  if (teamArgs != (teams == 2 ? 1u : 0u) ||
      (teamArgs && !getConsumers().front().getArgument(0).getType().isIndex()))
    return emitOpError("expects the consumers region to take ")
           << (teams == 2 ? "the team's index (one index argument)"
                          : "no arguments")
           << " with " << teams << " team(s)";
  if (threads && (threads % 128 != 0 || threads < 256 ||
                  (threads - kProducerThreads) % (128 * teams) != 0))
    return emitOpError("needs a kernel of the producer warpgroup and whole "
                       "warpgroups per consumer team (128 + a multiple of ")
           << 128 * teams << " threads), got " << threads;
  // Only the thread that issued an asynchronous TMA store can wait for it:
  // a role that issues them waits in the same role.
  for (Region *region : {&getProducer(), &getConsumers()}) {
    bool stores = false, waits = false;
    region->walk([&](Operation *op) {
      if (auto copy = dyn_cast<CopyOp>(op))
        stores |= copy.getAsync();
      waits |= isa<WaitTmaStoresOp>(op);
    });
    if (stores && !waits)
      return emitOpError("has asynchronous TMA stores in its ")
             << (region == &getProducer() ? "producer" : "consumers")
             << " region but no tile.wait_tma_stores there (only the threads "
                "that issue them can wait)";
  }
  std::optional<uint32_t> producer = getProducerRegisters();
  std::optional<uint32_t> consumer = getConsumerRegisters();
  if (producer.has_value() != consumer.has_value())
    return emitOpError("expects both register counts or neither (an "
                       "increase without a decrease never completes)");
  if (!producer)
    return success();
  for (int64_t count : {int64_t(*producer), int64_t(*consumer)})
    if (count < 24 || count > 256 || count % 8 != 0)
      return emitOpError("expects register counts that are multiples of 8 in "
                         "[24, 256], got ")
             << count;
  if (!threads)
    return success();
  int64_t entry = entryRegisters(threads);
  if (*producer > entry || *consumer < entry)
    return emitOpError("expects the producer's count at most and the "
                       "consumers' at least the ")
           << entry << " registers a kernel of " << threads
           << " threads starts with, got " << *producer << " and "
           << *consumer;
  int64_t asked = kProducerThreads * *producer +
                  (threads - kProducerThreads) * *consumer;
  if (asked > threads * entry)
    return emitOpError("asks for ")
           << asked << " registers; the CTA holds " << threads * entry << " ("
           << threads << " threads x " << entry << ")";
  return success();
}
int64_t mlir::tile::getKernelThreads(Operation *op) {
  // Layouts in a warp-specialised kernel spread over the consumers, or the
  // producer warp.
  Region *region = nullptr;
  if (WarpSpecializeOp ws = WarpSpecializeOp::getEnclosing(op, &region)) {
    if (region == &ws.getProducer())
      return WarpSpecializeOp::kProducerWarpThreads;
    int64_t threads = getKernelThreads(ws);
    return threads ? (threads - WarpSpecializeOp::kProducerThreads) /
                         ws.getNumTeams()
                   : 0;
  }
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
