// PG12.9 6.2.8.9 Synchronous Calls: "Whether the host thread will then yield, block, or spin can be specified by
// calling cudaSetDeviceFlags() with some specific flags (see reference manual for details) before any other CUDA call
// is performed by the host thread." The reference manual (CUDA Runtime API 13.0, cudaSetDeviceFlags) names them:
// cudaDeviceScheduleSpin "actively spin when waiting for results from the device", cudaDeviceScheduleYield "yield its
// thread", cudaDeviceScheduleBlockingSync "block the CPU thread on a synchronization primitive", and
// cudaDeviceScheduleAuto, the default, which spins unless the process has more active contexts than the system has
// logical processors (then it yields).
//
// Each flag needs a process whose first CUDA call sets it: a child of this binary (child_process.h) sets the flag
// named by CUCONFORM_SCHEDULE, reads the flags back, and times one cudaDeviceSynchronize() that waits 100 ms for a
// kernel: the wall time, and the CPU time of the waiting thread (CLOCK_THREAD_CPUTIME_ID). A thread that blocks uses
// almost no CPU time while it waits; one that spins uses about as much as the wall time. Yielding is not timed: with
// no other thread to yield to, a yielding thread runs as much as a spinning one.
#include <time.h>

#include <cstdlib>
#include <map>
#include <string>

#include "cuconform/child_process.h"
#include "cuconform/cuconform.h"
#include "ordering.h"

namespace streams {
namespace {

using namespace ordering;
using cuconform::observe;

// On an H200 a blocking thread used 0.15 ms of CPU time in a 300 ms wait and a spinning one all of it
// (docs/results/h200-2026-11-29-speed6.md): 100 ms keeps them far apart, and each child 0.2 s shorter.
constexpr unsigned long long kKernelNs = 100 * kMillisecond;

struct Schedule {
  const char* name;
  unsigned flag;
};
constexpr Schedule kSchedules[] = {
    {"auto", cudaDeviceScheduleAuto},
    {"spin", cudaDeviceScheduleSpin},
    {"yield", cudaDeviceScheduleYield},
    {"blocking_sync", cudaDeviceScheduleBlockingSync},
};

long long now_us(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return t.tv_sec * 1'000'000ll + t.tv_nsec / 1000;
}

__global__ void busy_for(unsigned long long ns) { sleep_for(ns); }

// ---- The child: the schedule flag first, then one timed synchronization. ----

TEST(DeviceFlagsChild, DISABLED_SynchronizeUnderTheScheduleFlag) {
  const char* name = std::getenv("CUCONFORM_SCHEDULE");
  ASSERT_NE(name, nullptr) << "CUCONFORM_SCHEDULE is not set";
  unsigned flag = ~0u;
  for (const Schedule& schedule : kSchedules)
    if (std::string(name) == schedule.name) flag = schedule.flag;
  ASSERT_NE(flag, ~0u) << "unknown schedule " << name;
  observe("set_error", cudaSetDeviceFlags(flag));  // the thread's first CUDA call
  unsigned flags = 0;
  CUDA_ASSERT(cudaGetDeviceFlags(&flags));
  observe("schedule", flags & cudaDeviceScheduleMask);
  if (std::string(name) == "yield") return;  // not timed (see above)
  preload(busy_for);                         // the context and the kernel loaded before the timed window
  CUDA_ASSERT(cudaDeviceSynchronize());
  const long long wall_start = now_us(CLOCK_MONOTONIC), cpu_start = now_us(CLOCK_THREAD_CPUTIME_ID);
  busy_for<<<1, 1>>>(kKernelNs);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  observe("wall_us", now_us(CLOCK_MONOTONIC) - wall_start);
  observe("cpu_us", now_us(CLOCK_THREAD_CPUTIME_ID) - cpu_start);
}

// ---- The rules ----

// Timing: alone on the GPU and the host, as the EventTiming rules are.
class DeviceScheduleFlags : public cuconform::ExclusiveGpuTest {
 protected:
  // The child's observations under `schedule`, run once per process for each schedule.
  const cuconform::ChildRun& child(const char* schedule) {
    static std::map<std::string, cuconform::ChildRun> runs;
    auto found = runs.find(schedule);
    if (found == runs.end())
      found = runs.emplace(schedule, cuconform::run_child("DeviceFlagsChild.DISABLED_SynchronizeUnderTheScheduleFlag",
                                                          {{"CUCONFORM_SCHEDULE", schedule}}))
                  .first;
    return found->second;
  }

