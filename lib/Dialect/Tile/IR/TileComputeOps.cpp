//===- TileComputeOps.cpp - copy, gemm, fill, elementwise -----------------===//

#include "TileOpsCommon.h"

#include "tile/Target/Tcgen05.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

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

bool mlir::tile::isPipelineProducer(CopyOp copy) {
  auto loop = dyn_cast<PipelinedForOp>(copy->getParentOp());
  return loop && loop.getStagesAttr().getInt() > 1 && !copy.getBarrier() &&
         getMemorySpace(copy.getSource().getType()) == MemorySpace::Global &&
         getMemorySpace(copy.getDest().getType()) == MemorySpace::Shared;
}

// The rules of each copy mechanism, one hook each: a recorded mechanism
// (a hand-written one too) must fit the copy's direction and flags, since
// its lowering (lib/Conversion/TileToGPU/Copy/) relies on them. A new
// mechanism adds a hook here and a lowering file there.
namespace {
struct CopySides {
  MemorySpace src, dst;
  bool globalToShared() const {
    return src == MemorySpace::Global && dst == MemorySpace::Shared;
  }
};
} // namespace

// The swizzle (bytes, not 0) of a shared tile `op` reads or writes with
// ordinary loads and stores, which would ignore it; 0 when there is none.
// Copies from fragments swizzle their addresses themselves.
static int64_t plainlyAccessedSwizzle(CopyOp op, const CopySides &sides) {
  if (sides.src == MemorySpace::Fragment && sides.dst == MemorySpace::Shared)
    return 0;
  for (Value tile : {op.getSource(), op.getDest()})
    if (int64_t swizzle = getSharedSwizzle(tile.getType()).value_or(0))
      return swizzle;
  return 0;
}


static LogicalResult verifyVectorCopy(CopyOp op, const CopySides &sides) {
  if (op.getBarrier() || op.getTma())
    return op.emitOpError("is a TMA copy (barrier or {tma}); its mechanism "
                          "must be tma_load or tma_store, not vector");
  if (int64_t swizzle = plainlyAccessedSwizzle(op, sides))
    return refuseSwizzledAccess(op, swizzle);
  return success();
}

static LogicalResult verifyCpAsyncCopy(CopyOp op, const CopySides &sides) {
  if (!sides.globalToShared() || op.getBarrier() || op.getTma())
    return op.emitOpError("takes mechanism cp_async only for a global to "
                          "shared copy without a barrier");
  if (int64_t swizzle = plainlyAccessedSwizzle(op, sides))
    return refuseSwizzledAccess(op, swizzle);
  return success();
}

static LogicalResult verifyTmaLoadCopy(CopyOp op, const CopySides &sides) {
  // Producers of a pipelined loop get their barrier from the pipeliner.
  if (!sides.globalToShared() || (!op.getBarrier() && !isPipelineProducer(op)))
    return op.emitOpError("takes mechanism tma_load only for a global to "
                          "shared copy with a barrier (or a producer of a "
                          "tile.pipelined_for)");
  return success();
}

static LogicalResult verifyTmaStoreCopy(CopyOp op, const CopySides &) {
  if (!op.getTma())
    return op.emitOpError("takes mechanism tma_store only with {tma}");
  return success();
}

static LogicalResult verifyTmemLoadCopy(CopyOp op, const CopySides &sides) {
  if (sides.src != MemorySpace::Tmem || sides.dst != MemorySpace::Fragment)
    return op.emitOpError("takes mechanism tmem_load only for a tensor "
                          "memory to fragment copy");
  return success();
}

static LogicalResult verifyTmemStoreCopy(CopyOp op, const CopySides &sides) {
  if (sides.src != MemorySpace::Fragment || sides.dst != MemorySpace::Tmem)
    return op.emitOpError("takes mechanism tmem_store only for a fragment "
                          "to tensor memory copy");
  return success();
}

