// PG12.9 6.2.8.7.8 Conditional Graph Nodes: IF (6.2.8.7.8.3) and WHILE (6.2.8.7.8.4) nodes whose condition a
// kernel sets with cudaGraphSetConditional(), handles and their defaults (6.2.8.7.8.1), nesting, and the body graph
// requirements (6.2.8.7.8.2); the IF/else and SWITCH forms of the runtime API as well.
// nvcc treats the device-side cudaGraphSetConditional() as a builtin; clang links it from the device runtime, so the
// clang build of this binary has relocatable device code and cudadevrt (CMakeLists.txt).
#include <string>
#include <vector>

#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

using namespace ordering;

class ConditionalNode : public cuconform::GpuTest {};

__global__ void add_one(int* counter) { *counter += 1; }

__global__ void set_condition(cudaGraphConditionalHandle handle, unsigned value) {
  cudaGraphSetConditional(handle, value);
}

// A WHILE body: counts an iteration, and continues while iterations remain.
__global__ void count_down(cudaGraphConditionalHandle handle, int* remaining, int* iterations) {
  *iterations += 1;
  *remaining -= 1;
  cudaGraphSetConditional(handle, *remaining > 0 ? 1u : 0u);
}

// A WHILE body's first node for nesting: count_down, and the condition of an IF in the body set to 1 on the odd
// iterations (1, 3, ...) and to 0 on the even ones.
__global__ void count_down_and_choose(cudaGraphConditionalHandle loop, cudaGraphConditionalHandle inner, int* remaining,
                                      int* iterations) {
  *iterations += 1;
  *remaining -= 1;
  cudaGraphSetConditional(loop, *remaining > 0 ? 1u : 0u);
  cudaGraphSetConditional(inner, *iterations % 2 == 1 ? 1u : 0u);
}

// Marks the current iteration (1, 2, ...) as bit iteration - 1 of *mask.
__global__ void mark_iteration(int* mask, const int* iterations) { *mask |= 1 << (*iterations - 1); }

cudaGraphNode_t add_kernel(cudaGraph_t graph, void* kernel, void** args, const cudaGraphNode_t* deps = nullptr,
                           size_t count = 0) {
  const cudaKernelNodeParams params = one_thread(kernel, args);
  cudaGraphNode_t node = nullptr;
  CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, deps, count, &params));
  return node;
}

cudaGraphNode_t add_set_condition(cudaGraph_t graph, cudaGraphConditionalHandle handle, unsigned value) {
  void* args[] = {&handle, &value};
  return add_kernel(graph, reinterpret_cast<void*>(set_condition), args);
}

cudaGraphNode_t add_counter(cudaGraph_t graph, int* counter) {
  void* args[] = {&counter};
  return add_kernel(graph, reinterpret_cast<void*>(add_one), args);
}

struct Conditional {
  cudaGraphNode_t node = nullptr;
  std::vector<cudaGraph_t> bodies;  // owned by the node
};

Conditional add_conditional(cudaGraph_t graph, cudaGraphConditionalHandle handle, cudaGraphConditionalNodeType type,
                            unsigned size, const cudaGraphNode_t* deps = nullptr, size_t count = 0) {
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = type;
  params.conditional.size = size;
  Conditional result;
  CUDA_CHECK(cudaGraphAddNode(&result.node, graph, deps, nullptr, count, &params));
  result.bodies.assign(params.conditional.phGraph_out, params.conditional.phGraph_out + size);
  return result;
}

void run(cudaGraph_t graph, int launches = 1) {
  GraphExec exec(graph);
  for (int i = 0; i < launches; ++i) CUDA_CHECK(cudaGraphLaunch(exec, 0));
  CUDA_CHECK(cudaStreamSynchronize(0));
}

