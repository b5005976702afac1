// PG12.9 6.2.8.7.5 Updating Instantiated Graphs: whole graph update (6.2.8.7.5.2) and its limitations
// (6.2.8.7.5.1), individual node update (6.2.8.7.5.3) and node enable (6.2.8.7.5.4).
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

using namespace ordering;

class WholeGraphUpdate : public cuconform::GpuTest {};
class NodeUpdate : public cuconform::GpuTest {};
class NodeEnable : public cuconform::GpuTest {};

__global__ void store(int* slot, int value) { *slot = value; }
__global__ void store_negated(int* slot, int value) { *slot = -value; }

// One kernel node `kernel(slot, value)`; the graph keeps copies of the arguments.
cudaGraphNode_t add_store(cudaGraph_t graph, void* kernel, int* slot, int value, const cudaGraphNode_t* deps = nullptr,
                          size_t count = 0) {
  void* args[] = {&slot, &value};
  const cudaKernelNodeParams params = one_thread(kernel, args);
  cudaGraphNode_t node = nullptr;
  CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, deps, count, &params));
  return node;
}

cudaKernelNodeParams store_params(void* kernel, void** args) { return one_thread(kernel, args); }

void launch_and_wait(cudaGraphExec_t exec) {
  CUDA_CHECK(cudaGraphLaunch(exec, 0));
  CUDA_CHECK(cudaStreamSynchronize(0));
}

std::string result_name(cudaGraphExecUpdateResult result) {
  switch (result) {
    case cudaGraphExecUpdateSuccess: return "Success";
    case cudaGraphExecUpdateError: return "Error";
    case cudaGraphExecUpdateErrorTopologyChanged: return "ErrorTopologyChanged";
    case cudaGraphExecUpdateErrorNodeTypeChanged: return "ErrorNodeTypeChanged";
    case cudaGraphExecUpdateErrorFunctionChanged: return "ErrorFunctionChanged";
    case cudaGraphExecUpdateErrorParametersChanged: return "ErrorParametersChanged";
    case cudaGraphExecUpdateErrorNotSupported: return "ErrorNotSupported";
    case cudaGraphExecUpdateErrorUnsupportedFunctionChange: return "ErrorUnsupportedFunctionChange";
    case cudaGraphExecUpdateErrorAttributesChanged: return "ErrorAttributesChanged";
  }
  return "unknown (" + std::to_string(static_cast<int>(result)) + ")";
}

RULE_F(WholeGraphUpdate, NewParametersTakeEffectAtTheNextLaunch, "PG12.9 6.2.8.7.5.2",
       "cudaGraphExecUpdate() with a topologically identical graph updates the executable graph's parameters; "
       "the next launch uses them") {
  cuconform::DeviceBuffer<int> slot(1);
  Graph original, updating;
  add_store(original, reinterpret_cast<void*>(store), slot.get(), 1);
  add_store(updating, reinterpret_cast<void*>(store), slot.get(), 2);
  GraphExec exec(original);
  launch_and_wait(exec);
  EXPECT_EQ(slot.value_at(0), 1);
  cudaGraphExecUpdateResultInfo info{};
  CUDA_ASSERT(cudaGraphExecUpdate(exec, updating, &info));
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess) << result_name(info.result);
  launch_and_wait(exec);
  EXPECT_EQ(slot.value_at(0), 2);
}

