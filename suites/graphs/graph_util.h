// Small builders for the graph rules (PG12.9 6.2.8.7); the owning handles are cuconform/handles.h.
#pragma once

#include <cuda_runtime.h>

#include "cuconform/check.h"
#include "cuconform/cuda_compat.h"  // the graph-edge calls under their CUDA 13.0 names
#include "cuconform/handles.h"
#include "ordering.h"  // suites/streams: probe kernels, flags, streams and events

namespace graphs {

// The graph owners every area shares (cuconform/handles.h), under the names the graph rules use.
using cuconform::Graph;
using cuconform::GraphExec;

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
