// PG12.9 10.34 (current guide 5.4.10.2) __brkpt(): "Execution of a kernel function can be suspended by calling the
// __brkpt() function from any device thread." Without a debugger nothing resumes it, so the thread that calls it
// never runs past the call and the kernel does not complete; what the host sees instead (an error that corrupts the
// context, or a kernel that stays suspended) is not documented and is recorded as a metric.
//
// Either outcome is unsafe for the harness's test process (a corrupted context, or a synchronization that never
// returns), so the kernel runs in a child of this binary (child_process.h) that waits for it with a time limit, reads
// what the kernel reported through mapped host memory (readable after a fault), and ends itself. The parent judges.
#include <cuconform/cuconform.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <cuconform/child_process.h>

#include "device_timer.h"
#include "mapped_host_memory.h"

namespace {

using cuconform::observe;
using cuconform_functions::global_timer_ns;
using cuconform_functions::MappedHostArray;

// What the kernel reports through mapped host memory.
enum Flag : int { kReachedBreakpoint, kRanPastBreakpoint, kOtherThreadRanOn, kFlagCount };

constexpr unsigned kBreakBlock = 1;
constexpr unsigned kBreakThread = 70;  // neither the first warp nor a warp's first lane
constexpr unsigned long long kWaitForBreakpointNs = 2'000'000'000;
constexpr unsigned long long kRunOnNs = 50'000'000;
constexpr auto kHostWait = std::chrono::seconds(3);  // how long the child waits for the kernel to end

__device__ void set_flag(volatile int* flags, Flag flag) {
  flags[flag] = 1;
  __threadfence_system();
}

// One thread calls __brkpt(); thread 0 of block 0 waits until it has, runs on for 50 ms, and reports that it did.
__global__ void break_in_one_thread(volatile int* flags) {
  if (blockIdx.x == kBreakBlock && threadIdx.x == kBreakThread) {
    set_flag(flags, kReachedBreakpoint);
    __brkpt();
    set_flag(flags, kRanPastBreakpoint);
  } else if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned long long start = global_timer_ns();
    while (flags[kReachedBreakpoint] == 0 && global_timer_ns() - start < kWaitForBreakpointNs) {}
    const unsigned long long reached = global_timer_ns();
    while (global_timer_ns() - reached < kRunOnNs) {}
    set_flag(flags, kOtherThreadRanOn);
  }
}

// ---- The child ----

TEST(BreakpointChild, DISABLED_KernelCallsBrkpt) {
  MappedHostArray<int> flags(kFlagCount);
  break_in_one_thread<<<2, 128>>>(flags.device());
  observe("launch_error", cudaGetLastError());
  const auto deadline = std::chrono::steady_clock::now() + kHostWait;
  cudaError_t status = cudaErrorNotReady;
  while ((status = cudaStreamQuery(nullptr)) == cudaErrorNotReady && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  observe("status", status);  // cudaErrorNotReady: still suspended after 3 s
  observe("status_name", cudaGetErrorName(status));
  observe("reached", flags[kReachedBreakpoint]);
  observe("ran_past", flags[kRanPastBreakpoint]);
  observe("other_thread_ran_on", flags[kOtherThreadRanOn]);
  observe("done", 1);
  std::fflush(stdout);
  // A suspended kernel would hold any synchronization, a fault has corrupted the context: leave without either.
  std::_Exit(0);
}

// ---- The rule ----

class Breakpoint : public cuconform::GpuTest {};

CHILD_PROCESS_RULE_F(
    Breakpoint, SuspendsTheCallingThread, "PG12.9 10.34",
    "a device thread that calls __brkpt() is suspended: without a debugger to resume it, it never runs past the "
    "call and the kernel does not complete") {
  const cuconform::ChildRun run = cuconform::run_child("BreakpointChild.DISABLED_KernelCallsBrkpt", {}, 30);
  ASSERT_TRUE(run.has("done")) << run.describe();
  if (run.observed.count("status_name")) cuconform::record_metric("outcome", run.observed.at("status_name"));
  cuconform::record_metric("other_thread_ran_on", run.number("other_thread_ran_on"));
  EXPECT_EQ(run.number("launch_error"), cudaSuccess) << run.describe();
  EXPECT_EQ(run.number("reached"), 1) << "the calling thread never reached __brkpt()";
  EXPECT_EQ(run.number("ran_past"), 0) << "the calling thread ran past __brkpt()";
  EXPECT_NE(run.number("status"), cudaSuccess) << "the kernel completed although one of its threads was suspended";
}

}  // namespace