static LogicalResult verifyMechanism(CopyOp op, const CopySides &sides) {
  std::optional<CopyMechanism> mechanism = op.getMechanism();
  if (!mechanism) {
    // Before selection, a copy that will not be a TMA one (no barrier, no
    // {tma}, not a pipelined producer) will use ordinary accesses.
    bool tma = op.getBarrier() || op.getTma() || isPipelineProducer(op);
    int64_t swizzle = tma ? 0 : plainlyAccessedSwizzle(op, sides);
    return swizzle ? refuseSwizzledAccess(op, swizzle) : success();
  }
  // Only TMA loads write the other CTAs' tiles.
  if (op.getMulticast() && *mechanism != CopyMechanism::tma_load)
    return op.emitOpError("with {multicast} takes mechanism tma_load, not ")
           << stringifyCopyMechanism(*mechanism);
  using Hook = LogicalResult (*)(CopyOp, const CopySides &);
  static constexpr std::pair<CopyMechanism, Hook> hooks[] = {
      {CopyMechanism::vector, verifyVectorCopy},
      {CopyMechanism::cp_async, verifyCpAsyncCopy},
      {CopyMechanism::tma_load, verifyTmaLoadCopy},
      {CopyMechanism::tma_store, verifyTmaStoreCopy},
      {CopyMechanism::tmem_load, verifyTmemLoadCopy},
      {CopyMechanism::tmem_store, verifyTmemStoreCopy}};
  for (auto [m, hook] : hooks)
    if (m == *mechanism)
      return hook(op, sides);
  return op.emitOpError("has a mechanism with no rules: ")
         << stringifyCopyMechanism(*mechanism);
}

/// Whether two shapes of `op`'s operands can be equal: the same rank and
/// equal dimensions where both are known (in a tile.kernel, `?` is a
/// family's size, known after tile-specialize).
static bool shapesAgree(Operation *op, ArrayRef<int64_t> a,
                        ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  if (!op->getParentOfType<KernelOp>())
    return a == b;
  for (auto [x, y] : llvm::zip_equal(a, b))
    if (x != y && !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y))
      return false;
  return true;
}

int64_t mlir::tile::getMaxRunElements(ShapedType type) {
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t vector = std::max<int64_t>(1, 16 / bytes);
  while (vector > 1 && type.getShape().back() % vector != 0)
    vector /= 2;
  return vector;
}

// The tile side has a static shape; the global side is addressed by one
// offset per dimension; a fragment -> shared copy may take a slice of the
// fragment; otherwise the shapes agree.
static LogicalResult verifyCopyShapes(CopyOp op, MemorySpace src,
                                      MemorySpace dst, ShapedType srcShaped,
                                      ShapedType dstShaped) {
  Type srcType = srcShaped, dstType = dstShaped;
  ShapedType tile = src == MemorySpace::Global ? dstShaped : srcShaped;
  if ((!tile.hasStaticShape() && !hasParameterizedShape(op, tile)) ||
      tile.getRank() == 0)
    return op.emitOpError(
               "expects the tile side to have a static shape of rank "
               "1 or more, got ")
           << tile;
  if (src == MemorySpace::Global || dst == MemorySpace::Global) {
    bool srcIsGlobal = src == MemorySpace::Global;
    ShapedType global = srcIsGlobal ? srcShaped : dstShaped;
    if (global.getRank() != tile.getRank()) {
      InFlightDiagnostic diag = op.emitOpError("expects the global operand's rank (")
             << global.getRank() << ") to equal the tile's rank ("
             << tile.getRank() << ")";
      // Say how to make them agree: a view of the memref of the tile's rank.
      std::string width = ShapedType::isDynamic(tile.getShape().back())
                              ? std::string("N")
                              : std::to_string(tile.getShape().back());
      if (global.getRank() < tile.getRank())
        diag << "; view the memref with the tile's rank first, e.g. "
                "`memref.expand_shape %m [[0, 1]] output_shape [%rows, "
             << width << "]` for a 1-D memref of rows of " << width
             << ", then copy to that view at [%row, 0]";
      else
        diag << "; give the tile the memref's rank (a 1x" << width
             << " tile for one row of a 2-D memref), or collapse the memref "
                "with memref.collapse_shape";
      return diag;
    }
    if (failed(verifyOffsets(op, "global", global,
                             srcIsGlobal ? op.getSourceOffsets()
                                         : op.getDestOffsets())))
      return failure();
    if (!(srcIsGlobal ? op.getDestOffsets() : op.getSourceOffsets()).empty())
      return op.emitOpError("expects no offsets on the tile side");
  } else if (!op.getSourceOffsets().empty() && src == MemorySpace::Fragment &&
             dst == MemorySpace::Shared) {
    // A slice of the fragment, of the shared tile's shape.
    if (!op.getDestOffsets().empty())
      return op.emitOpError("expects offsets only on the fragment");
    if (!dstShaped.hasStaticShape() && !hasParameterizedShape(op, dstShaped))
      return op.emitOpError("expects a shared tile of static shape for a slice "
                            "of a fragment");
    if (static_cast<int64_t>(op.getSourceOffsets().size()) !=
            srcShaped.getRank() ||
        dstShaped.getRank() != srcShaped.getRank())
      return op.emitOpError("expects one offset per fragment dimension and a "
                            "shared tile of the fragment's rank");
    for (auto [i, offset] : llvm::enumerate(op.getSourceOffsets())) {
      std::optional<int64_t> value = getConstantIntValue(offset);
      if (!value && !op.getSourceOffsets()[i].getDefiningOp<ParamOp>() &&
          !hasParameterizedShape(op, srcShaped))
        return op.emitOpError("expects constant offsets into a fragment");
      // A family's slices are checked once tile-specialize has fixed them.
      if (!value || dstShaped.isDynamicDim(i) || srcShaped.isDynamicDim(i))
        continue;
      // Against the room left after the offset: offset + size may wrap.
      if (*value < 0 || *value > srcShaped.getDimSize(i) ||
          dstShaped.getDimSize(i) > srcShaped.getDimSize(i) - *value)
        return op.emitOpError("copies a slice of ")
               << dstShaped.getDimSize(i) << " at offset " << *value
               << " of a fragment dimension of " << srcShaped.getDimSize(i);
    }
  } else {
    if (!op.getSourceOffsets().empty() || !op.getDestOffsets().empty())
      return op.emitOpError("expects no offsets when neither side is global "
                            "memory (a fragment -> shared copy may take "
                            "offsets on the fragment)");
    if (!shapesAgree(op, srcShaped.getShape(), dstShaped.getShape()))
      return op.emitOpError("expects equal shapes, got ")
             << srcType << " and " << dstType;
  }

  return success();
}

