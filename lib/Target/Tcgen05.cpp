//===- Tcgen05.cpp - sm_100a tensor-core descriptors ----------------------===//

#include "tile/Target/Tcgen05.h"
#include "tile/Target/Swizzle.h"

#include <cassert>

using namespace mlir::tile::tcgen05;

std::optional<Swizzle> mlir::tile::tcgen05::swizzleOfBytes(int64_t bytes) {
  std::optional<SwizzleEncoding> encoding = swizzleEncoding(bytes);
  if (!encoding)
    return std::nullopt;
  return static_cast<Swizzle>(encoding->tcgen05);
}

uint64_t mlir::tile::tcgen05::encode(const SmemDescriptor &desc) {
  auto field = [](uint64_t bytes, unsigned shift) {
    return ((bytes >> 4) & 0x3FFF) << shift;
  };
  assert(desc.baseOffset < 8 && "base offset is 3 bits");
  return field(desc.startAddress, 0) | field(desc.leadingByteOffset, 16) |
         field(desc.strideByteOffset, 32) | (uint64_t(1) << 46) |
         (uint64_t(desc.baseOffset) << 49) |
         (uint64_t(desc.leadingAbsolute) << 52) |
         (static_cast<uint64_t>(desc.swizzle) << 61);
}

static uint32_t operandBits(Format f) {
  switch (f) {
  case Format::F16:
    return 0;
  case Format::BF16:
    return 1;
  case Format::TF32:
    return 2;
  case Format::F32:
    break;
  }
  assert(false && "not an operand format");
  return 0;
}

uint32_t mlir::tile::tcgen05::encode(const InstrDescriptor &desc) {
  assert(desc.m % 16 == 0 && desc.n % 8 == 0 && "checkMmaShape first");
  uint32_t d = desc.d == Format::F32 ? 1 : 0;
  return (d << 4) | (operandBits(desc.a) << 7) | (operandBits(desc.b) << 10) |
         (uint32_t(desc.negateA) << 13) | (uint32_t(desc.negateB) << 14) |
         (uint32_t(desc.transposeA) << 15) | (uint32_t(desc.transposeB) << 16) |
         (uint32_t(desc.n >> 3) << 17) | (uint32_t(desc.m >> 4) << 24);
}

std::optional<const char *> mlir::tile::tcgen05::kindOf(Format a, Format b,
                                                        Format d) {
  bool half = (a == Format::F16 || a == Format::BF16) && a == b;
  if (half && (d == Format::F32 || (d == Format::F16 && a == Format::F16)))
    return "f16";
  if (a == Format::TF32 && b == Format::TF32 && d == Format::F32)
    return "tf32";
  return std::nullopt;
}

std::optional<std::string> mlir::tile::tcgen05::checkMmaShape(int64_t m,
                                                              int64_t n) {
  if (m != 64 && m != 128)
    return "M = " + std::to_string(m) +
           ", but tcgen05.mma on one CTA takes M = 64 or 128 (tensor memory "
           "has 128 lanes)";
  int64_t step = m == 64 ? 8 : 16;
  if (n % step != 0 || n < step || n > 256)
    return "N = " + std::to_string(n) + ", but tcgen05.mma with M = " +
           std::to_string(m) + " takes N a multiple of " +
           std::to_string(step) + " in [" + std::to_string(step) + ", 256]";
  return std::nullopt;
}
