// PG12.9 6.2.8.7.1 Graph Structure, 6.2.8.7.2 Creating a Graph Using Graph APIs, and instantiation and launch
// (6.2.8.7, 6.2.8.7.6): every node type the guide lists that a graph can hold without external semaphores.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

using namespace ordering;

class GraphNodes : public cuconform::GpuTest {};
class GraphStructure : public cuconform::GpuTest {};
class GraphLaunch : public cuconform::GpuTest {};

__global__ void add_to(int* out, int value) { *out += value; }

// Issue 34's rule for ordering: a node that ran before a node it depends on must see that node's write missing. These
// kernels take long enough (a %globaltimer delay) that a node which does not wait for them runs first.
// Reads *value at once, doubles it delay_ns later: a node after it that does not wait reads the undoubled value, and
// a memset before it that it does not wait for is overwritten.
__global__ void double_late(volatile int* value, unsigned long long delay_ns) {
  const int read = *value;
  sleep_for(delay_ns);
  *value = read * 2;
}
// Sleeps delay_ns, then adds `value` to *out.
__global__ void add_after(volatile int* out, int value, unsigned long long delay_ns) {
  sleep_for(delay_ns);
  *out = *out + value;
}
// Sleeps delay_ns, then doubles *value.
__global__ void double_after(volatile int* value, unsigned long long delay_ns) {
  sleep_for(delay_ns);
  *value = *value * 2;
}

// A kernel node running ticket_after(log, op, delay): the arguments live in the returned holder until it is added.
struct TicketNode {
  Log* log;
  int op;
  unsigned long long delay;
  void* args[3] = {&log, &op, &delay};
  cudaGraphNode_t add(cudaGraph_t graph, const cudaGraphNode_t* deps = nullptr, size_t count = 0) {
    const cudaKernelNodeParams params = one_thread(reinterpret_cast<void*>(ticket_after), args);
    cudaGraphNode_t node = nullptr;
    CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, deps, count, &params));
    return node;
  }
};

