//===- tcgen05-descriptors.cpp - the encoders against the PTX ISA tables --===//
//
// Each field of the shared-memory descriptor and the instruction descriptor
// set on its own must land on the bits the PTX ISA's tables give it (tcgen05
// chapter: "Shared memory descriptor", "Instruction descriptor" for
// kind::f16 and kind::tf32), and whole descriptors must match ones written
// out by hand from those tables. Runs without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Tcgen05.h"

#include <cinttypes>
#include <cstdio>

using namespace mlir::tile::tcgen05;

static int failures = 0;

static void expect(const char *what, uint64_t got, uint64_t want) {
  if (got == want)
    return;
  std::printf("FAIL %s: got 0x%016" PRIx64 ", want 0x%016" PRIx64 "\n", what,
              got, want);
  ++failures;
}

// Bits [lo, lo + width) of `v`.
static uint64_t bits(uint64_t v, unsigned lo, unsigned width) {
  return (v >> lo) & ((uint64_t(1) << width) - 1);
}

static void smemDescriptor() {
  const uint64_t fixed = uint64_t(1) << 46; // bits 46-48 = 0b001
  SmemDescriptor d;
  expect("empty smem descriptor: only the fixed 0b001 at 46-48", encode(d),
         fixed);
  d.startAddress = 0x3FFF0; // bits 4-17 of the address -> 0-13
  expect("start address >> 4 in bits 0-13", encode(d), 0x3FFF | fixed);
  d = {};
  d.startAddress = 0x40010; // bit 18 is beyond the window: dropped
  expect("start address keeps 14 bits", bits(encode(d), 0, 14), 1);
  d = {};
  d.leadingByteOffset = 16 * 0x2AAA;
  expect("LBO >> 4 in bits 16-29", encode(d), (uint64_t(0x2AAA) << 16) | fixed);
  d = {};
  d.strideByteOffset = 1024;
  expect("SBO >> 4 in bits 32-45", encode(d), (uint64_t(64) << 32) | fixed);
  d = {};
  d.baseOffset = 5;
  expect("base offset in bits 49-51", bits(encode(d), 49, 3), 5);
  d = {};
  d.leadingAbsolute = true;
  expect("LBO mode in bit 52", encode(d), (uint64_t(1) << 52) | fixed);
  struct {
    int64_t bytes;
    uint64_t mode;
  } modes[] = {{0, 0}, {32, 6}, {64, 4}, {128, 2}};
  for (auto m : modes) {
    d = {};
    d.swizzle = *swizzleOfBytes(m.bytes);
    expect("swizzle mode in bits 61-63", bits(encode(d), 61, 3), m.mode);
    expect("swizzle leaves 53-60 zero", bits(encode(d), 53, 8), 0);
  }
  d = {};
  d.swizzle = Swizzle::B128Atom32;
  expect("128B with 32B atoms is mode 1", bits(encode(d), 61, 3), 1);
  expect("no swizzle of 16 bytes", swizzleOfBytes(16).has_value(), 0);
  // A K-major 128-byte-swizzled bf16 tile at 0x400: 8-row groups 1024 bytes
  // apart, LBO 16 (unused by swizzled K-major layouts).
  d = {};
  d.startAddress = 0x400;
  d.leadingByteOffset = 16;
  d.strideByteOffset = 1024;
  d.swizzle = Swizzle::B128;
  expect("K-major SW128 operand", encode(d), 0x4000404000010040ull);
}

static void instrDescriptor() {
  InstrDescriptor d;
  d.a = d.b = Format::F16;
  d.d = Format::F16;
  d.m = 0;
  d.n = 0;
  expect("all-zero fields", encode(d), 0);
  d.d = Format::F32;
  expect("D = F32 in bits 4-5", encode(d), 1u << 4);
  d = {};
  d.m = d.n = 0;
  d.d = Format::F16;
  d.a = Format::BF16;
  d.b = Format::F16;
  expect("A = BF16 in bits 7-9", encode(d), 1u << 7);
  d.a = Format::F16;
  d.b = Format::BF16;
  expect("B = BF16 in bits 10-12", encode(d), 1u << 10);
  d.a = d.b = Format::TF32;
  expect("TF32 is 2 in bits 7-9 and 10-12", encode(d), (2u << 7) | (2u << 10));
  d.a = d.b = Format::F16;
  d.negateA = true;
  expect("negate A in bit 13", encode(d), 1u << 13);
  d.negateA = false;
  d.negateB = true;
  expect("negate B in bit 14", encode(d), 1u << 14);
  d.negateB = false;
  d.transposeA = true;
  expect("transpose A in bit 15", encode(d), 1u << 15);
  d.transposeA = false;
  d.transposeB = true;
  expect("transpose B in bit 16", encode(d), 1u << 16);
  d.transposeB = false;
  d.n = 256;
  expect("N >> 3 in bits 17-22", encode(d), 32u << 17);
  d.n = 8;
  expect("N = 8", encode(d), 1u << 17);
  d.n = 0;
  d.m = 128;
  expect("M >> 4 in bits 24-28", encode(d), 8u << 24);
  d.m = 64;
  expect("M = 64", encode(d), 4u << 24);
  // The 128 x 256 bf16 product with fp32 accumulation, both operands
  // K-major: 1 << 4 | 1 << 7 | 1 << 10 | 32 << 17 | 8 << 24.
  d = {};
  expect("bf16 128x256 f32, K-major", encode(d), 0x08400490u);
}

static void kindsAndShapes() {
  expect("bf16 x bf16 -> f32 is kind::f16",
         kindOf(Format::BF16, Format::BF16, Format::F32).has_value(), 1);
  expect("f16 x f16 -> f16 is kind::f16",
         kindOf(Format::F16, Format::F16, Format::F16).has_value(), 1);
  expect("bf16 -> f16 has no kind",
         kindOf(Format::BF16, Format::BF16, Format::F16).has_value(), 0);
  expect("f16 x bf16 has no kind",
         kindOf(Format::F16, Format::BF16, Format::F32).has_value(), 0);
  expect("tf32 -> f32 is kind::tf32",
         kindOf(Format::TF32, Format::TF32, Format::F32).has_value(), 1);
  struct {
    int64_t m, n;
    bool legal;
  } shapes[] = {{128, 256, true}, {128, 16, true},  {128, 8, false},
                {128, 24, false}, {128, 272, false}, {64, 8, true},
                {64, 24, true},   {64, 256, true},  {64, 4, false},
                {32, 64, false},  {256, 64, false}};
  for (auto s : shapes) {
    bool legal = !checkMmaShape(s.m, s.n).has_value();
    if (legal != s.legal) {
      std::printf("FAIL shape %" PRId64 "x%" PRId64 ": legal %d, want %d\n",
                  s.m, s.n, legal, s.legal);
      ++failures;
    }
  }
  expect("K of a bf16 MMA", mmaK(16), 16);
  expect("K of a tf32 MMA", mmaK(32), 8);
}

int main() {
  smemDescriptor();
  instrDescriptor();
  kindsAndShapes();
  if (failures)
    return 1;
  std::printf("tcgen05 descriptors: all fields on the PTX ISA's bits\n");
  return 0;
}
