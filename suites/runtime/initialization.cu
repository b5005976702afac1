// PG12.9 6.2.1 Initialization: which runtime calls create the primary context, that cudaDeviceReset destroys it and
// the next call creates a new one, and that the error-handling and version functions initialize nothing. Each rule
// runs its calls in a child process (child_process.h), whose runtime starts uninitialized, and reads the primary
// context's state through the driver (cuDevicePrimaryCtxGetState, which creates none).
#include <cuconform/cuconform.h>

#include <thread>

#include <cuconform/child_process.h>
#include "driver_api.h"

namespace cuconform::runtime {
namespace {

class Initialization : public DriverApiTest {
 protected:
  // Runs the child `RuntimeInitChild.DISABLED_<name>` and returns what it observed.
  ChildRun child(const char* name) {
    ChildRun run = run_child(std::string("RuntimeInitChild.DISABLED_") + name);
    EXPECT_TRUE(run.passed()) << run.describe();
    return run;
  }
};

__global__ void store_one(int* out) { *out = 1; }

// ---- The children: each observes the primary context of device 0 before and after its calls. ----

TEST(RuntimeInitChild, DISABLED_ErrorAndVersionFunctions) {
  int version = 0;
  (void)cudaGetLastError();
  (void)cudaPeekAtLastError();
  (void)cudaGetErrorName(cudaErrorInvalidValue);
  (void)cudaGetErrorString(cudaErrorInvalidValue);
  (void)cudaRuntimeGetVersion(&version);
  (void)cudaDriverGetVersion(&version);
  observe("active_after_error_and_version_calls", primary_context_active(0));
  CUDA_ASSERT(cudaFree(nullptr));
  observe("active_after_cudaFree", primary_context_active(0));
}

TEST(RuntimeInitChild, DISABLED_SetDevice) {
  observe("active_before", primary_context_active(0));
  observe("set_device_error", cudaSetDevice(0));
  observe("active_after", primary_context_active(0));
}

TEST(RuntimeInitChild, DISABLED_InitDevice) {
  observe("active_before", primary_context_active(0));
  observe("init_device_error", cudaInitDevice(0, 0, 0));
  observe("active_after", primary_context_active(0));
}

TEST(RuntimeInitChild, DISABLED_ImplicitDeviceZero) {
  observe("active_before", primary_context_active(0));
  int* out = nullptr;
  CUDA_ASSERT(cudaMalloc(&out, sizeof(int)));
  int current = -1;
  CUDA_ASSERT(cudaGetDevice(&current));
  observe("current_device", current);
  observe("active_after", primary_context_active(0));
  CUDA_ASSERT(cudaFree(out));
}

TEST(RuntimeInitChild, DISABLED_DeviceReset) {
  CUDA_ASSERT(cudaFree(nullptr));
  observe("active_after_first_call", primary_context_active(0));
  CUDA_ASSERT(cudaDeviceReset());
  observe("active_after_reset", primary_context_active(0));
  int* out = nullptr;
  observe("malloc_after_reset_error", cudaMalloc(&out, sizeof(int)));
  observe("active_after_next_call", primary_context_active(0));
  cudaFree(out);
}

// ---- The rules ----

CHILD_PROCESS_RULE_F(
    Initialization, ErrorAndVersionFunctionsDoNotInitializeTheRuntime, "PG12.9 6.2.1",
    "the runtime functions of the error handling and version management sections do not initialize the runtime") {
  ChildRun run = child("ErrorAndVersionFunctions");
  EXPECT_EQ(run.number("active_after_error_and_version_calls"), 0) << run.describe();
  // The control: the same observation sees the context that the first real runtime call creates.
  EXPECT_EQ(run.number("active_after_cudaFree"), 1) << run.describe();
}

CHILD_PROCESS_RULE_F(Initialization, SetDeviceInitializesThePrimaryContext, "PG12.9 6.2.1",
                     "as of CUDA 12.0 cudaSetDevice() initializes the runtime and the primary context of the device") {
  ChildRun run = child("SetDevice");
  EXPECT_EQ(run.number("active_before"), 0) << run.describe();
  EXPECT_EQ(run.number("set_device_error"), cudaSuccess) << run.describe();
  EXPECT_EQ(run.number("active_after"), 1) << run.describe();
}

CHILD_PROCESS_RULE_F(Initialization, InitDeviceInitializesThePrimaryContext, "PG12.9 6.2.1",
                     "cudaInitDevice() initializes the runtime and the primary context of the device") {
  ChildRun run = child("InitDevice");
  EXPECT_EQ(run.number("active_before"), 0) << run.describe();
  EXPECT_EQ(run.number("init_device_error"), cudaSuccess) << run.describe();
  EXPECT_EQ(run.number("active_after"), 1) << run.describe();
}

CHILD_PROCESS_RULE_F(Initialization, WithoutSetDeviceTheRuntimeUsesDeviceZero, "PG12.9 6.2.1",
                     "absent cudaInitDevice/cudaSetDevice the runtime implicitly uses device 0 and self-initializes") {
  ChildRun run = child("ImplicitDeviceZero");
  EXPECT_EQ(run.number("active_before"), 0) << run.describe();
  EXPECT_EQ(run.number("current_device"), 0) << run.describe();
  EXPECT_EQ(run.number("active_after"), 1) << run.describe();
}

CHILD_PROCESS_RULE_F(
    Initialization, DeviceResetDestroysThePrimaryContextAndTheNextCallCreatesOne, "PG12.9 6.2.1",
    "cudaDeviceReset() destroys the current device's primary context; the next runtime call creates a new one") {
  ChildRun run = child("DeviceReset");
  EXPECT_EQ(run.number("active_after_first_call"), 1) << run.describe();
  EXPECT_EQ(run.number("active_after_reset"), 0) << run.describe();
  EXPECT_EQ(run.number("malloc_after_reset_error"), cudaSuccess) << run.describe();
  EXPECT_EQ(run.number("active_after_next_call"), 1) << run.describe();
}

RULE_F(Initialization, PrimaryContextIsSharedByEveryHostThread, "PG12.9 6.2.1",
       "the primary context is shared among all the host threads of the application") {
  const DriverApi& api = *driver_api();
  int* out = nullptr;
  CUDA_ASSERT(cudaMalloc(&out, sizeof(int)));
  CUDA_ASSERT(cudaMemset(out, 0, sizeof(int)));
  CUcontext main_context = nullptr;
  ASSERT_EQ(api.cuCtxGetCurrent(&main_context), CUDA_SUCCESS);

  CUcontext thread_context = nullptr;
  cudaError_t thread_error = cudaSuccess;
  std::thread other([&] {
    store_one<<<1, 1>>>(out);  // the allocation of the main thread, used by a launch of this one
    thread_error = cudaDeviceSynchronize();
    api.cuCtxGetCurrent(&thread_context);
  });
  other.join();

  EXPECT_EQ(thread_error, cudaSuccess) << describe(thread_error);
  EXPECT_NE(main_context, nullptr);
  EXPECT_EQ(thread_context, main_context) << "the second host thread runs in another context";
  int stored = 0;
  CUDA_ASSERT(cudaMemcpy(&stored, out, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(stored, 1);
  CUDA_EXPECT(cudaFree(out));
}

}  // namespace
}  // namespace cuconform::runtime
