// PG12.9 13.4.3.1.2-13.4.3.1.3: the launch pool. Launches that have not begun to execute hold a slot; the pool has
// cudaLimitDevRuntimePendingLaunchCount slots (2048 by default), set from the host before any kernel is launched;
// a device-side launch that finds the pool full fails with cudaErrorLaunchOutOfResources, and the pool has twice as
// many event slots, a full one failing an event record with cudaErrorMemoryAllocation. The limit must be set before
// any launch, so these rules run in a child process.
#include "cdp.h"

#include <cuconform/child_process.h>

namespace cuconform::cdp {
namespace {

constexpr int kSlots = 64;
constexpr int kAttempts = 4 * kSlots;

__global__ void empty_child() {}

// Holds the block's NULL stream until the parent releases it (or 2 s pass), so the launches behind it stay pending.
__global__ void blocker(const volatile int* release) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (*release == 0 && now - start < 2000000000ull);
}

__global__ void fill_the_pool(int* release, int* errors) {
  blocker<<<1, 1>>>(release);
  for (int i = 0; i < kAttempts; ++i) {
    empty_child<<<1, 1>>>();
    errors[i] = cudaGetLastError();
  }
  __threadfence();
  *reinterpret_cast<volatile int*>(release) = 1;
}

// Observes where a run of attempts (cudaSuccess or an error each) first failed, with what, how many failed, and
// any later failure whose code differs from the first.
void observe_pool(const std::vector<int>& codes) {
  int first_failure = -1, failures = 0, other_code = cudaSuccess;
  for (int i = 0; i < static_cast<int>(codes.size()); ++i) {
    if (codes[i] == cudaSuccess) continue;
    ++failures;
    if (first_failure < 0) first_failure = i;
    if (codes[i] != codes[first_failure]) other_code = codes[i];
  }
  observe("first_failure", first_failure);
  observe("failure_code", first_failure < 0 ? 0 : codes[first_failure]);
  observe("failures", failures);
  observe("other_failure_code", other_code);
}

TEST(PendingLaunchChild, DISABLED_FillThePool) {
  size_t default_slots = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&default_slots, cudaLimitDevRuntimePendingLaunchCount));
  observe("default_slots", static_cast<long long>(default_slots));
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, kSlots));
  DeviceBuffer<int> release(1), errors(kAttempts);
  launch(fill_the_pool, 1, 1, release.get(), errors.get());
  observe_pool(errors.to_host());
}

// 13.4.3.1.3: event slots. One thread records one event kEventAttempts times into a stream held by a blocker, so
// every record stays pending. setup: the stream's and the event's creation (0 when both succeeded).
constexpr int kEventAttempts = 4 * 2 * kSlots;

__global__ void fill_the_event_pool(int* release, int* errors, int* setup) {
  cudaStream_t stream;
  cudaEvent_t event;
  *setup = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (*setup == cudaSuccess) *setup = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  if (*setup == cudaSuccess) {
    blocker<<<1, 1, 0, stream>>>(release);
    for (int i = 0; i < kEventAttempts; ++i) errors[i] = cudaEventRecord(event, stream);
  }
  __threadfence();
  *reinterpret_cast<volatile int*>(release) = 1;
  if (*setup == cudaSuccess) {
    cudaEventDestroy(event);
    cudaStreamDestroy(stream);
  }
}

TEST(PendingLaunchChild, DISABLED_FillTheEventPool) {
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, kSlots));
  DeviceBuffer<int> release(1), errors(kEventAttempts), setup(std::vector<int>{-1});
  launch(fill_the_event_pool, 1, 1, release.get(), errors.get(), setup.get());
  observe("setup", setup.to_host()[0]);
  observe_pool(errors.to_host());
}

class PendingLaunches : public DynamicParallelism {
 protected:
  ChildRun fill_the_pool() {
    ChildRun run = run_child("PendingLaunchChild.DISABLED_FillThePool");
    EXPECT_TRUE(run.passed()) << run.describe();
    return run;
  }
};

CHILD_PROCESS_RULE_F(PendingLaunches, DefaultPoolHas2048LaunchSlots, "PG12.9 13.4.3.1.3",
                     "the default number of launch slots (cudaLimitDevRuntimePendingLaunchCount) is 2048") {
  ChildRun run = fill_the_pool();
  ASSERT_TRUE(run.has("default_slots")) << run.describe();
  EXPECT_EQ(run.number("default_slots"), 2048);
}

