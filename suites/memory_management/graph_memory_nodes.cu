// PG12.9 16: graph memory nodes. Allocation and free nodes made with the node APIs and by capturing
// cudaMallocAsync/cudaFreeAsync, allocations that outlive their graph, the relaunch rule and
// cudaGraphInstantiateFlagAutoFreeOnLaunch, address reuse within a graph, and the graph memory attributes with
// cudaDeviceGraphMemTrim, memory nodes in moved child graphs (16.8), and memset nodes on stream-ordered memory
// (15.13.3). Allocations are 1 to 4 MiB.
#include "cuconform/cuda_compat.h"  // cudaGraphAddNode under its CUDA 13.0 signature
#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 18;  // 1 MiB of int
constexpr std::size_t kBytes = kCount * sizeof(int);

using GraphMemoryNodes = StreamOrderedAllocatorTest;  // graph memory nodes need the stream-ordered allocator (16.2)

cudaMemAllocNodeParams alloc_params(int ordinal, std::size_t bytes) {
  cudaMemAllocNodeParams params{};
  params.poolProps.allocType = cudaMemAllocationTypePinned;
  params.poolProps.location.type = cudaMemLocationTypeDevice;
  params.poolProps.location.id = ordinal;
  params.bytesize = bytes;
  return params;
}

cudaGraphNode_t add_alloc(cudaGraph_t graph, const cudaGraphNode_t* deps, std::size_t ndeps, int ordinal, int** dptr,
                          std::size_t bytes = kBytes) {
  cudaGraphNode_t node = nullptr;
  cudaMemAllocNodeParams params = alloc_params(ordinal, bytes);
  CUDA_CHECK(cudaGraphAddMemAllocNode(&node, graph, deps, ndeps, &params));
  *dptr = static_cast<int*>(params.dptr);
  return node;
}

cudaGraphNode_t add_write_pattern(cudaGraph_t graph, const cudaGraphNode_t* deps, std::size_t ndeps, int* p, int seed) {
  std::size_t count = kCount;
  void* args[] = {&p, &count, &seed};
  cudaKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(write_pattern);
  params.gridDim = dim3(64);
  params.blockDim = dim3(256);
  params.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, deps, ndeps, &params));
  return node;
}

cudaGraphNode_t add_copy(cudaGraph_t graph, const cudaGraphNode_t* deps, std::size_t ndeps, int* to, const int* from) {
  cudaGraphNode_t node = nullptr;
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&node, graph, deps, ndeps, to, from, kBytes, cudaMemcpyDeviceToDevice));
  return node;
}

RULE_F(GraphMemoryNodes, AllocAndFreeNodesBracketTheirUses, "PG12.9 16.3.1",
       "cudaGraphAddMemAllocNode returns the allocation's address at node creation; nodes ordered after it and "
       "before the free node use the memory") {
  Graph g;
  DeviceBuffer<int> out(kCount);
  int* p = nullptr;
  cudaGraphNode_t alloc = add_alloc(g, nullptr, 0, device().ordinal, &p);
  ASSERT_NE(p, nullptr) << "the virtual address is assigned at node creation";
  cudaGraphNode_t write = add_write_pattern(g, &alloc, 1, p, 13);
  cudaGraphNode_t copy = add_copy(g, &write, 1, out.get(), p);
  cudaGraphNode_t free_node = nullptr;
  CUDA_ASSERT(cudaGraphAddMemFreeNode(&free_node, g, &copy, 1, p));
  cudaMemAllocNodeParams back{};
  CUDA_ASSERT(cudaGraphMemAllocNodeGetParams(alloc, &back));
  EXPECT_EQ(back.dptr, static_cast<void*>(p));
  EXPECT_EQ(back.bytesize, kBytes);
  void* freed = nullptr;
  CUDA_ASSERT(cudaGraphMemFreeNodeGetParams(free_node, &freed));
  EXPECT_EQ(freed, static_cast<void*>(p));
  GraphExec exec(g);
  Stream stream;
  for (int launch = 0; launch < 2; ++launch) CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 13)));
}

