//===- Tcgen05.h - sm_100a tensor-core descriptors --------------*- C++ -*-===//
//
// The two descriptors tcgen05.mma reads, encoded bit for bit as the PTX ISA
// tables give them ("Shared memory descriptor" and "Instruction descriptor"
// of the tcgen05 chapter), and the MMA shapes it takes. Pure functions: the
// lowering builds its constants with them, and their unit test
// (test/Target/tcgen05-descriptors.cpp) checks each field's bits.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_TCGEN05_H
#define TILE_TARGET_TCGEN05_H

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tile::tcgen05 {

/// Swizzle modes of the shared-memory descriptor (bits 61-63).
enum class Swizzle : uint64_t {
  None = 0,
  B128Atom32 = 1, // 128-byte swizzle with 32-byte atomicity
  B128 = 2,
  B64 = 4,
  B32 = 6,
};

/// The swizzle mode of a tile whose rows are swizzled over `bytes` (0, 32,
/// 64 or 128, as TMA writes them); nullopt for any other width.
std::optional<Swizzle> swizzleOfBytes(int64_t bytes);

/// The fields of a shared-memory matrix descriptor, in bytes (the encoder
/// divides by 16). `startAddress` is a shared-window address; the encoder
/// keeps its bits 4-17.
struct SmemDescriptor {
  uint64_t startAddress = 0;
  uint64_t leadingByteOffset = 0;
  uint64_t strideByteOffset = 0;
  unsigned baseOffset = 0;       // bits 49-51: the pattern's start phase
  bool leadingAbsolute = false;  // bit 52: LBO is an absolute address
  Swizzle swizzle = Swizzle::None;
};

/// Bits 0-13 start address >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 46-48 the
/// fixed 0b001, 49-51 base offset, 52 LBO mode, 61-63 swizzle.
uint64_t encode(const SmemDescriptor &desc);

/// Operand and accumulator formats of kind::f16 and kind::tf32.
enum class Format : unsigned { F16, BF16, TF32, F32 };

struct InstrDescriptor {
  Format a = Format::BF16, b = Format::BF16;
  Format d = Format::F32;
  /// Set for an operand that is M- (A) or N-major (B) in shared memory
  /// rather than K-major.
  bool transposeA = false, transposeB = false;
  bool negateA = false, negateB = false;
  int64_t m = 128, n = 256;
};

/// Bits 4-5 D format (0 F16, 1 F32), 7-9 A format and 10-12 B format
/// (kind::f16: 0 F16, 1 BF16; kind::tf32: 2 TF32), 13/14 negate A/B, 15/16
/// transpose A/B, 17-22 N >> 3, 24-28 M >> 4; sparsity, saturation and the
/// .ws shift stay 0 (dense MMA).
uint32_t encode(const InstrDescriptor &desc);

/// The `.kind` of an MMA on these formats ("f16" or "tf32"), or nullopt
/// when tcgen05.mma has no such combination (what to write instead is the
/// caller's message).
std::optional<const char *> kindOf(Format a, Format b, Format d);

/// Why tcgen05.mma (cta_group::1, dense) cannot take an M x N product, or
/// nullopt when it can: M 64 or 128; N a multiple of 8 in [8, 256] for
/// M = 64, of 16 in [16, 256] for M = 128.
std::optional<std::string> checkMmaShape(int64_t m, int64_t n);

/// K of one tcgen05.mma: 32 bytes of the operand type (16 for 16-bit
/// elements, 8 for tf32).
inline int64_t mmaK(unsigned elementBits) { return 256 / elementBits; }

} // namespace mlir::tile::tcgen05

#endif // TILE_TARGET_TCGEN05_H
