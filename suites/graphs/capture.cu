// PG12.9 6.2.8.7.3 Creating a Graph Using Stream Capture, with 6.2.8.7.3.1 cross-stream dependencies,
// 6.2.8.7.3.2 prohibited operations and 6.2.8.7.3.3 invalidation; and the edge data of capture (6.2.8.7.1.2).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "cuconform/cuconform.h"
#include "graph_util.h"

namespace graphs {
namespace {

using namespace ordering;

class StreamCapture : public cuconform::GpuTest {};
class CrossStreamCapture : public cuconform::GpuTest {};
class CaptureMode : public cuconform::GpuTest {};

__global__ void write_value(int* out, int value) { *out = value; }

// Ends a capture whatever its state, so that a failed expectation leaves no stream in capture mode.
struct CaptureResult {
  cudaError_t error;
  cudaGraph_t graph;
};
CaptureResult end_capture(cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  const cudaError_t error = cudaStreamEndCapture(stream, &graph);
  cudaGetLastError();
  return {error, graph};
}

cudaStreamCaptureStatus capture_status(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status;
}

RULE_F(StreamCapture, RecordsWorkIntoAGraphWithoutExecutingIt, "PG12.9 6.2.8.7.3",
       "work launched into a stream in capture mode is not enqueued for execution but appended to the capture "
       "graph that cudaStreamEndCapture() returns") {
  HostFlags out(1);
  cuconform::DeviceBuffer<int> scratch(1);
  Stream stream;
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  sleep_then_write<<<1, 1, 0, stream>>>(out[0], 7, 0);
  CUDA_EXPECT(cudaGetLastError());
  CUDA_ASSERT(cudaMemsetAsync(scratch.get(), 0, sizeof(int), stream));
  const CaptureResult captured = end_capture(stream);
  CUDA_ASSERT(captured.error);
  Graph graph(captured.graph);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(out.read(0), 0) << "the captured kernel executed during capture";
  const auto nodes = graph.nodes();
  ASSERT_EQ(nodes.size(), 2u);
  std::multiset<cudaGraphNodeType> types;
  for (auto node : nodes) types.insert(type_of(node));
  EXPECT_EQ(types, (std::multiset<cudaGraphNodeType>{cudaGraphNodeTypeKernel, cudaGraphNodeTypeMemset}));
  GraphExec exec(graph);
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(out.read(0), 7) << "the captured kernel did not run when the graph was launched";
}

RULE_F(StreamCapture, IsCapturingReportsTheCaptureMode, "PG12.9 6.2.8.7.3",
       "cudaStreamIsCapturing() tells whether a stream is being captured") {
  Stream stream;
  EXPECT_EQ(capture_status(stream), cudaStreamCaptureStatusNone);
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  EXPECT_EQ(capture_status(stream), cudaStreamCaptureStatusActive);
  const CaptureResult captured = end_capture(stream);
  CUDA_EXPECT(captured.error);
  if (captured.graph) cudaGraphDestroy(captured.graph);
  EXPECT_EQ(capture_status(stream), cudaStreamCaptureStatusNone);
}

RULE_F(StreamCapture, LegacyStreamCannotBeCapturedPerThreadStreamCan, "PG12.9 6.2.8.7.3",
       "stream capture can be used on any stream except cudaStreamLegacy (the NULL stream); it can be used on "
       "cudaStreamPerThread") {
  const cudaError_t legacy = cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal);
  cudaGetLastError();
  if (legacy == cudaSuccess) {
    const CaptureResult ended = end_capture(cudaStreamLegacy);
    if (ended.graph) cudaGraphDestroy(ended.graph);
  }
  EXPECT_NE(legacy, cudaSuccess) << "cudaStreamBeginCapture(cudaStreamLegacy) succeeded";
  cuconform::record_metric("legacy_error", cuconform::describe(legacy));

