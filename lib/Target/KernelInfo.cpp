//===- KernelInfo.cpp - the runtime's description of each kernel ----------===//
//
// The lowering leaves what it decided on each kernel as attributes; they are
// read back here into the runtime's own structures, so that one serialiser
// (include/tile/Runtime/KernelInfo.h) writes what the runtime parses.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Translate.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Runtime/KernelInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include <limits>

using namespace mlir;
namespace rt = ::tile::rt;
namespace kinfo = ::tile::rt::kinfo;

/// Stores `value` in `field` if it fits; the runtime's fields are narrower
/// than MLIR's integer attributes.
template <typename T> static bool narrow(int64_t value, T &field) {
  if (value < 0 || uint64_t(value) > uint64_t(std::numeric_limits<T>::max()))
    return false;
  field = T(value);
  return true;
}

/// The first three entries of an i32 array attribute, 1 where it is absent.
static bool readDims(Operation *op, StringRef name, rt::Dim3 &dims) {
  SmallVector<int32_t, 3> values{1, 1, 1};
  if (auto attr = op->getAttrOfType<DenseI32ArrayAttr>(name))
    llvm::copy(attr.asArrayRef().take_front(3), values.begin());
  return narrow(values[0], dims.x) && narrow(values[1], dims.y) &&
         narrow(values[2], dims.z);
}

/// One entry of the kernel's tile.tma array (its keys are the kinfo words).
static LogicalResult readTma(LLVM::LLVMFuncOp func, Attribute entry,
                             rt::TmaInfo &tma) {
  auto dict = dyn_cast<DictionaryAttr>(entry);
  auto param = dict ? dict.getAs<IntegerAttr>(kinfo::kParam) : nullptr;
  auto arg = dict ? dict.getAs<IntegerAttr>(kinfo::kArg) : nullptr;
  auto type = dict ? dict.getAs<StringAttr>(kinfo::kType) : nullptr;
  auto box = dict ? dict.getAs<DenseI64ArrayAttr>(kinfo::kBox) : nullptr;
  auto swizzle = dict ? dict.getAs<IntegerAttr>(kinfo::kSwizzle) : nullptr;
  bool ok = param && arg && type && box && swizzle &&
            narrow(param.getInt(), tma.param) &&
            narrow(arg.getInt(), tma.arg) &&
            narrow(swizzle.getInt(), tma.spec.swizzleBytes);
  if (ok) {
    tma.spec.elementType = type.getValue().str();
    tma.spec.box.resize(box.size());
    for (auto [dim, value] : llvm::zip(tma.spec.box, box.asArrayRef()))
      ok &= narrow(value, dim);
  }
  if (!ok)
    return func.emitError("malformed 'tile.tma' entry ") << entry;
  return success();
}

/// Each parameter's size in bytes as NVPTX declares it (`.param .u64`,
/// `.u8` for an i1, the pointee's size for a byval parameter); none when
/// one is outside what the description can hold.
static std::optional<std::vector<uint32_t>>
readParamBytes(LLVM::LLVMFuncOp func) {
  DataLayout layout = DataLayout::closest(func);
  std::vector<uint32_t> bytes;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    Type declared = type;
    if (auto byval = func.getArgAttrOfType<TypeAttr>(
            i, LLVM::LLVMDialect::getByValAttrName()))
      declared = byval.getValue();
    uint64_t size = layout.getTypeSize(declared).getFixedValue();
    if (size == 0 || size > 4096)
      return std::nullopt;
    bytes.push_back(uint32_t(size));
  }
  return bytes;
}

/// MLIR's spelling of a scalar type the description knows (i1 ... f64,
/// index), or empty.
static std::string scalarTypeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return rt::scalarTypeBytes(text) ? text : std::string();
}