RULE_F(WholeGraphUpdate, DoesNotAffectALaunchAlreadySubmitted, "PG12.9 6.2.8.7.5",
       "updates take effect the next time the graph is launched and do not impact previous launches, even if they "
       "are running at the time of the update") {
  HostFlags flags(2);
  cuconform::DeviceBuffer<int> slots(2);
  // gate -> store(slot, value): the first launch is held by the gate while the graph is updated.
  auto build = [&](int slot, int value) {
    Graph graph;
    const volatile int* gate = flags[0];
    volatile int* done = flags[1];
    unsigned long long timeout = kGateTimeout;
    void* gate_args[] = {&gate, &done, &timeout};
    const cudaKernelNodeParams gated = one_thread(reinterpret_cast<void*>(gated_then_done), gate_args);
    cudaGraphNode_t first = nullptr;
    CUDA_CHECK(cudaGraphAddKernelNode(&first, graph, nullptr, 0, &gated));
    add_store(graph, reinterpret_cast<void*>(store), slots.get() + slot, value, &first, 1);
    return graph;
  };
  Graph original = build(0, 1);
  Graph updating = build(1, 2);
  GraphExec exec(original);
  Stream stream;
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t updated = cudaGraphExecUpdate(exec, updating, &info);
  const int gate_done_at_update = flags.read(1);
  CUDA_EXPECT(cudaGraphLaunch(exec, stream));
  flags.raise(0);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  CUDA_EXPECT(updated);
  EXPECT_EQ(gate_done_at_update, 0)
      << "the update waited for the running launch (2: until its kernel gave up waiting for the host)";
  EXPECT_EQ(slots.value_at(0), 1) << "the launch submitted before the update did not run with the old parameters";
  EXPECT_EQ(slots.value_at(1), 2) << "the launch after the update did not run with the new parameters";
}

RULE_F(WholeGraphUpdate, KernelFunctionMayChangeWithinTheContext, "PG12.9 6.2.8.7.5.1",
       "a kernel node's function may change in an update as long as its owning context does not (and it does not "
       "start using dynamic parallelism)") {
  cuconform::DeviceBuffer<int> slot(1);
  Graph original, updating;
  add_store(original, reinterpret_cast<void*>(store), slot.get(), 5);
  add_store(updating, reinterpret_cast<void*>(store_negated), slot.get(), 5);
  GraphExec exec(original);
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t error = cudaGraphExecUpdate(exec, updating, &info);
  cudaGetLastError();
  CUDA_EXPECT(error);
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess) << result_name(info.result);
  launch_and_wait(exec);
  EXPECT_EQ(slot.value_at(0), -5);
}

// What differs between the instantiated graph and the updating one, for the documented failures.
enum class Change { Topology, NodeType, MemcpyKind, MemsetTo2D };

struct UpdateCase {
  const char* name;
  Change change;
};

void PrintTo(const UpdateCase& c, std::ostream* os) { *os << c.name; }

class UpdateLimitation : public cuconform::GpuTestWithParam<UpdateCase> {};

