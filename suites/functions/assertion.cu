// 5.4.10.1 Assertion: assert() in device code stops the kernel when its expression is zero; each failing thread's
// message reaches stderr at the next synchronization, in the documented format; every later CUDA call fails with
// cudaErrorAssert; a non-zero expression leaves the kernel unaffected.
//
// The FailedAssert rules corrupt their CUDA context on purpose: the fixture is isolated, so the harness starts a
// fresh process for each, beside the others (a fault corrupts only its own process's context), and cuconform's
// context guard ends that process after the rule has passed (docs/architecture.md). The 500 ms window of StopsTheKernel
// is spent only when the kernel is not aborted. They fault by design: leave FailedAssert.* out of compute-sanitizer
// runs.

// Release builds define NDEBUG, which compiles assert() out; these rules need it compiled in
// (assertion_disabled.cu has the NDEBUG rules).
#undef NDEBUG
#include <cassert>

#include <cuconform/cuconform.h>

#include <algorithm>
#include <string>
#include <vector>

#include "captured_stream.h"
#include "device_timer.h"
#include "mapped_host_memory.h"

using cuconform_functions::CapturedStream;
using cuconform_functions::global_timer_ns;
using cuconform_functions::lines_of;
using cuconform_functions::MappedHostArray;

// What the device reports through mapped host memory, readable after the fault.
enum AssertFlag : int { kReachedAssert, kRanPastAssert, kWaiterOutlivedAssert, kAssertFlagCount };
constexpr unsigned long long kWaitForAssertNs = 2'000'000'000;
constexpr unsigned long long kOutliveNs = 500'000'000;

// The kernels are outside any namespace, so that the <function> of the message is just their signature.

// Block (1,2,1), thread (3,1,2) of a (2,3,2) x (4,2,3) launch fails.
__global__ void cuconform_assert_kernel(int failing_thread) {
  const int thread =
      ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) +
      blockDim.x * blockDim.y * blockDim.z * ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x);
  assert(thread != failing_thread);
}
constexpr int kAssertLine = __LINE__ - 2;  // the line of the assert above

// Lanes 3, 17 and 30 of warp 0 of block 0 fail together.
constexpr int kFailingLanes[] = {3, 17, 30};
__global__ void cuconform_lanes_assert_kernel() {
  const unsigned lane = threadIdx.x;
  assert(lane != 3 && lane != 17 && lane != 30);
}
constexpr int kLanesAssertLine = __LINE__ - 2;  // the line of the assert above

// Thread 0 of block 1 fails; thread 0 of block 0 waits for it, then tries to run on for kOutliveNs.
__global__ void cuconform_outlive_assert_kernel(volatile int* flags) {
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    flags[kReachedAssert] = 1;
    __threadfence_system();
    assert(flags[kRanPastAssert] == 1);  // false
    flags[kRanPastAssert] = 1;
    __threadfence_system();
  } else if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned long long start = global_timer_ns();
    while (flags[kReachedAssert] == 0 && global_timer_ns() - start < kWaitForAssertNs) {}
    const unsigned long long reached = global_timer_ns();
    while (global_timer_ns() - reached < kOutliveNs) {}
    flags[kWaiterOutlivedAssert] = 1;
    __threadfence_system();
  }
}

__global__ void cuconform_passing_assert_kernel(int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int is_one = 1;
  assert(is_one);  // the guide's "This will have no effect"
  assert(i >= 0);
  out[i] = 2 * i + 1;
}

__global__ void cuconform_add_one(int* value) { *value += 1; }

