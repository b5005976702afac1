// PG12.9 6.2.8.6 Programmatic Dependent Launch and Synchronization: what a secondary kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization sees after cudaGridDependencySynchronize() (6.2.8.6.2), and the
// graph edge stream capture makes of such a launch (6.2.8.6.3). Whether the kernels overlap is opportunistic and
// not checked.
#include <vector>

#include "cuconform/cuconform.h"
#include "ordering.h"

namespace streams {
namespace {

using namespace ordering;

class ProgrammaticDependentLaunch : public cuconform::GpuTest {};

constexpr int kPrimaryBlocks = 8;

// Triggers the secondary launch first, then writes its result late: only the dependency synchronization, not the
// trigger, makes the result visible.
__global__ void primary_triggering_early(int* data) {
  cudaTriggerProgrammaticLaunchCompletion();
  sleep_for(200'000ull);
  data[blockIdx.x] = static_cast<int>(blockIdx.x) + 1;
}

__global__ void secondary_reading(const int* data, int* seen) {
  cudaGridDependencySynchronize();
  for (int i = 0; i < kPrimaryBlocks; ++i) seen[i] = data[i];
}

cudaLaunchAttribute programmatic_serialization() {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  return attribute;
}

RULE_F(ProgrammaticDependentLaunch, GridDependencySynchronizeWaitsForThePrimarysResults, "PG12.9 6.2.8.6.2",
       "in a secondary kernel launched with programmatic stream serialization, cudaGridDependencySynchronize() "
       "blocks until the primary kernels completed and flushed their results to global memory, even when the "
       "primary triggered the launch with cudaTriggerProgrammaticLaunchCompletion() before writing them") {
  REQUIRE_CC(9, 0);
  cuconform::DeviceBuffer<int> data(kPrimaryBlocks);
  cuconform::DeviceBuffer<int> seen(kPrimaryBlocks);
  Stream stream;
  primary_triggering_early<<<kPrimaryBlocks, 1, 0, stream>>>(data.get());
  CUDA_ASSERT(cudaGetLastError());
  cudaLaunchAttribute attribute = programmatic_serialization();
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1);
  config.blockDim = dim3(1);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CUDA_ASSERT(cudaLaunchKernelEx(&config, secondary_reading, static_cast<const int*>(data.get()), seen.get()));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  std::vector<int> expected(kPrimaryBlocks);
  for (int i = 0; i < kPrimaryBlocks; ++i) expected[i] = i + 1;
  EXPECT_EQ(seen.to_host(), expected) << "the secondary kernel read the primary's results before they were written";
}

RULE_F(ProgrammaticDependentLaunch, CaptureMakesAProgrammaticEdge, "PG12.9 6.2.8.6.3",
       "capturing a launch with cudaLaunchAttributeProgrammaticStreamSerialization gives an edge of type "
       "cudaGraphDependencyTypeProgrammatic from port cudaGraphKernelNodePortProgrammatic") {
  REQUIRE_CC(9, 0);
  cuconform::DeviceBuffer<int> data(kPrimaryBlocks);
  cuconform::DeviceBuffer<int> seen(kPrimaryBlocks);
  Stream stream;
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  primary_triggering_early<<<kPrimaryBlocks, 1, 0, stream>>>(data.get());
  cudaLaunchAttribute attribute = programmatic_serialization();
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(1);
  config.blockDim = dim3(1);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  const cudaError_t launched =
      cudaLaunchKernelEx(&config, secondary_reading, static_cast<const int*>(data.get()), seen.get());
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  CUDA_EXPECT(launched);
  CUDA_ASSERT(ended);
  cudaGraphNode_t from = nullptr, to = nullptr;
  cudaGraphEdgeData edge{};
  size_t count = 1;
  const cudaError_t edges = cudaGraphGetEdges(graph, &from, &to, &edge, &count);
  size_t total = 0;
  cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &total);
  cudaGraphDestroy(graph);
  CUDA_ASSERT(edges);
  EXPECT_EQ(total, 1u);
  EXPECT_EQ(edge.type, cudaGraphDependencyTypeProgrammatic);
  EXPECT_EQ(edge.from_port, cudaGraphKernelNodePortProgrammatic);
  EXPECT_EQ(edge.to_port, 0);
}

}  // namespace
}  // namespace streams
