//===- SelectInstructions.cpp - one place that picks the hardware path ---===//
//
// Decides, per tile.copy, tile.gemm and communication op, which mechanism
// it lowers to, from the target chip and the op; records it on the op. Ops the chip cannot do
// (or tile cannot lower yet) fail here with a located error naming the op
// and the chip, long before LLVM's instruction selection could abort.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTarget.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESELECTINSTRUCTIONS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

static FailureOr<CopyMechanism> selectCopy(CopyOp op, const ChipInfo &chip) {
  MemorySpace src = getMemorySpace(op.getSource().getType());
  MemorySpace dst = getMemorySpace(op.getDest().getType());
  if (src == MemorySpace::Tmem || dst == MemorySpace::Tmem) {
    if (failed(requireFeature(op, chip, Feature::TensorMemory,
                              "copying to or from tensor memory")))
      return failure();
    if (src == MemorySpace::Tmem)
      return CopyMechanism::tmem_load;
    if (src == MemorySpace::Fragment)
      return CopyMechanism::tmem_store;
    return op.emitOpError("from shared to tensor memory (tcgen05.cp) is not "
                          "lowered yet; copy through a fragment (shared -> "
                          "fragment -> tensor memory)");
  }
  if (op.getBarrier()) {
    if (failed(requireFeature(op, chip, Feature::Tma,
                              "completing on a barrier (a TMA load)")))
      return failure();
    return CopyMechanism::tma_load;
  }
  if (op.getTma()) {
    if (failed(requireFeature(op, chip, Feature::Tma, "{tma} (a TMA store)")))
      return failure();
    return CopyMechanism::tma_store;
  }
  if (op.getMulticast() &&
      failed(requireFeature(op, chip, Feature::Tma, "{multicast} (TMA)")))
    return failure();
  bool globalToShared = src == MemorySpace::Global && dst == MemorySpace::Shared;
  if (globalToShared && isPipelineProducer(op)) {
    // A TMA box holds at most 256 elements per dimension; a larger tile
    // goes through cp.async (as on chips without TMA) rather than failing
    // when its tensor map is made.
    auto tile = cast<MemRefType>(op.getDest().getType());
    bool fitsTmaBox = llvm::all_of(tile.getShape(), [](int64_t d) {
      return !ShapedType::isDynamic(d) && d <= 256;
    });
    if (chip.has(Feature::Tma) && (fitsTmaBox || !chip.has(Feature::CpAsync)))
      return CopyMechanism::tma_load;
    if (!chip.has(Feature::CpAsync))
      return op.emitOpError("is loaded by a pipelined loop, which needs "
                            "asynchronous copies (TMA or cp.async); ")
             << chip.name << " has neither";
  }
  if (op.getMulticast())
    return op.emitOpError("with {multicast} must complete on a barrier (a "
                          "warp_specialized tile.pipelined_for gives it one)");
  // cp.async moves 16-byte runs; narrower rows go through registers.
  if (globalToShared && chip.has(Feature::CpAsync) &&
      getMaxRunElements(cast<ShapedType>(op.getDest().getType())) *
              cast<ShapedType>(op.getDest().getType())
                  .getElementTypeBitWidth() ==
          128)
    return CopyMechanism::cp_async;
  return CopyMechanism::vector;
}

// Whether the gemm's shape fits `mechanism`'s instructions, one rule per
// mechanism: wgmma takes N a multiple of 8 in [8, 256]; mma.sync tiles of
// 16 rows by 8 columns; tcgen05.mma's M and N are checked by the op's
// verifier once its mechanism is recorded (tcgen05::checkMmaShape).
static LogicalResult checkGemmShape(GemmOp op, MmaMechanism mechanism) {
  auto c = dyn_cast<FragmentType>(op.getC().getType());
  if (!c || mechanism == MmaMechanism::tcgen05)
    return success();
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  if (mechanism == MmaMechanism::wgmma) {
    if (n % 8 == 0 && n >= 8 && n <= 256)
      return success();
    InFlightDiagnostic diag = op.emitOpError("has N = ")
                              << n
                              << ", which wgmma cannot take: wgmma needs N a "
                                 "multiple of 8 in [8, 256] (8, 16, ..., 256)";
    if (n % 8 != 0)
      diag << "; pad N to " << llvm::alignTo(n, 8);
    else
      diag << "; split N into gemms of at most 256 columns, or write "
              "mechanism = #tile.mma_mechanism<mma_sync>";
    return diag;
  }
  if (m % 16 == 0 && n % 8 == 0)
    return success();
  return op.emitOpError("is ")
         << m << "x" << n
         << " (M x N), which mma.sync cannot take: it needs M a multiple of "
            "16 and N a multiple of 8; pad the tile to "
         << llvm::alignTo(m, 16) << "x" << llvm::alignTo(n, 8);
}

