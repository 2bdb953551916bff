//===- ExampleUtil.h - shared helpers of the python-free examples -*- C++ -*-===//
//
// What every example does the same way: skip cleanly without a GPU, fresh
// random inputs, poisoned outputs, and one line of figures per measurement.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_EXAMPLEUTIL_H
#define TILE_EXAMPLES_EXAMPLEUTIL_H

#include "tile/Runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>
#include <random>
#include <string>
#include <vector>

namespace tile::examples {

/// CTest treats this exit code as "skipped" (SKIP_RETURN_CODE).
constexpr int kSkipped = 77;

/// Exits with kSkipped, saying why, when no GPU can be used.
inline void requireGpu(const char *program) {
  std::string why;
  if (!tile::rt::driverAvailable(&why)) {
    std::printf("%s: skipped, no GPU: %s\n", program, why.c_str());
    std::exit(kSkipped);
  }
}

/// Fresh random floats in [-1, 1) on every call: a seed from the clock.
inline std::vector<float> randomFloats(size_t n) {
  static std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(n);
  for (float &v : values)
    v = dist(rng);
  return values;
}

inline std::vector<uint16_t> toBf16(const std::vector<float> &values) {
  std::vector<uint16_t> out(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    out[i] = tile::rt::floatToBf16(values[i]);
  return out;
}

/// A kernel file built next to the program: the compiled-in build path, or,
/// when the program was moved (to a GPU machine, say), the same file name in
/// the program's own folder.
inline std::string kernelFile(const std::string &builtPath) {
  if (std::ifstream(builtPath).good())
    return builtPath;
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (len <= 0)
    return builtPath;
  std::string dir(self, static_cast<size_t>(len));
  dir = dir.substr(0, dir.rfind('/') + 1);
  return dir + builtPath.substr(builtPath.rfind('/') + 1);
}

/// Poisons a device buffer with 0xFF bytes: NaN in every float format, so an
/// element the kernel forgot to write fails the check.
inline void poison(tile::rt::DeviceMemory &buffer) { buffer.fillBytes(0xFF); }

} // namespace tile::examples

#endif // TILE_EXAMPLES_EXAMPLEUTIL_H