RULE_P(UpdateLimitation, IsRejectedAndLeavesTheGraphRunnable, "PG12.9 6.2.8.7.5.1",
       "a changed topology, a changed node type, a changed memcpy kind and a memset that is no longer 1D cannot be "
       "updated: cudaGraphExecUpdate() fails with a result other than success, and the executable graph still runs "
       "its old parameters") {
  cuconform::DeviceBuffer<int> device(64);
  HostFlags host(1);
  Graph original, updating;
  cudaMemsetParams memset{};
  memset.dst = device.get();
  memset.value = 7;
  memset.elementSize = 4;
  memset.width = 4;
  memset.height = 1;
  cudaGraphNode_t node = nullptr;
  // Issue 34's rule for effects: after the rejected update the launch is observed, every element of the buffer and
  // the host slot, against what the original graph writes; the updating graphs write other values (2, 9) or other
  // places, so that an update reported as rejected but applied in part, or a graph that no longer runs, shows.
  std::vector<int> expected(device.size(), 0);
  switch (GetParam().change) {
    case Change::Topology:
      add_store(original, reinterpret_cast<void*>(store), device.get(), 1);
      add_store(updating, reinterpret_cast<void*>(store), device.get(), 2);
      add_store(updating, reinterpret_cast<void*>(store), device.get() + 1, 2);
      expected[0] = 1;
      break;
    case Change::NodeType:
      add_store(original, reinterpret_cast<void*>(store), device.get(), 1);
      CUDA_ASSERT(cudaGraphAddMemsetNode(&node, updating, nullptr, 0, &memset));
      expected[0] = 1;
      break;
    case Change::MemcpyKind:
      // A non-zero value to copy, so that a copy that did not run (or went to the host instead) shows.
      store<<<1, 1>>>(device.get(), 42);
      CUDA_ASSERT(cudaGetLastError());
      CUDA_ASSERT(cudaGraphAddMemcpyNode1D(&node, original, nullptr, 0, device.get() + 1, device.get(), sizeof(int),
                                           cudaMemcpyDeviceToDevice));
      CUDA_ASSERT(cudaGraphAddMemcpyNode1D(&node, updating, nullptr, 0, const_cast<int*>(host[0]), device.get(),
                                           sizeof(int), cudaMemcpyDeviceToHost));
      expected[0] = expected[1] = 42;
      break;
    case Change::MemsetTo2D:
      CUDA_ASSERT(cudaGraphAddMemsetNode(&node, original, nullptr, 0, &memset));
      for (int i = 0; i < 4; ++i) expected[i] = 7;  // one row of 4 elements
      memset.value = 9;
      memset.pitch = 16 * sizeof(int);
      memset.height = 2;
      CUDA_ASSERT(cudaGraphAddMemsetNode(&node, updating, nullptr, 0, &memset));
      break;
  }
  GraphExec exec(original);
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t error = cudaGraphExecUpdate(exec, updating, &info);
  cudaGetLastError();
  cuconform::record_metric("error", cuconform::describe(error));
  cuconform::record_metric("result", result_name(info.result));
  EXPECT_NE(error, cudaSuccess) << GetParam().name << " was accepted";
  EXPECT_NE(info.result, cudaGraphExecUpdateSuccess);
  if (GetParam().change == Change::Topology)
    EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged) << result_name(info.result);
  if (GetParam().change == Change::NodeType)
    EXPECT_EQ(info.result, cudaGraphExecUpdateErrorNodeTypeChanged) << result_name(info.result);
  // The runtime API: a failed update leaves the executable graph unchanged.
  CUDA_EXPECT(cudaGraphLaunch(exec, 0));
  CUDA_EXPECT(cudaStreamSynchronize(0));
  EXPECT_TRUE(cuconform::ElementsEqual(device.to_host(), expected)) << "the launch after the rejected update";
  EXPECT_EQ(host.read(0), 0) << "the rejected device-to-host copy ran";
}

INSTANTIATE_TEST_SUITE_P(Changes, UpdateLimitation,
                         ::testing::Values(UpdateCase{"Topology", Change::Topology},
                                           UpdateCase{"NodeType", Change::NodeType},
                                           UpdateCase{"MemcpyKind", Change::MemcpyKind},
                                           UpdateCase{"MemsetTo2D", Change::MemsetTo2D}),
                         [](const auto& info) { return std::string(info.param.name); });

struct HostCall {
  int calls = 0;
  int last_tag = 0;
};
HostCall host_calls;
void CUDART_CB tag_one(void*) { host_calls.calls++, host_calls.last_tag = 1; }
void CUDART_CB tag_two(void*) { host_calls.calls++, host_calls.last_tag = 2; }