RULE_F(GraphMemoryNodes, CapturedMallocAsyncAndFreeAsyncBecomeMemoryNodes, "PG12.9 16.3.2",
       "Capturing cudaMallocAsync and cudaFreeAsync creates an allocation node and a free node, and the captured "
       "work between them uses the address the captured call returned") {
  Stream stream;
  DeviceBuffer<int> out(kCount);
  cudaGraph_t captured = nullptr;
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  int* p = nullptr;
  const cudaError_t allocated = cudaMallocAsync(reinterpret_cast<void**>(&p), kBytes, stream);
  if (allocated == cudaSuccess) {
    write_pattern<<<64, 256, 0, stream>>>(p, kCount, 17);
    cudaMemcpyAsync(out.get(), p, kBytes, cudaMemcpyDeviceToDevice, stream);
    cudaFreeAsync(p, stream);
  }
  CUDA_ASSERT(cudaStreamEndCapture(stream, &captured));
  Graph g(captured);
  CUDA_ASSERT(allocated);
  std::size_t count = 0;
  CUDA_ASSERT(cudaGraphGetNodes(g, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  CUDA_ASSERT(cudaGraphGetNodes(g, nodes.data(), &count));
  int allocs = 0, frees = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    CUDA_ASSERT(cudaGraphNodeGetType(node, &type));
    allocs += type == cudaGraphNodeTypeMemAlloc;
    frees += type == cudaGraphNodeTypeMemFree;
  }
  EXPECT_EQ(allocs, 1);
  EXPECT_EQ(frees, 1);
  GraphExec exec(g);
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 17)));
}

RULE_F(GraphMemoryNodes, AllocationOutlivesItsDestroyedGraph, "PG12.9 16.3.3",
       "An allocation the graph does not free persists after the graph ran and after it was destroyed: stream "
       "work ordered after it reads it, and cudaFreeAsync frees it") {
  Stream stream;
  int* p = nullptr;
  {
    Graph g;
    cudaGraphNode_t alloc = add_alloc(g, nullptr, 0, device().ordinal, &p);
    add_write_pattern(g, &alloc, 1, p, 19);
    GraphExec exec(g);
    CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  }  // graph and executable graph destroyed: the allocation stays live
  DeviceBuffer<int> out(kCount);
  increment_copy<<<64, 256, 0, stream>>>(p, out.get(), kCount);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 20)));
}

RULE_F(GraphMemoryNodes, AnotherGraphFreesTheAllocation, "PG12.9 16.3.3",
       "A graph allocation may be used and freed by another graph, ordered after the allocating graph by events") {
  Stream alloc_stream, free_stream;
  Event allocated(cudaEventDisableTiming);
  DeviceBuffer<int> out(kCount);
  int* p = nullptr;
  Graph alloc_graph, free_graph;
  // Issue 34's rule for ordering: the allocating graph fills the allocation with -1, then holds 2 ms before it writes
  // the pattern, so that a copy in the other graph that does not wait for it (a dropped or misdirected event record or
  // wait: operators stream-wait-event-dropped, event-record-dropped, event-record-other-stream) copies -1 (or what
  // the memory held before), never the pattern. Its kernels are loaded first, so that lazy loading (PG12.9 25.5.1)
  // cannot be what holds the other graph back.
  preload(hold_stream_for, write_pattern);
  cudaGraphNode_t alloc = add_alloc(alloc_graph, nullptr, 0, device().ordinal, &p);
  cudaMemsetParams fill{};
  fill.dst = p;
  fill.value = 0xffffffffu;
  fill.elementSize = sizeof(int);
  fill.width = kCount;
  fill.height = 1;
  cudaGraphNode_t filled = nullptr;
  CUDA_ASSERT(cudaGraphAddMemsetNode(&filled, alloc_graph, &alloc, 1, &fill));
  unsigned long long hold_ns = 2'000'000ull;
  void* hold_args[] = {&hold_ns};
  cudaKernelNodeParams hold{};
  hold.func = reinterpret_cast<void*>(hold_stream_for);
  hold.gridDim = dim3(1);
  hold.blockDim = dim3(1);
  hold.kernelParams = hold_args;
  cudaGraphNode_t held = nullptr;
  CUDA_ASSERT(cudaGraphAddKernelNode(&held, alloc_graph, &filled, 1, &hold));
  add_write_pattern(alloc_graph, &held, 1, p, 23);
  cudaGraphNode_t copy = add_copy(free_graph, nullptr, 0, out.get(), p);
  cudaGraphNode_t free_node = nullptr;
  CUDA_ASSERT(cudaGraphAddMemFreeNode(&free_node, free_graph, &copy, 1, p));
  GraphExec alloc_exec(alloc_graph), free_exec(free_graph);
  CUDA_ASSERT(cudaGraphLaunch(alloc_exec, alloc_stream));
  CUDA_ASSERT(cudaEventRecord(allocated, alloc_stream));
  CUDA_ASSERT(cudaStreamWaitEvent(free_stream, allocated));
  CUDA_ASSERT(cudaGraphLaunch(free_exec, free_stream));
  CUDA_ASSERT(cudaStreamSynchronize(free_stream));
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 23)));
}

