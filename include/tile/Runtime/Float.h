//===- Float.h - Host-side float conversions --------------------*- C++ -*-===//
//
// For filling and checking bf16/f16 buffers on the host.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_FLOAT_H
#define TILE_RUNTIME_FLOAT_H

#include <cstdint>

namespace tile {
namespace rt {

/// Round-to-nearest-even conversions; NaNs stay NaN.
uint16_t floatToBf16(float value);
float bf16ToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_FLOAT_H
