//===- Timer.h - Timing GPU work with events --------------------*- C++ -*-===//
//
// Medians rather than means: a single slow iteration (a clock change, another
// process) does not move the result.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TIMER_H
#define TILE_RUNTIME_TIMER_H

#include "tile/Runtime/Error.h"

#include <cuda.h>

#include <functional>
#include <vector>

namespace tile {
namespace rt {

/// Times GPU work with CUDA events recorded on `stream`.
class Timer {
public:
  explicit Timer(CUstream stream = nullptr) : stream_(stream) {}

  /// Runs `body` `warmup` times untimed, then `iters` times with an event
  /// between consecutive iterations; returns the median iteration time in
  /// milliseconds. `body` must enqueue its work on the timer's stream.
  float timeMs(std::function<void()> body, int warmup, int iters);

private:
  CUstream stream_;
};

/// The median milliseconds per call of each contender, timed in turn
/// (`warmup` untimed calls, then `iters` timed) over `rounds` rounds:
/// clocks and power drift within a run, and interleaving spreads that over
/// all of them. What a benchmark compares with its reference.
std::vector<float>
interleavedMedianMs(const std::vector<std::function<void()>> &contenders,
                    int warmup, int iters, int rounds = 3);

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_TIMER_H