RULE_F(ConditionalNode, IfRunsItsBodyOnceWhenTheConditionIsNonZero, "PG12.9 6.2.8.7.8.3",
       "the body of an IF node is executed once if the condition, set upstream by cudaGraphSetConditional(), is "
       "non-zero when the node executes, and not at all if it is zero") {
  for (unsigned value : {0u, 1u, 7u}) {
    SCOPED_TRACE("condition " + std::to_string(value));
    cuconform::DeviceBuffer<int> counter(1);
    Graph graph;
    cudaGraphConditionalHandle handle{};
    CUDA_ASSERT(cudaGraphConditionalHandleCreate(&handle, graph));
    const cudaGraphNode_t setter = add_set_condition(graph, handle, value);
    const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeIf, 1, &setter, 1);
    add_counter(node.bodies[0], counter.get());
    run(graph);
    EXPECT_EQ(counter.value_at(0), value != 0 ? 1 : 0);
  }
}

RULE_F(ConditionalNode, DefaultValueIsAssignedAtEachLaunch, "PG12.9 6.2.8.7.8.1",
       "with cudaGraphCondAssignDefault the condition is set to the handle's default at the beginning of each "
       "graph execution") {
  cuconform::DeviceBuffer<int> counter(1);
  Graph graph;
  cudaGraphConditionalHandle handle{};
  CUDA_ASSERT(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeIf, 1);
  add_counter(node.bodies[0], counter.get());
  // A kernel after the IF node clears the condition at the end of each launch: only the default can make the next
  // launch run the body again.
  unsigned zero = 0;
  void* args[] = {&handle, &zero};
  add_kernel(graph, reinterpret_cast<void*>(set_condition), args, &node.node, 1);
  run(graph, 3);
  EXPECT_EQ(counter.value_at(0), 3) << "the IF body did not run in every launch";
}

RULE_F(ConditionalNode, WhileRepeatsItsBodyUntilTheConditionIsZero, "PG12.9 6.2.8.7.8.4",
       "a WHILE node executes its body if the condition is non-zero when the node executes, re-evaluates it after "
       "each completion of the body, and stops when it is zero") {
  for (int rounds : {0, 1, 5}) {
    SCOPED_TRACE(std::to_string(rounds) + " rounds");
    cuconform::DeviceBuffer<int> state(std::vector<int>{rounds, 0});  // remaining, iterations
    Graph graph;
    cudaGraphConditionalHandle handle{};
    CUDA_ASSERT(cudaGraphConditionalHandleCreate(&handle, graph));
    const cudaGraphNode_t setter = add_set_condition(graph, handle, rounds > 0 ? 1u : 0u);
    const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeWhile, 1, &setter, 1);
    int* remaining = state.get();
    int* iterations = state.get() + 1;
    void* args[] = {&handle, &remaining, &iterations};
    add_kernel(node.bodies[0], reinterpret_cast<void*>(count_down), args);
    run(graph);
    EXPECT_EQ(state.value_at(1), rounds) << "iterations of the WHILE body";
  }
}

RULE_F(ConditionalNode, ConditionalNodesNest, "PG12.9 6.2.8.7.8",
       "conditional nodes can be nested: an IF node inside a WHILE body runs on the iterations whose condition "
       "is non-zero") {
  constexpr int kRounds = 4;
  // Issue 34's rule for effects: the inner condition is 1 on the odd iterations only (count_down_and_choose), so an
  // IF that ran its body whatever its condition, or read another iteration's, marks other iterations than 1 and 3.
  cuconform::DeviceBuffer<int> state(std::vector<int>{kRounds, 0, 0});  // remaining, iterations, inner runs' mask
  Graph graph;
  cudaGraphConditionalHandle loop{};
  CUDA_ASSERT(cudaGraphConditionalHandleCreate(&loop, graph, 1, cudaGraphCondAssignDefault));
  const Conditional outer = add_conditional(graph, loop, cudaGraphCondTypeWhile, 1);
  cudaGraph_t body = outer.bodies[0];
  cudaGraphConditionalHandle inner_handle{};
  CUDA_ASSERT(cudaGraphConditionalHandleCreate(&inner_handle, body));
  int* remaining = state.get();
  int* iterations = state.get() + 1;
  int* mask = state.get() + 2;
  void* args[] = {&loop, &inner_handle, &remaining, &iterations};
  const cudaGraphNode_t step = add_kernel(body, reinterpret_cast<void*>(count_down_and_choose), args);
  const Conditional inner = add_conditional(body, inner_handle, cudaGraphCondTypeIf, 1, &step, 1);
  const int* iterations_read = iterations;
  void* mark_args[] = {&mask, &iterations_read};
  add_kernel(inner.bodies[0], reinterpret_cast<void*>(mark_iteration), mark_args);
  run(graph);
  EXPECT_EQ(state.to_host(), (std::vector<int>{0, kRounds, 0b0101}))
      << "remaining, WHILE iterations, the iterations the nested IF body ran in (a mask: 1 and 3)";
}