CHILD_PROCESS_RULE_F(
    PendingLaunches, AFullPoolFailsTheLaunchWithLaunchOutOfResources, "PG12.9 13.4.3.1.3",
    "when the launch pool is full, a device-side kernel launch fails and returns cudaErrorLaunchOutOfResources") {
  ChildRun run = fill_the_pool();
  ASSERT_TRUE(run.has("failures")) << run.describe();
  ASSERT_GT(run.number("failures"), 0) << kAttempts << " launches into a pool of " << kSlots << " slots all succeeded";
  EXPECT_EQ(run.number("failure_code"), cudaErrorLaunchOutOfResources)
      << "the launch failed with " << describe(static_cast<cudaError_t>(run.number("failure_code")));
  EXPECT_EQ(run.number("other_failure_code"), cudaSuccess) << "later launches failed with another code";
}

CHILD_PROCESS_RULE_F(
    PendingLaunches, TheLimitSetsTheNumberOfSlots, "PG12.9 13.4.3.1.2",
    "the fixed-size launch pool is configured with cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount)") {
  ChildRun run = fill_the_pool();
  ASSERT_TRUE(run.has("first_failure")) << run.describe();
  const long long first_failure = run.number("first_failure");
  // kSlots children pend behind the blocker, which itself pends until it starts: the kSlots-th or (kSlots+1)-th
  // launch finds the pool full.
  EXPECT_GE(first_failure, kSlots - 1) << "the pool filled before " << kSlots << " launches";
  EXPECT_LE(first_failure, kSlots) << "the pool held more than the " << kSlots << " slots set";
  record_metric("launches_before_full", first_failure);
}

class PendingEvents : public DynamicParallelism {
 protected:
  // One child per process serves both rules.
  static const ChildRun& fill_the_event_pool() {
    static const ChildRun run = run_child("PendingLaunchChild.DISABLED_FillTheEventPool");
    return run;
  }
};

CHILD_PROCESS_RULE_F(
    PendingEvents, AFullEventPoolFailsTheRecordWithMemoryAllocation, "PG12.9 13.4.3.1.3",
    "when the buffer is full, an attempt to allocate an event slot fails and returns cudaErrorMemoryAllocation") {
  const ChildRun& run = fill_the_event_pool();
  ASSERT_TRUE(run.passed()) << run.describe();
  ASSERT_EQ(run.number("setup"), cudaSuccess) << "creating the device-side stream or event failed";
  ASSERT_GT(run.number("failures"), 0) << kEventAttempts << " pending event records with " << kSlots
                                       << " launch slots (" << 2 * kSlots << " event slots) all succeeded";
  EXPECT_EQ(run.number("failure_code"), cudaErrorMemoryAllocation)
      << "the record failed with " << describe(static_cast<cudaError_t>(run.number("failure_code")));
  EXPECT_EQ(run.number("other_failure_code"), cudaSuccess) << "later records failed with another code";
}

CHILD_PROCESS_RULE_F(
    PendingEvents, EventSlotsAreTwiceTheLimit, "PG12.9 13.4.3.1.3",
    "the number of event slots allocated is twice the value of cudaLimitDevRuntimePendingLaunchCount") {
  const ChildRun& run = fill_the_event_pool();
  ASSERT_TRUE(run.passed()) << run.describe();
  ASSERT_EQ(run.number("setup"), cudaSuccess) << "creating the device-side stream or event failed";
  const long long first_failure = run.number("first_failure");
  ASSERT_GE(first_failure, 0) << "all " << kEventAttempts << " pending records succeeded: the pool never filled";
  // The records alone hold event slots; the stream's and the event's own bookkeeping may take one or two.
  EXPECT_GE(first_failure, 2 * kSlots - 2) << "the event pool filled before " << 2 * kSlots << " records";
  EXPECT_LE(first_failure, 2 * kSlots) << "the event pool held more than " << 2 * kSlots << " records";
  record_metric("event_records_before_full", first_failure);
}

}  // namespace
}  // namespace cuconform::cdp