/// The tile.kernel's arguments (tile.signature, left by outlining); none
/// when one has a type the description cannot name.
static std::optional<std::vector<rt::ArgInfo>>
readSignature(LLVM::LLVMFuncOp func) {
  auto signature = func->getAttrOfType<ArrayAttr>(mlir::tile::kSignatureAttrName);
  if (!signature)
    return std::nullopt;
  std::vector<rt::ArgInfo> args;
  for (Attribute entry : signature) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    auto name = dict ? dict.getAs<StringAttr>("name") : nullptr;
    auto type = dict ? dict.getAs<TypeAttr>("type") : nullptr;
    if (!name || !type)
      return std::nullopt;
    rt::ArgInfo arg;
    arg.name = name.getValue().str();
    Type value = type.getValue();
    if (auto memref = dyn_cast<MemRefType>(value)) {
      arg.isMemRef = true;
      arg.rank = unsigned(memref.getRank());
      value = memref.getElementType();
    }
    arg.type = scalarTypeName(value);
    if (arg.type.empty() || (arg.isMemRef && arg.rank == 0))
      return std::nullopt;
    args.push_back(std::move(arg));
  }
  return args;
}

/// A family's kernel: its family and parameter values (tile.family,
/// tile.config, left by tile-specialize).
static void readConfig(LLVM::LLVMFuncOp func, rt::KernelInfo &info) {
  auto family = func->getAttrOfType<StringAttr>(mlir::tile::kFamilyAttrName);
  auto config = func->getAttrOfType<DictionaryAttr>(mlir::tile::kConfigAttrName);
  if (!family || !config)
    return;
  info.family = family.getValue().str();
  for (NamedAttribute value : config) {
    if (auto type = dyn_cast<TypeAttr>(value.getValue()))
      info.configTypes.push_back({value.getName().getValue().str(),
                                  scalarTypeName(type.getValue())});
    if (auto integer = dyn_cast<IntegerAttr>(value.getValue()))
      info.config.push_back(
          {value.getName().getValue().str(),
           integer.getType().isInteger(1)
               ? int64_t(integer.getValue().getZExtValue())
               : integer.getInt()});
  }
}

/// The grid the kernel states (tile.grid_rule, left by tile-record-grid).
static LogicalResult readGrid(LLVM::LLVMFuncOp func, rt::KernelInfo &info) {
  auto rule = func->getAttrOfType<ArrayAttr>(mlir::tile::kGridRuleAttrName);
  if (!rule)
    return success();
  SmallVector<std::string, 3> dims;
  for (Attribute dim : rule)
    if (auto text = dyn_cast<StringAttr>(dim))
      dims.push_back(text.getValue().str());
  if (dims.size() != 3)
    return func.emitError("tile.grid_rule must be three strings (x, y, z)");
  for (const std::string &dim : dims)
    if (std::string why = rt::checkGridExpression(dim, info.args); !why.empty())
      return func.emitError("grid expression '") << dim << "': " << why;
  info.grid = rt::GridRule{dims[0], dims[1], dims[2]};
  return success();
}