RULE_F(GraphStructure, DependenciesConstrainTheExecutionOrder, "PG12.9 6.2.8.7.2",
       "a graph built with cudaGraphAddKernelNode() and cudaGraphAddDependencies() (A->B, A->C, B->D, C->D) runs "
       "each node only after the nodes it depends on") {
  enum { A, B, C, D };
  // Delays shrink along the dependencies: without them D would finish first and A last. B and C differ, once one way
  // and once the other, so that a missing B->D or C->D edge lets D finish before the slower of the two.
  for (const unsigned long long b_delay : {450'000ull, 150'000ull}) {
    const unsigned long long c_delay = 600'000ull - b_delay;
    cuconform::DeviceBuffer<Log> log(1);
    Graph graph;
    const cudaGraphNode_t a = TicketNode{log.get(), A, 600'000ull}.add(graph);
    const cudaGraphNode_t b = TicketNode{log.get(), B, b_delay}.add(graph);
    const cudaGraphNode_t c = TicketNode{log.get(), C, c_delay}.add(graph);
    const cudaGraphNode_t d = TicketNode{log.get(), D, 0}.add(graph);
    const cudaGraphNode_t from[] = {a, a, b, c};
    const cudaGraphNode_t to[] = {b, c, d, d};
    CUDA_ASSERT(cudaGraphAddDependencies(graph, from, to, nullptr, 4));
    EXPECT_EQ(graph.edges().size(), 4u);
    GraphExec exec(graph);
    Stream stream;
    CUDA_ASSERT(cudaGraphLaunch(exec, stream));
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    const Log seen = log.to_host()[0];
    std::ostringstream order;
    order << "B delay " << b_delay << " ns, C delay " << c_delay << " ns: ";
    for (int op : {A, B, C, D}) order << "ABCD"[op] << "=#" << seen.op[op].ticket << " ";
    EXPECT_EQ(seen.op[A].ticket, 0u) << order.str();
    EXPECT_EQ(seen.op[D].ticket, 3u) << order.str();
  }
}

RULE_F(GraphNodes, KernelMemsetMemcpyEmptyAndHostNodesRunInOrder, "PG12.9 6.2.8.7.1.1",
       "a graph node can be a kernel, a memset, a memory copy, an empty node or a CPU function call; each runs "
       "when its dependencies completed") {
  cuconform::DeviceBuffer<int> value(1);
  HostFlags host(1);
  Graph graph;
  // memset 0x01 bytes -> kernel doubles -> empty -> copy to host -> host function reads the copy.
  cudaMemsetParams memset{};
  memset.dst = value.get();
  memset.value = 0x01;
  memset.elementSize = 1;
  memset.width = sizeof(int);
  memset.height = 1;
  cudaGraphNode_t nodes[5];
  CUDA_ASSERT(cudaGraphAddMemsetNode(&nodes[0], graph, nullptr, 0, &memset));
  // The kernel writes 1 ms after it read (double_late): with an edge after it missing (kernel -> empty -> copy -> host,
  // operator graph-edge-dropped), the copy or the host node runs first and sees 0x01010101 or 0; with the memset ->
  // kernel edge missing, a kernel that reads before the memset writes 0 over it (a race: no delay fits a memset).
  volatile int* value_ptr = value.get();
  unsigned long long delay = kMillisecond;
  void* args[] = {&value_ptr, &delay};
  const cudaKernelNodeParams kernel = one_thread(reinterpret_cast<void*>(double_late), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&nodes[1], graph, &nodes[0], 1, &kernel));
  CUDA_ASSERT(cudaGraphAddEmptyNode(&nodes[2], graph, &nodes[1], 1));
  CUDA_ASSERT(cudaGraphAddMemcpyNode1D(&nodes[3], graph, &nodes[2], 1, const_cast<int*>(host[0]), value.get(),
                                       sizeof(int), cudaMemcpyDeviceToHost));
  struct Seen {
    HostFlags* host;
    int value = -1;
  } seen{&host};
  cudaHostNodeParams host_fn{};
  host_fn.fn = [](void* data) {
    auto* s = static_cast<Seen*>(data);
    s->value = s->host->read(0);
  };
  host_fn.userData = &seen;
  CUDA_ASSERT(cudaGraphAddHostNode(&nodes[4], graph, &nodes[3], 1, &host_fn));
  const cudaGraphNodeType expected[] = {cudaGraphNodeTypeMemset, cudaGraphNodeTypeKernel, cudaGraphNodeTypeEmpty,
                                        cudaGraphNodeTypeMemcpy, cudaGraphNodeTypeHost};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(type_of(nodes[i]), expected[i]) << "node " << i;
  GraphExec exec(graph);
  Stream stream;
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(host.read(0), 0x01010101 * 2) << "memset, kernel and copy did not run in order";
  EXPECT_EQ(seen.value, 0x01010101 * 2) << "the host node ran before the copy completed";
}

RULE_F(GraphNodes, ChildGraphNodeExecutesTheNestedGraph, "PG12.9 6.2.8.7.1.1",
       "a child graph node executes a separate nested graph, in the order of the parent's dependencies") {
  cuconform::DeviceBuffer<int> value(1);
  // Issue 34's rule for ordering: delays shrink along the dependencies (add 1 after 1 ms, the child doubles after
  // 0.5 ms, add 10 at once), so that with an edge missing (operator graph-edge-dropped) a later node runs first, and
  // the addends differ, so that every order but the documented one gives another value: (0 + 1) * 2 + 10 = 12;
  // child -> add missing: (1 + 10) * 2 = 22; add -> child missing: 0 * 2 + 10 + 1 = 11; both: (10 * 2) + 1 = 21; the
  // child not run: 11.
  volatile int* value_ptr = value.get();
  int one = 1, ten = 10;
  unsigned long long first_delay = kMillisecond, child_delay = kMillisecond / 2, no_delay = 0;
  void* first_args[] = {&value_ptr, &one, &first_delay};
  void* last_args[] = {&value_ptr, &ten, &no_delay};
  void* double_args[] = {&value_ptr, &child_delay};
  Graph child;
  cudaGraphNode_t child_node = nullptr;
  const cudaKernelNodeParams doubling = one_thread(reinterpret_cast<void*>(double_after), double_args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&child_node, child, nullptr, 0, &doubling));
  Graph parent;
  cudaGraphNode_t nodes[3];
  const cudaKernelNodeParams first = one_thread(reinterpret_cast<void*>(add_after), first_args);
  const cudaKernelNodeParams last = one_thread(reinterpret_cast<void*>(add_after), last_args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&nodes[0], parent, nullptr, 0, &first));
  CUDA_ASSERT(cudaGraphAddChildGraphNode(&nodes[1], parent, &nodes[0], 1, child));
  CUDA_ASSERT(cudaGraphAddKernelNode(&nodes[2], parent, &nodes[1], 1, &last));
  EXPECT_EQ(type_of(nodes[1]), cudaGraphNodeTypeGraph);
  GraphExec exec(parent);
  Stream stream;
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(value.value_at(0), (0 + 1) * 2 + 10) << "expected add 1, child (double), add 10 in this order";
}