RULE_F(ConditionalNode, IfWithTwoBodiesRunsTheSecondWhenZero, "PG12.9 6.2.8.7.8.3",
       "an IF node of size 2 runs its first body when the condition is non-zero and its second (else) body when "
       "it is zero (runtime API, CUDA 12.8)") {
  for (unsigned value : {0u, 3u}) {
    SCOPED_TRACE("condition " + std::to_string(value));
    cuconform::DeviceBuffer<int> counters(2);
    Graph graph;
    cudaGraphConditionalHandle handle{};
    CUDA_ASSERT(cudaGraphConditionalHandleCreate(&handle, graph));
    const cudaGraphNode_t setter = add_set_condition(graph, handle, value);
    const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeIf, 2, &setter, 1);
    add_counter(node.bodies[0], counters.get());
    add_counter(node.bodies[1], counters.get() + 1);
    run(graph);
    EXPECT_EQ(counters.to_host(), (std::vector<int>{value != 0, value == 0}));
  }
}

RULE_F(ConditionalNode, SwitchRunsTheBodyTheConditionSelects, "PG12.9 6.2.8.7.8",
       "a SWITCH node of size n runs body i when the condition is i, and none when it is n or more (runtime API, "
       "CUDA 12.8)") {
  constexpr unsigned kBodies = 3;
  for (unsigned value : {0u, 1u, 2u, 3u, 100u}) {
    SCOPED_TRACE("condition " + std::to_string(value));
    cuconform::DeviceBuffer<int> counters(kBodies);
    Graph graph;
    cudaGraphConditionalHandle handle{};
    CUDA_ASSERT(cudaGraphConditionalHandleCreate(&handle, graph));
    const cudaGraphNode_t setter = add_set_condition(graph, handle, value);
    const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeSwitch, kBodies, &setter, 1);
    for (unsigned i = 0; i < kBodies; ++i) add_counter(node.bodies[i], counters.get() + i);
    run(graph);
    std::vector<int> expected(kBodies, 0);
    if (value < kBodies) expected[value] = 1;
    EXPECT_EQ(counters.to_host(), expected);
  }
}

RULE_F(ConditionalNode, WholeGraphUpdateUpdatesTheHandleDefault, "PG12.9 6.2.8.7.5.2",
       "conditional handle flags and default values are updated as part of a whole graph update") {
  cuconform::DeviceBuffer<int> counter(1);
  auto build = [&](unsigned default_value) {
    Graph graph;
    cudaGraphConditionalHandle handle{};
    CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, graph, default_value, cudaGraphCondAssignDefault));
    const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeIf, 1);
    add_counter(node.bodies[0], counter.get());
    return graph;
  };
  Graph original = build(0);
  Graph updating = build(1);
  GraphExec exec(original);
  CUDA_ASSERT(cudaGraphLaunch(exec, 0));
  CUDA_ASSERT(cudaStreamSynchronize(0));
  EXPECT_EQ(counter.value_at(0), 0) << "the IF body ran with a default of 0";
  cudaGraphExecUpdateResultInfo info{};
  CUDA_ASSERT(cudaGraphExecUpdate(exec, updating, &info));
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
  CUDA_ASSERT(cudaGraphLaunch(exec, 0));
  CUDA_ASSERT(cudaStreamSynchronize(0));
  EXPECT_EQ(counter.value_at(0), 1) << "after the update the IF body did not run with the new default of 1";
}

