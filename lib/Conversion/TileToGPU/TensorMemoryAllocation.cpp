//===- TensorMemoryAllocation.cpp - one tcgen05.alloc per kernel ----------===//
//
// A CTA allocates tensor memory once: tcgen05.alloc blocks while another CTA
// on the SM holds the columns it asks for, so a kernel that allocated per
// buffer could deadlock against itself. Every tile.alloc_tmem of a kernel
// therefore gets a column range of one allocation (largest first, so each
// range is aligned to its power-of-two size), whose size is their sum
// rounded up to a power of two of at least 32, at most 512. Warp 0
// allocates it into a shared slot at the kernel's start and relinquishes
// the permit (no other CTA waits on this one for more); every thread reads
// the address after a CTA barrier, with tcgen05 fences around it; warp 0
// frees it when the kernel ends, after a last barrier.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static constexpr int64_t kTensorMemoryColumns = 512;

// `body` runs in warp 0 only (tcgen05.alloc/dealloc are warp-wide).
static void inWarpZero(OpBuilder &b, Location loc,
                       function_ref<void(OpBuilder &)> body) {
  Value warp = arith::DivUIOp::create(b, loc, threadId(b, loc),
                                      constIndex(b, loc, 32));
  buildIf(b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                                constIndex(b, loc, 0)),
          body);
}

static LogicalResult allocateInKernel(gpu::GPUFuncOp func,
                                      SmallVector<AllocTmemOp> allocs) {
  // Largest first: each range starts at a multiple of its size.
  SmallVector<AllocTmemOp> bySize(allocs);
  llvm::stable_sort(bySize, [](AllocTmemOp x, AllocTmemOp y) {
    return x.getType().getAllocatedColumns() >
           y.getType().getAllocatedColumns();
  });
  llvm::DenseMap<Operation *, int64_t> column;
  int64_t total = 0;
  for (AllocTmemOp alloc : bySize) {
    column[alloc] = total;
    total += alloc.getType().getAllocatedColumns();
    if (total > kTensorMemoryColumns)
      return alloc.emitOpError("exceeds the 512 tensor-memory columns of a "
                               "CTA: the kernel's allocations need ")
             << total;
  }
  int64_t columns = std::max<int64_t>(32, llvm::PowerOf2Ceil(total));

  MLIRContext *context = func.getContext();
  Location loc = func.getLoc();
  OpBuilder b(context);
  b.setInsertionPointToStart(&func.getBody().front());
  auto slotType = MemRefType::get(
      {1}, b.getI32Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
  Value slot = AllocSharedOp::create(b, loc, slotType, ValueRange());
  Value nCols = arith::ConstantIntOp::create(b, loc, columns, 32);
  inWarpZero(b, loc, [&](OpBuilder &b) {
    NVVM::Tcgen05AllocOp::create(
        b, loc,
        elementPointer(b, loc, slot, ValueRange{constIndex(b, loc, 0)},
                       static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared)),
        nCols);
    NVVM::Tcgen05RelinquishAllocPermitOp::create(b, loc);
  });
  NVVM::Tcgen05FenceOp::create(b, loc,
                               NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  gpu::BarrierOp::create(b, loc);
  NVVM::Tcgen05FenceOp::create(b, loc,
                               NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  Value base = memref::LoadOp::create(b, loc, slot,
                                      ValueRange{constIndex(b, loc, 0)});
  auto pointer = LLVM::LLVMPointerType::get(
      context, static_cast<unsigned>(NVVM::NVVMMemorySpace::Tensor));
  for (AllocTmemOp alloc : allocs) {
    OpBuilder at(alloc);
    Value address = arith::AddIOp::create(
        at, alloc.getLoc(), base,
        arith::ConstantIntOp::create(at, alloc.getLoc(), column[alloc], 32));
    Value typed = UnrealizedConversionCastOp::create(
                      at, alloc.getLoc(), alloc.getType(),
                      ValueRange{LLVM::IntToPtrOp::create(at, alloc.getLoc(),
                                                          pointer, address)})
                      .getResult(0);
    alloc.getResult().replaceAllUsesWith(typed);
    alloc.erase();
  }
  func.walk([](DeallocTmemOp dealloc) { dealloc.erase(); });
  // Every thread's tcgen05 work is done before warp 0 frees the columns.
  SmallVector<gpu::ReturnOp> returns;
  func.walk([&](gpu::ReturnOp ret) { returns.push_back(ret); });
  for (gpu::ReturnOp ret : returns) {
    b.setInsertionPoint(ret);
    NVVM::Tcgen05FenceOp::create(b, loc,
                                 NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    gpu::BarrierOp::create(b, loc);
    NVVM::Tcgen05FenceOp::create(b, loc,
                                 NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    inWarpZero(b, loc, [&](OpBuilder &b) {
      NVVM::Tcgen05DeallocOp::create(
          b, loc, LLVM::IntToPtrOp::create(b, loc, pointer, base), nCols);
    });
  }
  return success();
}

LogicalResult mlir::tile::allocateTensorMemory(Operation *root) {
  SmallVector<gpu::GPUFuncOp> funcs;
  root->walk([&](gpu::GPUFuncOp func) { funcs.push_back(func); });
  for (gpu::GPUFuncOp func : funcs) {
    SmallVector<AllocTmemOp> allocs;
    func.walk([&](AllocTmemOp alloc) { allocs.push_back(alloc); });
    if (allocs.empty())
      continue;
    if (func.getBody().getBlocks().size() != 1)
      return func.emitOpError("allocates tensor memory in a kernel of more "
                              "than one block; tile frees it at the end of "
                              "the entry block");
    if (failed(allocateInKernel(func, allocs)))
      return failure();
  }
  return success();
}