RULE_F(GraphNodes, EventRecordNodeRecordsWhenItsDependenciesComplete, "PG12.9 6.2.8.7.1.1",
       "an event record node records its event when the nodes it depends on completed; a stream waiting on the "
       "event waits for them") {
  HostFlags flags(2);
  cuconform::DeviceBuffer<Log> log(1);
  Event event(cudaEventDisableTiming);
  Graph graph;
  const volatile int* gate = flags[0];
  volatile int* done = flags[1];
  unsigned long long timeout = kGateTimeout;
  void* args[] = {&gate, &done, &timeout};
  cudaGraphNode_t nodes[2];
  const cudaKernelNodeParams gated = one_thread(reinterpret_cast<void*>(gated_then_done), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&nodes[0], graph, nullptr, 0, &gated));
  CUDA_ASSERT(cudaGraphAddEventRecordNode(&nodes[1], graph, &nodes[0], 1, event));
  EXPECT_EQ(type_of(nodes[1]), cudaGraphNodeTypeEventRecord);
  GraphExec exec(graph);
  Stream stream(cudaStreamNonBlocking), waiting(cudaStreamNonBlocking);
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamWaitEvent(waiting, event, 0));
  read_and_ticket<<<1, 1, 0, waiting>>>(log.get(), 0, flags[1]);
  CUDA_ASSERT(cudaGetLastError());
  host_sleep_ms(2);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the stream waiting on the recorded event ran before the graph's "
                                              "kernel completed (0), or that kernel timed out (2)";
}

RULE_F(GraphNodes, EventWaitNodeWaitsForTheEvent, "PG12.9 6.2.8.7.1.1",
       "the nodes after an event wait node wait until the event has completed") {
  HostFlags flags(2);
  cuconform::DeviceBuffer<Log> log(1);
  Event event(cudaEventDisableTiming);
  Stream producer(cudaStreamNonBlocking), stream(cudaStreamNonBlocking);
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  gated_then_done<<<1, 1, 0, producer>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(event, producer));
  Graph graph;
  const cudaGraphNode_t wait = add_wait_then_read(graph, event, log.get(), flags[1]);
  EXPECT_EQ(type_of(wait), cudaGraphNodeTypeWaitEvent);
  GraphExec exec(graph);
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  host_sleep_ms(2);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the node after the event wait node ran before the event completed";
}

RULE_F(GraphLaunch, ExecutableGraphRunsAnyNumberOfTimes, "PG12.9 6.2.8.7",
       "an executable graph may be launched any number of times without repeating the instantiation, also after "
       "cudaGraphUpload()") {
  cuconform::DeviceBuffer<int> value(1);
  int* value_ptr = value.get();
  int one = 1;
  void* args[] = {&value_ptr, &one};
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaKernelNodeParams adding = one_thread(reinterpret_cast<void*>(add_to), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &adding));
  GraphExec exec(graph);
  Stream stream;
  CUDA_ASSERT(cudaGraphUpload(exec, stream));
  constexpr int kLaunches = 5;
  for (int i = 0; i < kLaunches; ++i) CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(value.value_at(0), kLaunches);
}

// Counts how many launches of the same executable graph are inside the kernel at once.
struct Overlap {
  unsigned entries;
  unsigned active;
  unsigned seen_active[8];
};

