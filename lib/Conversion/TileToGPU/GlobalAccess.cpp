//===- GlobalAccess.cpp - guarded runs of global memory -------------------===//

#include "Common.h"
#include "tile/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Target/Chip.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Guarded global accesses
//===----------------------------------------------------------------------===//

// Whether `col` is inside a dimension of `size`, and min(size - col,
// vector), the elements a run from there may touch; the difference is taken
// only where it cannot underflow (the select that uses it).
static std::pair<Value, Value> columnInBounds(OpBuilder &b, Location loc,
                                              Value col, Value size,
                                              Value vector) {
  Value in =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, size);
  Value left = arith::SubIOp::create(b, loc, size, col);
  return {in, arith::MinUIOp::create(b, loc, left, vector)};
}

RunBounds lowering::computeRunBounds(OpBuilder &b, Location loc, Value memref,
                                     ValueRange indices, int64_t vector) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  Value rowsIn = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value size = memref::DimOp::create(b, loc, memref, d);
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                     indices[d], size);
    rowsIn = arith::AndIOp::create(b, loc, rowsIn, in);
  }
  Value last = memref::DimOp::create(b, loc, memref, rank - 1);
  Value col = indices[rank - 1];
  Value vec = constIndex(b, loc, vector);
  Value zero = constIndex(b, loc, 0);
  // remaining = clamp(size - col, 0, vector), computed without underflow.
  auto [colIn, left] = columnInBounds(b, loc, col, last, vec);
  Value any = arith::AndIOp::create(b, loc, rowsIn, colIn);
  Value count = arith::SelectOp::create(b, loc, any, left, zero);
  Value full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, vec);
  return {full, count};
}

Value lowering::loadGlobalRun(OpBuilder &b, Location loc, Value memref,
                              ValueRange indices, int64_t vector,
                              Value aligned) {
  return GlobalRunAccess(b, loc, memref, indices, vector, aligned)
      .load(b, loc, SmallVector<int64_t>(indices.size(), 0));
}

// `[base+bytes]`, or `[base]`.
static std::string ptxAddress(StringRef base, int64_t bytes) {
  std::string text = "[" + base.str();
  if (bytes)
    text += "+" + std::to_string(bytes);
  return text + "]";
}

// The inline-asm constraint of a register holding `type`: 16 bits or
// fewer 'h', f32 'f', f64 'd', other 64-bit 'l', other 32-bit 'r'.
static char ptxConstraint(Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits <= 16)
    return 'h';
  if (type.isF32() || type.isF64())
    return type.isF32() ? 'f' : 'd';
  return bits == 64 ? 'l' : 'r';
}

// An inline-PTX block with `count` outputs of `regType` ($0 .. $count-1)
// and then `inputs`, its outputs as values.
static SmallVector<Value> inlinePtxOutputs(OpBuilder &b, Location loc,
                                           Type regType, int64_t count,
                                           ValueRange inputs,
                                           const std::string &text,
                                           const std::string &constraints) {
  Type resultType = regType;
  if (count > 1)
    resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(count, regType));
  Value result =
      createInlinePtx(b, loc, resultType, inputs, text, constraints);
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(count > 1 ? LLVM::ExtractValueOp::create(b, loc, result, i)
                               : result);
  return values;
}

// An element as the register its store takes: 32- and 64-bit ones as they
// are, 16-bit ones as i16, 8-bit ones widened to i16 (PTX stores the low
// byte).
static Value elementRegister(OpBuilder &b, Location loc, Value element,
                             char &constraint) {
  Type type = element.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  constraint = ptxConstraint(type);
  if (bits >= 32)
    return element;
  Value v = element;
  if (!isa<IntegerType>(type))
    v = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
  if (bits == 8)
    v = arith::ExtUIOp::create(b, loc, b.getI16Type(), v);
  return v;
}

