// PG12.9 6.2.8.5 Streams: order within a stream, creation and destruction, the legacy default stream, explicit
// and implicit synchronization, host functions, priorities. Each kernel is one thread recording what it saw.
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cuconform/cuconform.h"
#include "ordering.h"

namespace streams {
namespace {

using namespace ordering;

class StreamOrder : public cuconform::GpuTest {};
class StreamDestroy : public cuconform::GpuTest {};
class ExplicitSync : public cuconform::GpuTest {};
// Flag-based, not timed: another context time-slicing the GPU delays both kernels alike, so they need no GPU alone.
class ImplicitSync : public cuconform::GpuTest {};
class HostFunction : public cuconform::GpuTest {};
class StreamPriority : public cuconform::GpuTest {};

// "ticket[0]=2 ticket[1]=0 ..." for a failure message.
std::string tickets(const Log& log, int count) {
  std::ostringstream out;
  for (int i = 0; i < count; ++i) out << (i ? " " : "") << "op" << i << "=#" << log.op[i].ticket;
  return out.str();
}

// Kernels whose delays shrink along the stream: only in-order execution gives tickets 0, 1, 2, ...
void expect_in_issue_order(cudaStream_t stream) {
  constexpr int kOps = 4;
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> value(1);
  HostFlags host(1);
  for (int op = 0; op < kOps; ++op) {
    ticket_after<<<1, 1, 0, stream>>>(log.get(), op, (kOps - op) * 150'000ull);
    CUDA_CHECK(cudaGetLastError());
  }
  // A copy between kernels: it reads what the kernel before it wrote.
  sleep_then_write<<<1, 1, 0, stream>>>(value.get(), 42, 300'000ull);
  CUDA_CHECK(cudaMemcpyAsync(const_cast<int*>(host[0]), value.get(), sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const Log seen = log.to_host()[0];
  for (int op = 0; op < kOps; ++op)
    EXPECT_EQ(seen.op[op].ticket, static_cast<unsigned>(op)) << "observed order: " << tickets(seen, kOps);
  EXPECT_EQ(host.read(0), 42) << "the copy issued after the kernel did not see the kernel's write";
}

RULE_F(StreamOrder, CommandsOfOneStreamExecuteInIssueOrder, "PG12.9 6.2.8.5",
       "a stream is a sequence of commands that execute in order") {
  Stream stream;
  expect_in_issue_order(stream);
}

RULE_F(StreamOrder, DefaultStreamExecutesInIssueOrder, "PG12.9 6.2.8.5.2",
       "kernel launches and copies that specify no stream (stream 0) go to the default stream and execute in order") {
  expect_in_issue_order(0);
}

RULE_F(StreamDestroy, ReturnsImmediatelyAndPendingWorkCompletes, "PG12.9 6.2.8.5.1",
       "cudaStreamDestroy() on a stream with pending work returns immediately; the work still completes") {
  HostFlags flags(2);  // 0: gate the host opens, 1: the kernel's completion
  cudaStream_t stream;
  CUDA_ASSERT(cudaStreamCreate(&stream));
  gated_then_done<<<1, 1, 0, stream>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamDestroy(stream));
  const int done_when_destroy_returned = flags.read(1);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(done_when_destroy_returned, 0) << "cudaStreamDestroy waited for the kernel (1 = gate opened first, "
                                              "2 = the kernel timed out waiting for the host)";
  EXPECT_EQ(flags.read(1), 1) << "the pending kernel did not complete normally (2 = it never saw the gate open)";
}

RULE_F(ExplicitSync, DeviceSynchronizeWaitsForAllStreamsOfAllHostThreads, "PG12.9 6.2.8.5.3",
       "cudaDeviceSynchronize() waits until all preceding commands in all streams of all host threads completed") {
  HostFlags done(4);
  Stream blocking;
  Stream non_blocking(cudaStreamNonBlocking);
  sleep_then_write<<<1, 1, 0, blocking>>>(done[0], 1, 2 * kMillisecond);
  sleep_then_write<<<1, 1, 0, non_blocking>>>(done[1], 1, 3 * kMillisecond);
  sleep_then_write<<<1, 1>>>(done[2], 1, 1 * kMillisecond);
  cudaStream_t other_stream = nullptr;
  std::thread other([&] {
    if (cudaStreamCreateWithFlags(&other_stream, cudaStreamNonBlocking) != cudaSuccess) return;  // seen below
    sleep_then_write<<<1, 1, 0, other_stream>>>(done[3], 1, 4 * kMillisecond);
  });
  other.join();
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  ASSERT_NE(other_stream, nullptr) << "the other thread could not create its stream";
  CUDA_EXPECT(cudaStreamDestroy(other_stream));
  const char* where[] = {"blocking stream", "non-blocking stream", "legacy stream", "another thread's stream"};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(done.read(i), 1) << where[i] << " not complete after cudaDeviceSynchronize";
}

RULE_F(ExplicitSync, StreamSynchronizeWaitsForThatStreamOnly, "PG12.9 6.2.8.5.3",
       "cudaStreamSynchronize() waits for all preceding commands of its stream and lets other streams continue") {
  HostFlags flags(3);  // 0: gate, 1: gated stream's completion, 2: synchronized stream's completion
  Stream gated(cudaStreamNonBlocking);
  Stream waited(cudaStreamNonBlocking);
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  gated_then_done<<<1, 1, 0, gated>>>(flags[0], flags[1], kGateTimeout);
  sleep_then_write<<<1, 1, 0, waited>>>(flags[2], 1, 2 * kMillisecond);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamSynchronize(waited));
  const int waited_done = flags.read(2);
  const int gated_done = flags.read(1);
  const cudaError_t gated_query = cudaStreamQuery(gated);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(waited_done, 1) << "cudaStreamSynchronize returned before its stream's kernel completed";
  EXPECT_EQ(gated_done, 0) << "cudaStreamSynchronize waited for another stream";
  EXPECT_EQ(gated_query, cudaErrorNotReady) << cuconform::describe(gated_query);
  EXPECT_EQ(flags.read(1), 1) << "the gated kernel timed out";
}

RULE_F(ExplicitSync, StreamQueryReportsWhetherPrecedingCommandsCompleted, "PG12.9 6.2.8.5.3",
       "cudaStreamQuery() tells whether all preceding commands in the stream have completed") {
  HostFlags flags(2);
  Stream stream;
  CUDA_ASSERT(cudaStreamQuery(stream));  // empty stream: complete
  gated_then_done<<<1, 1, 0, stream>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  const cudaError_t while_running = cudaStreamQuery(stream);
  flags.raise(0);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  const cudaError_t after = cudaStreamQuery(stream);
  EXPECT_EQ(while_running, cudaErrorNotReady) << cuconform::describe(while_running);
  EXPECT_EQ(after, cudaSuccess) << cuconform::describe(after);
  EXPECT_EQ(flags.read(1), 1);
}

RULE_F(ExplicitSync, StreamWaitEventDelaysLaterCommandsUntilTheEventCompleted, "PG12.9 6.2.8.5.3",
       "commands added to a stream after cudaStreamWaitEvent() wait until the event has completed") {
  HostFlags flags(2);  // 0: gate, 1: the first stream's completion
  cuconform::DeviceBuffer<Log> log(1);
  Stream first(cudaStreamNonBlocking);
  Stream second(cudaStreamNonBlocking);
  Event event(cudaEventDisableTiming);
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  gated_then_done<<<1, 1, 0, first>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaEventRecord(event, first));
  CUDA_ASSERT(cudaStreamWaitEvent(second, event, 0));
  read_and_ticket<<<1, 1, 0, second>>>(log.get(), 0, flags[1]);
  CUDA_ASSERT(cudaGetLastError());
  host_sleep_ms(2);  // a second stream that ignored the wait would have run by now
  const cudaError_t second_query = cudaStreamQuery(second);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the waiting stream's kernel read the first stream's completion "
                                              "flag before it was set (0) or after a timeout (2)";
  EXPECT_EQ(second_query, cudaErrorNotReady) << cuconform::describe(second_query);
}

RULE_F(ImplicitSync, LegacyStreamOperationSeparatesBlockingStreams, "PG12.9 6.2.8.5.4",
       "two operations from different blocking streams cannot run concurrently if an operation on the NULL stream "
       "is submitted in between") {
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> flag(1);
  Stream first;             // blocking
  Stream second;            // blocking
  preload_probe_kernels();  // lazy loading (PG12.9 25.5.1) must not be what holds op 2 back
  // op 0 waits (20 ms) for op 2's flag: op 2 may only start after op 0 completed, so op 0 must time out.
  ticket_after_flag<<<1, 1, 0, first>>>(log.get(), 0, flag.get(), 20 * kMillisecond);
  ticket_after<<<1, 1>>>(log.get(), 1, 0);
  set_flag_and_ticket<<<1, 1, 0, second>>>(log.get(), 2, flag.get(), flag.get());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  const Log seen = log.to_host()[0];
  EXPECT_EQ(seen.op[0].saw, 0) << "the first stream's kernel saw the flag set by the second stream's kernel: they "
                                  "ran concurrently across a NULL-stream kernel";
  EXPECT_LT(seen.op[0].ticket, seen.op[1].ticket) << tickets(seen, 3);
  EXPECT_LT(seen.op[1].ticket, seen.op[2].ticket) << tickets(seen, 3);
}

RULE_F(ImplicitSync, NonBlockingStreamsAreNotSeparatedByTheLegacyStream, "PG12.9 6.2.8.5.4",
       "work on streams created with cudaStreamNonBlocking does not wait for an operation on the NULL stream "
       "submitted in between") {
  REQUIRE_ATTRIBUTE(cudaDevAttrConcurrentKernels, "concurrent kernel execution");
  cuconform::DeviceBuffer<Log> log(1);
  cuconform::DeviceBuffer<int> flag(1);
  Stream first(cudaStreamNonBlocking);
  Stream second(cudaStreamNonBlocking);
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  // op 0 waits for op 2's flag: only possible if op 2 neither waits for op 1 (NULL stream) nor op 1 for op 0.
  ticket_after_flag<<<1, 1, 0, first>>>(log.get(), 0, flag.get(), kGateTimeout);
  ticket_after<<<1, 1>>>(log.get(), 1, 0);
  set_flag_and_ticket<<<1, 1, 0, second>>>(log.get(), 2, flag.get(), flag.get());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  const Log seen = log.to_host()[0];
  EXPECT_EQ(seen.op[0].saw, 1) << "the non-blocking stream's kernel timed out: the second non-blocking stream's "
                                  "kernel was ordered after it. "
                               << tickets(seen, 3);
}

RULE_F(ImplicitSync, LegacyStreamWaitsForAndBlocksBlockingStreams, "PG12.9 6.2.8.5.2",
       "the NULL stream of --default-stream legacy synchronizes with the other (blocking) streams") {
  cuconform::DeviceBuffer<Log> log(1);
  Stream first;
  Stream second;
  ticket_after<<<1, 1, 0, first>>>(log.get(), 0, 1 * kMillisecond);  // before the NULL-stream kernel
  ticket_after<<<1, 1>>>(log.get(), 1, 500'000ull);
  ticket_after<<<1, 1, 0, second>>>(log.get(), 2, 0);  // after it
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  const Log seen = log.to_host()[0];
  for (int op = 0; op < 3; ++op)
    EXPECT_EQ(seen.op[op].ticket, static_cast<unsigned>(op)) << "observed order: " << tickets(seen, 3);
}

struct HostProbe {
  HostFlags* flags;
  int read_index;
  int seen = -1;
};

void CUDART_CB record_flag(void* data) {
  auto* probe = static_cast<HostProbe*>(data);
  probe->seen = probe->flags->read(probe->read_index);
}

RULE_F(HostFunction, RunsAfterAllPrecedingCommandsCompleted, "PG12.9 6.2.8.5.6",
       "a host function enqueued by cudaLaunchHostFunc() runs once all commands issued to the stream before it "
       "completed") {
  HostFlags flags(1);
  Stream stream;
  HostProbe probe{&flags, 0};
  sleep_then_write<<<1, 1, 0, stream>>>(flags[0], 1, 2 * kMillisecond);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaLaunchHostFunc(stream, record_flag, &probe));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(probe.seen, 1) << "the host function ran before the preceding kernel completed";
}

void CUDART_CB sleep_then_raise(void* data) {
  host_sleep_ms(3);
  static_cast<HostFlags*>(data)->raise(0);
}

RULE_F(HostFunction, LaterCommandsWaitForTheFunctionToComplete, "PG12.9 6.2.8.5.6",
       "commands issued to a stream after a host function do not start before the function has completed") {
  HostFlags flags(1);
  cuconform::DeviceBuffer<Log> log(1);
  Stream stream;
  CUDA_ASSERT(cudaLaunchHostFunc(stream, sleep_then_raise, &flags));
  read_and_ticket<<<1, 1, 0, stream>>>(log.get(), 0, flags[0]);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  EXPECT_EQ(log.to_host()[0].op[0].saw, 1) << "the kernel after the host function started before it completed";
}

RULE_F(StreamPriority, RangeIsGreatestThenLeastAndStreamsKeepTheirPriority, "PG12.9 6.2.8.5.7",
       "cudaDeviceGetStreamPriorityRange() gives [greatest, least]; cudaStreamCreateWithPriority() creates streams "
       "with each priority of that range") {
  int least = 0, greatest = 0;
  CUDA_ASSERT(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cuconform::record_metric("least_priority", static_cast<long long>(least));
  cuconform::record_metric("greatest_priority", static_cast<long long>(greatest));
  // Lower numbers are higher priorities (runtime API), so the greatest priority is at most the least.
  EXPECT_LE(greatest, least);
  for (int priority = greatest; priority <= least; ++priority) {
    Stream stream(cudaStreamNonBlocking, priority);
    int reported = 1 << 20;
    CUDA_ASSERT(cudaStreamGetPriority(stream, &reported));
    EXPECT_EQ(reported, priority);
    HostFlags done(1);
    sleep_then_write<<<1, 1, 0, stream>>>(done[0], 1, 0);
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaStreamSynchronize(stream));
    EXPECT_EQ(done.read(0), 1) << "priority " << priority;
  }
}

}  // namespace
}  // namespace streams
