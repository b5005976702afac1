// PG12.9 16.8 Memory Nodes in Child Graphs: a child graph moved into its parent (cudaGraphChildGraphOwnershipMove)
// "cannot be used as an argument to cuGraphExecUpdate". graph_memory_nodes.cu checks the section's other three
// restrictions. The control: the same child graph, before it is moved, updates an executable graph of the same
// topology, and the launch runs its parameters; after the move, the same call must fail. The child holds one kernel
// node (the restrictions apply to every moved child graph, with or without memory nodes), so that the control's
// update is one the API accepts. cuGraphExecUpdate is the driver API's, looked up through the runtime.
#include <cuda.h>

#include "cuconform/cuda_compat.h"  // cudaGraphAddNode under its CUDA 13.0 signature
#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 16;

using GraphExecUpdateFunction = decltype(&::cuGraphExecUpdate);  // the CUDA 12 signature (cuGraphExecUpdate_v2)

class MovedChildGraph : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t error =
        cudaGetDriverEntryPointByVersion("cuGraphExecUpdate", &function, 12000, cudaEnableDefault, &found);
    if (error != cudaSuccess || found != cudaDriverEntryPointSuccess || !function)
      GTEST_SKIP() << "the driver has no entry point cuGraphExecUpdate (CUDA 12.0 ABI): " << describe(error);
    exec_update_ = reinterpret_cast<GraphExecUpdateFunction>(function);
  }
  GraphExecUpdateFunction exec_update_ = nullptr;
};

// A graph of one kernel node writing pattern(kCount, seed) to `out`.
cudaGraph_t pattern_graph(int* out, int seed) {
  cudaGraph_t graph = nullptr;
  CUDA_CHECK(cudaGraphCreate(&graph, 0));
  std::size_t count = kCount;
  void* args[] = {&out, &count, &seed};
  cudaKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(write_pattern);
  params.gridDim = dim3(64);
  params.blockDim = dim3(256);
  params.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  return graph;
}

RULE_F(MovedChildGraph, CannotBeTheGraphOfCuGraphExecUpdate, "PG12.9 16.8",
       "a child graph moved into its parent cannot be used as an argument to cuGraphExecUpdate; before the move the "
       "same graph updates an executable graph of its topology") {
  DeviceBuffer<int> out(kCount);
  cudaGraph_t twin = pattern_graph(out.get(), 40);
  cudaGraphExec_t exec = nullptr;
  const cudaError_t instantiated = cudaGraphInstantiateWithFlags(&exec, twin, 0);
  cudaGraphDestroy(twin);
  CUDA_ASSERT(instantiated);
  cudaGraph_t child = pattern_graph(out.get(), 41);
  cudaGraph_t parent = nullptr;
  CUDA_ASSERT(cudaGraphCreate(&parent, 0));

  CUgraphExecUpdateResultInfo before_info{};
  const CUresult before =
      exec_update_(reinterpret_cast<CUgraphExec>(exec), reinterpret_cast<CUgraph>(child), &before_info);
  Stream stream;
  cudaError_t launched = cudaGraphLaunch(exec, stream);
  if (launched == cudaSuccess) launched = cudaStreamSynchronize(stream);

  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeGraph;
  params.graph.graph = child;
  params.graph.ownership = cudaGraphChildGraphOwnershipMove;
  cudaGraphNode_t node = nullptr;
  const cudaError_t moved = cudaGraphAddNode(&node, parent, nullptr, nullptr, 0, &params);
  if (moved != cudaSuccess) cudaGraphDestroy(child);  // not moved: still ours

  CUgraphExecUpdateResultInfo after_info{};
  const CUresult after = moved == cudaSuccess ? exec_update_(reinterpret_cast<CUgraphExec>(exec),
                                                             reinterpret_cast<CUgraph>(child), &after_info)
                                              : CUDA_SUCCESS;
  (void)cudaGetLastError();
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(parent);

  ASSERT_EQ(before, CUDA_SUCCESS) << "the control: updating with the child graph before the move failed (result "
                                  << before_info.result << ")";
  CUDA_ASSERT(launched);
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 41))) << "the update before the move did not take effect";
  CUDA_ASSERT(moved);
  record_metric("error_after_move", static_cast<long long>(after));
  record_metric("update_result_after_move", static_cast<long long>(after_info.result));
  EXPECT_NE(after, CUDA_SUCCESS) << "cuGraphExecUpdate accepted a child graph moved into its parent";
}

}  // namespace
}  // namespace cuconform::memory_management