RULE_F(ConditionalNode, WholeGraphUpdateCannotChangeTheNumberOfBodies, "PG12.9 6.2.8.7.5.1",
       "changing a conditional node's parameters, such as the number of graphs in the conditional, is not supported "
       "by graph update: cudaGraphExecUpdate of a SWITCH of 2 bodies to one of 3 fails") {
  cuconform::DeviceBuffer<int> counter(1);
  auto build = [&](unsigned bodies) {
    Graph graph;
    cudaGraphConditionalHandle handle{};
    CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 0, cudaGraphCondAssignDefault));
    const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeSwitch, bodies);
    for (cudaGraph_t body : node.bodies) add_counter(body, counter.get());
    return graph;
  };
  Graph original = build(2);
  Graph updating = build(3);
  GraphExec exec(original);
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t error = cudaGraphExecUpdate(exec, updating, &info);
  (void)cudaGetLastError();
  EXPECT_NE(error, cudaSuccess) << "the update of a SWITCH of 2 bodies to 3 bodies succeeded";
  EXPECT_NE(info.result, cudaGraphExecUpdateSuccess);
  cuconform::record_metric("update_result", static_cast<long long>(info.result));
}

// An error from adding the node or, failing that, from instantiating the graph.
cudaError_t add_then_instantiate(cudaGraph_t graph, cudaError_t added) {
  if (added != cudaSuccess) return added;
  cudaGraphExec_t exec = nullptr;
  const cudaError_t error = cudaGraphInstantiate(&exec, graph, 0);
  if (exec) cudaGraphExecDestroy(exec);
  return error;
}

void CUDART_CB do_nothing(void*) {}

RULE_F(ConditionalNode, BodyGraphCannotHoldAHostNode, "PG12.9 6.2.8.7.8.2",
       "a conditional body graph can only contain kernel, empty, memcpy, memset, child graph and conditional nodes: "
       "a host node is rejected when added or at instantiation") {
  Graph graph;
  cudaGraphConditionalHandle handle{};
  CUDA_ASSERT(cudaGraphConditionalHandleCreate(&handle, graph, 0, cudaGraphCondAssignDefault));
  const Conditional node = add_conditional(graph, handle, cudaGraphCondTypeIf, 1);
  cudaHostNodeParams host{};
  host.fn = do_nothing;
  cudaGraphNode_t host_node = nullptr;
  const cudaError_t error =
      add_then_instantiate(graph, cudaGraphAddHostNode(&host_node, node.bodies[0], nullptr, 0, &host));
  cudaGetLastError();
  cuconform::record_metric("error", cuconform::describe(error));
  EXPECT_NE(error, cudaSuccess) << "a graph with a host node in a conditional body was accepted";
}

RULE_F(ConditionalNode, HandleBelongsToASingleNode, "PG12.9 6.2.8.7.8.1",
       "a conditional handle must be associated with a single conditional node: a second node with the same "
       "handle is rejected when added or at instantiation") {
  Graph graph;
  cudaGraphConditionalHandle handle{};
  CUDA_ASSERT(cudaGraphConditionalHandleCreate(&handle, graph, 0, cudaGraphCondAssignDefault));
  add_conditional(graph, handle, cudaGraphCondTypeIf, 1);
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeIf;
  params.conditional.size = 1;
  cudaGraphNode_t second = nullptr;
  const cudaError_t error = add_then_instantiate(graph, cudaGraphAddNode(&second, graph, nullptr, nullptr, 0, &params));
  cudaGetLastError();
  cuconform::record_metric("error", cuconform::describe(error));
  EXPECT_NE(error, cudaSuccess) << "two conditional nodes sharing one handle were accepted";
}

}  // namespace
}  // namespace graphs