RULE_F(WholeGraphUpdate, HostAndEventNodesUpdateWithoutRestriction, "PG12.9 6.2.8.7.5.1",
       "there are no restrictions on updates to host nodes, event record nodes or event wait nodes") {
  // host node -> event record node (records `recorded`) -> event wait node (waits for `awaited`).
  auto build = [&](cudaHostFn_t fn, cudaEvent_t recorded, cudaEvent_t awaited) {
    Graph graph;
    cudaHostNodeParams host{};
    host.fn = fn;
    cudaGraphNode_t nodes[3];
    CUDA_CHECK(cudaGraphAddHostNode(&nodes[0], graph, nullptr, 0, &host));
    CUDA_CHECK(cudaGraphAddEventRecordNode(&nodes[1], graph, &nodes[0], 1, recorded));
    CUDA_CHECK(cudaGraphAddEventWaitNode(&nodes[2], graph, &nodes[1], 1, awaited));
    return graph;
  };
  Event old_recorded(cudaEventDisableTiming), old_awaited(cudaEventDisableTiming);
  Event new_recorded(cudaEventDisableTiming), new_awaited(cudaEventDisableTiming);
  Graph original = build(tag_one, old_recorded, old_awaited);
  Graph updating = build(tag_two, new_recorded, new_awaited);
  GraphExec exec(original);
  cudaGraphExecUpdateResultInfo info{};
  CUDA_ASSERT(cudaGraphExecUpdate(exec, updating, &info));
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess) << result_name(info.result);
  // Issue 34's rule for effects: the event nodes are observed against what the old ones would do. `new_recorded` and
  // `old_awaited` are recorded behind a kernel that waits for the host, `new_awaited` in the graph's stream (complete
  // at once). Updated, the graph records `new_recorded` again (complete) and waits for `new_awaited`: it completes
  // before the gate opens. A record node left on `old_recorded` leaves `new_recorded` incomplete; a wait node left on
  // `old_awaited` holds the graph until the gate opens.
  HostFlags flags(2);  // 0: the gate, 1: the gated kernel's completion
  Stream gated(cudaStreamNonBlocking), stream(cudaStreamNonBlocking);
  preload_probe_kernels();  // no lazy loading behind the gated kernel (PG12.9 25.5.1)
  gated_then_done<<<1, 1, 0, gated>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(new_recorded, gated));
  CUDA_ASSERT(cudaEventRecord(old_awaited, gated));
  CUDA_ASSERT(cudaEventRecord(new_awaited, stream));
  host_calls = {};
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  // Well within the gate's timeout (kGateTimeout, 2 s): the graph alone takes microseconds.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1000);
  cudaError_t graph_state = cudaStreamQuery(stream);
  for (; graph_state == cudaErrorNotReady && std::chrono::steady_clock::now() < deadline;
       graph_state = cudaStreamQuery(stream))
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  const cudaError_t recorded_state = cudaEventQuery(new_recorded);
  // The control: the gated kernel is still waiting, so its stream and the event recorded behind it are incomplete
  // (cudaErrorNotReady). A graph that finished while they are shows that it did not wait for the gated work.
  const cudaError_t gated_stream_state = cudaStreamQuery(gated);
  const cudaError_t old_awaited_state = cudaEventQuery(old_awaited);
  const int gated_done_before = flags.read(1);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(host_calls.last_tag, 2) << "the host node still calls the old function";
  EXPECT_EQ(graph_state, cudaSuccess) << "the graph waited for the gated kernel: its event wait node still waits "
                                         "for the old event ("
                                      << cuconform::describe(graph_state) << ")";
  EXPECT_EQ(recorded_state, cudaSuccess) << "the new recorded event is still incomplete: the event record node still "
                                            "records the old event ("
                                         << cuconform::describe(recorded_state) << ")";
  EXPECT_EQ(gated_stream_state, cudaErrorNotReady)
      << "the stream of the kernel waiting for the gate was reported idle: " << cuconform::describe(gated_stream_state);
  EXPECT_EQ(old_awaited_state, cudaErrorNotReady)
      << "the event recorded behind the kernel waiting for the gate was reported complete: "
      << cuconform::describe(old_awaited_state);
  EXPECT_EQ(gated_done_before, 0) << "the gated kernel finished before the gate opened (it timed out)";
  EXPECT_EQ(flags.read(1), 1) << "the gated kernel did not see the gate";
}