GlobalRunAccess::GlobalRunAccess(OpBuilder &b, Location loc, Value memref,
                                 ValueRange base, int64_t vector,
                                 Value aligned, GlobalWrite write)
    : memref(memref), base(base), aligned(aligned), vector(vector),
      write(write) {
  auto type = cast<MemRefType>(memref.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(memref::DimOp::create(b, loc, memref, d));
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  strides = llvm::to_vector_of<Value>(meta.getStrides());
  baseAddress = elementAddress(b, loc, memref, base);
}

const GlobalRunAccess::Row &
GlobalRunAccess::row(OpBuilder &b, Location loc, ArrayRef<int64_t> offset) {
  SmallVector<int64_t> key(offset.drop_back());
  auto it = rows.find(key);
  if (it != rows.end())
    return it->second;
  int64_t bytes = cast<MemRefType>(memref.getType()).getElementTypeBitWidth() / 8;
  Value inBounds = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value delta = constIndex(b, loc, 0);
  for (auto [d, off] : llvm::enumerate(key)) {
    Value index = base[d];
    if (off) {
      index = arith::AddIOp::create(b, loc, index, constIndex(b, loc, off));
      delta = arith::AddIOp::create(
          b, loc, delta,
          arith::MulIOp::create(b, loc, strides[d],
                                constIndex(b, loc, off * bytes)));
    }
    inBounds = arith::AndIOp::create(
        b, loc, inBounds,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                              sizes[d]));
  }
  Value address = arith::AddIOp::create(
      b, loc, baseAddress,
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), delta));
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), address);
  return rows.emplace(key, Row{inBounds, pointer}).first->second;
}

const GlobalRunAccess::Column &
GlobalRunAccess::column(OpBuilder &b, Location loc, int64_t offset) {
  auto it = columns.find(offset);
  if (it != columns.end())
    return it->second;
  // count = clamp(size - column, 0, vector), without underflow.
  Value col = base.back();
  if (offset)
    col = arith::AddIOp::create(b, loc, col, constIndex(b, loc, offset));
  Value vec = constIndex(b, loc, vector);
  auto [in, left] = columnInBounds(b, loc, col, sizes.back(), vec);
  Value count =
      arith::SelectOp::create(b, loc, in, left, constIndex(b, loc, 0));
  Value full = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, vec),
      aligned);
  count = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), count);
  return columns.emplace(offset, Column{count, full}).first->second;
}

