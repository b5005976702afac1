// 5.4.8.4 __trap(): called from any device thread, it aborts the kernel and raises an interrupt in the host program;
// the CUDA context is corrupted, so later CUDA calls and kernel launches fail. The guide names no error code: the
// rules accept any error and record which one it was.
//
// Each rule corrupts its CUDA context on purpose: its fixture is isolated, so the harness starts a fresh process for
// it, and cuconform's context guard ends that process after the rule has passed (docs/architecture.md). A fault
// corrupts only the context of its own process, so the process runs beside the others; the 500 ms window is spent
// only when the kernel is not aborted. They fault by design: leave TrapFault.* out of compute-sanitizer runs.
#include <cuconform/cuconform.h>

#include "device_timer.h"
#include "mapped_host_memory.h"

namespace {

using cuconform_functions::global_timer_ns;
using cuconform_functions::MappedHostArray;

// What the device reports through mapped host memory, readable after the fault.
enum Flag : int { kReachedTrap, kRanPastTrap, kWaiterOutlivedTrap, kFlagCount };

constexpr unsigned kTrapBlock = 1;
constexpr unsigned kTrapThread = 70;                          // neither the first warp nor a warp's first lane
constexpr unsigned long long kWaitForTrapNs = 2'000'000'000;  // bounds the waiter if the trap is never reached
// An aborted kernel cannot outlive the trap this long. Not 50 ms: beside three other test processes the abort once
// came later than that on an H200 (2026-11-29, a flake); the window costs time only when the kernel is not aborted.
constexpr unsigned long long kOutliveNs = 500'000'000;

__device__ void set_flag(volatile int* flags, Flag flag) {
  flags[flag] = 1;
  __threadfence_system();
}

// Block kTrapBlock, thread kTrapThread traps; thread 0 of block 0 waits for it, then keeps running for kOutliveNs
// and reports that it outlived the trap. If the trap aborts the kernel, neither report after it arrives.
__global__ void trap_in_one_thread(volatile int* flags) {
  if (blockIdx.x == kTrapBlock && threadIdx.x == kTrapThread) {
    set_flag(flags, kReachedTrap);
    __trap();
    set_flag(flags, kRanPastTrap);
  } else if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned long long start = global_timer_ns();
    while (flags[kReachedTrap] == 0 && global_timer_ns() - start < kWaitForTrapNs) {}
    const unsigned long long reached = global_timer_ns();
    while (global_timer_ns() - reached < kOutliveNs) {}
    set_flag(flags, kWaiterOutlivedTrap);
  }
}

__global__ void add_one(int* value) { *value += 1; }

class TrapFault : public cuconform::IsolatedGpuTest {
 protected:
  // Launches the trapping kernel and returns what the synchronization that follows reports.
  cudaError_t trap(const MappedHostArray<int>& flags) {
    trap_in_one_thread<<<2, 128>>>(flags.device());
    const cudaError_t launch = cudaGetLastError();
    if (launch != cudaSuccess) return launch;
    return cudaDeviceSynchronize();
  }
};

RULE_F(TrapFault, AbortsTheKernel, "5.4.8.4",
       "__trap() from any device thread aborts the execution of the kernel: neither the trapping thread nor another "
       "thread runs on") {
  MappedHostArray<int> flags(kFlagCount);
  const cudaError_t error = trap(flags);
  EXPECT_NE(error, cudaSuccess);
  EXPECT_EQ(flags[kReachedTrap], 1) << "the trapping thread never reached __trap()";
  EXPECT_EQ(flags[kRanPastTrap], 0) << "the trapping thread ran past __trap()";
  EXPECT_EQ(flags[kWaiterOutlivedTrap], 0) << "another thread ran on for 500 ms after the trap";
}

RULE_F(TrapFault, RaisesAnErrorInTheHostProgram, "5.4.8.4",
       "__trap() raises an interrupt in the host program: the synchronization with the kernel returns an error") {
  MappedHostArray<int> flags(kFlagCount);
  const cudaError_t error = trap(flags);
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess);
}

RULE_F(TrapFault, CorruptsTheContextForLaterCallsAndLaunches, "5.4.8.4",
       "after __trap() the CUDA context is corrupted: subsequent CUDA calls and kernel launches fail") {
  MappedHostArray<int> flags(kFlagCount);
  ASSERT_NE(trap(flags), cudaSuccess);

  void* allocation = nullptr;
  const cudaError_t malloc_error = cudaMalloc(&allocation, 256);
  EXPECT_NE(malloc_error, cudaSuccess) << "cudaMalloc after the trap";
  if (malloc_error == cudaSuccess) cudaFree(allocation);

  int host_value = 0;
  const cudaError_t copy_error = cudaMemcpy(&host_value, flags.device(), sizeof(int), cudaMemcpyDeviceToHost);
  EXPECT_NE(copy_error, cudaSuccess) << "cudaMemcpy after the trap";

  add_one<<<1, 1>>>(flags.device());
  cudaError_t launch_error = cudaGetLastError();
  if (launch_error == cudaSuccess) launch_error = cudaDeviceSynchronize();
  EXPECT_NE(launch_error, cudaSuccess) << "a kernel launch after the trap";
  cuconform::record_metric("later_error", cudaGetErrorName(launch_error));
}

}  // namespace
