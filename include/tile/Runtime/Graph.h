//===- Graph.h - Streams and CUDA graphs: capture once, replay --*- C++ -*-===//
//
// A forward pass of a model is dozens of launches whose arguments do not
// change between passes; launching them one by one costs the host a few
// microseconds each and leaves the GPU idle between small kernels. A Graph
// records what a host function enqueues on a stream (stream capture: the
// launches, their arguments and tensor maps, asynchronous fills) once, and
// replays all of it with one call:
//
//   rt::Stream stream = rt::Stream::create();
//   rt::Graph graph = rt::Graph::capture(stream.handle(), [&](CUstream s) {
//     for (rt::BoundLaunch &step : steps) step.launch(s);
//   });
//   graph.launch(stream.handle());  // as often as wanted
//
// A replay reads the arguments as they were captured: device buffers'
// contents may change between replays, the buffers themselves, sizes and
// scalars may not. After rebinding, update() captures again and patches the
// executable graph in place when only arguments changed (the same kernels
// in the same order), else instantiates it anew.
//
// Capture needs a stream of its own: the legacy default stream (nullptr)
// cannot be captured. While capturing, the host function must only enqueue
// work on that stream. Synchronising it is refused by the driver: capture()
// throws an Error naming the call and ends the capture, leaving the stream
// usable. Work enqueued elsewhere (a copy to the host, a launch on another
// stream) runs at once and is not captured; a capture that got nothing is
// an Error too.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_GRAPH_H
#define TILE_RUNTIME_GRAPH_H

#include "tile/Runtime/Error.h"

#include <cuda.h>

#include <cstddef>
#include <functional>

namespace tile {
namespace rt {

/// A stream created for the caller (non-blocking: it does not wait for
/// the legacy default stream). Move-only; destroyed with the object.
class Stream {
public:
  Stream() = default;
  /// Creates a stream in the current context (Error without a device).
  static Stream create();

  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  CUstream handle() const { return stream_; }

private:
  void reset() noexcept;
  CUstream stream_ = nullptr;
};

/// What a host function enqueues on a stream, captured once and replayed.
/// Move-only; an empty Graph (default-constructed or moved from) refuses
/// to launch.
class Graph {
public:
  /// What record(stream) enqueues on `stream`.
  using Recorder = std::function<void(CUstream)>;

  Graph() = default;
  /// Runs `record(stream)` with `stream` capturing, and instantiates what
  /// it enqueued. Throws Error when `stream` is the legacy default stream,
  /// when `record` throws or enqueues nothing, or when the driver refuses
  /// the capture; the stream is no longer capturing afterwards.
  static Graph capture(CUstream stream, const Recorder &record);

  Graph(Graph &&other) noexcept;
  Graph &operator=(Graph &&other) noexcept;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  ~Graph();

  /// Enqueues every captured operation on `stream`, in the captured order
  /// (any stream of the graph's context, the legacy default one included).
  void launch(CUstream stream) const;

  /// Captures `record` again on `stream`. Where the new capture has the
  /// same operations with other arguments, the executable graph is updated
  /// in place (cuGraphExecUpdate) and update() returns true; otherwise it
  /// is replaced by a new instantiation and update() returns false. On an
  /// Error the graph is unchanged.
  bool update(CUstream stream, const Recorder &record);

  /// The number of captured operations (kernels, fills, ...).
  size_t size() const { return nodes_; }
  bool empty() const { return exec_ == nullptr; }

private:
  void reset() noexcept;

  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
  size_t nodes_ = 0;
};

} // namespace rt
} // namespace tile

#endif // TILE_RUNTIME_GRAPH_H