// One inline-PTX block per run: `st.global` of the whole run when it is in
// bounds and aligned, else stores of its first `count` elements one by one.
// Predication keeps the epilogue free of branches, which LLVM and ptxas
// would otherwise spend their time on.
void GlobalRunAccess::store(OpBuilder &b, Location loc, Value value,
                            ArrayRef<int64_t> offset) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t bits = type.getElementTypeBitWidth();
  int64_t bytes = vector * bits / 8;
  const Row &r = row(b, loc, offset);
  const Column &c = column(b, loc, offset.back());
  int64_t immediate = offset.back() * bits / 8;

  // Operands: $0 the row is in bounds, $1 the column's run is whole and
  // aligned, $2 the column's count, $3 the row's address, then the run's
  // registers: its elements, or for narrow ones 32-bit words and (for the
  // slow path) the elements again. ptxas combines the predicates, so LLVM
  // sees no per-run arithmetic.
  SmallVector<Value> operands{r.inBounds, c.full, c.count, r.pointer};
  std::string constraints = "b,b,r,l";
  auto add = [&](Value v, char constraint) {
    operands.push_back(v);
    constraints += std::string(",") + constraint;
    return "$" + std::to_string(operands.size() - 1);
  };
  // Whole runs go out as one vector store when PTX has one: a power-of-two
  // run of at most 16 bytes of more than one element (other blocked
  // layouts, and single elements, take the element path alone).
  bool vectorStore = vector > 1 && llvm::isPowerOf2_64(vector) && bytes <= 16;
  // Atomic additions: f32 elements (the verifier's rule), as .v2/.v4 on
  // sm_90+ and one by one before.
  if (write == GlobalWrite::atomicAdd)
    vectorStore = false;
  bool elementPath = !(vectorStore && wholeRuns);
  SmallVector<std::string> elements, words;
  char constraint;
  if (bits >= 32) {
    // 32- and 64-bit elements are their own words.
    for (int64_t e = 0; e < vector; ++e) {
      Value reg = elementRegister(
          b, loc, vector::ExtractOp::create(b, loc, value, e), constraint);
      elements.push_back(add(reg, constraint));
    }
    if (vectorStore)
      words = elements;
  } else {
    // Narrow elements: packed words for the vector store, and the elements
    // themselves for the element path.
    if (vectorStore) {
      // Narrow elements go out packed: 32-bit words, or one 16-bit word.
      int64_t wordBits = std::min<int64_t>(32, bytes * 8);
      auto wordsType = VectorType::get({bytes * 8 / wordBits},
                                       b.getIntegerType(wordBits));
      Value packed = vector::BitCastOp::create(b, loc, wordsType, value);
      for (int64_t w = 0; w < wordsType.getNumElements(); ++w)
        words.push_back(add(vector::ExtractOp::create(b, loc, packed, w),
                            wordBits == 32 ? 'r' : 'h'));
    }
    for (int64_t e = 0; e < vector && elementPath; ++e) {
      Value reg = elementRegister(
          b, loc, vector::ExtractOp::create(b, loc, value, e), constraint);
      elements.push_back(add(reg, constraint));
    }
  }
  auto st = [&](StringRef pred, int64_t byteOffset, ArrayRef<std::string> regs,
                int64_t width) {
    std::string vec = regs.size() > 1 ? ".v" + std::to_string(regs.size()) : "";
    std::string text =
        "@" + pred.str() +
        (write == GlobalWrite::store ? " st.global" + vec + ".b" + std::to_string(width)
                                     : " red.global.add" + vec + ".f32");
    return text + " " +
           ptxAddress("$3", byteOffset + immediate) + ", " +
           ptxRegisters(regs) + ";\n";
  };
  std::string text = "{\n.reg .pred f, q, p;\n";
  if (vectorStore) {
    int64_t wordBits = bits >= 32 ? bits : std::min<int64_t>(32, bytes * 8);
    text += "and.pred f, $0, $1;\n" + st("f", 0, words, wordBits);
    if (!elementPath)
      return (void)createInlinePtx(b, loc, Type(), operands, text + "}",
                                   constraints);
    // Element e alone: the row is in, the whole run was not stored, and
    // e < count.
    text += "not.pred q, f;\nand.pred q, q, $0;\n";
  } else {
    text += "mov.pred q, $0;\n";
  }
  for (int64_t e = 0; e < vector; ++e) {
    text += "setp.gt.and.u32 p, $2, " + std::to_string(e) + ", q;\n";
    // 64-bit elements as one b64 register; narrower ones at their width.
    text += st("p", e * bits / 8, {elements[e]}, bits);
  }
  text += "}";
  createInlinePtx(b, loc, Type(), operands, text, constraints);
}