// {tma}, {async} and a barrier: which copies may take them.
static LogicalResult verifyCopyFlags(CopyOp op, MemorySpace src,
                                     MemorySpace dst) {
  if (op.getTma() && (src != MemorySpace::Shared ||
                      dst != MemorySpace::Global || op.getBarrier()))
    return op.emitOpError("takes {tma} only for shared to global copies (loads "
                          "use TMA when they complete on a barrier)");
  if (op.getAsync() && !op.getTma() &&
      !(src == MemorySpace::Global && dst == MemorySpace::Shared &&
        !op.getBarrier()))
    return op.emitOpError("takes {async} only with {tma} (an asynchronous TMA "
                          "store) or on a global to shared copy without a "
                          "barrier (cp.async groups the program waits for)");
  if (op.getBarrier()) {
    if (src != MemorySpace::Global || dst != MemorySpace::Shared)
      return op.emitOpError("takes a barrier only for global to shared copies, "
                            "which complete on it asynchronously");
    if (!op.getBarrierIndex())
      return op.emitOpError("expects an index into the barrier ring");
  }
  return success();
}

// {multicast}: a TMA load whose rows the cluster's CTAs share in slices
// TMA writes on its own.
static LogicalResult verifyMulticastCopy(CopyOp op, MemorySpace src,
                                         MemorySpace dst) {
  if (!op.getMulticast())
    return success();
  if (src != MemorySpace::Global || dst != MemorySpace::Shared)
    return op.emitOpError("takes {multicast} only for global to shared copies");
  auto tile = cast<MemRefType>(op.getDest().getType());
  if (tile.getRank() < 2)
    return op.emitOpError("multicasts rows of a tile, so it takes a tile of "
                          "rank 2 or more");
  auto kernel = op->getParentOfType<KernelOp>();
  // A family whose cluster shape is a parameter: checked per configuration
  // (tile-specialize makes the copy a plain load where the cluster has one
  // CTA).
  if (kernel && !kernel.getClusterParams()) {
    int64_t ctas = kernel.getClusterSize();
    if (ctas < 2)
      return op.emitOpError("takes {multicast} only in a kernel whose cluster "
                            "has more than one CTA");
    if (!tile.hasStaticShape())
      return success();
    if (tile.getShape().front() % ctas != 0)
      return op.emitOpError("multicasts a tile of ")
             << tile.getShape().front() << " rows, which its cluster's " << ctas
             << " CTAs cannot load in equal slices";
    // Each CTA's slice is a piece TMA writes on its own.
    int64_t sliceBytes =
        tile.getNumElements() / ctas * tile.getElementTypeBitWidth() / 8;
    int64_t alignment = tmaPieceAlignment(op.getDest().getType());
    if (sliceBytes % alignment != 0)
      return op.emitOpError("multicasts slices of ")
             << sliceBytes << " bytes per CTA; they must be a multiple of "
             << alignment << " bytes";
  }
  return success();
}

