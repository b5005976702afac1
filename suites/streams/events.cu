// PG12.9 6.2.8.8 Events and 6.2.8.9 Synchronous Calls: when an event completes, what cudaEventSynchronize waits
// for, elapsed time, and blocking synchronization.
#include <ctime>

#include <chrono>

#include "cuconform/cuconform.h"
#include "ordering.h"

namespace streams {
namespace {

using namespace ordering;

class Events : public cuconform::GpuTest {};
class EventTiming : public cuconform::ExclusiveGpuTest {};

RULE_F(Events, QueryReportsCompletionOfTheWorkBeforeTheEvent, "PG12.9 6.2.8.8",
       "an event recorded in a stream has completed when all commands of that stream preceding it have completed; "
       "cudaEventQuery() tells whether it has") {
  HostFlags flags(2);
  Stream stream;
  Event event;
  gated_then_done<<<1, 1, 0, stream>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(event, stream));
  const cudaError_t while_gated = cudaEventQuery(event);
  flags.raise(0);
  CUDA_ASSERT(cudaEventSynchronize(event));
  const int done_after_sync = flags.read(1);
  const cudaError_t after = cudaEventQuery(event);
  EXPECT_EQ(while_gated, cudaErrorNotReady) << cuconform::describe(while_gated);
  EXPECT_EQ(done_after_sync, 1) << "cudaEventSynchronize returned before the work preceding the event completed";
  EXPECT_EQ(after, cudaSuccess) << cuconform::describe(after);
}

RULE_F(Events, EventOfOneStreamDoesNotWaitForOtherStreams, "PG12.9 6.2.8.8",
       "an event recorded in a stream completes when the commands of that stream preceding it completed, whatever "
       "other non-blocking streams still run") {
  HostFlags flags(3);
  Stream gated(cudaStreamNonBlocking);
  Stream stream(cudaStreamNonBlocking);
  Event event;
  preload_probe_kernels();  // no lazy loading behind the waiting kernel (PG12.9 25.5.1)
  gated_then_done<<<1, 1, 0, gated>>>(flags[0], flags[1], kGateTimeout);
  sleep_then_write<<<1, 1, 0, stream>>>(flags[2], 1, 1 * kMillisecond);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(event, stream));
  CUDA_ASSERT(cudaEventSynchronize(event));
  const int gated_done = flags.read(1);
  const int own_done = flags.read(2);
  flags.raise(0);
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(own_done, 1);
  EXPECT_EQ(gated_done, 0) << "the event waited for another stream's kernel (2: that kernel timed out)";
}

RULE_F(Events, EventInStreamZeroCompletesAfterAllBlockingStreams, "PG12.9 6.2.8.8",
       "an event recorded in stream zero completes only after all preceding commands in all (blocking) streams "
       "completed") {
  HostFlags flags(2);
  Stream blocking;
  Event event;
  gated_then_done<<<1, 1, 0, blocking>>>(flags[0], flags[1], kGateTimeout);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(event, 0));
  host_sleep_ms(1);
  const cudaError_t while_gated = cudaEventQuery(event);
  flags.raise(0);
  CUDA_ASSERT(cudaEventSynchronize(event));
  const int done_after_sync = flags.read(1);
  EXPECT_EQ(while_gated, cudaErrorNotReady)
      << cuconform::describe(while_gated) << ": the stream-zero event completed while another stream ran";
  EXPECT_EQ(done_after_sync, 1);
}

// The kernel measures its own duration with %globaltimer.
__global__ void timed_sleep(unsigned long long* duration_ns, unsigned long long delay_ns) {
  const unsigned long long start = global_ns();
  sleep_for(delay_ns);
  *duration_ns = global_ns() - start;
}

RULE_F(EventTiming, ElapsedTimeCoversTheWorkBetweenTheEvents, "PG12.9 6.2.8.8.2",
       "cudaEventElapsedTime() gives the time in milliseconds between two recorded events, which covers the work "
       "between them") {
  cuconform::DeviceBuffer<unsigned long long> duration(1);
  Stream stream;
  Event start, stop;
  const auto host_start = std::chrono::steady_clock::now();
  CUDA_ASSERT(cudaEventRecord(start, stream));
  timed_sleep<<<1, 1, 0, stream>>>(duration.get(), 5 * kMillisecond);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(stop, stream));
  CUDA_ASSERT(cudaEventSynchronize(stop));
  const double host_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start).count();
  float elapsed_ms = -1;
  CUDA_ASSERT(cudaEventElapsedTime(&elapsed_ms, start, stop));
  const double kernel_ms = duration.value_at(0) / 1e6;
  cuconform::record_metric("elapsed_ms", static_cast<double>(elapsed_ms));
  cuconform::record_metric("kernel_ms", kernel_ms);
  cuconform::record_metric("host_ms", host_ms);
  // The runtime API gives the event resolution as about 0.5 us; %globaltimer ticks about every microsecond on some
  // GPUs: 5 us of slack, against a 5 ms kernel.
  constexpr double kSlackMs = 0.005;
  EXPECT_GE(elapsed_ms, kernel_ms - kSlackMs) << "the events' interval is shorter than the kernel between them";
  EXPECT_LE(elapsed_ms, host_ms + kSlackMs) << "the events' interval is longer than the host saw from record to sync";
}

RULE_F(Events, ElapsedTimeOfAnEventWithoutTimingIsAnError, "PG12.9 6.2.8.8.2",
       "cudaEventElapsedTime() with an event created with cudaEventDisableTiming returns "
       "cudaErrorInvalidResourceHandle (runtime API)") {
  Stream stream;
  Event timed;
  Event untimed(cudaEventDisableTiming);
  CUDA_ASSERT(cudaEventRecord(timed, stream));
  CUDA_ASSERT(cudaEventRecord(untimed, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  float ms = 0;
  EXPECT_EQ(cudaEventElapsedTime(&ms, timed, untimed), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventElapsedTime(&ms, untimed, timed), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
}

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

RULE_F(EventTiming, BlockingSyncEventBlocksTheHostThreadInsteadOfSpinning, "PG12.9 6.2.8.9",
       "cudaEventSynchronize() on an event created with cudaEventBlockingSync blocks the host thread until the event "
       "completes rather than spinning") {
  HostFlags done(1);
  Stream stream;
  Event event(cudaEventBlockingSync | cudaEventDisableTiming);
  sleep_then_write<<<1, 1, 0, stream>>>(done[0], 1, 40 * kMillisecond);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaEventRecord(event, stream));
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_ms();
  CUDA_ASSERT(cudaEventSynchronize(event));
  const double cpu_ms = thread_cpu_ms() - cpu_start;
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
  cuconform::record_metric("wait_wall_ms", wall_ms);
  cuconform::record_metric("wait_cpu_ms", cpu_ms);
  EXPECT_EQ(done.read(0), 1) << "cudaEventSynchronize returned before the event completed";
  // A spinning wait burns about its whole wall time; a blocked thread a small part of it.
  EXPECT_LT(cpu_ms, 0.5 * wall_ms) << "the host thread used " << cpu_ms << " ms of CPU in a " << wall_ms << " ms wait";
}

}  // namespace
}  // namespace streams