static LogicalResult readKernel(LLVM::LLVMFuncOp func, rt::KernelInfo &info) {
  info.name = func.getSymName().str();
  StringRef block = func->hasAttr(NVVM::NVVMDialect::getReqntidAttrName())
                        ? NVVM::NVVMDialect::getReqntidAttrName()
                        : NVVM::NVVMDialect::getMaxntidAttrName();
  int64_t smem = 0;
  if (auto attr = func->getAttrOfType<IntegerAttr>(
          mlir::tile::kDynamicSharedBytesAttrName))
    smem = attr.getInt();
  if (!readDims(func, block, info.block) ||
      !readDims(func, NVVM::NVVMDialect::getClusterDimAttrName(),
                info.cluster) ||
      !narrow(smem, info.sharedBytes))
    return func.emitError("kernel shape or shared memory size out of range "
                          "for the kernel description");
  info.paramBytes = readParamBytes(func);
  info.args = readSignature(func);
  readConfig(func, info);
  if (failed(readGrid(func, info)))
    return failure();
  if (auto zeroed = func->getAttrOfType<DenseI64ArrayAttr>(
          mlir::tile::kZeroedArgsAttrName)) {
    for (int64_t arg : zeroed.asArrayRef()) {
      if (!info.args || arg < 0 || size_t(arg) >= info.args->size() ||
          !(*info.args)[arg].isMemRef)
        return func.emitError("tile.zeroed_args names argument #")
               << arg << ", which is not a memref argument of the kernel";
      info.zeroedArgs.push_back(unsigned(arg));
    }
    // What the kinfo parser expects: ascending, each once.
    llvm::sort(info.zeroedArgs);
    info.zeroedArgs.erase(
        std::unique(info.zeroedArgs.begin(), info.zeroedArgs.end()),
        info.zeroedArgs.end());
  }
  auto tmas = func->getAttrOfType<ArrayAttr>(mlir::tile::kTmaAttrName);
  if (!tmas)
    return success();
  info.tmas.resize(tmas.size());
  for (auto [entry, tma] : llvm::zip(tmas, info.tmas))
    if (failed(readTma(func, entry, tma)))
      return failure();
  return success();
}

/// Whether `op` calls an NVSHMEM device function `matches` accepts.
template <typename Matcher>
static bool callsNvshmemFunction(Operation *op, Matcher matches) {
  return op
      ->walk([&](LLVM::CallOp call) {
        std::optional<StringRef> callee = call.getCallee();
        return callee && callee->starts_with("nvshmem") && matches(*callee)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

bool mlir::tile::callsNvshmem(Operation *op) {
  return callsNvshmemFunction(op, [](StringRef) { return true; });
}

bool mlir::tile::callsNvshmemSynchronisation(Operation *op) {
  // NVSHMEM's names: nvshmem[x]_barrier_all[_block], nvshmem_sync_all,
  // nvshmem_signal_wait_until, nvshmem_int_wait_until, nvshmem_<type>_
  // alltoall, _broadcast, _fcollect, _sum_reduce, ...
  return callsNvshmemFunction(op, [](StringRef callee) {
    return llvm::any_of(
        ArrayRef<StringRef>{"barrier", "sync", "wait", "alltoall", "broadcast",
                            "collect", "reduce"},
        [&](StringRef stem) { return callee.contains(stem); });
  });
}

FailureOr<std::vector<rt::KernelInfo>>
mlir::tile::collectKernelInfo(ModuleOp module) {
  Operation *device = getDeviceCode(module);
  if (!device)
    return failure();
  std::vector<rt::KernelInfo> kernels;
  WalkResult result = device->walk([&](LLVM::LLVMFuncOp func) {
    if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
      return WalkResult::advance();
    kernels.emplace_back();
    if (failed(readKernel(func, kernels.back())))
      return WalkResult::interrupt();
    // Calls into NVSHMEM's device library (level world): the runtime links
    // it in before loading (the cubin is relocatable).
    kernels.back().linksNvshmem = callsNvshmem(func);
    // NVSHMEM's barriers and waits: a collective launch, as NVSHMEM asks.
    kernels.back().collectiveLaunch = callsNvshmemSynchronisation(func);
    // Waits for the kernel before it (outlining put griddepcontrol.wait at
    // its entry on chips that have it): it may be a dependent launch.
    kernels.back().dependentLaunch =
        func.walk([](NVVM::GriddepcontrolOp op) {
              return op.getKind() == NVVM::GridDepActionKind::wait
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return kernels;
}

LogicalResult mlir::tile::writeKernelInfo(ModuleOp module,
                                          llvm::raw_ostream &os) {
  FailureOr<std::vector<rt::KernelInfo>> kernels = collectKernelInfo(module);
  if (failed(kernels))
    return failure();
  os << rt::serializeKernelInfo(*kernels);
  return success();
}
