// PG12.9 6.2.13 Call Stack: the per-thread stack size is queried with cudaDeviceGetLimit() and set with
// cudaDeviceSetLimit(); a kernel whose call stack overflows fails with an unspecified launch error when no debugger
// runs it. The overflow poisons the context, so it runs in a child process.
#include <cuconform/cuconform.h>

#include <cuconform/child_process.h>

namespace cuconform::runtime {
namespace {

class CallStack : public GpuTest {};

// Recursion the compiler cannot bound: each frame keeps a local array alive across the call.
__device__ int recurse(int depth, int seed) {
  volatile int frame[64];
  for (int i = 0; i < 64; ++i) frame[i] = seed + i;
  if (depth == 0) return frame[seed & 63];
  return recurse(depth - 1, frame[(seed + 1) & 63]) + frame[depth & 63];
}

__global__ void recurse_kernel(int depth, int* out) { *out = recurse(depth, 1); }

TEST(RuntimeStackChild, DISABLED_Overflow) {
  int* out = nullptr;
  CUDA_ASSERT(cudaMalloc(&out, sizeof(int)));
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitStackSize, 1024));
  recurse_kernel<<<1, 1>>>(100000, out);  // about 256 bytes a frame: far past 1 KiB
  observe("launch_error", cudaGetLastError());
  observe("synchronize_error", cudaDeviceSynchronize());
}

RULE_F(CallStack, SizeIsQueriedAndSetThroughTheLimit, "PG12.9 6.2.13",
       "the size of the call stack can be queried using cudaDeviceGetLimit() and set using cudaDeviceSetLimit()") {
  size_t original = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&original, cudaLimitStackSize));
  EXPECT_GT(original, 0u);
  const size_t wanted = original + 4096;
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitStackSize, wanted));
  size_t now = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&now, cudaLimitStackSize));
  // The runtime may round the size up to its granularity; it may not give less than was asked for.
  EXPECT_GE(now, wanted);
  record_metric("default_stack_bytes", static_cast<long long>(original));
  record_metric("stack_bytes_after_setting", static_cast<long long>(now));
  CUDA_EXPECT(cudaDeviceSetLimit(cudaLimitStackSize, original));
}

CHILD_PROCESS_RULE_F(
    CallStack, OverflowFailsTheKernelWithAnUnspecifiedLaunchError, "PG12.9 6.2.13",
    "when the call stack overflows outside a debugger, the kernel call fails with an unspecified launch error") {
  ChildRun run = run_child("RuntimeStackChild.DISABLED_Overflow");
  ASSERT_TRUE(run.has("synchronize_error")) << run.describe();
  EXPECT_EQ(run.number("launch_error"), cudaSuccess) << run.describe();
  EXPECT_EQ(run.number("synchronize_error"), cudaErrorLaunchFailure)
      << "cudaErrorLaunchFailure is the runtime's \"unspecified launch failure\"; got "
      << describe(static_cast<cudaError_t>(run.number("synchronize_error")));
}

}  // namespace
}  // namespace cuconform::runtime
