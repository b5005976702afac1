// Owning handles and small builders for the graph rules (PG12.9 6.2.8.7).
#pragma once

#include <cuda_runtime.h>

#include <utility>
#include <vector>

#include "cuconform/check.h"
#include "cuconform/cuda_compat.h"  // the graph-edge calls under their CUDA 13.0 names
#include "ordering.h"  // suites/streams: probe kernels, flags, streams and events

namespace graphs {

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
    size_t count = 0;
    CUDA_CHECK(cudaGraphGetNodes(graph_, nullptr, &count));
    std::vector<cudaGraphNode_t> result(count);
    CUDA_CHECK(cudaGraphGetNodes(graph_, result.data(), &count));
    return result;
  }
  std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edges() const {
    size_t count = 0;
    CUDA_CHECK(cudaGraphGetEdges(graph_, nullptr, nullptr, nullptr, &count));
    std::vector<cudaGraphNode_t> from(count), to(count);
    CUDA_CHECK(cudaGraphGetEdges(graph_, from.data(), to.data(), nullptr, &count));
    std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> result;
    for (size_t i = 0; i < count; ++i) result.emplace_back(from[i], to[i]);
    return result;
  }

 private:
  cudaGraph_t graph_ = nullptr;
};

class GraphExec {
 public:
  explicit GraphExec(cudaGraph_t graph, unsigned long long flags = 0) {
    CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, flags));
  }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  ~GraphExec() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  operator cudaGraphExec_t() const { return exec_; }
  cudaGraphExec_t release() { return std::exchange(exec_, nullptr); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// Kernel node parameters for a one-thread launch; `args` must outlive the call that consumes the parameters.
inline cudaKernelNodeParams one_thread(void* kernel, void** args) {
  cudaKernelNodeParams params{};
  params.func = kernel;
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
  params.kernelParams = args;
  return params;
}

// Adds an event wait node for `event` and after it a kernel node that records, as op 0 of `log`, the value *watch
// holds when it runs (ordering::read_and_ticket). Returns the wait node.
inline cudaGraphNode_t add_wait_then_read(cudaGraph_t graph, cudaEvent_t event, ordering::Log* log,
                                          const volatile int* watch) {
  cudaGraphNode_t wait = nullptr, reader = nullptr;
  CUDA_CHECK(cudaGraphAddEventWaitNode(&wait, graph, nullptr, 0, event));
  int op = 0;
  void* args[] = {&log, &op, &watch};
  const cudaKernelNodeParams params = one_thread(reinterpret_cast<void*>(ordering::read_and_ticket), args);
  CUDA_CHECK(cudaGraphAddKernelNode(&reader, graph, &wait, 1, &params));
  return wait;
}

inline cudaGraphNodeType type_of(cudaGraphNode_t node) {
  cudaGraphNodeType type{};
  CUDA_CHECK(cudaGraphNodeGetType(node, &type));
  return type;
}

}  // namespace graphs