RULE_F(GraphMemoryNodes, UnfreedAllocationBlocksRelaunchUnlessAutoFree, "PG12.9 16.3.4",
       "A graph whose allocation is still unfreed cannot be relaunched; instantiated with "
       "cudaGraphInstantiateFlagAutoFreeOnLaunch it can, the launch freeing the earlier allocation") {
  Stream stream;
  int* p = nullptr;
  Graph g;
  cudaGraphNode_t alloc = add_alloc(g, nullptr, 0, device().ordinal, &p);
  add_write_pattern(g, &alloc, 1, p, 29);
  {
    GraphExec plain(g);
    CUDA_ASSERT(cudaGraphLaunch(plain, stream));
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    const cudaError_t relaunch = cudaGraphLaunch(plain, stream);
    (void)cudaGetLastError();
    record_metric("relaunch_error", cudaGetErrorName(relaunch));
    EXPECT_NE(relaunch, cudaSuccess) << "relaunched with the allocation unfreed";
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    CUDA_ASSERT(cudaFreeAsync(p, stream));
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    CUDA_ASSERT(cudaGraphLaunch(plain, stream)) << "after the free the graph launches again";
    CUDA_ASSERT(cudaFreeAsync(p, stream));
    CUDA_ASSERT(cudaStreamSynchronize(stream));
  }
  GraphExec auto_free(g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  CUDA_ASSERT(cudaGraphLaunch(auto_free, stream));
  CUDA_EXPECT(cudaGraphLaunch(auto_free, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(read_back(p, kCount), pattern(kCount, 29)));
  CUDA_ASSERT(cudaFreeAsync(p, stream));  // the flag does not free the last launch's allocation
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

RULE_F(GraphMemoryNodes, OverlappingLifetimesGetDistinctAddresses, "PG12.9 16.4.1",
       "Within a graph an allocation whose node does not depend on another's free node has its own address range; "
       "one that depends on the free may reuse the address (recorded)") {
  Graph g;
  int *first = nullptr, *after_free = nullptr, *concurrent = nullptr;
  cudaGraphNode_t alloc1 = add_alloc(g, nullptr, 0, device().ordinal, &first);
  cudaGraphNode_t free1 = nullptr;
  CUDA_ASSERT(cudaGraphAddMemFreeNode(&free1, g, &alloc1, 1, first));
  cudaGraphNode_t alloc2 = add_alloc(g, &free1, 1, device().ordinal, &after_free);
  cudaGraphNode_t alloc3 = add_alloc(g, &alloc1, 1, device().ordinal, &concurrent);
  record_metric("reused_after_free", static_cast<long long>(ranges_overlap(first, kBytes, after_free, kBytes)));
  EXPECT_FALSE(ranges_overlap(first, kBytes, concurrent, kBytes)) << first << " and " << concurrent;
  EXPECT_FALSE(ranges_overlap(after_free, kBytes, concurrent, kBytes)) << after_free << " and " << concurrent;
  cudaGraphNode_t free_node = nullptr;
  CUDA_ASSERT(cudaGraphAddMemFreeNode(&free_node, g, &alloc2, 1, after_free));
  CUDA_ASSERT(cudaGraphAddMemFreeNode(&free_node, g, &alloc3, 1, concurrent));
}

RULE_F(GraphMemoryNodes, GraphMemTrimReleasesUnusedGraphMemory, "PG12.9 16.6",
       "cudaGraphMemAttrReservedMemCurrent and UsedMemCurrent report the graph memory footprint, the High "
       "watermarks reset to the current value, and cudaDeviceGraphMemTrim releases memory not in use") {
  const int ordinal = device().ordinal;
  auto attribute = [ordinal](cudaGraphMemAttributeType attr) {
    unsigned long long value = 0;
    CUDA_CHECK(cudaDeviceGetGraphMemAttribute(ordinal, attr, &value));
    return value;
  };
  Stream stream;
  {
    Graph g;
    int* p = nullptr;
    cudaGraphNode_t alloc = add_alloc(g, nullptr, 0, ordinal, &p, 4 * kBytes);
    cudaGraphNode_t free_node = nullptr;
    CUDA_ASSERT(cudaGraphAddMemFreeNode(&free_node, g, &alloc, 1, p));
    GraphExec exec(g);
    CUDA_ASSERT(cudaGraphLaunch(exec, stream));
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    record_metric("reserved_after_launch", static_cast<long long>(attribute(cudaGraphMemAttrReservedMemCurrent)));
    record_metric("used_after_launch", static_cast<long long>(attribute(cudaGraphMemAttrUsedMemCurrent)));
    EXPECT_GE(attribute(cudaGraphMemAttrReservedMemCurrent), 4 * kBytes);
    EXPECT_GE(attribute(cudaGraphMemAttrReservedMemHigh), 4 * kBytes);
  }
  CUDA_ASSERT(cudaDeviceSynchronize());
  CUDA_ASSERT(cudaDeviceGraphMemTrim(ordinal));
  EXPECT_EQ(attribute(cudaGraphMemAttrReservedMemCurrent), 0u) << "no graph memory is in use after the trim";
  EXPECT_EQ(attribute(cudaGraphMemAttrUsedMemCurrent), 0u);
  unsigned long long zero = 0;
  CUDA_ASSERT(cudaDeviceSetGraphMemAttribute(ordinal, cudaGraphMemAttrReservedMemHigh, &zero));
  CUDA_ASSERT(cudaDeviceSetGraphMemAttribute(ordinal, cudaGraphMemAttrUsedMemHigh, &zero));
  EXPECT_EQ(attribute(cudaGraphMemAttrReservedMemHigh), attribute(cudaGraphMemAttrReservedMemCurrent));
  EXPECT_EQ(attribute(cudaGraphMemAttrUsedMemHigh), attribute(cudaGraphMemAttrUsedMemCurrent));
}

// A child graph holding an allocation node, a kernel writing it, a copy out and the free node.
cudaGraph_t child_with_memory_nodes(int ordinal, int* out, int seed) {
  cudaGraph_t child = nullptr;
  CUDA_CHECK(cudaGraphCreate(&child, 0));
  int* p = nullptr;
  cudaGraphNode_t alloc = add_alloc(child, nullptr, 0, ordinal, &p);
  cudaGraphNode_t write = add_write_pattern(child, &alloc, 1, p, seed);
  cudaGraphNode_t copy = add_copy(child, &write, 1, out, p);
  cudaGraphNode_t free_node = nullptr;
  CUDA_CHECK(cudaGraphAddMemFreeNode(&free_node, child, &copy, 1, p));
  return child;
}

cudaError_t move_into(cudaGraph_t parent, cudaGraph_t child, cudaGraphNode_t* node) {
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeGraph;
  params.graph.graph = child;
  params.graph.ownership = cudaGraphChildGraphOwnershipMove;
  return cudaGraphAddNode(node, parent, nullptr, nullptr, 0, &params);
}

RULE_F(GraphMemoryNodes, MovedChildGraphMayHoldMemoryNodes, "PG12.9 16.8",
       "A child graph with allocation and free nodes, moved into its parent (cudaGraphChildGraphOwnershipMove), "
       "runs as part of the parent") {
  DeviceBuffer<int> out(kCount);
  Graph parent;
  cudaGraph_t child = child_with_memory_nodes(device().ordinal, out.get(), 31);
  cudaGraphNode_t node = nullptr;
  const cudaError_t moved = move_into(parent, child, &node);
  if (moved != cudaSuccess) cudaGraphDestroy(child);  // not moved: still ours
  CUDA_ASSERT(moved);
  GraphExec exec(parent);
  Stream stream;
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(out.to_host(), pattern(kCount, 31)));
}

RULE_F(GraphMemoryNodes, MovedChildGraphIsNoLongerIndependent, "PG12.9 16.8",
       "A moved child graph cannot be instantiated on its own, added to a second parent, or given more memory "
       "nodes") {
  DeviceBuffer<int> out(kCount);
  Graph parent, other_parent;
  cudaGraph_t child = child_with_memory_nodes(device().ordinal, out.get(), 37);
  cudaGraphNode_t node = nullptr;
  const cudaError_t moved = move_into(parent, child, &node);
  if (moved != cudaSuccess) cudaGraphDestroy(child);
  CUDA_ASSERT(moved);
  cudaGraphExec_t exec = nullptr;
  const cudaError_t instantiated = cudaGraphInstantiateWithFlags(&exec, child, 0);
  (void)cudaGetLastError();
  if (instantiated == cudaSuccess) cudaGraphExecDestroy(exec);
  cudaGraphNode_t second = nullptr;
  const cudaError_t added_again = move_into(other_parent, child, &second);
  (void)cudaGetLastError();
  int* p = nullptr;
  cudaGraphNode_t alloc = nullptr;
  cudaMemAllocNodeParams params = alloc_params(device().ordinal, kBytes);
  const cudaError_t more_memory = cudaGraphAddMemAllocNode(&alloc, child, nullptr, 0, &params);
  (void)cudaGetLastError();
  p = static_cast<int*>(params.dptr);
  record_metric("instantiate_error", cudaGetErrorName(instantiated));
  record_metric("second_parent_error", cudaGetErrorName(added_again));
  record_metric("add_alloc_node_error", cudaGetErrorName(more_memory));
  EXPECT_NE(instantiated, cudaSuccess);
  EXPECT_NE(added_again, cudaSuccess);
  EXPECT_NE(more_memory, cudaSuccess) << "allocation node added at " << p;
}

// 15.13.3 says cuGraphAddMemsetNode "does not work" with stream-ordered memory: a limitation on the program, not a
// promised error (the H100 accepts the node), so what the call returns is only recorded. The rule is the capture.
RULE_F(GraphMemoryNodes, CapturedMemsetOfStreamOrderedMemoryWorks, "PG12.9 15.13.3",
       "A cudaMemsetAsync on memory from the stream-ordered allocator can be stream captured, and the graph sets it") {
  Stream stream;
  int* p = nullptr;
  CUDA_ASSERT(cudaMallocAsync(reinterpret_cast<void**>(&p), kBytes, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  Graph g;
  cudaMemsetParams params{};
  params.dst = p;
  params.value = 0x5a;
  params.elementSize = 1;
  params.width = kBytes;
  params.height = 1;
  params.pitch = kBytes;
  cudaGraphNode_t node = nullptr;
  const cudaError_t added = cudaGraphAddMemsetNode(&node, g, nullptr, 0, &params);
  (void)cudaGetLastError();
  record_metric("memset_node_error", cudaGetErrorName(added));

  cudaGraph_t captured = nullptr;
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const cudaError_t memset = cudaMemsetAsync(p, 0x5a, kBytes, stream);
  CUDA_ASSERT(cudaStreamEndCapture(stream, &captured));
  Graph capture(captured);
  CUDA_ASSERT(memset);
  GraphExec exec(capture);
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_TRUE(ElementsEqual(read_back(p, kCount), std::vector<int>(kCount, 0x5a5a5a5a)));
  CUDA_ASSERT(cudaFreeAsync(p, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

}  // namespace
}  // namespace cuconform::memory_management
