// PG12.9 22 CUDA Environment Variables (Table 31) whose effect is on how a process runs rather than on what it sees:
// CUDA_SCALE_LAUNCH_QUEUES (how many launches the host can queue before a launch blocks), CUDA_FORCE_PRELOAD_LIBRARIES
// (the JIT libraries loaded by driver initialization) and CUDA_DEVICE_WAITS_ON_EXCEPTION (a device exception halts
// the application). Each runs in a child process with the variable set and again without it, the control. The
// variables of Table 31 that are not observable this way are listed in README.md with why.
#include <cuconform/cuconform.h>

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <cuconform/child_process.h>
#include "driver_api.h"
#include "host_flag.h"

namespace cuconform::runtime {
namespace {

using Clock = std::chrono::steady_clock;

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// ---- Children ----

__global__ void nothing() {}

// A launch that has not returned for this long is taken as blocked on a full queue (an empty launch takes
// microseconds; the rule runs alone, so nothing else holds the host thread or the GPU that long).
constexpr long long kBlockedNs = 100'000'000;

// Launches empty kernels behind a kernel that waits for the host, into one stream, until a launch blocks (a watchdog
// thread sees no progress for kBlockedNs, then releases the waiting kernel so that the queue drains) or until
// CUCONFORM_LAUNCH_LIMIT launches were made. Observes how many launches returned before the one that blocked
// (blocked_after; -1: none blocked).
TEST(RuntimeExecutionEnvChild, DISABLED_LaunchUntilTheQueueIsFull) {
  const char* limit_text = std::getenv("CUCONFORM_LAUNCH_LIMIT");
  ASSERT_NE(limit_text, nullptr);
  const long long limit = std::atoll(limit_text);
  cudaStream_t stream = nullptr;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  nothing<<<1, 1, 0, stream>>>();  // loads the kernel before anything is timed
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  HostFlag flag;
  ASSERT_EQ(flag.launch_waiter(stream, 30'000), cudaSuccess);
  std::atomic<long long> launched{0}, progress_ns{now_ns()}, blocked_after{-1};
  std::atomic<bool> released{false}, finished{false};
  std::thread watchdog([&] {
    while (!finished.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (now_ns() - progress_ns.load() > kBlockedNs) {
        blocked_after.store(launched.load());
        released.store(true);
        flag.set();
        return;
      }
    }
  });
  for (long long i = 0; i < limit && !released.load(); ++i) {
    nothing<<<1, 1, 0, stream>>>();
    launched.store(i + 1);
    progress_ns.store(now_ns());
  }
  finished.store(true);
  watchdog.join();
  flag.set();
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  observe("launch_error", cudaGetLastError());
  observe("blocked_after", blocked_after.load());
  observe("launched", launched.load());
  observe("kernel_saw_flag", flag.kernel_saw_flag());
  CUDA_ASSERT(cudaStreamDestroy(stream));
}

// Whether a shared library whose file name contains `name` is mapped into this process.
bool mapped(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.find(name) != std::string::npos) return true;
  }
  return false;
}

constexpr const char* kPtxJitCompiler = "libnvidia-ptxjitcompiler.so";
constexpr const char* kNvvm = "libnvidia-nvvm.so";

// Driver initialization (cuInit) and nothing else; then which JIT libraries are mapped. Last, whether the NVVM
// library can be loaded at all (a driver installation may lack it).
TEST(RuntimeExecutionEnvChild, DISABLED_InitializeTheDriver) {
  const DriverApi* api = driver_api();
  ASSERT_NE(api, nullptr);
  observe("init_error", api->cuInit(0));
  observe("ptx_jit_compiler_mapped", mapped(kPtxJitCompiler));
  observe("nvvm_mapped", mapped(kNvvm));
  bool nvvm_available = false;
  for (const char* soname : {"libnvidia-nvvm.so.4", "libnvidia-nvvm.so.5", "libnvidia-nvvm.so"}) {
    nvvm_available = nvvm_available || dlopen(soname, RTLD_NOW | RTLD_LOCAL) != nullptr;
  }
  observe("nvvm_available", nvvm_available);
}

// Stores to address 16, which is never mapped: a device exception (an illegal address).
__global__ void store_to_an_unmapped_address() {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(16ull), "r"(1u) : "memory");
}

TEST(RuntimeExecutionEnvChild, DISABLED_RaiseADeviceException) {
  store_to_an_unmapped_address<<<1, 1>>>();
  observe("launch_error", cudaGetLastError());
  observe("synchronize_error", cudaDeviceSynchronize());  // never observed when the application halts
}

// ---- The rules ----

// Each rule runs alone: the launch-queue rule takes 100 ms without progress as a full queue, and a halted
// application (CUDA_DEVICE_WAITS_ON_EXCEPTION) must not hold up other tests' work on the GPU.
class ExecutionEnvironment : public ExclusiveGpuTest {};

struct QueueMeasure {
  ChildRun run;
  long long blocked_after;
};

QueueMeasure launches_before_blocking(const std::optional<std::string>& scale, long long limit) {
  QueueMeasure measure{run_child("RuntimeExecutionEnvChild.DISABLED_LaunchUntilTheQueueIsFull",
                                 {{"CUDA_SCALE_LAUNCH_QUEUES", scale},
                                  {"CUDA_LAUNCH_BLOCKING", std::nullopt},
                                  {"CUCONFORM_LAUNCH_LIMIT", std::to_string(limit)}},
                                 120),
                       -1};
  if (measure.run.has("blocked_after")) measure.blocked_after = measure.run.number("blocked_after");
  return measure;
}

CHILD_PROCESS_RULE_F(
    ExecutionEnvironment, ScaleLaunchQueuesScalesTheLaunchQueue, "PG12.9 22",
    "CUDA_SCALE_LAUNCH_QUEUES (\"0.25x\", \"0.5x\", \"2x\" or \"4x\") scales the size of the queues available for "
    "launching work by that multiplier: the launches a stream takes behind a waiting kernel before a launch "
    "blocks scale with it") {
  constexpr long long kDefaultLimit = 1 << 20;
  const QueueMeasure control = launches_before_blocking(std::nullopt, kDefaultLimit);
  ASSERT_TRUE(control.run.passed()) << control.run.describe();
  ASSERT_EQ(control.run.number("kernel_saw_flag"), 1)
      << "the waiting kernel gave up before the host released it: the measurement is void\n"
      << control.run.describe();
  if (control.blocked_after < 0) {
    GTEST_SKIP() << "without the variable " << kDefaultLimit << " launches were queued behind a waiting kernel "
                 << "without a launch blocking: the queue's size cannot be measured";
  }
  record_metric("launches_before_blocking_default", control.blocked_after);
  std::vector<std::pair<std::string, double>> scales = {{"4x", 4.0}, {"0.25x", 0.25}};
  if (full_profile()) scales.insert(scales.end(), {{"2x", 2.0}, {"0.5x", 0.5}});
  for (const auto& [value, multiplier] : scales) {
    const double expected = multiplier * static_cast<double>(control.blocked_after);
    const QueueMeasure scaled = launches_before_blocking(value, static_cast<long long>(2 * expected) + 1024);
    ASSERT_TRUE(scaled.run.passed()) << "CUDA_SCALE_LAUNCH_QUEUES=" << value << ": " << scaled.run.describe();
    EXPECT_EQ(scaled.run.number("kernel_saw_flag"), 1)
        << "CUDA_SCALE_LAUNCH_QUEUES=" << value << ": the waiting kernel gave up before the host released it";
    record_metric("launches_before_blocking_" + value, scaled.blocked_after);
    // The queue holds launches and a little bookkeeping: within a quarter of the scaled size.
    EXPECT_TRUE(scaled.blocked_after >= 0 && std::abs(scaled.blocked_after - expected) <= 0.25 * expected)
        << "CUDA_SCALE_LAUNCH_QUEUES=" << value << ": " << scaled.blocked_after << " launches before one blocked "
        << "(-1: none within " << static_cast<long long>(2 * expected) + 1024 << "); without the variable "
        << control.blocked_after << ", so about " << static_cast<long long>(expected) << " expected";
  }
}

CHILD_PROCESS_RULE_F(
    ExecutionEnvironment, ForcePreloadLibrariesLoadsTheJitLibrariesAtInitialization, "PG12.9 22",
    "CUDA_FORCE_PRELOAD_LIBRARIES=1 forces the driver to preload the libraries required for NVVM and PTX "
    "just-in-time compilation during driver initialization") {
  const char* why = nullptr;
  if (!driver_api(&why)) GTEST_SKIP() << why;
  const ChildRun control = run_child("RuntimeExecutionEnvChild.DISABLED_InitializeTheDriver",
                                     {{"CUDA_FORCE_PRELOAD_LIBRARIES", std::nullopt}});
  ASSERT_TRUE(control.passed()) << control.describe();
  ASSERT_EQ(control.number("init_error"), CUDA_SUCCESS) << control.describe();
  if (control.number("ptx_jit_compiler_mapped") == 1) {
    GTEST_SKIP() << "without the variable cuInit already maps " << kPtxJitCompiler
                 << ": the preloading cannot be told from the driver's own";
  }
  const ChildRun run =
      run_child("RuntimeExecutionEnvChild.DISABLED_InitializeTheDriver", {{"CUDA_FORCE_PRELOAD_LIBRARIES", "1"}});
  ASSERT_TRUE(run.passed()) << run.describe();
  ASSERT_EQ(run.number("init_error"), CUDA_SUCCESS) << run.describe();
  EXPECT_EQ(run.number("ptx_jit_compiler_mapped"), 1) << "after cuInit with CUDA_FORCE_PRELOAD_LIBRARIES=1, "
                                                      << kPtxJitCompiler << " is not mapped (without it neither)";
  if (run.number("nvvm_available") == 1) {
    EXPECT_EQ(run.number("nvvm_mapped"), 1)
        << "after cuInit with CUDA_FORCE_PRELOAD_LIBRARIES=1, " << kNvvm << " (present) is not mapped";
  }
  record_metric("nvvm_mapped_without_the_variable", control.number("nvvm_mapped"));
  record_metric("nvvm_available", run.number("nvvm_available"));
}

CHILD_PROCESS_RULE_F(
    ExecutionEnvironment, DeviceWaitsOnExceptionHaltsTheApplication, "PG12.9 22",
    "CUDA_DEVICE_WAITS_ON_EXCEPTION=1: a CUDA application halts when a device exception occurs (so that a "
    "debugger can attach); without it the exception is reported to the host") {
  const ChildRun control = run_child("RuntimeExecutionEnvChild.DISABLED_RaiseADeviceException",
                                     {{"CUDA_DEVICE_WAITS_ON_EXCEPTION", std::nullopt}});
  ASSERT_TRUE(control.passed()) << control.describe();
  ASSERT_EQ(control.number("synchronize_error"), cudaErrorIllegalAddress)
      << "without the variable the illegal address is not reported as such\n"
      << control.describe();
  constexpr int kHaltSeconds = 10;
  const ChildRun run = run_child("RuntimeExecutionEnvChild.DISABLED_RaiseADeviceException",
                                 {{"CUDA_DEVICE_WAITS_ON_EXCEPTION", "1"}}, kHaltSeconds);
  ASSERT_TRUE(run.has("launch_error")) << "the child did not reach its launch\n" << run.describe();
  EXPECT_EQ(run.number("launch_error"), cudaSuccess) << run.describe();
  EXPECT_TRUE(run.timed_out && !run.has("synchronize_error"))
      << "with CUDA_DEVICE_WAITS_ON_EXCEPTION=1 the application went on after the device exception (or ended) "
         "instead of halting for "
      << kHaltSeconds << " s\n"
      << run.describe();
}

}  // namespace
}  // namespace cuconform::runtime
