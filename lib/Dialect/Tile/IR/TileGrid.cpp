//===- TileGrid.cpp - tile.grid, tile.num_sms and the grid rule -----------===//
//
// A kernel states its launch grid with tile.grid; the values it reads are
// written as the kernel description's grid expressions (rt::GridRule),
// which the launchers evaluate at launch. buildGridExpression is the one
// translation: the verifier checks with it and tile-record-grid writes
// with it.
//
//===----------------------------------------------------------------------===//

#include "TileOpsCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// The longest expression written: deeper sharing than this is a rule the
/// host should not evaluate at every launch.
constexpr size_t kMaxGridExpression = 4096;

/// The grid notation's name of an integer arith op, or empty.
StringRef gridOpName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case<arith::AddIOp>([](auto) { return "add"; })
      .Case<arith::SubIOp>([](auto) { return "sub"; })
      .Case<arith::MulIOp>([](auto) { return "mul"; })
      .Case<arith::DivUIOp, arith::DivSIOp>([](auto) { return "div"; })
      .Case<arith::CeilDivUIOp, arith::CeilDivSIOp>(
          [](auto) { return "ceildiv"; })
      .Case<arith::RemUIOp, arith::RemSIOp>([](auto) { return "rem"; })
      .Case<arith::MinUIOp, arith::MinSIOp>([](auto) { return "min"; })
      .Case<arith::MaxUIOp, arith::MaxSIOp>([](auto) { return "max"; })
      .Default([](Operation *) { return StringRef(); });
}

/// Whether `value` is computed from parameters and constants alone, by
/// arith ops: it is a constant once tile-specialize sets the parameters.
bool fromParametersAlone(Value value, unsigned depth = 0) {
  Operation *op = value.getDefiningOp();
  if (!op || depth > 64)
    return false;
  if (isa<ParamOp>(op) || matchPattern(value, m_Constant()))
    return true;
  return isa<arith::ArithDialect>(op->getDialect()) &&
         llvm::all_of(op->getOperands(), [&](Value operand) {
           return fromParametersAlone(operand, depth + 1);
         });
}

struct GridWriter {
  bool allowParams = false;
  Operation *unsupported = nullptr;
  std::string why;

  LogicalResult fail(Operation *op, const Twine &what) {
    unsupported = op;
    why = what.str();
    return failure();
  }

  LogicalResult write(Value value, std::string &out) {
    if (out.size() > kMaxGridExpression)
      return fail(value.getDefiningOp(),
                  "the grid expression grows past " +
                      Twine(kMaxGridExpression) +
                      " characters; compute the grid from fewer values");
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (!isa<KernelOp>(arg.getOwner()->getParentOp()) ||
          !arg.getType().isIntOrIndex())
        return fail(arg.getOwner()->getParentOp(),
                    "reads a block argument that is not an integer argument "
                    "of the kernel");
      out += "arg(" + std::to_string(arg.getArgNumber()) + ")";
      return success();
    }
    Operation *op = value.getDefiningOp();
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant))) {
      // A flag's `true` is 1, not -1.
      if (constant.getBitWidth() > 1 && constant.isNegative())
        return fail(op, "takes a negative constant (grid expressions are "
                        "non-negative)");
      if (constant.getActiveBits() > 63)
        return fail(op, "takes a constant beyond 63 bits");
      out += std::to_string(constant.getZExtValue());
      return success();
    }
    if (isa<NumSmsOp>(op)) {
      out += "sms";
      return success();
    }
    if (isa<ParamOp>(op)) {
      if (!allowParams)
        return fail(op, "reads a parameter before tile-specialize set it");
      out += "1";
      return success();
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
            arith::ExtSIOp>(op))
      return write(op->getOperand(0), out);
    if (auto dim = dyn_cast<memref::DimOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      std::optional<int64_t> index = dim.getConstantIndex();
      if (!arg || !isa<KernelOp>(arg.getOwner()->getParentOp()) || !index)
        return fail(op, "reads a size that is not a constant dimension of a "
                        "memref argument of the kernel");
      out += "dim(" + std::to_string(arg.getArgNumber()) + "," +
             std::to_string(*index) + ")";
      return success();
    }
    // A family's choice between grids: it folds away once tile-specialize
    // sets the parameters (the host evaluates no select). Both arms are
    // checked; the true arm is written.
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (!allowParams || !fromParametersAlone(select.getCondition()))
        return fail(op, "chooses by an arith.select whose condition the host "
                        "cannot evaluate at launch (only one computed from "
                        "parameters and constants, which tile-specialize "
                        "folds)");
      std::string other;
      if (failed(write(select.getFalseValue(), other)))
        return failure();
      return write(select.getTrueValue(), out);
    }
    StringRef name = gridOpName(op);
    if (name.empty())
      return fail(op, "depends on '" + op->getName().getStringRef() +
                          "', which the host cannot evaluate at launch");
    out += name.str() + "(";
    if (failed(write(op->getOperand(0), out)))
      return failure();
    out += ",";
    if (failed(write(op->getOperand(1), out)))
      return failure();
    out += ")";
    return success();
  }
};
} // namespace