  cuconform::DeviceBuffer<int> out(1);
  CUDA_ASSERT(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
  write_value<<<1, 1, 0, cudaStreamPerThread>>>(out.get(), 3);
  CUDA_EXPECT(cudaGetLastError());
  const CaptureResult captured = end_capture(cudaStreamPerThread);
  CUDA_ASSERT(captured.error);
  Graph graph(captured.graph);
  EXPECT_EQ(graph.nodes().size(), 1u);
}

RULE_F(StreamCapture, CaptureToAnExistingGraphAppendsToIt, "PG12.9 6.2.8.7.3",
       "cudaStreamBeginCaptureToGraph() captures work into a graph provided by the user") {
  cuconform::DeviceBuffer<Log> log(1);
  Graph graph;
  cudaGraphNode_t first = nullptr;
  Log* log_ptr = log.get();
  int op0 = 0;
  unsigned long long delay = 500'000ull;
  void* args[] = {&log_ptr, &op0, &delay};
  const cudaKernelNodeParams params = one_thread(reinterpret_cast<void*>(ticket_after), args);
  CUDA_ASSERT(cudaGraphAddKernelNode(&first, graph, nullptr, 0, &params));
  Stream stream;
  CUDA_ASSERT(cudaStreamBeginCaptureToGraph(stream, graph, &first, nullptr, 1, cudaStreamCaptureModeGlobal));
  ticket_after<<<1, 1, 0, stream>>>(log.get(), 1, 0);
  CUDA_EXPECT(cudaGetLastError());
  const CaptureResult captured = end_capture(stream);
  CUDA_ASSERT(captured.error);
  EXPECT_EQ(captured.graph, static_cast<cudaGraph_t>(graph)) << "the capture returned another graph";
  EXPECT_EQ(graph.nodes().size(), 2u);
  const auto edges = graph.edges();
  ASSERT_EQ(edges.size(), 1u);
  EXPECT_EQ(edges[0].first, first) << "the captured kernel does not depend on the node it was captured after";
  GraphExec exec(graph);
  CUDA_ASSERT(cudaGraphLaunch(exec, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  const Log seen = log.to_host()[0];
  EXPECT_EQ(seen.op[0].ticket, 0u);
  EXPECT_EQ(seen.op[1].ticket, 1u);
}

// The kernel node's `op` argument (ticket_after's second parameter) names it.
int op_of(cudaGraphNode_t node) {
  cudaKernelNodeParams params{};
  CUDA_CHECK(cudaGraphKernelNodeGetParams(node, &params));
  return *static_cast<int*>(params.kernelParams[1]);
}

RULE_F(CrossStreamCapture, ForkAndJoinThroughEventsBuildTheDependencies, "PG12.9 6.2.8.7.3.1",
       "cudaEventRecord()/cudaStreamWaitEvent() during capture fork a second stream into the capture and join it "
       "back: the guide's example gives A->B, A->C, B->D, C->D, and both streams leave capture mode at the end") {
  enum { A, B, C, D };
  // Issue 34's rule for ordering: delays shrink along the dependencies (without them D would finish first and A last),
  // and B and C differ, once one way and once the other, so that a graph that ran D after only one of them (a B->D or
  // C->D edge captured but not kept) lets D finish before the slower one.
  for (const unsigned long long b_delay : {450'000ull, 150'000ull}) {
    const unsigned long long c_delay = 600'000ull - b_delay;
    SCOPED_TRACE(testing::Message() << "B delay " << b_delay << " ns, C delay " << c_delay << " ns");
    cuconform::DeviceBuffer<Log> log(1);
    Stream stream1, stream2;
    Event event1(cudaEventDisableTiming), event2(cudaEventDisableTiming);
    CUDA_ASSERT(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
    ticket_after<<<1, 1, 0, stream1>>>(log.get(), A, 600'000ull);
    CUDA_EXPECT(cudaEventRecord(event1, stream1));
    CUDA_EXPECT(cudaStreamWaitEvent(stream2, event1, 0));
    EXPECT_EQ(capture_status(stream2), cudaStreamCaptureStatusActive) << "waiting on a captured event";
    ticket_after<<<1, 1, 0, stream1>>>(log.get(), B, b_delay);
    ticket_after<<<1, 1, 0, stream2>>>(log.get(), C, c_delay);
    CUDA_EXPECT(cudaEventRecord(event2, stream2));
    CUDA_EXPECT(cudaStreamWaitEvent(stream1, event2, 0));
    ticket_after<<<1, 1, 0, stream1>>>(log.get(), D, 0);
    CUDA_EXPECT(cudaGetLastError());
    const CaptureResult captured = end_capture(stream1);
    CUDA_ASSERT(captured.error);
    Graph graph(captured.graph);
    EXPECT_EQ(capture_status(stream1), cudaStreamCaptureStatusNone);
    EXPECT_EQ(capture_status(stream2), cudaStreamCaptureStatusNone);

    std::set<std::pair<int, int>> edges;
    for (const auto& [from, to] : graph.edges()) edges.insert({op_of(from), op_of(to)});
    EXPECT_EQ(graph.nodes().size(), 4u);
    EXPECT_EQ(edges, (std::set<std::pair<int, int>>{{A, B}, {A, C}, {B, D}, {C, D}}));

    GraphExec exec(graph);
    CUDA_ASSERT(cudaGraphLaunch(exec, stream1));
    CUDA_ASSERT(cudaStreamSynchronize(stream1));
    const Log seen = log.to_host()[0];
    std::string order;
    for (int op : {A, B, C, D}) order += std::string(1, "ABCD"[op]) + "=#" + std::to_string(seen.op[op].ticket) + " ";
    EXPECT_EQ(seen.op[A].ticket, 0u) << "A ran after a node that depends on it: " << order;
    EXPECT_EQ(seen.op[D].ticket, 3u) << "D ran before a node it depends on: " << order;
  }
}

RULE_F(CrossStreamCapture, UnjoinedStreamFailsTheCapture, "PG12.9 6.2.8.7.3.1",
       "failure to rejoin a forked stream to the origin stream fails the capture; all its streams leave capture mode") {
  cuconform::DeviceBuffer<int> out(1);
  Stream stream1, stream2;
  Event fork(cudaEventDisableTiming);
  CUDA_ASSERT(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
  write_value<<<1, 1, 0, stream1>>>(out.get(), 1);
  CUDA_EXPECT(cudaEventRecord(fork, stream1));
  CUDA_EXPECT(cudaStreamWaitEvent(stream2, fork, 0));
  write_value<<<1, 1, 0, stream2>>>(out.get(), 2);  // never joined back
  CUDA_EXPECT(cudaGetLastError());
  const CaptureResult captured = end_capture(stream1);
  if (captured.graph) cudaGraphDestroy(captured.graph);
  cuconform::record_metric("error", cuconform::describe(captured.error));
  EXPECT_NE(captured.error, cudaSuccess) << "the capture with an unjoined stream succeeded";
  EXPECT_EQ(captured.graph, nullptr);
  EXPECT_EQ(capture_status(stream1), cudaStreamCaptureStatusNone);
  EXPECT_EQ(capture_status(stream2), cudaStreamCaptureStatusNone);
}

RULE_F(StreamCapture, NextUncapturedItemDependsOnTheLastUncapturedItem, "PG12.9 6.2.8.7.3.1",
       "when a stream leaves capture mode, its next non-captured item depends on the most recent prior non-captured "
       "item") {
  HostFlags flags(2);  // 0: gate, 1: the first kernel's completion
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> scratch(1);
  Stream stream;
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  preload(write_value);
  gated_then_done<<<1, 1, 0, stream>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  write_value<<<1, 1, 0, stream>>>(scratch.get(), 1);
  const CaptureResult captured = end_capture(stream);
  CUDA_EXPECT(captured.error);
  Graph graph(captured.graph);
  read_and_ticket<<<1, 1, 0, stream>>>(log.get(), 0, flags[1]);
  CUDA_ASSERT(cudaGetLastError());
  host_sleep_ms(2);
  flags.raise(0);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the kernel after the capture ran before the kernel before it "
                                              "completed (0), or that kernel timed out (2)";
}

// 6.2.8.7.3.2: operations that are invalid while a stream is captured.
enum class Prohibited {
  SynchronizeCapturingStream,
  QueryCapturingStream,
  SynchronizeCapturedEvent,
  QueryCapturedEvent,
  SynchronizeDevice,
  LaunchIntoLegacyStream,
  SynchronousMemcpy,
  WaitOnUncapturedEvent,
  MergeTwoCaptureGraphs,
  StreamAttachMemAsync,
};

struct ProhibitedCase {
  const char* name;
  Prohibited op;
  bool invalidates;  // the guide calls it invalid (6.2.8.7.3.3), rather than only "not supported"
};

void PrintTo(const ProhibitedCase& c, std::ostream* os) { *os << c.name; }

class ProhibitedDuringCapture : public cuconform::GpuTestWithParam<ProhibitedCase> {};

RULE_P(ProhibitedDuringCapture, ReturnsAnErrorAndInvalidatesTheCapture, "PG12.9 6.2.8.7.3.2",
       "synchronizing or querying a capturing stream, a captured event or the device, using the legacy stream "
       "while a blocking stream captures, waiting on an uncaptured event without cudaEventWaitExternal, merging two "
       "capture graphs, and cudaStreamAttachMemAsync return an error; an invalid one invalidates the capture so "
       "that cudaStreamEndCapture() returns an error and a NULL graph (6.2.8.7.3.3)") {
  cuconform::DeviceBuffer<int> device(1);
  int* managed = nullptr;
  if (GetParam().op == Prohibited::StreamAttachMemAsync) {
    REQUIRE_ATTRIBUTE(cudaDevAttrManagedMemory, "managed memory");
    CUDA_ASSERT(cudaMallocManaged(&managed, sizeof(int)));
  }
  Stream stream;                        // blocking
  Stream other(cudaStreamNonBlocking);  // for the merge: a second, separate capture
  Event captured_event(cudaEventDisableTiming), uncaptured_event(cudaEventDisableTiming);
  CUDA_ASSERT(cudaEventRecord(uncaptured_event, other));
  CUDA_ASSERT(cudaStreamSynchronize(other));
  int host_value = 0;

  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  write_value<<<1, 1, 0, stream>>>(device.get(), 1);
  CUDA_EXPECT(cudaEventRecord(captured_event, stream));
  cudaError_t error = cudaSuccess;
  switch (GetParam().op) {
    case Prohibited::SynchronizeCapturingStream: error = cudaStreamSynchronize(stream); break;
    case Prohibited::QueryCapturingStream: error = cudaStreamQuery(stream); break;
    case Prohibited::SynchronizeCapturedEvent: error = cudaEventSynchronize(captured_event); break;
    case Prohibited::QueryCapturedEvent: error = cudaEventQuery(captured_event); break;
    case Prohibited::SynchronizeDevice: error = cudaDeviceSynchronize(); break;
    case Prohibited::LaunchIntoLegacyStream:
      write_value<<<1, 1, 0, cudaStreamLegacy>>>(device.get(), 2);
      error = cudaGetLastError();
      break;
    case Prohibited::SynchronousMemcpy:
      error = cudaMemcpy(&host_value, device.get(), sizeof(int), cudaMemcpyDeviceToHost);
      break;
    case Prohibited::WaitOnUncapturedEvent: error = cudaStreamWaitEvent(stream, uncaptured_event, 0); break;
    case Prohibited::MergeTwoCaptureGraphs: {
      CUDA_EXPECT(cudaStreamBeginCapture(other, cudaStreamCaptureModeGlobal));
      write_value<<<1, 1, 0, other>>>(device.get(), 3);
      // The waiting stream belongs to the other capture graph.
      error = cudaStreamWaitEvent(other, captured_event, 0);
      const CaptureResult other_end = end_capture(other);
      if (other_end.graph) cudaGraphDestroy(other_end.graph);
      cuconform::record_metric("waiting_capture_end", cuconform::describe(other_end.error));
      EXPECT_NE(other_end.error, cudaSuccess) << "the capture that waited on the other capture's event succeeded";
      break;
    }
    case Prohibited::StreamAttachMemAsync:
      error = cudaStreamAttachMemAsync(stream, managed, 0, cudaMemAttachSingle);
      break;
  }
  cudaGetLastError();
  const CaptureResult ended = end_capture(stream);
  if (ended.graph) cudaGraphDestroy(ended.graph);
  if (managed) cudaFree(managed);
  CUDA_EXPECT(cudaDeviceSynchronize());
  cuconform::record_metric("error", cuconform::describe(error));
  cuconform::record_metric("end_capture", cuconform::describe(ended.error));
  EXPECT_NE(error, cudaSuccess) << GetParam().name << " succeeded during capture";
  if (GetParam().invalidates) {
    EXPECT_NE(ended.error, cudaSuccess) << "cudaStreamEndCapture succeeded after " << GetParam().name;
    EXPECT_EQ(ended.graph, nullptr);
  }
  EXPECT_EQ(capture_status(stream), cudaStreamCaptureStatusNone);
}

INSTANTIATE_TEST_SUITE_P(
    Operations, ProhibitedDuringCapture,
    ::testing::Values(ProhibitedCase{"SynchronizeCapturingStream", Prohibited::SynchronizeCapturingStream, true},
                      ProhibitedCase{"QueryCapturingStream", Prohibited::QueryCapturingStream, true},
                      ProhibitedCase{"SynchronizeCapturedEvent", Prohibited::SynchronizeCapturedEvent, true},
                      ProhibitedCase{"QueryCapturedEvent", Prohibited::QueryCapturedEvent, true},
                      ProhibitedCase{"SynchronizeDevice", Prohibited::SynchronizeDevice, true},
                      ProhibitedCase{"LaunchIntoLegacyStream", Prohibited::LaunchIntoLegacyStream, true},
                      ProhibitedCase{"SynchronousMemcpy", Prohibited::SynchronousMemcpy, true},
                      ProhibitedCase{"WaitOnUncapturedEvent", Prohibited::WaitOnUncapturedEvent, true},
                      ProhibitedCase{"MergeTwoCaptureGraphs", Prohibited::MergeTwoCaptureGraphs, false},
                      ProhibitedCase{"StreamAttachMemAsync", Prohibited::StreamAttachMemAsync, false}),
    [](const auto& info) { return std::string(info.param.name); });

RULE_F(StreamCapture, InvalidatedCaptureRejectsFurtherUseUntilEndCapture, "PG12.9 6.2.8.7.3.3",
       "after an invalid operation, further use of the capturing stream or its captured events returns an error "
       "until cudaStreamEndCapture(), which takes the stream out of capture mode and returns an error and NULL") {
  cuconform::DeviceBuffer<int> device(1);
  Stream stream, other;
  Event captured_event(cudaEventDisableTiming);
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  write_value<<<1, 1, 0, stream>>>(device.get(), 1);
  CUDA_EXPECT(cudaEventRecord(captured_event, stream));
  EXPECT_NE(cudaStreamSynchronize(stream), cudaSuccess);  // the invalid operation
  cudaGetLastError();
  write_value<<<1, 1, 0, stream>>>(device.get(), 2);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t record = cudaEventRecord(captured_event, stream);
  cudaGetLastError();
  const cudaError_t wait = cudaStreamWaitEvent(other, captured_event, 0);
  cudaGetLastError();
  const CaptureResult ended = end_capture(stream);
  if (ended.graph) cudaGraphDestroy(ended.graph);
  CUDA_EXPECT(cudaDeviceSynchronize());
  cuconform::record_metric("launch_error", cuconform::describe(launch));
  cuconform::record_metric("end_capture", cuconform::describe(ended.error));
  EXPECT_NE(launch, cudaSuccess) << "a launch into the invalidated capture succeeded";
  EXPECT_NE(record, cudaSuccess) << "an event record into the invalidated capture succeeded";
  EXPECT_NE(wait, cudaSuccess) << "waiting on the invalidated capture's event succeeded";
  EXPECT_NE(ended.error, cudaSuccess);
  EXPECT_EQ(ended.graph, nullptr);
  EXPECT_EQ(capture_status(stream), cudaStreamCaptureStatusNone);
  EXPECT_EQ(capture_status(other), cudaStreamCaptureStatusNone);
  // Out of capture mode, the stream works again.
  write_value<<<1, 1, 0, stream>>>(device.get(), 4);
  CUDA_EXPECT(cudaGetLastError());
  CUDA_EXPECT(cudaStreamSynchronize(stream));
  EXPECT_EQ(device.value_at(0), 4);
}

RULE_F(StreamCapture, LegacyStreamStaysUsableWhileOnlyNonBlockingStreamsCapture, "PG12.9 6.2.8.7.3.2",
       "use of the legacy stream is invalid only while a stream not created with cudaStreamNonBlocking captures") {
  cuconform::DeviceBuffer<int> device(2);
  Stream stream(cudaStreamNonBlocking);
  // Relaxed: 6.2.8.7.3.2 speaks of the legacy stream whatever the capture mode, while the global and thread-local
  // modes also forbid "potentially unsafe" calls during a capture (runtime API, cudaStreamCaptureMode), a
  // restriction the guide does not define; the relaxed mode keeps this rule to what the section says.
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  write_value<<<1, 1, 0, stream>>>(device.get(), 1);
  write_value<<<1, 1, 0, cudaStreamLegacy>>>(device.get() + 1, 2);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaStreamSynchronize(cudaStreamLegacy);
  cudaGetLastError();
  const CaptureResult ended = end_capture(stream);
  Graph graph(ended.graph);
  CUDA_EXPECT(launch);
  CUDA_EXPECT(sync);
  CUDA_EXPECT(ended.error);
  EXPECT_EQ(device.value_at(1), 2) << "the legacy-stream kernel did not run";
  EXPECT_EQ(device.value_at(0), 0) << "the captured kernel ran";
}

RULE_F(StreamCapture, WaitOnUncapturedEventWithWaitExternalIsCaptured, "PG12.9 6.2.8.7.3.2",
       "waiting on a non-captured event from a capturing stream is valid with cudaEventWaitExternal; it is "
       "captured as an event wait node") {
  Stream stream, other;
  Event event(cudaEventDisableTiming);
  CUDA_ASSERT(cudaEventRecord(event, other));
  CUDA_ASSERT(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  const cudaError_t wait = cudaStreamWaitEvent(stream, event, cudaEventWaitExternal);
  cudaGetLastError();
  const CaptureResult ended = end_capture(stream);
  Graph graph(ended.graph);
  CUDA_EXPECT(wait);
  CUDA_ASSERT(ended.error);
  const auto nodes = graph.nodes();
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(type_of(nodes[0]), cudaGraphNodeTypeWaitEvent);
}

RULE_F(CrossStreamCapture, GetCaptureInfoDescribesTheSharedCaptureGraph, "PG12.9 6.2.8.7.3.1",
       "streams joined by a captured event are captured to the same capture graph; cudaStreamGetCaptureInfo() "
       "gives its status, id, graph and the stream's current dependencies") {
  cuconform::DeviceBuffer<int> out(1);
  Stream stream1, stream2;
  Event event(cudaEventDisableTiming);
  CUDA_ASSERT(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal));
  write_value<<<1, 1, 0, stream1>>>(out.get(), 1);
  CUDA_EXPECT(cudaEventRecord(event, stream1));
  CUDA_EXPECT(cudaStreamWaitEvent(stream2, event, 0));
  cudaStreamCaptureStatus status1{}, status2{};
  unsigned long long id1 = 0, id2 = 0;
  cudaGraph_t graph1 = nullptr, graph2 = nullptr;
  const cudaGraphNode_t* deps1 = nullptr;
  size_t count1 = 0;
  CUDA_EXPECT(cudaStreamGetCaptureInfo(stream1, &status1, &id1, &graph1, &deps1, nullptr, &count1));
  const cudaGraphNode_t kernel_node = count1 == 1 ? deps1[0] : nullptr;  // valid until the next call on stream1
  CUDA_EXPECT(cudaStreamGetCaptureInfo(stream2, &status2, &id2, &graph2));
  CUDA_EXPECT(cudaEventRecord(event, stream2));
  CUDA_EXPECT(cudaStreamWaitEvent(stream1, event, 0));
  const CaptureResult ended = end_capture(stream1);
  Graph graph(ended.graph);
  CUDA_ASSERT(ended.error);
  EXPECT_EQ(status1, cudaStreamCaptureStatusActive);
  EXPECT_EQ(status2, cudaStreamCaptureStatusActive);
  EXPECT_EQ(id1, id2) << "the joined stream reports another capture";
  EXPECT_EQ(graph1, graph2);
  EXPECT_EQ(graph1, static_cast<cudaGraph_t>(graph)) << "the capture graph is not the graph EndCapture returned";
  ASSERT_EQ(count1, 1u) << "the origin stream's dependencies after one kernel";
  EXPECT_EQ(type_of(kernel_node), cudaGraphNodeTypeKernel);
  cudaStreamCaptureStatus after{};
  CUDA_EXPECT(cudaStreamGetCaptureInfo(stream1, &after));
  EXPECT_EQ(after, cudaStreamCaptureStatusNone);
}

// Capture modes (runtime API, cudaStreamBeginCapture): which threads may make potentially unsafe calls such as
// cudaMalloc while a capture is under way.
cudaError_t malloc_and_free() {
  void* p = nullptr;
  const cudaError_t error = cudaMalloc(&p, 256);
  if (error == cudaSuccess) cudaFree(p);
  cudaGetLastError();
  return error;
}

cudaError_t malloc_in_another_thread() {
  cudaError_t error = cudaErrorUnknown;
  std::thread([&] { error = malloc_and_free(); }).join();
  return error;
}

struct ModeOutcome {
  cudaError_t same_thread;
  cudaError_t other_thread;
};

ModeOutcome unsafe_calls_during(cudaStreamCaptureMode mode, bool from_same_thread) {
  Stream stream;
  cuconform::DeviceBuffer<int> out(1);
  CUDA_CHECK(cudaStreamBeginCapture(stream, mode));
  write_value<<<1, 1, 0, stream>>>(out.get(), 1);
  ModeOutcome outcome{cudaSuccess, cudaSuccess};
  if (from_same_thread) outcome.same_thread = malloc_and_free();
  else outcome.other_thread = malloc_in_another_thread();
  const CaptureResult ended = end_capture(stream);
  if (ended.graph) cudaGraphDestroy(ended.graph);
  return outcome;
}

RULE_F(CaptureMode, GlobalProhibitsUnsafeCallsInEveryThread, "PG12.9 6.2.8.7.3.2",
       "during a cudaStreamCaptureModeGlobal capture, a potentially unsafe call (cudaMalloc) fails in the capturing "
       "thread and in other threads (runtime API)") {
  const cudaError_t same = unsafe_calls_during(cudaStreamCaptureModeGlobal, true).same_thread;
  const cudaError_t other = unsafe_calls_during(cudaStreamCaptureModeGlobal, false).other_thread;
  cuconform::record_metric("same_thread", cuconform::describe(same));
  cuconform::record_metric("other_thread", cuconform::describe(other));
  EXPECT_NE(same, cudaSuccess);
  EXPECT_NE(other, cudaSuccess);
}

RULE_F(CaptureMode, ThreadLocalProhibitsUnsafeCallsOnlyInTheCapturingThread, "PG12.9 6.2.8.7.3.2",
       "during a cudaStreamCaptureModeThreadLocal capture, cudaMalloc fails in the capturing thread and succeeds in "
       "another thread (runtime API)") {
  const cudaError_t same = unsafe_calls_during(cudaStreamCaptureModeThreadLocal, true).same_thread;
  const cudaError_t other = unsafe_calls_during(cudaStreamCaptureModeThreadLocal, false).other_thread;
  cuconform::record_metric("same_thread", cuconform::describe(same));
  EXPECT_NE(same, cudaSuccess);
  EXPECT_EQ(other, cudaSuccess) << cuconform::describe(other);
}

RULE_F(CaptureMode, RelaxedAllowsUnsafeCalls, "PG12.9 6.2.8.7.3.2",
       "during a cudaStreamCaptureModeRelaxed capture, cudaMalloc succeeds in the capturing thread (runtime API)") {
  const cudaError_t same = unsafe_calls_during(cudaStreamCaptureModeRelaxed, true).same_thread;
  EXPECT_EQ(same, cudaSuccess) << cuconform::describe(same);
}

// ---- 6.2.8.7.1.2: edge data in stream capture ----

class CaptureEdgeData : public cuconform::GpuTest {};

cudaGraphEdgeData programmatic_edge() {
  cudaGraphEdgeData data{};
  data.type = cudaGraphDependencyTypeProgrammatic;
  data.from_port = cudaGraphKernelNodePortProgrammatic;
  return data;
}

// Begins a capture of `stream` with one kernel node and makes the stream's only dependency that node, through a
// programmatic (dangling) edge. Returns the update's error.
cudaError_t capture_kernel_with_programmatic_dependency(cudaStream_t stream, int* out) {
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  write_value<<<1, 1, 0, stream>>>(out, 1);
  cudaStreamCaptureStatus status{};
  const cudaGraphNode_t* dependencies = nullptr;
  size_t count = 0;
  cudaError_t error = cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &dependencies, nullptr, &count);
  if (error != cudaSuccess) return error;
  if (count != 1) return cudaErrorUnknown;
  cudaGraphNode_t node = dependencies[0];
  const cudaGraphEdgeData data = programmatic_edge();
  return cudaStreamUpdateCaptureDependencies(stream, &node, &data, 1, cudaStreamSetCaptureDependencies);
}

RULE_F(CaptureEdgeData, DanglingEdgeDataIsReportedAndReachesTheNextCapturedNode, "PG12.9 6.2.8.7.1.2",
       "edge data given to cudaStreamUpdateCaptureDependencies() belongs to a dangling edge, which "
       "cudaStreamGetCaptureInfo() reports and which is connected to the next captured node") {
  cuconform::DeviceBuffer<int> out(2);
  Stream stream(cudaStreamNonBlocking);
  const cudaError_t updated = capture_kernel_with_programmatic_dependency(stream, out.get());
  cudaStreamCaptureStatus status{};
  const cudaGraphNode_t* dependencies = nullptr;
  const cudaGraphEdgeData* edge_data = nullptr;
  size_t count = 0;
  const cudaError_t info =
      cudaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &dependencies, &edge_data, &count);
  cudaGraphEdgeData reported{};
  if (info == cudaSuccess && count == 1 && edge_data) reported = edge_data[0];
  write_value<<<1, 1, 0, stream>>>(out.get() + 1, 2);
  const CaptureResult ended = end_capture(stream);
  Graph graph(ended.graph);
  CUDA_ASSERT(updated);
  CUDA_ASSERT(info);
  CUDA_ASSERT(ended.error);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(reported.type, cudaGraphDependencyTypeProgrammatic) << "cudaStreamGetCaptureInfo's edge data";
  EXPECT_EQ(reported.from_port, cudaGraphKernelNodePortProgrammatic) << "cudaStreamGetCaptureInfo's edge data";
  size_t edges = 1;
  cudaGraphNode_t from = nullptr, to = nullptr;
  cudaGraphEdgeData edge{};
  CUDA_ASSERT(cudaGraphGetEdges(graph, &from, &to, &edge, &edges));
  ASSERT_EQ(edges, 1u);
  EXPECT_EQ(edge.type, cudaGraphDependencyTypeProgrammatic) << "the edge to the next captured node";
  EXPECT_EQ(edge.from_port, cudaGraphKernelNodePortProgrammatic) << "the edge to the next captured node";
}

}  // namespace
}  // namespace graphs
