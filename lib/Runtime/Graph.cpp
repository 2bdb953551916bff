//===- Graph.cpp - Streams and CUDA graphs: capture once, replay ----------===//
//
// Stream capture (cuStreamBeginCapture .. cuStreamEndCapture) rather than
// building graph nodes one by one: every launch path of the runtime
// (BoundLaunch, launch(), fillWordsAsync) is captured as it is, with no
// second description of a kernel's parameters to keep in step.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "tile/Runtime/Graph.h"

#include <utility>

using namespace tile::rt;
using namespace tile::rt::detail;

//===----------------------------------------------------------------------===//
// Stream
//===----------------------------------------------------------------------===//

Stream Stream::create() {
  Stream stream;
  TILE_CU(cuStreamCreate, &stream.stream_, CU_STREAM_NON_BLOCKING);
  return stream;
}

Stream::Stream(Stream &&other) noexcept
    : stream_(std::exchange(other.stream_, nullptr)) {}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    reset();
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

Stream::~Stream() { reset(); }

void Stream::reset() noexcept {
  if (stream_)
    TILE_CU_QUIET(cuStreamDestroy, stream_);
  stream_ = nullptr;
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

namespace {

void destroyGraph(CUgraph graph) noexcept {
  if (graph)
    TILE_CU_QUIET(cuGraphDestroy, graph);
}

/// Ends a capture that failed, keeping the first error: the stream must
/// not stay in capture mode.
void abandonCapture(CUstream stream) noexcept {
  CUgraph partial = nullptr;
  TILE_CU_QUIET(cuStreamEndCapture, stream, &partial);
  destroyGraph(partial);
}

const char *kCaptureRules =
    " (while a graph is captured, enqueue work only on the capturing "
    "stream: no synchronisation, no copy to or from the host, no other "
    "stream, no allocation)";

/// What record(stream) enqueues on `stream`, as a graph with at least one
/// node; `nodes` receives their number.
CUgraph captureGraph(const char *caller, CUstream stream,
                     const Graph::Recorder &record, size_t &nodes) {
  if (!stream)
    throw Error(std::string(caller) +
                ": the legacy default stream (nullptr) cannot be captured; "
                "capture on a stream of its own (rt::Stream::create())");
  if (!record)
    throw Error(std::string(caller) + ": no function to record");
  // Thread-local mode: this thread's calls that cannot be captured are
  // refused (and named) instead of running unrecorded; other threads are
  // left alone.
  TILE_CU(cuStreamBeginCapture, stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
  try {
    record(stream);
  } catch (const Error &error) {
    abandonCapture(stream);
    std::string message = error.what();
    if (message.find("STREAM_CAPTURE") != std::string::npos)
      message += kCaptureRules;
    throw Error(std::string(caller) + ": " + message);
  } catch (...) {
    abandonCapture(stream);
    throw;
  }
  CUgraph graph = nullptr;
  CUresult ended = TILE_CU_RESULT(cuStreamEndCapture, stream, &graph);
  if (ended != CUDA_SUCCESS) {
    destroyGraph(graph);
    check("cuStreamEndCapture", ended, std::string(kCaptureRules));
  }
  nodes = 0;
  CUresult counted = TILE_CU_RESULT(cuGraphGetNodes, graph, nullptr, &nodes);
  if (counted != CUDA_SUCCESS || nodes == 0) {
    destroyGraph(graph);
    check("cuGraphGetNodes", counted);
    throw Error(std::string(caller) +
                ": the function enqueued nothing on the capturing stream "
                "(did it launch on the stream it was given?)");
  }
  return graph;
}

/// An executable instance of `graph` (which the caller keeps owning).
CUgraphExec instantiate(CUgraph graph) {
  CUgraphExec exec = nullptr;
  TILE_CU(cuGraphInstantiate, &exec, graph, 0);
  return exec;
}

} // namespace

Graph Graph::capture(CUstream stream, const Recorder &record) {
  Graph result;
  result.graph_ = captureGraph("Graph::capture", stream, record, result.nodes_);
  // On an Error the result's destructor frees the graph.
  result.exec_ = instantiate(result.graph_);
  return result;
}

Graph::Graph(Graph &&other) noexcept
    : graph_(std::exchange(other.graph_, nullptr)),
      exec_(std::exchange(other.exec_, nullptr)),
      nodes_(std::exchange(other.nodes_, 0)) {}

Graph &Graph::operator=(Graph &&other) noexcept {
  if (this != &other) {
    reset();
    graph_ = std::exchange(other.graph_, nullptr);
    exec_ = std::exchange(other.exec_, nullptr);
    nodes_ = std::exchange(other.nodes_, 0);
  }
  return *this;
}

Graph::~Graph() { reset(); }

void Graph::reset() noexcept {
  if (exec_)
    TILE_CU_QUIET(cuGraphExecDestroy, exec_);
  destroyGraph(graph_);
  exec_ = nullptr;
  graph_ = nullptr;
  nodes_ = 0;
}

void Graph::launch(CUstream stream) const {
  if (!exec_)
    throw Error("Graph::launch: the graph is empty (capture one with "
                "Graph::capture first)");
  TILE_CU(cuGraphLaunch, exec_, stream);
}

bool Graph::update(CUstream stream, const Recorder &record) {
  size_t nodes = 0;
  CUgraph fresh = captureGraph("Graph::update", stream, record, nodes);
  if (exec_) {
    CUgraphExecUpdateResultInfo info{};
    CUresult updated = TILE_CU_RESULT(cuGraphExecUpdate, exec_, fresh, &info);
    if (updated == CUDA_SUCCESS) {
      destroyGraph(graph_);
      graph_ = fresh;
      nodes_ = nodes;
      return true;
    }
    if (updated != CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE) {
      destroyGraph(fresh);
      check("cuGraphExecUpdate", updated);
    }
    // Other kernels, another order or another count: instantiate anew.
  }
  CUgraphExec exec = nullptr;
  try {
    exec = instantiate(fresh);
  } catch (...) {
    destroyGraph(fresh);
    throw;
  }
  reset();
  graph_ = fresh;
  exec_ = exec;
  nodes_ = nodes;
  return false;
}