// One inline-PTX block per run, as for stores: every element register is
// zeroed, the whole run is loaded when it is in bounds and aligned (16-bit
// elements as 32-bit words, unpacked), else its first `count` elements one
// by one. 8-bit elements always go one by one (PTX has no 8-bit registers
// to unpack words into).
Value GlobalRunAccess::load(OpBuilder &b, Location loc,
                            ArrayRef<int64_t> offset) {
  auto type = cast<MemRefType>(memref.getType());
  Type element = type.getElementType();
  int64_t bits = type.getElementTypeBitWidth();
  int64_t bytes = vector * bits / 8;
  const Row &r = row(b, loc, offset);
  const Column &c = column(b, loc, offset.back());
  int64_t immediate = offset.back() * bits / 8;

  // Outputs $0 .. $(vector - 1), one register per element; then the row is
  // in bounds, the column's run is whole and aligned, the column's count,
  // the row's address.
  std::string reg(1, ptxConstraint(element));
  Type regType = bits >= 32 ? element : b.getI16Type();
  SmallVector<std::string> constraints, outputs;
  for (int64_t e = 0; e < vector; ++e) {
    constraints.push_back("=" + reg);
    outputs.push_back("$" + std::to_string(e));
  }
  llvm::append_range(constraints, SmallVector<std::string>{"b", "b", "r", "l"});
  auto in = [&](int64_t i) { return "$" + std::to_string(vector + i); };
  auto address = [&](int64_t byteOffset) {
    return ptxAddress(in(3), byteOffset + immediate);
  };
  int64_t regBits = std::max<int64_t>(16, bits);
  std::string text = "{\n.reg .pred f, q, p;\n";
  bool vectorLoad =
      vector > 1 && llvm::isPowerOf2_64(vector) && bytes <= 16 && bits >= 16;
  if (vectorLoad && wholeRuns)
    return loadWholeRun(b, loc, r.inBounds, c.full, r.pointer, immediate);
  int64_t words = bytes / 4;
  if (vectorLoad && bits == 16)
    text += ".reg .b32 w<" + std::to_string(words) + ">;\n";
  for (const std::string &out : outputs)
    text += "mov.b" + std::to_string(regBits) + " " + out + ", 0;\n";
  if (vectorLoad) {
    text += "and.pred f, " + in(0) + ", " + in(1) + ";\n";
    auto ld = [&](int64_t count, int64_t width) {
      return std::string("@f ld.global") +
             (count > 1 ? ".v" + std::to_string(count) : "") + ".b" +
             std::to_string(width) + " ";
    };
    if (bits >= 32) {
      text +=
          ld(vector, bits) + ptxRegisters(outputs) + ", " + address(0) + ";\n";
    } else {
      SmallVector<std::string> w;
      for (int64_t i = 0; i < words; ++i)
        w.push_back("w" + std::to_string(i));
      text += ld(words, 32) + ptxRegisters(w) + ", " + address(0) + ";\n";
      for (int64_t i = 0; i < words; ++i)
        text += "@f mov.b32 {" + outputs[2 * i] + ", " + outputs[2 * i + 1] +
                "}, w" + std::to_string(i) + ";\n";
    }
    text += "not.pred q, f;\nand.pred q, q, " + in(0) + ";\n";
  } else {
    text += "mov.pred q, " + in(0) + ";\n";
  }
  std::string one = bits == 8 ? "u8" : "b" + std::to_string(bits);
  for (int64_t e = 0; e < vector; ++e) {
    text += "setp.gt.and.u32 p, " + in(2) + ", " + std::to_string(e) +
            ", q;\n@p ld.global." + one + " " + outputs[e] + ", " +
            address(e * bits / 8) + ";\n";
  }
  text += "}";

  SmallVector<Value> elements;
  for (Value v : inlinePtxOutputs(
           b, loc, regType, vector,
           ValueRange{r.inBounds, c.full, c.count, r.pointer}, text,
           llvm::join(constraints, ","))) {
    if (bits == 8)
      v = arith::TruncIOp::create(b, loc, b.getI8Type(), v);
    if (v.getType() != element)
      v = arith::BitcastOp::create(b, loc, element, v);
    elements.push_back(v);
  }
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({vector}, element), elements);
}