// {atomic_add}: f32 partial sums added into global memory.
static LogicalResult verifyAtomicAddCopy(CopyOp op, MemorySpace src,
                                         MemorySpace dst, Type srcElement,
                                         Type dstElement) {
  if (!op.getAtomicAdd())
    return success();
  bool f32 = srcElement.isF32() && dstElement.isF32();
  bool toGlobal = dst == MemorySpace::Global;
  bool fromShared = src == MemorySpace::Shared;
  if (!f32 || !toGlobal ||
      !(src == MemorySpace::Fragment || (fromShared && op.getTma())))
    return op.emitOpError("takes {atomic_add} only for an f32 fragment, or an "
                          "f32 shared tile copied by {tma}, to f32 global "
                          "memory (partial sums added into the result); got ")
           << op.getSource().getType() << " to " << op.getDest().getType()
           << (f32 && toGlobal && fromShared ? " without {tma}" : "");
  return success();
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
  // A fragment's floats may be rounded to a narrower float type on the way
  // out (an f32 accumulator stored as bf16).
  Type srcElement = verifiedAs(srcShaped.getElementType());
  Type dstElement = verifiedAs(dstShaped.getElementType());
  bool rounds = src == MemorySpace::Fragment &&
                (dst == MemorySpace::Global || dst == MemorySpace::Shared) &&
                srcElement.isF32() &&
                (dstElement.isBF16() || dstElement.isF16());
  if (srcElement != dstElement && !rounds)
    return emitOpError("expects equal element types, got ")
           << srcElement << " and " << dstElement
           << " (only a copy from a fragment to memory may change the type: "
              "it rounds f32 to bf16 or f16; convert with tile.elementwise "
              "otherwise)";

  if (failed(verifyCopyShapes(*this, src, dst, srcShaped, dstShaped)) ||
      failed(verifyCopyFlags(*this, src, dst)) ||
      failed(verifyMulticastCopy(*this, src, dst)) ||
      failed(verifyAtomicAddCopy(*this, src, dst, srcElement, dstElement)) ||
      failed(verifyMechanism(*this, CopySides{src, dst})))
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
    if (type.getRank() != 2 ||
        (!type.hasStaticShape() && !hasParameterizedShape(*this, type)))
      return emitOpError("expects ") << name << " to be a static 2-D tile, got "
                                     << type;
  if (verifiedAs(a.getElementType()) != verifiedAs(b.getElementType()))
    return emitOpError("expects A and B of one element type, got ")
           << a.getElementType() << " and " << b.getElementType();
  if (!isLegalGemmTypes(verifiedAs(a.getElementType()),
                        verifiedAs(c.getElementType())))
    return emitOpError("has no tensor-core form for ")
           << a.getElementType() << " inputs with a " << c.getElementType()
           << " accumulator";

  int64_t m = getTransposeA() ? a.getDimSize(1) : a.getDimSize(0);
  int64_t ka = getTransposeA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t kb = getTransposeB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = getTransposeB() ? b.getDimSize(0) : b.getDimSize(1);
  auto known = [](int64_t x, int64_t y) {
    return !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y);
  };
  if (known(ka, kb) && ka != kb)
    return emitOpError("expects A's K (")
           << ka << ") to equal B's K (" << kb << ")";
  if (!shapesAgree(*this, c.getShape(), {m, n}))
    return emitOpError("expects C to be ")
           << m << "x" << n << " (M x N), got " << c.getDimSize(0) << "x"
           << c.getDimSize(1);
  if (getBarrier() && !getBarrierIndex())
    return emitOpError("expects an index into the barrier ring");
  if (auto fragment = dyn_cast<FragmentType>(c); fragment && getMechanism()) {
    Attribute layout = fragment.getLayout();
    MmaMechanism mechanism = *getMechanism();
    bool fits = !layout ||
                (mechanism == MmaMechanism::wgmma
                     ? isa<WgmmaLayoutAttr>(layout)
                 : mechanism == MmaMechanism::tcgen05
                     ? isa<Tmem32x32bLayoutAttr>(layout)
                     : isa<MmaLayoutAttr>(layout));
    if (!fits)
      return emitOpError("takes mechanism ")
             << stringifyMmaMechanism(mechanism) << ", whose C has the "
             << (mechanism == MmaMechanism::wgmma     ? "#tile.wgmma"
                 : mechanism == MmaMechanism::tcgen05 ? "#tile.tmem_32x32b"
                                                      : "#tile.mma")
             << " layout, not " << layout;
  }
  if (getMechanism() == MmaMechanism::tcgen05 ||
      cSpace == MemorySpace::Tmem) {
    if (std::optional<std::string> why = tcgen05::checkMmaShape(m, n))
      return emitOpError("is a tcgen05 product with ")
             << *why << "; split the tile into legal products";
    int64_t k = tcgen05::mmaK(a.getElementTypeBitWidth());
    if (ka % k != 0)
      return emitOpError("is a tcgen05 product with K = ")
             << ka << ", which must be a multiple of " << k
             << " (32 bytes of the operand type)";
  }
  // tcgen05.mma completes asynchronously, by tcgen05.commit onto an
  // mbarrier: the program must name one to know when C is ready.
  if (cSpace == MemorySpace::Tmem && !getBarrier())
    return emitOpError("accumulates in tensor memory, so it completes "
                       "asynchronously: write `barrier %b[%i]` (a barrier "
                       "expecting one arrival) and wait on it before reading "
                       "C or reusing A and B");
  if (getAsync() && getBarrier())
    return emitOpError("takes {async} or a barrier, not both: a product "
                       "that completes on a barrier is waited for by it");
  return verifyBarrierIndex(*this, getBarrier(), getBarrierIndex());
}

