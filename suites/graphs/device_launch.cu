// PG12.9 6.2.8.7.7 Device Graph Launch (binary cuconform-graphs-device-launch, built with relocatable device code
// and the device runtime): graphs instantiated for device launch, their upload, fire-and-forget, tail, tail
// self-launch and sibling launches, and the completion of execution environments (6.2.8.7.8).
// clang would need -fgpu-rdc and the device runtime: the device code is compiled out there.
#include <string>

#include "cuconform/cuconform.h"
#include "graph_util.h"

#if CUCONFORM_CLANG_CUDA
#define CUCONFORM_HAS_DEVICE_GRAPH_LAUNCH 0
#else
#define CUCONFORM_HAS_DEVICE_GRAPH_LAUNCH 1
#endif

namespace graphs {
namespace {

using namespace ordering;

class DeviceGraphLaunch : public cuconform::GpuTest {};

#define REQUIRE_DEVICE_GRAPH_LAUNCH()                                                                     \
  do {                                                                                                    \
    if (!CUCONFORM_HAS_DEVICE_GRAPH_LAUNCH) SKIP_COMPILED_OUT("device graph launch needs -rdc and cudadevrt"); \
  } while (0)

enum Mode { kFireAndForget, kTail, kSibling };

// The graphs one launching kernel launches from the device, each in its mode.
struct Launches {
  cudaGraphExec_t graphs[3];
  int modes[3];
  int count;
};

// Launches each graph (device-side cudaGraphLaunch), records each result, then takes ticket `op`.
__global__ void launch_graphs(Launches launches, int* errors, Log* log, int op) {
#if CUCONFORM_HAS_DEVICE_GRAPH_LAUNCH
  for (int i = 0; i < launches.count; ++i) {
    const int mode = launches.modes[i];
    const cudaStream_t stream = mode == kFireAndForget ? cudaStreamGraphFireAndForget
                                : mode == kTail        ? cudaStreamGraphTailLaunch
                                                       : cudaStreamGraphFireAndForgetAsSibling;
    errors[i] = static_cast<int>(cudaGraphLaunch(launches.graphs[i], stream));
  }
#endif
  take_ticket(log, op);
}

// Counts its runs and tail-launches itself until it ran `runs` times.
__global__ void relaunch_self(int* count, int runs, int* errors) {
#if CUCONFORM_HAS_DEVICE_GRAPH_LAUNCH
  const int run = (*count)++;
  if (run + 1 < runs) errors[run] = static_cast<int>(cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch));
#endif
}

__global__ void record_current_graph(unsigned long long* out) {
#if CUCONFORM_HAS_DEVICE_GRAPH_LAUNCH
  *out = reinterpret_cast<unsigned long long>(cudaGetCurrentGraphExec());
#endif
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
  REQUIRE_DEVICE_GRAPH_LAUNCH();
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> errors(3);
  Stream stream;
  // op 0: the launched graph, 2 ms late; op 1: the launching kernel (its ticket was taken first unless the launch
  // ran synchronously).
  cudaGraphExec_t child = ticket_graph(log.get(), 0, 2 * kMillisecond, stream, GetParam().upload);
  if (GetParam().upload == Upload::HostLaunch) CUDA_ASSERT(cudaMemset(log.get(), 0, sizeof(Log)));  // forget the host run
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
  REQUIRE_DEVICE_GRAPH_LAUNCH();
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> errors(3);
  Stream stream;
  cudaGraphExec_t child = ticket_graph(log.get(), 0, 2 * kMillisecond, stream);  // op 0: a slow child
  cudaGraphExec_t tail = ticket_graph(log.get(), 1, 0, stream);                   // op 1: the tail
  run_launching_graph(Launches{{child, tail}, {kFireAndForget, kTail}, 2}, errors.get(), log.get(), 2, stream);
  CUDA_EXPECT(cudaGraphExecDestroy(child));
  CUDA_EXPECT(cudaGraphExecDestroy(tail));
  expect_no_errors(errors, 2);
  const Log seen = log.to_host()[0];
  EXPECT_EQ(seen.counter, 3u) << tickets(seen, 3);
  EXPECT_GT(seen.op[1].ticket, seen.op[0].ticket) << "the tail ran before the fire-and-forget child: " << tickets(seen, 3);
  EXPECT_GT(seen.op[1].ticket, seen.op[2].ticket) << "the tail ran before the launching kernel: " << tickets(seen, 3);
}

RULE_F(DeviceGraphLaunch, TailLaunchesRunOneAtATimeInEnqueueOrder, "PG12.9 6.2.8.7.9",
       "tail launches enqueued by a graph execute one at a time, in the order they were enqueued") {
  REQUIRE_DEVICE_GRAPH_LAUNCH();
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

RULE_F(DeviceGraphLaunch, TailSelfLaunchRepeatsTheCurrentGraph, "PG12.9 6.2.8.7.7.10",
       "a device graph can tail-launch itself through cudaGetCurrentGraphExec()") {
  REQUIRE_DEVICE_GRAPH_LAUNCH();
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
  REQUIRE_DEVICE_GRAPH_LAUNCH();
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

RULE_F(DeviceGraphLaunch, SiblingLaunchIsPartOfTheStreamEnvironment, "PG12.9 6.2.8.7.7.11",
       "a sibling launch runs as a fire-and-forget child of the launching graph's parent (here the stream "
       "environment), so the stream launch completes only after it") {
  REQUIRE_DEVICE_GRAPH_LAUNCH();
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> errors(1);
  Stream stream;
  cudaGraphExec_t sibling = ticket_graph(log.get(), 0, 2 * kMillisecond, stream);
  run_launching_graph(Launches{{sibling}, {kSibling}, 1}, errors.get(), log.get(), 1, stream);
  CUDA_EXPECT(cudaGraphExecDestroy(sibling));
  expect_no_errors(errors, 1);
  EXPECT_EQ(log.to_host()[0].counter, 2u) << "the sibling graph had not run when the host's stream synchronized";
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

}  // namespace
}  // namespace graphs