RULE_F(NodeUpdate, KernelMemsetMemcpyHostChildAndEventNodesUpdateInPlace, "PG12.9 6.2.8.7.5.3",
       "cudaGraphExec{Kernel,Memset,Memcpy,Host,ChildGraph}NodeSetParams change an instantiated node and the next "
       "launch uses the new parameters; cudaGraphExecEventRecordNodeSetEvent is accepted") {
  cuconform::DeviceBuffer<int> device(8);
  Event first(cudaEventDisableTiming), second(cudaEventDisableTiming);
  Graph graph, child, new_child;
  cudaGraphNode_t kernel = add_store(graph, reinterpret_cast<void*>(store), device.get() + 0, 1);
  cudaMemsetParams memset{};
  memset.dst = device.get() + 1;
  memset.value = 1;
  memset.elementSize = 4;
  memset.width = 1;
  memset.height = 1;
  cudaGraphNode_t memset_node = nullptr, memcpy_node = nullptr, host_node = nullptr, child_node = nullptr,
                  record_node = nullptr;
  CUDA_ASSERT(cudaGraphAddMemsetNode(&memset_node, graph, &kernel, 1, &memset));
  CUDA_ASSERT(cudaGraphAddMemcpyNode1D(&memcpy_node, graph, &memset_node, 1, device.get() + 2, device.get() + 0,
                                       sizeof(int), cudaMemcpyDeviceToDevice));
  cudaHostNodeParams host{};
  host.fn = tag_one;
  CUDA_ASSERT(cudaGraphAddHostNode(&host_node, graph, &memcpy_node, 1, &host));
  add_store(child, reinterpret_cast<void*>(store), device.get() + 4, 1);
  add_store(new_child, reinterpret_cast<void*>(store), device.get() + 4, 2);
  CUDA_ASSERT(cudaGraphAddChildGraphNode(&child_node, graph, &host_node, 1, child));
  CUDA_ASSERT(cudaGraphAddEventRecordNode(&record_node, graph, &child_node, 1, first));
  GraphExec exec(graph);
  host_calls = {};
  launch_and_wait(exec);
  ASSERT_EQ(device.to_host(5), (std::vector<int>{1, 1, 1, 0, 1}));

  int* slot = device.get() + 0;
  int value = 2;
  void* args[] = {&slot, &value};
  const cudaKernelNodeParams new_kernel = store_params(reinterpret_cast<void*>(store), args);
  CUDA_EXPECT(cudaGraphExecKernelNodeSetParams(exec, kernel, &new_kernel));
  memset.value = 2;
  CUDA_EXPECT(cudaGraphExecMemsetNodeSetParams(exec, memset_node, &memset));
  CUDA_EXPECT(cudaGraphExecMemcpyNodeSetParams1D(exec, memcpy_node, device.get() + 3, device.get() + 0, sizeof(int),
                                                 cudaMemcpyDeviceToDevice));
  host.fn = tag_two;
  CUDA_EXPECT(cudaGraphExecHostNodeSetParams(exec, host_node, &host));
  CUDA_EXPECT(cudaGraphExecChildGraphNodeSetParams(exec, child_node, new_child));
  CUDA_EXPECT(cudaGraphExecEventRecordNodeSetEvent(exec, record_node, second));
  launch_and_wait(exec);
  // kernel 2, memset 2, old copy target keeps 1, new copy target 2, child 2.
  EXPECT_EQ(device.to_host(5), (std::vector<int>{2, 2, 1, 2, 2}));
  EXPECT_EQ(host_calls.last_tag, 2);
}

RULE_F(NodeUpdate, EventWaitNodeSetEventMakesTheNodeWaitForTheNewEvent, "PG12.9 6.2.8.7.5.3",
       "cudaGraphExecEventWaitNodeSetEvent changes the event an instantiated wait node waits for: the next launch "
       "waits for the new event") {
  HostFlags flags(2);  // 0: the gate, 1: the gated kernel's completion
  cuconform::DeviceBuffer<Log> log(1);
  Event never_recorded(cudaEventDisableTiming), gated(cudaEventDisableTiming);
  Stream producer(cudaStreamNonBlocking), stream(cudaStreamNonBlocking);
  Graph graph;
  // Waiting for an event that was never recorded does not wait at all: the instantiated graph would run at once.
  const cudaGraphNode_t wait = add_wait_then_read(graph, never_recorded, log.get(), flags[1]);
  GraphExec exec(graph);
  CUDA_ASSERT(cudaGraphExecEventWaitNodeSetEvent(exec, wait, gated));
  preload_probe_kernels();  // no lazy loading behind the gated kernel (PG12.9 25.5.1)
  gated_then_done<<<1, 1, 0, producer>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(gated, producer));
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  host_sleep_ms(2);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1)
      << "the node after the wait node ran before the new event completed (it still waited for the old one)";
}

