//===- Timer.cpp - Timing GPU work with events ----------------------------===//
//
// One event between consecutive iterations, so each is timed alone.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "tile/Runtime/Timer.h"

#include <algorithm>
#include <vector>

using namespace tile::rt;
using namespace tile::rt::detail;

namespace {
/// Owns a set of events; destroys them without throwing.
struct EventSet {
  std::vector<CUevent> events;

  ~EventSet() {
    for (CUevent event : events)
      TILE_CU_QUIET(cuEventDestroy, event);
  }
};
} // namespace

float Timer::timeMs(std::function<void()> body, int warmup, int iters) {
  if (!body)
    throw Error("Timer::timeMs: empty body");
  if (iters < 1)
    throw Error("Timer::timeMs: need at least one timed iteration, got " +
                std::to_string(iters));
  EventSet set;
  set.events.reserve(size_t(iters) + 1);
  for (int i = 0; i <= iters; ++i) {
    CUevent event = nullptr;
    TILE_CU(cuEventCreate, &event, CU_EVENT_DEFAULT);
    set.events.push_back(event);
  }

  for (int i = 0; i < warmup; ++i)
    body();
  // One event between consecutive iterations: iteration i runs between
  // events i and i + 1.
  TILE_CU(cuEventRecord, set.events[0], stream_);
  for (int i = 0; i < iters; ++i) {
    body();
    TILE_CU(cuEventRecord, set.events[size_t(i) + 1], stream_);
  }
  TILE_CU(cuEventSynchronize, set.events.back());

  std::vector<float> times(static_cast<size_t>(iters));
  for (size_t i = 0; i < times.size(); ++i)
    TILE_CU(cuEventElapsedTime, &times[i], set.events[i], set.events[i + 1]);
  std::sort(times.begin(), times.end());
  size_t mid = times.size() / 2;
  if (times.size() % 2)
    return times[mid];
  return 0.5f * (times[mid - 1] + times[mid]);
}

std::vector<float>
tile::rt::interleavedMedianMs(const std::vector<std::function<void()>> &contenders,
                              int warmup, int iters, int rounds) {
  if (rounds < 1)
    throw Error("interleavedMedianMs: need at least one round, got " +
                std::to_string(rounds));
  Timer timer;
  std::vector<std::vector<float>> ms(contenders.size());
  for (int round = 0; round < rounds; ++round)
    for (size_t i = 0; i < contenders.size(); ++i)
      ms[i].push_back(timer.timeMs(contenders[i], warmup, iters));
  std::vector<float> medians;
  for (std::vector<float> &v : ms) {
    std::sort(v.begin(), v.end());
    medians.push_back(v[v.size() / 2]);
  }
  return medians;
}