namespace {

// The launch shape of cuconform_assert_kernel and the thread that fails: block (1,2,1), thread (3,1,2).
const dim3 kGrid(2, 3, 2), kBlock(4, 2, 3);
constexpr int kFailingThread = ((2 * 2 + 1) * 4 + 3) + 4 * 2 * 3 * ((1 * 3 + 2) * 2 + 1);

// The message of the guide's example output, "<file>:<line>: <function>: block: [x,y,z], thread: [x,y,z]
// Assertion `<expression>` failed."
std::string documented_message(int line, const std::string& function, const std::string& block,
                               const std::string& thread, const std::string& expression) {
  return std::string(__FILE__) + ":" + std::to_string(line) + ": " + function + ": block: [" + block + "], thread: [" +
         thread + "] Assertion `" + expression + "` failed.";
}

class FailedAssert : public cuconform::IsolatedGpuTest {};

RULE_F(FailedAssert, PrintsTheDocumentedMessageToStderr, "5.4.10.1",
       "a thread whose assert expression is zero prints '<file>:<line>: <function>: block: [x,y,z], thread: [x,y,z] "
       "Assertion `<expression>` failed.' to stderr after cudaDeviceSynchronize(), which returns cudaErrorAssert") {
  CapturedStream out(1);
  CapturedStream err(2);
  cuconform_assert_kernel<<<kGrid, kBlock>>>(kFailingThread);
  const cudaError_t error = cudaDeviceSynchronize();
  const std::string stderr_text = err.stop();
  const std::string stdout_text = out.stop();
  EXPECT_EQ(error, cudaErrorAssert);

  const std::string expected = documented_message(kAssertLine, "void cuconform_assert_kernel(int)", "1,2,1", "3,1,2",
                                                  "thread != failing_thread");
  EXPECT_EQ(lines_of(stderr_text), std::vector<std::string>{expected}) << "stderr:\n"
                                                                       << stderr_text << "\nstdout:\n"
                                                                       << stdout_text;
}

RULE_F(FailedAssert, MessageAppearsAtStreamSynchronize, "5.4.10.1",
       "the message of a failed assert is printed to stderr after synchronizing with cudaStreamSynchronize(), which "
       "returns cudaErrorAssert") {
  cudaStream_t stream;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CapturedStream err(2);
  cuconform_assert_kernel<<<kGrid, kBlock, 0, stream>>>(kFailingThread);
  const cudaError_t error = cudaStreamSynchronize(stream);
  const std::string stderr_text = err.stop();
  EXPECT_EQ(error, cudaErrorAssert);
  EXPECT_EQ(lines_of(stderr_text),
            std::vector<std::string>{documented_message(kAssertLine, "void cuconform_assert_kernel(int)", "1,2,1",
                                                        "3,1,2", "thread != failing_thread")});
}

RULE_F(FailedAssert, MessageAppearsAtEventSynchronize, "5.4.10.1",
       "the message of a failed assert is printed to stderr after synchronizing with cudaEventSynchronize(), which "
       "returns cudaErrorAssert") {
  cudaEvent_t event;
  CUDA_ASSERT(cudaEventCreate(&event));
  CapturedStream err(2);
  cuconform_assert_kernel<<<kGrid, kBlock>>>(kFailingThread);
  cudaError_t error = cudaEventRecord(event);
  if (error == cudaSuccess) error = cudaEventSynchronize(event);
  const std::string stderr_text = err.stop();
  EXPECT_EQ(error, cudaErrorAssert);
  EXPECT_EQ(lines_of(stderr_text),
            std::vector<std::string>{documented_message(kAssertLine, "void cuconform_assert_kernel(int)", "1,2,1",
                                                        "3,1,2", "thread != failing_thread")});
}

RULE_F(FailedAssert, EveryFailingThreadPrintsItsMessage, "5.4.10.1",
       "each thread for which the assert expression is zero prints its own message") {
  CapturedStream err(2);
  cuconform_lanes_assert_kernel<<<1, 32>>>();
  const cudaError_t error = cudaDeviceSynchronize();
  std::vector<std::string> lines = lines_of(err.stop());
  EXPECT_EQ(error, cudaErrorAssert);

  std::vector<std::string> expected;
  for (int lane : kFailingLanes) {
    expected.push_back(documented_message(kLanesAssertLine, "void cuconform_lanes_assert_kernel()", "0,0,0",
                                          std::to_string(lane) + ",0,0", "lane != 3 && lane != 17 && lane != 30"));
  }
  EXPECT_TRUE(cuconform::SameMultiset(lines, expected));
}

RULE_F(FailedAssert, StopsTheKernel, "5.4.10.1",
       "a failed assert aborts the kernel: neither the failing thread nor another thread runs on") {
  MappedHostArray<int> flags(kAssertFlagCount);
  cuconform_outlive_assert_kernel<<<2, 32>>>(flags.device());
  const cudaError_t error = cudaDeviceSynchronize();
  EXPECT_EQ(error, cudaErrorAssert);
  EXPECT_EQ(flags[kReachedAssert], 1) << "the failing thread never reached the assert";
  EXPECT_EQ(flags[kRanPastAssert], 0) << "the failing thread ran past the failed assert";
  EXPECT_EQ(flags[kWaiterOutlivedAssert], 0) << "another thread ran on for 500 ms after the failed assert";
}

RULE_F(FailedAssert, LaterCallsFailWithCudaErrorAssert, "5.4.10.1",
       "after a failed assert, subsequent CUDA calls and kernel launches fail with cudaErrorAssert") {
  MappedHostArray<int> flags(kAssertFlagCount);
  cuconform_assert_kernel<<<kGrid, kBlock>>>(kFailingThread);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert) << "the synchronization with the kernel";

