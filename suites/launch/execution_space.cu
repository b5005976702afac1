// 5.4.1.1 Execution Space Specifiers: calls to a __global__ function are asynchronous, and a __host__ __device__
// function is compiled for both sides, its paths told apart by __CUDA_ARCH__.
#include <cuconform/build_targets.h>
#include <cuconform/cuconform.h>

#include <optional>

#include "host_release.h"

namespace {

using namespace cuconform::release;

class GlobalFunction : public cuconform::GpuTest {};

RULE_F(GlobalFunction, CallReturnsBeforeTheDeviceCompletes, "5.4.1.1",
       "a call to a __global__ function is asynchronous: it returns to the host thread before the device completes "
       "the kernel (here: a kernel that only the host, after the call, can let finish)") {
  HostFlag release, started;
  cuconform::DeviceBuffer<int> outcome(1);
  wait_for_host<<<1, 1>>>(release.device(), started.device(), outcome.get(), kReleaseTimeoutNs);
  CUDA_ASSERT(cudaGetLastError());
  EXPECT_TRUE(wait_until_started(started)) << "the kernel did not start waiting within 2 s";
  const cudaError_t while_waiting = cudaStreamQuery(0);
  release.set();
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(while_waiting, cudaErrorNotReady) << "the kernel was not still running when the call returned";
  EXPECT_EQ(outcome.value_at(0), kReleasedByHost) << "1: released by the host; 2: timed out, i.e. the call did not "
                                                     "return until the kernel gave up waiting";
}

__host__ __device__ int code_path() {
#if defined(__CUDA_ARCH__)
  return __CUDA_ARCH__;  // device code path
#else
  return -1;  // host code path
#endif
}

__global__ void device_code_path(int* path) { *path = code_path(); }

class HostDeviceFunction : public cuconform::GpuTest {};

RULE_F(HostDeviceFunction, CompiledForBothWithArchSpecificPaths, "5.4.1.1",
       "a __host__ __device__ function is compiled for host and device; __CUDA_ARCH__ is defined only in the device "
       "compilation, so the two calls take different paths") {
  // The device path's value is exact: the build's targets and the device's capability choose the code that runs
  // (PG12.9 6.1.4), and its __CUDA_ARCH__ is that code's compute_<version> * 10.
  const int device_cc = cuconform::device().cc();
  const std::optional<int> expected = cuconform::expected_cuda_arch(cuconform::device_targets(), device_cc);
  if (!expected) {
    GTEST_SKIP() << "the build's targets '" CUCONFORM_DEVICE_TARGETS "' hold no code for compute capability "
                 << cuconform::device().cc_name();
  }
  EXPECT_EQ(code_path(), -1) << "host call";
  cuconform::DeviceBuffer<int> path(1);
  cuconform::launch(device_code_path, 1, 1, path.get());
  EXPECT_EQ(path.value_at(0), *expected) << "device call: __CUDA_ARCH__ of the code that ran, for the build targets '"
                                         << CUCONFORM_DEVICE_TARGETS << "' on compute capability "
                                         << cuconform::device().cc_name();
}

}  // namespace