// The tcgen05.mma forms tile lowers: A and B in shared memory, kinds f16
// (bf16 or f16 in, f32 out) and tf32 (f32 in, f32 out).
static LogicalResult checkTcgen05Form(GemmOp op) {
  if (isa<TmemType>(op.getA().getType()))
    return op.emitOpError("takes A from tensor memory, which is not lowered "
                          "yet; keep A in shared memory");
  if (isa<FragmentType>(op.getA().getType()))
    return op.emitOpError("takes A from registers, which tcgen05.mma cannot "
                          "read; keep A in shared memory");
  Type ab = cast<ShapedType>(op.getA().getType()).getElementType();
  Type c = cast<ShapedType>(op.getC().getType()).getElementType();
  if (!(ab.isBF16() || ab.isF16() || ab.isF32()) || !c.isF32())
    return op.emitOpError("multiplies ")
           << ab << " into " << c
           << ", but tile lowers tcgen05.mma for kind::f16 (bf16 or f16 "
              "inputs) and kind::tf32 (f32 inputs) with an f32 accumulator "
              "only";
  return success();
}

static FailureOr<MmaMechanism> selectGemm(GemmOp op, const ChipInfo &chip) {
  if (getMemorySpace(op.getC().getType()) == MemorySpace::Tmem) {
    if (failed(requireFeature(op, chip, Feature::Tcgen05,
                              "a product into tensor memory (tcgen05.mma)")) ||
        failed(checkTcgen05Form(op)))
      return failure();
    return MmaMechanism::tcgen05;
  }
  Attribute layout = cast<FragmentType>(op.getC().getType()).getLayout();
  if (layout && !isa<MmaLayoutAttr, WgmmaLayoutAttr, Tmem32x32bLayoutAttr>(layout))
    return op.emitOpError("expects C in a fragment with a matrix layout "
                          "(#tile.wgmma, #tile.mma or #tile.tmem_32x32b, which "
                          "tile-assign-layouts gives), got ")
           << layout;
  // An #tile.mma accumulator asks for mma.sync on any chip.
  if (isa_and_present<MmaLayoutAttr>(layout))
    return MmaMechanism::mma_sync;
  if (isa_and_present<WgmmaLayoutAttr>(layout)) {
    if (failed(requireFeature(op, chip, Feature::Wgmma,
                              "a #tile.wgmma accumulator")))
      return failure();
    return MmaMechanism::wgmma;
  }
  if (chip.has(Feature::Tcgen05)) {
    // The accumulator lives in tensor memory. A warp-specialised pipeline
    // places it there itself (and reads it back into C for the epilogue);
    // anywhere else the program allocates it.
    auto loop = dyn_cast<PipelinedForOp>(op->getParentOp());
    if (!loop || !loop.getWarpSpecialized())
      return op.emitOpError("accumulates in registers, but on ")
             << chip.name
             << " products accumulate in tensor memory: allocate C with "
                "tile.alloc_tmem (and give the gemm a barrier), put the gemm "
                "in a warp_specialized tile.pipelined_for (which keeps C in "
                "tensor memory for you), or ask for mma.sync with "
                "mechanism = #tile.mma_mechanism<mma_sync>";
    if (failed(checkTcgen05Form(op)))
      return failure();
    // The epilogue reads C back with tcgen05.ld 32x32b, one row per thread.
    if (cast<FragmentType>(op.getC().getType()).getDimSize(0) != 128)
      return op.emitOpError("accumulates ")
             << cast<FragmentType>(op.getC().getType()).getDimSize(0)
             << " rows; a warp-specialised tcgen05 pipeline reads 128-row "
                "accumulators back into registers so far (M = 128)";
    return MmaMechanism::tcgen05;
  }
  if (isa_and_present<Tmem32x32bLayoutAttr>(layout)) {
    (void)requireFeature(op, chip, Feature::Tcgen05,
                         "a #tile.tmem_32x32b accumulator");
    return failure();
  }
  return chip.has(Feature::Wgmma) ? MmaMechanism::wgmma
                                  : MmaMechanism::mma_sync;
}

// Ops that are not copies or gemms but still need something of the chip
// (or of the kernel).
static LogicalResult checkOtherOp(Operation *op, const ChipInfo &chip) {
  if (isa<CommitGemmsOp>(op))
    return requireFeature(op, chip, Feature::Tcgen05, "(tcgen05.commit)");
  if (isa<AllocTmemOp, DeallocTmemOp>(op))
    return requireFeature(op, chip, Feature::TensorMemory, "");
  if (auto kernel = dyn_cast<KernelOp>(op); kernel && kernel.getCluster())
    return requireFeature(op, chip, Feature::Clusters, "a cluster");
  if (auto arrive = dyn_cast<MBarrierArriveOp>(op); arrive && arrive.getCluster())
    return requireFeature(op, chip, Feature::Clusters,
                          "arriving on the cluster's barriers");
  if (auto split = dyn_cast<WarpSpecializeOp>(op);
      split && split.setsRegisters())
    return requireFeature(op, chip, Feature::Setmaxnreg,
                          "registers(...) (setmaxnreg)");
  return success();
}