FailureOr<std::string> mlir::tile::buildGridExpression(Value value,
                                                       bool allowParams,
                                                       Operation *&unsupported,
                                                       std::string &why) {
  GridWriter writer;
  writer.allowParams = allowParams;
  std::string out;
  if (failed(writer.write(value, out))) {
    unsupported = writer.unsupported;
    why = writer.why;
    return failure();
  }
  return out;
}

//===----------------------------------------------------------------------===//
// tile.grid
//===----------------------------------------------------------------------===//

LogicalResult GridOp::verify() {
  if (getSizes().empty() || getSizes().size() > 3)
    return emitOpError("expects 1 to 3 sizes (x, y, z), got ")
           << getSizes().size();
  auto kernel = cast<KernelOp>((*this)->getParentOp());
  for (Operation &op : kernel.getBody().front()) {
    if (&op == getOperation())
      break;
    if (isa<GridOp>(op))
      return emitOpError("is the kernel's second tile.grid; state the grid "
                         "once");
  }
  for (auto [i, size] : llvm::enumerate(getSizes())) {
    Operation *unsupported = nullptr;
    std::string why;
    if (succeeded(
            buildGridExpression(size, /*allowParams=*/true, unsupported, why)))
      continue;
    InFlightDiagnostic diag =
        emitOpError("size #")
        << i << " " << why
        << "; a grid is computed from the kernel's integer arguments, "
           "memref.dim of its memref arguments, constants, parameters, "
           "tile.num_sms, integer arithmetic (arith add, sub, mul, div, "
           "ceildiv, rem, min, max, casts) and arith.select by parameters";
    if (unsupported && unsupported != kernel.getOperation())
      diag.attachNote(unsupported->getLoc()) << "computed here";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tile.zero_before_launch
//===----------------------------------------------------------------------===//

LogicalResult ZeroBeforeLaunchOp::verify() {
  auto kernel = cast<KernelOp>((*this)->getParentOp());
  auto arg = dyn_cast<BlockArgument>(getTarget());
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return emitOpError("zeroes a memref argument of the kernel (the "
                       "launcher's view of it); this value is not one: name "
                       "the argument itself, and zero a part of it in the "
                       "kernel instead");
  for (Operation &op : kernel.getBody().front()) {
    if (&op == getOperation())
      break;
    if (auto other = dyn_cast<ZeroBeforeLaunchOp>(op);
        other && other.getTarget() == getTarget())
      return emitOpError("names argument #")
             << arg.getArgNumber()
             << " a second time; zero each argument once";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tile.static_assert
//===----------------------------------------------------------------------===//

LogicalResult StaticAssertOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("states a rule of a kernel family: put it inside the "
                       "tile.kernel");
  APInt holds;
  if (matchPattern(getCondition(), m_ConstantInt(&holds)) && holds.isZero())
    return emitOpError("fails: ") << getMessage();
  return success();
}
