// PG12.9 6.2.8.7.7 Device Graph Launch (binary cuconform-graphs-device-launch, built with relocatable device code
// and the device runtime): graphs instantiated for device launch, their upload, fire-and-forget, tail, tail
// self-launch and sibling launches, and the completion of execution environments (6.2.8.7.8).
// Both compilers build it (cuconform_use_device_runtime: -rdc=true, or clang's -fgpu-rdc, and cudadevrt). The
// update limitation on kernels that use dynamic parallelism (6.2.8.7.5.1) is here too: it needs this build.
#include <string>
#include <vector>

#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

using namespace ordering;

class DeviceGraphLaunch : public cuconform::GpuTest {};

enum Mode { kFireAndForget, kTail, kSibling };

// The graphs one launching kernel launches from the device, each in its mode.
struct Launches {
  cudaGraphExec_t graphs[3];
  int modes[3];
  int count;
};

// Launches each graph (device-side cudaGraphLaunch), records each result, then takes ticket `op`.
__global__ void launch_graphs(Launches launches, int* errors, Log* log, int op) {
  for (int i = 0; i < launches.count; ++i) {
    const int mode = launches.modes[i];
    const cudaStream_t stream = mode == kFireAndForget ? cudaStreamGraphFireAndForget
                                : mode == kTail        ? cudaStreamGraphTailLaunch
                                                       : cudaStreamGraphFireAndForgetAsSibling;
    errors[i] = static_cast<int>(cudaGraphLaunch(launches.graphs[i], stream));
  }
  take_ticket(log, op);
}

// Counts its runs and tail-launches itself until it ran `runs` times.
__global__ void relaunch_self(int* count, int runs, int* errors) {
  const int run = (*count)++;
  if (run + 1 < runs)
    errors[run] = static_cast<int>(cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch));
}

__global__ void record_current_graph(unsigned long long* out) {
  *out = reinterpret_cast<unsigned long long>(cudaGetCurrentGraphExec());
}

// A device graph of one kernel node; the graph is destroyed once instantiated.
enum class Upload { CudaGraphUpload, InstantiateWithUploadFlag, HostLaunch, None };