// A run whole in bounds or wholly outside: zeroed registers, one predicated
// vector load. 16-bit elements come back as the 32-bit words they were
// loaded in, bitcast to the run's vector, so that what widens them reads
// each half of a word with one instruction (tile-pack-conversions).
Value GlobalRunAccess::loadWholeRun(OpBuilder &b, Location loc, Value rowIn,
                                    Value whole, Value pointer,
                                    int64_t immediate) {
  auto type = cast<MemRefType>(memref.getType());
  Type element = type.getElementType();
  int64_t bits = type.getElementTypeBitWidth();
  Type regType = bits == 16 ? b.getI32Type() : element;
  int64_t regs = bits == 16 ? vector / 2 : vector;
  int64_t regBits = bits == 16 ? 32 : bits;
  SmallVector<std::string> constraints, outputs;
  for (int64_t i = 0; i < regs; ++i) {
    constraints.push_back(std::string("=") + ptxConstraint(regType));
    outputs.push_back("$" + std::to_string(i));
  }
  llvm::append_range(constraints, SmallVector<std::string>{"b", "b", "l"});
  std::string text = "{\n.reg .pred f;\n";
  for (const std::string &out : outputs)
    text += "mov.b" + std::to_string(regBits) + " " + out + ", 0;\n";
  auto in = [&](int64_t i) { return "$" + std::to_string(regs + i); };
  text += "and.pred f, " + in(0) + ", " + in(1) + ";\n";
  text += "@f ld.global" +
          (regs > 1 ? ".v" + std::to_string(regs) : std::string()) + ".b" +
          std::to_string(regBits) + " " + ptxRegisters(outputs) + ", " +
          ptxAddress(in(2), immediate) + ";\n}";
  SmallVector<Value> values = inlinePtxOutputs(
      b, loc, regType, regs, ValueRange{rowIn, whole, pointer}, text,
      llvm::join(constraints, ","));
  Value run = vector::FromElementsOp::create(
      b, loc, VectorType::get({regs}, regType), values);
  if (bits == 16)
    run = vector::BitCastOp::create(b, loc, VectorType::get({vector}, element),
                                    run);
  return run;
}

Value GlobalRunAccess::runPointer(OpBuilder &b, Location loc,
                                 ArrayRef<int64_t> offset) {
  auto type = cast<MemRefType>(memref.getType());
  Value pointer = row(b, loc, offset).pointer;
  int64_t bytes = offset.back() * type.getElementTypeBitWidth() / 8;
  if (!bytes)
    return pointer;
  return LLVM::GEPOp::create(b, loc, pointer.getType(), b.getI8Type(),
                             pointer,
                             ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(bytes)});
}

// A run's bytes: its alignment, which the in-bounds path's caller checked.
static int64_t runBytes(Value memref, int64_t vector) {
  return vector * cast<MemRefType>(memref.getType()).getElementTypeBitWidth() /
         8;
}

Value GlobalRunAccess::loadInBounds(OpBuilder &b, Location loc,
                                    ArrayRef<int64_t> offset) {
  auto vecType = VectorType::get(
      {vector}, cast<MemRefType>(memref.getType()).getElementType());
  return LLVM::LoadOp::create(b, loc, vecType, runPointer(b, loc, offset),
                              runBytes(memref, vector));
}

void GlobalRunAccess::storeInBounds(OpBuilder &b, Location loc, Value value,
                                    ArrayRef<int64_t> offset) {
  LLVM::StoreOp::create(b, loc, value, runPointer(b, loc, offset),
                        runBytes(memref, vector));
}

Value lowering::runsAreAligned(OpBuilder &b, Location loc, Value memref,
                             Value columnOffset, int64_t vector) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  Value vec = constIndex(b, loc, vector);
  Value zero = constIndex(b, loc, 0);
  auto isMultiple = [&](Value v, Value of) {
    Value rem = arith::RemUIOp::create(b, loc, v, of);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem, zero);
  };
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  // Byte address of element 0 must be a multiple of the run's bytes.
  Value start = arith::AddIOp::create(
      b, loc, ptr,
      arith::MulIOp::create(b, loc, meta.getOffset(),
                            constIndex(b, loc, bytes)));
  Value ok = isMultiple(start, constIndex(b, loc, vector * bytes));
  ok = arith::AndIOp::create(b, loc, ok, isMultiple(columnOffset, vec));
  auto strides = meta.getStrides();
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    ok = arith::AndIOp::create(b, loc, ok, isMultiple(strides[d], vec));
  // A strided innermost dimension never holds contiguous runs.
  Value unit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     strides.back(), constIndex(b, loc, 1));
  return arith::AndIOp::create(b, loc, ok, unit);
}
