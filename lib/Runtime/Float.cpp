//===- Float.cpp - Host-side float conversions ----------------------------===//
//
// Done on the bits, so that no host FPU mode or compiler flag changes them.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Float.h"

#include <cmath>
#include <cstring>

using namespace tile::rt;

static uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t tile::rt::floatToBf16(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: truncate, keep it quiet.
    return uint16_t((bits >> 16) | 0x0040u);
  // Adding 0x7fff plus the lowest kept bit rounds to nearest even; overflow
  // correctly carries into the exponent (up to infinity).
  uint32_t lsb = (bits >> 16) & 1u;
  return uint16_t((bits + 0x7fffu + lsb) >> 16);
}

float tile::rt::bf16ToFloat(uint16_t bits) {
  return bitsToFloat(uint32_t(bits) << 16);
}

uint16_t tile::rt::floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  uint32_t abs = bits & 0x7fffffffu;

  if (abs >= 0x7f800000u) // Inf or NaN; NaNs stay quiet NaNs.
    return uint16_t(sign | 0x7c00u |
                    (abs > 0x7f800000u ? 0x0200u | ((abs >> 13) & 0x3ffu) : 0));
  if (abs >= 0x477ff000u) // >= 65520 rounds to infinity.
    return uint16_t(sign | 0x7c00u);

  if (abs < 0x38800000u) {
    // Below 2^-14: a half subnormal counting units of 2^-24.
    int exponent = int(abs >> 23);
    int shift = 126 - exponent;
    if (shift > 24)
      return sign;
    uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    uint32_t result = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (result & 1u)))
      ++result; // May carry into the smallest normal, which is correct.
    return uint16_t(sign | result);
  }

  // Normal: rebias the exponent (127 -> 15) and round off 13 bits.
  uint32_t result = (abs - 0x38000000u) >> 13;
  uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u)))
    ++result;
  return uint16_t(sign | result);
}

float tile::rt::halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f)
    return bitsToFloat(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return bitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}