LogicalResult CommitGemmsOp::verify() {
  if (failed(verifyInKernel(*this)))
    return failure();
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
  if (int64_t swizzle = getSharedSwizzle(getDest().getType()).value_or(0))
    return refuseSwizzledAccess(*this, swizzle);
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
    if (int64_t swizzle = getSharedSwizzle(operand.getType()).value_or(0))
      return refuseSwizzledAccess(*this, swizzle);
    auto shaped = cast<ShapedType>(operand.getType());
    if ((!shaped.hasStaticShape() && !hasParameterizedShape(*this, shaped)) ||
        shaped.getShape().size() != shape.size()) {
      InFlightDiagnostic diag =
          emitOpError("expects every tile to have the outputs' rank (")
          << shape.size() << ") and a static shape, got " << operand.getType();
      // A row or column of lower rank broadcast over the outputs: say how
      // to hold it at their rank.
      if (shaped.getRank() + 1 == static_cast<int64_t>(shape.size()) &&
          shaped.getRank() == 1 && shape.size() == 2 &&
          !ShapedType::isDynamic(shaped.getShape().back())) {
        std::string row;
        llvm::raw_string_ostream(row)
            << "1x" << shaped.getShape().back() << "x"
            << shaped.getElementType();
        diag << "; a row broadcast over the tile is a 1x"
             << shaped.getShape().back() << " tile: load it into "
             << "!tile.fragment<" << row << "> from a 1-row view of the "
             << "memref (`memref.expand_shape %v [[0, 1]] output_shape "
                "[1, %n]`)";
      }
      return diag;
    }
  }
  for (Value output : getOutputs())
    if (!shapesAgree(*this, cast<ShapedType>(output.getType()).getShape(), shape))
      return emitOpError("expects every output to have one shape, got ")
             << output.getType() << " beside "
             << getOutputs().front().getType();
  for (Value input : getInputs()) {
    ArrayRef<int64_t> inShape = cast<ShapedType>(input.getType()).getShape();
    if (shapesAgree(*this, inShape, shape))
      continue;
    for (auto [in, out] : llvm::zip_equal(inShape, shape))
      if (in != out && in != 1 && !ShapedType::isDynamic(in) &&
          !ShapedType::isDynamic(out))
      {
        InFlightDiagnostic diag =
            emitOpError("expects each input to have the outputs' shape, "
                        "or 1 where it is broadcast, got ")
            << input.getType() << " for outputs of "
            << getOutputs().front().getType();
        // Wider than outputs of extent 1: a reduction, which element-wise
        // ops cannot do.
        for (auto [d, extents] : llvm::enumerate(llvm::zip(inShape, shape)))
          if (std::get<1>(extents) == 1 && std::get<0>(extents) > 1) {
            diag << "; to combine the " << std::get<0>(extents)
                 << " elements along dim " << d
                 << " into one, write `tile.reduce sum %in into %out dim "
                 << d << "` (or max, min)";
            break;
          }
        return diag;
      }
    if (getMemorySpace(input.getType()) != MemorySpace::Fragment)
      return emitOpError("broadcasts only fragments; copy the shared tile ")
             << input.getType() << " into a fragment first";
    if (llvm::any_of(getOutputs(), [](Value output) {
          return getMemorySpace(output.getType()) != MemorySpace::Fragment;
        }))
      return emitOpError("broadcasts ")
             << input.getType()
             << " into shared-memory outputs, which is not lowered; write "
                "the result to a fragment and copy it to shared memory";
  }
  Block &body = getBody().front();
  size_t inputs = getInputs().size();
  if (body.getNumArguments() != inputs &&
      body.getNumArguments() != inputs + shape.size())
    return emitOpError("expects one body argument per input (")
           << inputs << "), then optionally one index per dimension ("
           << shape.size() << "), got " << body.getNumArguments();
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    Type expected = cast<ShapedType>(input.getType()).getElementType();
    if (body.getArgument(i).getType() != expected)
      return emitOpError("expects body argument ")
             << i << " of type " << expected << ", got "
             << body.getArgument(i).getType();
  }
  for (size_t i = inputs; i < body.getNumArguments(); ++i)
    if (!body.getArgument(i).getType().isIndex())
      return emitOpError("expects body argument ")
             << i << " (the coordinate along dimension " << i - inputs
             << ") of type index, got " << body.getArgument(i).getType();
  auto yield = cast<YieldOp>(body.getTerminator());
  // The body runs once per element of every thread: tile ops, copies,
  // barriers or anything else with effects would run that many times.
  WalkResult bodyOps = body.walk([&](Operation *op) {
    if (op == yield.getOperation() ||
        (!isa_and_present<TileDialect>(op->getDialect()) &&
         isMemoryEffectFree(op)))
      return WalkResult::advance();
    op->emitOpError("is in a 'tile.elementwise' body, which runs once per "
                    "element in every thread and so holds only "
                    "side-effect-free scalar code (arith, math, ...); move it "
                    "before or after the 'tile.elementwise'");
    return WalkResult::interrupt();
  });
  if (bodyOps.wasInterrupted())
    return failure();
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
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto source = cast<FragmentType>(getSource().getType());
  auto dest = cast<FragmentType>(getDest().getType());
  int64_t rank = source.getRank();
  // The attribute as written (signed): `dim -1` names no dimension.
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= rank)
    return emitOpError("reduces dim ")
           << dim << ", which is not a dimension of " << source
           << "; write dim 0 to " << rank - 1;
  SmallVector<int64_t> expected(source.getShape());
  expected[getDim()] = 1;
  if (!shapesAgree(*this, dest.getShape(), expected))
    return emitOpError("expects the destination to have the source's shape "
                       "with 1 at dim ")
           << getDim() << ": write "
           << FragmentType::get(expected, dest.getElementType())
           << ", got " << dest;
  Type from = source.getElementType(), to = dest.getElementType();
  bool widens = (from.isBF16() || from.isF16()) && to.isF32();
  if (from != to && !widens)
    return emitOpError("reduces ")
           << from << " into " << to
           << "; the element types must agree, or bf16/f16 reduce into f32";
  if (source.getLayout() && dest.getLayout() &&
      !acceptsDestLayout(dest.getLayout()))
    return emitOpError("needs a destination layout that holds the results "
                       "as ")
           << getSourceSlice() << " (the source's sliced along dim "
           << getDim() << ") does, got " << dest.getLayout()
           << "; leave it to tile-assign-layouts";
  return verifyInKernel(*this);
}

SliceLayoutAttr ReduceOp::getSourceSlice() {
  auto source = cast<FragmentType>(getSource().getType());
  if (!source.getLayout())
    return {};
  return SliceLayoutAttr::get(getContext(), getDim(),
                              source.getShape()[getDim()],
                              source.getLayout());
}

bool ReduceOp::acceptsDestLayout(Attribute layout) {
  SliceLayoutAttr slice = getSourceSlice();
  return slice &&
         layoutsHoldAlike(cast<FragmentLayoutAttrInterface>(slice),
                          dyn_cast_or_null<FragmentLayoutAttrInterface>(layout),
                          cast<FragmentType>(getDest().getType()).getShape());
}