__global__ void enter_and_linger(Overlap* overlap) {
  const unsigned index = atomicAdd(&overlap->entries, 1u);
  const unsigned others = atomicAdd(&overlap->active, 1u);
  if (index < 8) overlap->seen_active[index] = others;
  sleep_for(300'000ull);
  __threadfence();
  atomicSub(&overlap->active, 1u);
}

RULE_F(GraphLaunch, LaunchesOfOneExecutableGraphDoNotOverlap, "PG12.9 6.2.8.7.6",
       "a cudaGraphExec_t cannot run concurrently with itself: a launch is ordered after previous launches of the "
       "same executable graph, even in other streams") {
  cuconform::DeviceBuffer<Overlap> overlap(1);
  Overlap* overlap_ptr = overlap.get();
  void* args[] = {&overlap_ptr};
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaKernelNodeParams kernel = one_thread(reinterpret_cast<void*>(enter_and_linger), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &kernel));
  GraphExec exec(graph);
  constexpr int kLaunches = 3;
  Stream streams[kLaunches] = {Stream(cudaStreamNonBlocking), Stream(cudaStreamNonBlocking),
                               Stream(cudaStreamNonBlocking)};
  for (auto& stream : streams) CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaDeviceSynchronize());
  const Overlap seen = overlap.to_host()[0];
  EXPECT_EQ(seen.entries, static_cast<unsigned>(kLaunches));
  for (int i = 0; i < kLaunches; ++i)
    EXPECT_EQ(seen.seen_active[i], 0u) << "launch #" << i << " started while " << seen.seen_active[i]
                                       << " other launch(es) of the same executable graph ran";
}

__global__ void programmatic_primary(int* out) { *out = 1; }

RULE_F(GraphStructure, QueryWithoutEdgeDataIsLossyOnlyForNonDefaultEdges, "PG12.9 6.2.8.7.1.2",
       "edge data omitted from a query is accepted when all of it is zero-initialized, and the query returns "
       "cudaErrorLossyQuery when it would discard information") {
  REQUIRE_CC(9, 0);  // programmatic dependencies
  cuconform::DeviceBuffer<int> out(1);
  int* out_ptr = out.get();
  void* args[] = {&out_ptr};
  const cudaKernelNodeParams kernel = one_thread(reinterpret_cast<void*>(programmatic_primary), args);
  Graph plain, programmatic;
  cudaGraphNode_t p[2], q[2];
  for (int i = 0; i < 2; ++i) {
    CUDA_ASSERT(cudaGraphAddKernelNode(&p[i], plain, nullptr, 0, &kernel));
    CUDA_ASSERT(cudaGraphAddKernelNode(&q[i], programmatic, nullptr, 0, &kernel));
  }
  CUDA_ASSERT(cudaGraphAddDependencies(plain, &p[0], &p[1], nullptr, 1));
  cudaGraphEdgeData edge{};
  edge.from_port = cudaGraphKernelNodePortProgrammatic;
  edge.type = cudaGraphDependencyTypeProgrammatic;
  CUDA_ASSERT(cudaGraphAddDependencies(programmatic, &q[0], &q[1], &edge, 1));

  cudaGraphNode_t from = nullptr, to = nullptr;
  size_t count = 1;
  EXPECT_EQ(cudaGraphGetEdges(plain, &from, &to, nullptr, &count), cudaSuccess);
  count = 1;
  const cudaError_t lossy = cudaGraphGetEdges(programmatic, &from, &to, nullptr, &count);
  cudaGetLastError();
  EXPECT_EQ(lossy, cudaErrorLossyQuery) << cuconform::describe(lossy);
  cudaGraphEdgeData read{};
  count = 1;
  CUDA_ASSERT(cudaGraphGetEdges(programmatic, &from, &to, &read, &count));
  EXPECT_EQ(read.type, edge.type);
  EXPECT_EQ(read.from_port, edge.from_port);
  EXPECT_EQ(read.to_port, 0);
}

RULE_F(GraphStructure, DebugDotPrintWritesTheGraph, "PG12.9 6.2.8.7.6",
       "cudaGraphDebugDotPrint() writes a DOT description of a graph (smoke test of the graph API)") {
  cuconform::DeviceBuffer<int> out(1);
  int* out_ptr = out.get();
  int one = 1;
  void* args[] = {&out_ptr, &one};
  Graph graph;
  cudaGraphNode_t nodes[2];
  const cudaKernelNodeParams kernel = one_thread(reinterpret_cast<void*>(add_to), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&nodes[0], graph, nullptr, 0, &kernel));
  CUDA_ASSERT(cudaGraphAddEmptyNode(&nodes[1], graph, &nodes[0], 1));
  char path[] = "/tmp/cuconform-graph-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  const cudaError_t printed = cudaGraphDebugDotPrint(graph, path, cudaGraphDebugDotFlagsVerbose);
  std::ifstream file(path);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::remove(path);
  CUDA_EXPECT(printed);
  EXPECT_NE(text.find("digraph"), std::string::npos) << text.substr(0, 200);
}

}  // namespace
}  // namespace graphs