  void* allocation = nullptr;
  const cudaError_t malloc_error = cudaMalloc(&allocation, 256);
  EXPECT_EQ(malloc_error, cudaErrorAssert) << "cudaMalloc";
  if (malloc_error == cudaSuccess) cudaFree(allocation);

  int host_value = 0;
  EXPECT_EQ(cudaMemcpy(&host_value, flags.device(), sizeof(int), cudaMemcpyDeviceToHost), cudaErrorAssert)
      << "cudaMemcpy";

  cuconform_add_one<<<1, 1>>>(flags.device());
  cudaError_t launch_error = cudaGetLastError();
  if (launch_error == cudaSuccess) launch_error = cudaDeviceSynchronize();
  EXPECT_EQ(launch_error, cudaErrorAssert) << "a kernel launch";
}

// The precondition of a context that cudaDeviceReset() can create again in this process: the device is in the
// default compute mode and not shared through MPS (in exclusive-process or prohibited mode, PG12.9 6.4, whether a
// new context may be created depends on the other processes; MPS clients share the server's context state).
std::string why_a_new_context_may_be_refused() {
  const int device = cuconform::device().ordinal;
  int mode = cudaComputeModeDefault;
  if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device) == cudaSuccess && mode != cudaComputeModeDefault) {
    return "the device is not in the default compute mode (cudaDevAttrComputeMode = " + std::to_string(mode) + ")";
  }
  int mps = 0;
  if (cudaDeviceGetAttribute(&mps, cudaDevAttrMpsEnabled, device) == cudaSuccess && mps != 0) {
    return "contexts on this device are shared through MPS (cudaDevAttrMpsEnabled)";
  }
  (void)cudaGetLastError();
  return "";
}

RULE_F(FailedAssert, DeviceResetMakesTheDeviceUsableAgain, "PG12.9 10.32",
       "after a failed assert no more commands can be sent to the device until cudaDeviceReset() reinitializes it; "
       "after that, kernels run again") {
  const std::string refused = why_a_new_context_may_be_refused();
  if (!refused.empty()) GTEST_SKIP() << refused;
  cuconform_assert_kernel<<<kGrid, kBlock>>>(kFailingThread);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  void* first_allocation = nullptr;
  ASSERT_EQ(cudaMalloc(&first_allocation, sizeof(int)), cudaSuccess) << "the first call after cudaDeviceReset()";
  cudaFree(first_allocation);
  cuconform::DeviceBuffer<int> value(std::vector<int>{41});
  cuconform::launch(cuconform_add_one, 1, 1, value.get());
  EXPECT_EQ(value.value_at(0), 42);
}

class Assertion : public cuconform::GpuTest {};

RULE_F(Assertion, NonZeroExpressionLeavesTheKernelUnaffected, "5.4.10.1",
       "the kernel execution is unaffected when the assert expression is non-zero") {
  constexpr int kThreads = 300;
  cuconform::DeviceBuffer<int> out(kThreads);
  cuconform::launch(cuconform_passing_assert_kernel, 3, 100, out.get());
  std::vector<int> expected(kThreads);
  for (int i = 0; i < kThreads; ++i) expected[i] = 2 * i + 1;
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

}  // namespace