// A communication op's mechanism (mechanismFor): across the job any chip
// tile knows can use it; within the cluster the chip and the kernel need
// clusters.
static FailureOr<CommMechanism> selectCommunication(CommunicationOpInterface op,
                                                    const ChipInfo &chip) {
  if (op.getLevel() == Level::cluster) {
    if (failed(requireFeature(op, chip, Feature::Clusters, "level cluster")))
      return failure();
    auto kernel = op->getParentOfType<KernelOp>();
    if (kernel && !kernel.getCluster())
      return op->emitOpError("at level cluster needs a kernel with a "
                             "cluster: write cluster(N, 1, 1) on the "
                             "tile.kernel");
  }
  return mechanismFor(op);
}

// Selection and everything after it need static IR: a family's parameters
// set, helpers inlined, every tile's shape known, the grid recorded.
static LogicalResult requireSpecialized(KernelOp kernel) {
  if (kernel.isFamily()) {
    SmallVector<StringRef> names;
    if (ArrayAttr params = kernel.getParamsAttr())
      for (ParamAttr decl : params.getAsRange<ParamAttr>())
        names.push_back(decl.getName().getValue());
    InFlightDiagnostic diag =
        kernel.emitOpError("is a kernel family whose parameters are not set (");
    llvm::interleaveComma(names, diag);
    diag << "): run tile-specialize first (tile-to-nvvm and tile-translate "
            "do), or pass it values";
    return diag;
  }
  if (llvm::any_of(kernel.getArgumentTypes(), containsTypeParam))
    return kernel.emitOpError(
        "takes an argument of a kernel family's element type "
        "(!tile.type_param) but declares no such parameter; declare it in "
        "params(NAME: type = ...) and run tile-specialize");
  WalkResult unspecialized = kernel.walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), containsTypeParam)) {
      op->emitOpError("has a result of a kernel family's element type "
                      "(!tile.type_param), which tile-specialize sets: run it "
                      "first");
      return WalkResult::interrupt();
    }
    if (isa<func::CallOp>(op)) {
      op->emitOpError("calls a helper, which tile-specialize inlines: run it "
                      "first (tile-to-nvvm and tile-translate do)");
      return WalkResult::interrupt();
    }
    if (isa<GridOp, NumSmsOp, ZeroBeforeLaunchOp, StaticAssertOp>(op)) {
      op->emitOpError("is host code, which tile-record-grid takes out of the "
                      "kernel: run it first (tile-to-nvvm and tile-translate "
                      "do)");
      return WalkResult::interrupt();
    }
    for (Value result : op->getResults())
      if (hasParameterizedShape(result.getType())) {
        op->emitOpError("has a tile with `?` dimensions (")
            << result.getType()
            << "): tile-specialize makes its shape static; run it first";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(unspecialized.wasInterrupted());
}

namespace {
struct TileSelectInstructionsPass
    : tile::impl::TileSelectInstructionsBase<TileSelectInstructionsPass> {
  void runOnOperation() override {
    const ChipInfo *chip = getTargetChip(getOperation());
    if (!chip)
      return signalPassFailure();
    for (auto kernel : getOperation().getOps<KernelOp>())
      if (failed(requireSpecialized(kernel)))
        return signalPassFailure();
    Builder b(&getContext());
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (auto copy = dyn_cast<CopyOp>(op)) {
        // A mechanism written by hand is checked against the chip.
        if (std::optional<CopyMechanism> given = copy.getMechanism())
          return failed(requireMechanism(op, *chip, *given))
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        FailureOr<CopyMechanism> mechanism = selectCopy(copy, *chip);
        if (failed(mechanism))
          return WalkResult::interrupt();
        copy.setMechanismAttr(CopyMechanismAttr::get(b.getContext(), *mechanism));
        return WalkResult::advance();
      }
      if (auto gemm = dyn_cast<GemmOp>(op)) {
        if (std::optional<MmaMechanism> given = gemm.getMechanism())
          return failed(requireMechanism(op, *chip, *given)) ||
                         failed(checkGemmShape(gemm, *given))
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        FailureOr<MmaMechanism> mechanism = selectGemm(gemm, *chip);
        if (failed(mechanism) || failed(checkGemmShape(gemm, *mechanism)))
          return WalkResult::interrupt();
        gemm.setMechanismAttr(MmaMechanismAttr::get(b.getContext(), *mechanism));
        return WalkResult::advance();
      }
      if (auto comm = dyn_cast<CommunicationOpInterface>(op)) {
        // The selection's checks hold for a mechanism written by hand too
        // (its verifier checks it against the level); it is kept.
        FailureOr<CommMechanism> mechanism = selectCommunication(comm, *chip);
        if (failed(mechanism))
          return WalkResult::interrupt();
        if (!comm.getMechanism())
          comm.setMechanism(*mechanism);
        return WalkResult::advance();
      }
      return failed(checkOtherOp(op, *chip)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