  // Checks that the child waited the kernel's 100 ms; returns the CPU time of its waiting thread over its wall time.
  ::testing::AssertionResult cpu_share(const char* schedule, double* share) {
    const cuconform::ChildRun& run = child(schedule);
    if (!run.passed() || !run.has("wall_us") || !run.has("cpu_us"))
      return ::testing::AssertionFailure() << "the child did not time its synchronization: " << run.describe();
    const long long wall = run.number("wall_us"), cpu = run.number("cpu_us");
    cuconform::record_metric(std::string(schedule) + "_wall_us", wall);
    cuconform::record_metric(std::string(schedule) + "_cpu_us", cpu);
    if (wall < static_cast<long long>(kKernelNs / 1000))
      return ::testing::AssertionFailure()
             << "cudaDeviceSynchronize returned after " << wall << " us, before the 100 ms kernel could have completed";
    *share = static_cast<double>(cpu) / static_cast<double>(wall);
    return ::testing::AssertionSuccess();
  }
};

CHILD_PROCESS_RULE_F(
    DeviceScheduleFlags, BlockingSyncBlocksTheHostThreadWhileItWaits, "PG12.9 6.2.8.9",
    "after cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) a synchronous call blocks the host thread on a "
    "synchronization primitive: it uses less than half as much CPU time as wall time while the device works") {
  double share = 1;
  ASSERT_TRUE(cpu_share("blocking_sync", &share));
  EXPECT_LT(share, 0.5) << "the waiting thread ran " << share * 100 << "% of the time";
}

CHILD_PROCESS_RULE_F(
    DeviceScheduleFlags, SpinKeepsTheHostThreadRunningWhileItWaits, "PG12.9 6.2.8.9",
    "after cudaSetDeviceFlags(cudaDeviceScheduleSpin) a synchronous call actively spins: the waiting host thread "
    "uses at least half as much CPU time as wall time") {
  double share = 0;
  ASSERT_TRUE(cpu_share("spin", &share));
  EXPECT_GE(share, 0.5) << "the waiting thread ran only " << share * 100 << "% of the time";
}

CHILD_PROCESS_RULE_F(
    DeviceScheduleFlags, AutoSpinsWhenContextsDoNotOutnumberProcessors, "PG12.9 6.2.8.9",
    "under cudaDeviceScheduleAuto a process with one active context (never more than the logical processors) "
    "spins while it waits, as under cudaDeviceScheduleSpin") {
  double share = 0;
  ASSERT_TRUE(cpu_share("auto", &share));
  EXPECT_GE(share, 0.5) << "the waiting thread ran only " << share * 100 << "% of the time";
}

CHILD_PROCESS_RULE_F(
    DeviceScheduleFlags, EachScheduleFlagIsReadBack, "PG12.9 6.2.8.9",
    "cudaSetDeviceFlags() before any other CUDA call sets the schedule: cudaGetDeviceFlags() returns it, for "
    "each of cudaDeviceScheduleAuto, Spin, Yield and BlockingSync") {
  for (const Schedule& schedule : kSchedules) {
    const cuconform::ChildRun& run = child(schedule.name);
    ASSERT_TRUE(run.has("set_error") && run.has("schedule")) << schedule.name << ": " << run.describe();
    EXPECT_EQ(run.number("set_error"), cudaSuccess) << schedule.name;
    EXPECT_EQ(run.number("schedule"), static_cast<long long>(schedule.flag)) << schedule.name;
  }
}

}  // namespace
}  // namespace streams