cudaGraphExec_t device_graph(void* kernel, void** args, Upload upload, cudaStream_t stream) {
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaKernelNodeParams params = one_thread(kernel, args);
  CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  cudaGraphExec_t exec = nullptr;
  if (upload == Upload::InstantiateWithUploadFlag) {
    cudaGraphInstantiateParams instantiate{};
    instantiate.flags = cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUpload;
    instantiate.uploadStream = stream;
    CUDA_CHECK(cudaGraphInstantiateWithParams(&exec, graph, &instantiate));
  } else {
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagDeviceLaunch));
  }
  if (upload == Upload::CudaGraphUpload) CUDA_CHECK(cudaGraphUpload(exec, stream));
  if (upload == Upload::HostLaunch) CUDA_CHECK(cudaGraphLaunch(exec, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return exec;
}

// A device graph that sleeps delay_ns, then takes ticket `op`.
cudaGraphExec_t ticket_graph(Log* log, int op, unsigned long long delay_ns, cudaStream_t stream,
                             Upload upload = Upload::CudaGraphUpload) {
  void* args[] = {&log, &op, &delay_ns};
  return device_graph(reinterpret_cast<void*>(ticket_after), args, upload, stream);
}

// The launching graph: one launch_graphs kernel, launched from the host and waited for.
void run_launching_graph(Launches launches, int* errors, Log* log, int op, cudaStream_t stream) {
  void* args[] = {&launches, &errors, &log, &op};
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaKernelNodeParams params = one_thread(reinterpret_cast<void*>(launch_graphs), args);
  CUDA_CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  GraphExec exec(graph);
  CUDA_CHECK(cudaGraphLaunch(exec, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

void expect_no_errors(const cuconform::DeviceBuffer<int>& errors, int count) {
  const auto seen = errors.to_host(count);
  for (int i = 0; i < count; ++i)
    EXPECT_EQ(seen[i], 0) << "device cudaGraphLaunch #" << i << " returned "
                          << cuconform::describe(static_cast<cudaError_t>(seen[i]));
}

struct UploadCase {
  const char* name;
  Upload upload;
};
void PrintTo(const UploadCase& c, std::ostream* os) { *os << c.name; }
class DeviceGraphUpload : public cuconform::GpuTestWithParam<UploadCase> {};

RULE_P(DeviceGraphUpload, FireAndForgetLaunchRunsTheUploadedGraphWithinTheLaunchingStreamWork, "PG12.9 6.2.8.7.7.3",
       "a graph instantiated with cudaGraphInstantiateFlagDeviceLaunch and uploaded (cudaGraphUpload, the upload "
       "flag, or a first host launch) runs when a kernel of another graph launches it fire-and-forget; the stream "
       "launch completes only after it (6.2.8.7.7.7, 6.2.8.7.8)") {
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> errors(3);
  Stream stream;
  // op 0: the launched graph, 2 ms late; op 1: the launching kernel (its ticket was taken first unless the launch
  // ran synchronously).
  cudaGraphExec_t child = ticket_graph(log.get(), 0, 2 * kMillisecond, stream, GetParam().upload);
  if (GetParam().upload == Upload::HostLaunch)
    CUDA_ASSERT(cudaMemset(log.get(), 0, sizeof(Log)));  // forget the host run
  run_launching_graph(Launches{{child}, {kFireAndForget}, 1}, errors.get(), log.get(), 1, stream);
  CUDA_EXPECT(cudaGraphExecDestroy(child));
  expect_no_errors(errors, 1);
  const Log seen = log.to_host()[0];
  EXPECT_EQ(seen.counter, 2u) << "the fire-and-forget graph had not run when the host's stream synchronized";
  EXPECT_EQ(seen.op[1].ticket, 0u) << "the launching kernel waited for the fire-and-forget graph";
}

INSTANTIATE_TEST_SUITE_P(Uploads, DeviceGraphUpload,
                         ::testing::Values(UploadCase{"CudaGraphUpload", Upload::CudaGraphUpload},
                                           UploadCase{"InstantiateWithUploadFlag", Upload::InstantiateWithUploadFlag},
                                           UploadCase{"HostLaunch", Upload::HostLaunch}),
                         [](const auto& info) { return std::string(info.param.name); });

std::string tickets(const Log& log, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += "op" + std::to_string(i) + "=#" + std::to_string(log.op[i].ticket) + " ";
  return out;
}

RULE_F(DeviceGraphLaunch, TailLaunchRunsAfterTheGraphAndItsChildrenComplete, "PG12.9 6.2.8.7.9",
       "a tail launch executes when the launching graph's environment is complete: after the launching graph and "
       "its fire-and-forget children") {
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> errors(3);
  Stream stream;
  cudaGraphExec_t child = ticket_graph(log.get(), 0, 2 * kMillisecond, stream);  // op 0: a slow child
  cudaGraphExec_t tail = ticket_graph(log.get(), 1, 0, stream);                  // op 1: the tail
  run_launching_graph(Launches{{child, tail}, {kFireAndForget, kTail}, 2}, errors.get(), log.get(), 2, stream);
  CUDA_EXPECT(cudaGraphExecDestroy(child));
  CUDA_EXPECT(cudaGraphExecDestroy(tail));
  expect_no_errors(errors, 2);
  const Log seen = log.to_host()[0];
  EXPECT_EQ(seen.counter, 3u) << tickets(seen, 3);
  EXPECT_GT(seen.op[1].ticket, seen.op[0].ticket)
      << "the tail ran before the fire-and-forget child: " << tickets(seen, 3);
  EXPECT_GT(seen.op[1].ticket, seen.op[2].ticket) << "the tail ran before the launching kernel: " << tickets(seen, 3);
}

RULE_F(DeviceGraphLaunch, TailLaunchesRunOneAtATimeInEnqueueOrder, "PG12.9 6.2.8.7.9",
       "tail launches enqueued by a graph execute one at a time, in the order they were enqueued") {
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> errors(3);
  Stream stream;
  // Delays shrink in enqueue order: concurrent or reordered tails would take their tickets in reverse.
  cudaGraphExec_t tails[3];
  for (int op = 0; op < 3; ++op) tails[op] = ticket_graph(log.get(), op, (3 - op) * 500'000ull, stream);
  run_launching_graph(Launches{{tails[0], tails[1], tails[2]}, {kTail, kTail, kTail}, 3}, errors.get(), log.get(), 3,
                      stream);
  for (auto tail : tails) CUDA_EXPECT(cudaGraphExecDestroy(tail));
  expect_no_errors(errors, 3);
  const Log seen = log.to_host()[0];
  for (int op = 0; op < 4; ++op)
    EXPECT_EQ(seen.op[op].ticket, static_cast<unsigned>((op + 1) % 4)) << "observed order: " << tickets(seen, 4);
}

RULE_F(DeviceGraphLaunch, TailLaunchesOfATailGraphRunBeforeTheEarlierEnqueuedOnes, "PG12.9 6.2.8.7.9",
       "tail launches enqueued by a tail graph execute before the tail launches enqueued by previous graphs in the "
       "tail launch list, and in the order they are enqueued") {
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> errors(4);  // [0] [1]: the launching kernel's launches; [2] [3]: the first tail's
  Stream stream;
  // op 1, op 2: enqueued by the first tail graph, with shrinking delays; op 3: the launching kernel's second tail,
  // without delay. Reordered or concurrent tails would take their tickets in another order.
  cudaGraphExec_t nested[2] = {ticket_graph(log.get(), 1, 1'000'000ull, stream),
                               ticket_graph(log.get(), 2, 500'000ull, stream)};
  cudaGraphExec_t second = ticket_graph(log.get(), 3, 0, stream);
  // op 0: the first tail graph, a launch_graphs kernel that tail-launches the two nested graphs.
  Launches from_first{{nested[0], nested[1]}, {kTail, kTail}, 2};
  int* first_errors = errors.get() + 2;
  Log* log_ptr = log.get();
  int op = 0;
  void* args[] = {&from_first, &first_errors, &log_ptr, &op};
  cudaGraphExec_t first = device_graph(reinterpret_cast<void*>(launch_graphs), args, Upload::CudaGraphUpload, stream);
  // op 4: the launching kernel.
  run_launching_graph(Launches{{first, second}, {kTail, kTail}, 2}, errors.get(), log.get(), 4, stream);
  for (cudaGraphExec_t exec : {nested[0], nested[1], second, first}) CUDA_EXPECT(cudaGraphExecDestroy(exec));
  expect_no_errors(errors, 4);
  const Log seen = log.to_host()[0];
  // The launching kernel, the first tail, its two tails in enqueue order, then the launching kernel's second tail.
  const unsigned expected[] = {1, 2, 3, 4, 0};
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(seen.op[i].ticket, expected[i]) << "op " << i << "; observed order: " << tickets(seen, 5);
}

RULE_F(DeviceGraphLaunch, UpdatedDeviceGraphRunsTheNewParametersOnceReuploaded, "PG12.9 6.2.8.7.7.4",
       "a device graph is updated from the host and, re-uploaded, its device launches run the updated parameters") {
  cuconform::DeviceBuffer<int> out(1);
  cuconform::DeviceBuffer<int> errors(1);
  cuconform::DeviceBuffer<Log> log(1);
  Stream stream;
  volatile int* out_ptr = out.get();
  int value = 1;
  unsigned long long delay = 0;
  void* args[] = {&out_ptr, &value, &delay};
  Graph graph;
  cudaGraphNode_t node = nullptr;
  cudaKernelNodeParams params = one_thread(reinterpret_cast<void*>(sleep_then_write), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  GraphExec exec(graph, cudaGraphInstantiateFlagDeviceLaunch);
  CUDA_ASSERT(cudaGraphUpload(exec, stream));
  run_launching_graph(Launches{{exec}, {kFireAndForget}, 1}, errors.get(), log.get(), 0, stream);
  const int before = out.value_at(0);
  value = 2;  // the node's new parameters, read by the call below
  CUDA_ASSERT(cudaGraphExecKernelNodeSetParams(exec, node, &params));
  CUDA_ASSERT(cudaGraphUpload(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  run_launching_graph(Launches{{exec}, {kFireAndForget}, 1}, errors.get(), log.get(), 0, stream);
  expect_no_errors(errors, 1);
  EXPECT_EQ(before, 1) << "the device graph did not run its first parameters";
  EXPECT_EQ(out.value_at(0), 2) << "after the update and the re-upload the device launch ran the old parameters";
}

RULE_F(DeviceGraphLaunch, TailSelfLaunchRepeatsTheCurrentGraph, "PG12.9 6.2.8.7.7.10",
       "a device graph can tail-launch itself through cudaGetCurrentGraphExec()") {
  constexpr int kRuns = 5;
  cuconform::DeviceBuffer<int> count(1);
  cuconform::DeviceBuffer<int> errors(kRuns);
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> launch_errors(1);
  Stream stream;
  int* count_ptr = count.get();
  int runs = kRuns;
  int* errors_ptr = errors.get();
  void* args[] = {&count_ptr, &runs, &errors_ptr};
  cudaGraphExec_t self = device_graph(reinterpret_cast<void*>(relaunch_self), args, Upload::CudaGraphUpload, stream);
  run_launching_graph(Launches{{self}, {kFireAndForget}, 1}, launch_errors.get(), log.get(), 0, stream);
  CUDA_EXPECT(cudaGraphExecDestroy(self));
  expect_no_errors(launch_errors, 1);
  expect_no_errors(errors, kRuns - 1);
  EXPECT_EQ(count.value_at(0), kRuns);
}

RULE_F(DeviceGraphLaunch, CurrentGraphExecIsTheDeviceGraphOrNull, "PG12.9 6.2.8.7.7.10",
       "cudaGetCurrentGraphExec() returns the handle of the running device graph, and NULL in a kernel that is not "
       "a node of a device graph") {
  cuconform::DeviceBuffer<unsigned long long> handles(2);
  Stream stream;
  handles.copy_from({~0ull, ~0ull});
  record_current_graph<<<1, 1, 0, stream>>>(handles.get());
  CUDA_ASSERT(cudaGetLastError());
  unsigned long long* second = handles.get() + 1;
  void* args[] = {&second};
  cudaGraphExec_t exec = device_graph(reinterpret_cast<void*>(record_current_graph), args, Upload::HostLaunch, stream);
  const auto seen = handles.to_host();
  CUDA_EXPECT(cudaGraphExecDestroy(exec));
  EXPECT_EQ(seen[0], 0ull) << "a plain kernel saw a current graph";
  EXPECT_EQ(seen[1], reinterpret_cast<unsigned long long>(exec)) << "the device graph's kernel saw another handle";
}

// The launching graph's kernel launches a slow graph (op 0: 5 ms, then its ticket) in `mode`, then tail-launches a
// quick one (op 1); op 2 is the launching kernel. Returns the tickets in the order they were taken.
Log slow_launch_then_tail(Mode mode, cuconform::DeviceBuffer<int>& errors) {
  cuconform::DeviceBuffer<Log> log(1);
  Stream stream;
  cudaGraphExec_t slow = ticket_graph(log.get(), 0, 5 * kMillisecond, stream);
  cudaGraphExec_t tail = ticket_graph(log.get(), 1, 0, stream);
  run_launching_graph(Launches{{slow, tail}, {mode, kTail}, 2}, errors.get(), log.get(), 2, stream);
  CUDA_EXPECT(cudaGraphExecDestroy(slow));
  CUDA_EXPECT(cudaGraphExecDestroy(tail));
  return log.to_host()[0];
}

RULE_F(DeviceGraphLaunch, SiblingLaunchIsPartOfTheStreamEnvironment, "PG12.9 6.2.8.7.7.11",
       "a sibling launch runs not as a child of the launching graph's execution environment but as a fire-and-forget "
       "child of its parent (here the stream environment): the launching graph's tail launch does not wait for it, "
       "the stream launch completes only after it") {
  cuconform::DeviceBuffer<int> errors(std::vector<int>{-1, -1});  // -1: a launch that never returned
  // The control, a fire-and-forget child: the tail waits for it (6.2.8.7.9), so a 5 ms child takes its ticket first.
  const Log child = slow_launch_then_tail(kFireAndForget, errors);
  expect_no_errors(errors, 2);
  ASSERT_EQ(child.counter, 3u) << tickets(child, 3);
  ASSERT_LT(child.op[0].ticket, child.op[1].ticket)
      << "the control: the tail ran before the fire-and-forget child it must wait for: " << tickets(child, 3);
  // The sibling: outside the launching graph's environment, so the tail runs once the launching kernel is done,
  // while the sibling still sleeps. Treated as a fire-and-forget child, it would hold the tail back 5 ms.
  errors.copy_from({-1, -1});
  const Log sibling = slow_launch_then_tail(kSibling, errors);
  expect_no_errors(errors, 2);
  EXPECT_EQ(sibling.counter, 3u) << "the sibling graph had not run when the host's stream synchronized: "
                                 << tickets(sibling, 3);
  EXPECT_LT(sibling.op[1].ticket, sibling.op[0].ticket)
      << "the launching graph's tail waited 5 ms for the sibling, as for a child of its own environment: "
      << tickets(sibling, 3);
  EXPECT_LT(sibling.op[2].ticket, sibling.op[1].ticket)
      << "the tail ran before the launching kernel: " << tickets(sibling, 3);
}

void CUDART_CB do_nothing(void*) {}

RULE_F(DeviceGraphLaunch, GraphWithAHostNodeCannotBeInstantiatedForDeviceLaunch, "PG12.9 6.2.8.7.7.2",
       "a device graph can only contain kernel, memcpy, memset and child graph nodes: instantiating a graph with a "
       "host node for device launch fails") {
  Graph graph;
  cudaHostNodeParams host{};
  host.fn = do_nothing;
  cudaGraphNode_t node = nullptr;
  CUDA_ASSERT(cudaGraphAddHostNode(&node, graph, nullptr, 0, &host));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t error = cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagDeviceLaunch);
  cudaGetLastError();
  if (exec) cudaGraphExecDestroy(exec);
  cuconform::record_metric("error", cuconform::describe(error));
  EXPECT_NE(error, cudaSuccess);
}

// ---- 6.2.8.7.5.1: a kernel node cannot start using dynamic parallelism ----

__global__ void write_five(int* out) { *out = 5; }
__global__ void without_dynamic_parallelism(int* out) { *out = 4; }
__global__ void with_dynamic_parallelism(int* out) { write_five<<<1, 1>>>(out); }

class KernelNodeUpdate : public cuconform::GpuTest {};

RULE_F(KernelNodeUpdate, CannotSwitchToAFunctionUsingDynamicParallelism, "PG12.9 6.2.8.7.5.1",
       "a kernel node whose function did not use CUDA dynamic parallelism cannot be updated to a function which "
       "uses it") {
  cuconform::DeviceBuffer<int> out(1);
  int* out_ptr = out.get();
  void* args[] = {&out_ptr};
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaKernelNodeParams original = one_thread(reinterpret_cast<void*>(without_dynamic_parallelism), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &original));
  GraphExec exec(graph);
  const cudaKernelNodeParams updated = one_thread(reinterpret_cast<void*>(with_dynamic_parallelism), args);
  const cudaError_t error = cudaGraphExecKernelNodeSetParams(exec, node, &updated);
  (void)cudaGetLastError();
  cuconform::record_metric("error", cuconform::describe(error));
  EXPECT_NE(error, cudaSuccess) << "the node was updated to a function that launches a child grid";
}

// ---- 6.2.8.7.7.2: what a device graph may hold ----

RULE_F(DeviceGraphLaunch, GraphWithADynamicParallelismKernelCannotBeInstantiatedForDeviceLaunch, "PG12.9 6.2.8.7.7.2",
       "use of CUDA dynamic parallelism by kernels in a device graph is not permitted: instantiating such a graph "
       "for device launch fails") {
  cuconform::DeviceBuffer<int> out(1);
  int* out_ptr = out.get();
  void* args[] = {&out_ptr};
  Graph graph;
  cudaGraphNode_t node = nullptr;
  const cudaKernelNodeParams params = one_thread(reinterpret_cast<void*>(with_dynamic_parallelism), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t error = cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagDeviceLaunch);
  (void)cudaGetLastError();
  if (exec) cudaGraphExecDestroy(exec);
  cuconform::record_metric("error", cuconform::describe(error));
  EXPECT_NE(error, cudaSuccess) << "a graph whose kernel launches a child grid was instantiated for device launch";
}

RULE_F(DeviceGraphLaunch, CooperativeKernelAndMappedHostCopyRunInADeviceGraph, "PG12.9 6.2.8.7.7.2",
       "a device graph may hold a cooperative kernel launch (without MPS) and a memcpy node from pinned "
       "device-mapped host memory: launched from the device, both run") {
  cuconform::DeviceBuffer<int> out(2);
  cuconform::DeviceBuffer<int> errors(1);
  cuconform::DeviceBuffer<Log> log(1);
  int* mapped = nullptr;
  CUDA_ASSERT(cudaHostAlloc(&mapped, sizeof(int), cudaHostAllocMapped));
  *mapped = 17;
  Stream stream;
  Graph graph;
  int* out_ptr = out.get();
  void* args[] = {&out_ptr};
  cudaGraphNode_t nodes[2];
  const cudaKernelNodeParams params = one_thread(reinterpret_cast<void*>(without_dynamic_parallelism), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&nodes[0], graph, nullptr, 0, &params));
  cudaLaunchAttributeValue cooperative{};
  cooperative.cooperative = 1;
  CUDA_ASSERT(cudaGraphKernelNodeSetAttribute(nodes[0], cudaLaunchAttributeCooperative, &cooperative));
  int* mapped_device = nullptr;
  CUDA_ASSERT(cudaHostGetDevicePointer(&mapped_device, mapped, 0));
  CUDA_ASSERT(cudaGraphAddMemcpyNode1D(&nodes[1], graph, &nodes[0], 1, out.get() + 1, mapped_device, sizeof(int),
                                       cudaMemcpyDefault));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagDeviceLaunch);
  if (instantiated == cudaSuccess) {
    CUDA_EXPECT(cudaGraphUpload(exec, stream));
    CUDA_EXPECT(cudaStreamSynchronize(stream));
    run_launching_graph(Launches{{exec}, {kFireAndForget}, 1}, errors.get(), log.get(), 0, stream);
    cudaGraphExecDestroy(exec);
  }
  cudaFreeHost(mapped);
  CUDA_ASSERT(instantiated) << "instantiating the graph for device launch";
  expect_no_errors(errors, 1);
  EXPECT_EQ(out.to_host(), (std::vector<int>{4, 17})) << "[0]: the cooperative kernel's write, [1]: the copy's";
}

}  // namespace
}  // namespace graphs