RULE_F(NodeEnable, DisabledNodeActsAsAnEmptyNodeUntilReenabled, "PG12.9 6.2.8.7.5.4",
       "a disabled kernel, memset or memcpy node behaves as an empty node until re-enabled; cudaGraphNodeGetEnabled "
       "reports the state; parameters updated while disabled take effect when the node is re-enabled") {
  cuconform::DeviceBuffer<int> device(4);
  Graph graph;
  cudaGraphNode_t kernel = add_store(graph, reinterpret_cast<void*>(store), device.get(), 1);
  cudaMemsetParams memset{};
  memset.dst = device.get() + 1;
  memset.value = 1;
  memset.elementSize = 4;
  memset.width = 1;
  memset.height = 1;
  cudaGraphNode_t memset_node = nullptr, memcpy_node = nullptr;
  CUDA_ASSERT(cudaGraphAddMemsetNode(&memset_node, graph, &kernel, 1, &memset));
  CUDA_ASSERT(cudaGraphAddMemcpyNode1D(&memcpy_node, graph, &memset_node, 1, device.get() + 2, device.get(),
                                       sizeof(int), cudaMemcpyDeviceToDevice));
  GraphExec exec(graph);
  for (cudaGraphNode_t node : {kernel, memset_node, memcpy_node}) CUDA_ASSERT(cudaGraphNodeSetEnabled(exec, node, 0));
  unsigned enabled = 1;
  CUDA_ASSERT(cudaGraphNodeGetEnabled(exec, kernel, &enabled));
  EXPECT_EQ(enabled, 0u);
  // An update while disabled: the kernel will store 9.
  int* slot = device.get();
  int value = 9;
  void* args[] = {&slot, &value};
  const cudaKernelNodeParams new_kernel = store_params(reinterpret_cast<void*>(store), args);
  CUDA_ASSERT(cudaGraphExecKernelNodeSetParams(exec, kernel, &new_kernel));
  CUDA_ASSERT(cudaGraphNodeGetEnabled(exec, kernel, &enabled));
  EXPECT_EQ(enabled, 0u) << "a parameter update re-enabled the node";
  launch_and_wait(exec);
  EXPECT_EQ(device.to_host(3), (std::vector<int>{0, 0, 0})) << "a disabled node ran";
  for (cudaGraphNode_t node : {kernel, memset_node, memcpy_node}) CUDA_ASSERT(cudaGraphNodeSetEnabled(exec, node, 1));
  CUDA_ASSERT(cudaGraphNodeGetEnabled(exec, kernel, &enabled));
  EXPECT_EQ(enabled, 1u);
  launch_and_wait(exec);
  EXPECT_EQ(device.to_host(3), (std::vector<int>{9, 1, 9}));
}

RULE_F(NodeEnable, EnableStateSurvivesWholeGraphUpdate, "PG12.9 6.2.8.7.5.4",
       "the enable state of a node is unaffected by cudaGraphExecUpdate()") {
  cuconform::DeviceBuffer<int> slot(1);
  Graph original, updating;
  cudaGraphNode_t node = add_store(original, reinterpret_cast<void*>(store), slot.get(), 1);
  add_store(updating, reinterpret_cast<void*>(store), slot.get(), 2);
  GraphExec exec(original);
  CUDA_ASSERT(cudaGraphNodeSetEnabled(exec, node, 0));
  cudaGraphExecUpdateResultInfo info{};
  CUDA_ASSERT(cudaGraphExecUpdate(exec, updating, &info));
  unsigned enabled = 1;
  CUDA_ASSERT(cudaGraphNodeGetEnabled(exec, node, &enabled));
  EXPECT_EQ(enabled, 0u);
  launch_and_wait(exec);
  EXPECT_EQ(slot.value_at(0), 0) << "the disabled node ran after the update";
  CUDA_ASSERT(cudaGraphNodeSetEnabled(exec, node, 1));
  launch_and_wait(exec);
  EXPECT_EQ(slot.value_at(0), 2) << "re-enabled, the node did not run the updated parameters";
}

}  // namespace
}  // namespace graphs
