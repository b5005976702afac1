// Owners of CUDA runtime objects: streams, events, graphs and executable graphs. Each creates its object (a failure
// throws cuconform::CudaError, which GoogleTest reports as a test failure), converts to the raw handle for the
// runtime calls, and destroys the object at the end of its scope unless release() gave it away. Moved, never copied.
// A destructor ignores the error of the destroy call: a poisoned context is the poisoned-context listener's to report.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "cuconform/check.h"
#include "cuconform/cuda_compat.h"  // cudaGraphGetEdges under its CUDA 13.0 signature

namespace cuconform {

// A stream. Stream() is cudaStreamCreate: a blocking stream, which waits for the legacy default stream (where
// DeviceBuffer's memset and the synchronous copies run), so buffers made before it are ready for its work.
// Stream(flags, priority) is cudaStreamCreateWithPriority, where priority 0 "represents default priority" (the runtime
// API's documentation of the call): Stream() and Stream(cudaStreamDefault) make the same kind of stream.
class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreate(&stream_)); }
  explicit Stream(unsigned flags, int priority = 0) {
    CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, flags, priority));
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  operator cudaStream_t() const { return stream_; }
  cudaStream_t release() { return std::exchange(stream_, nullptr); }

 private:
  cudaStream_t stream_ = nullptr;
};

// An event, cudaEventCreateWithFlags(flags): cudaEventDefault records timing; cudaEventDisableTiming does not.
class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault) { CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  operator cudaEvent_t() const { return event_; }
  cudaEvent_t release() { return std::exchange(event_, nullptr); }

 private:
  cudaEvent_t event_ = nullptr;
};

// A graph: a new empty one (cudaGraphCreate), or one made elsewhere (a capture's) adopted.
class Graph {
 public:
  Graph() { CUDA_CHECK(cudaGraphCreate(&graph_, 0)); }
  explicit Graph(cudaGraph_t adopted) : graph_(adopted) {}
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&& other) noexcept : graph_(std::exchange(other.graph_, nullptr)) {}
  ~Graph() {
    if (graph_) cudaGraphDestroy(graph_);
  }
  operator cudaGraph_t() const { return graph_; }
  cudaGraph_t release() { return std::exchange(graph_, nullptr); }

  std::vector<cudaGraphNode_t> nodes() const {
    std::size_t count = 0;
    CUDA_CHECK(cudaGraphGetNodes(graph_, nullptr, &count));
    std::vector<cudaGraphNode_t> result(count);
    CUDA_CHECK(cudaGraphGetNodes(graph_, result.data(), &count));
    return result;
  }
  std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edges() const {
    std::size_t count = 0;
    CUDA_CHECK(cudaGraphGetEdges(graph_, nullptr, nullptr, nullptr, &count));
    std::vector<cudaGraphNode_t> from(count), to(count);
    CUDA_CHECK(cudaGraphGetEdges(graph_, from.data(), to.data(), nullptr, &count));
    std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> result;
    for (std::size_t i = 0; i < count; ++i) result.emplace_back(from[i], to[i]);
    return result;
  }

 private:
  cudaGraph_t graph_ = nullptr;
};

// An executable graph, cudaGraphInstantiate(graph, flags).
class GraphExec {
 public:
  explicit GraphExec(cudaGraph_t graph, unsigned long long flags = 0) {
    CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, flags));
  }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  GraphExec(GraphExec&& other) noexcept : exec_(std::exchange(other.exec_, nullptr)) {}
  ~GraphExec() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  operator cudaGraphExec_t() const { return exec_; }
  cudaGraphExec_t release() { return std::exchange(exec_, nullptr); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace cuconform
