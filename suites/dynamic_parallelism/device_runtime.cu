// PG12.9 13.3.1.3-13.3.1.7: the device runtime's API as kernels see it: events on the named streams, device
// management, device and constant memory shared with children, the inherited launch environment, and launch errors
// recorded per thread, and a fault in a child grid returned to the host (in a child process: the fault poisons the
// context). Each kernel records what the API returned; the host judges.
#include "cdp.h"

#include <algorithm>
#include <vector>

#include <cuconform/child_process.h>

namespace cuconform::cdp {
namespace {

__global__ void empty_child() {}

// [0] record on fire-and-forget, [1] wait on fire-and-forget, [2] record on tail, [3] wait on tail,
// [4] record on a stream of this grid (the control).
__global__ void events_on_named_streams(int* errors) {
  cudaEvent_t event;
  cudaStream_t own;
  if (cudaEventCreateWithFlags(&event, cudaEventDisableTiming) != cudaSuccess ||
      cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking) != cudaSuccess) {
    for (int i = 0; i < 5; ++i) errors[i] = -1;
    return;
  }
  errors[0] = cudaEventRecord(event, cudaStreamFireAndForget);
  errors[1] = cudaStreamWaitEvent(cudaStreamFireAndForget, event, 0);
  errors[2] = cudaEventRecord(event, cudaStreamTailLaunch);
  errors[3] = cudaStreamWaitEvent(cudaStreamTailLaunch, event, 0);
  errors[4] = cudaEventRecord(event, own);
  cudaEventDestroy(event);
  cudaStreamDestroy(own);
}

// The attributes a kernel queries and the host compares: where the device sits on the PCI bus (no two devices of a
// host share all three) and its SM count.
constexpr int kQueriedAttributes = 4;
__host__ __device__ inline cudaDeviceAttr queried_attribute(int i) {
  switch (i) {
    case 0: return cudaDevAttrPciDomainId;
    case 1: return cudaDevAttrPciBusId;
    case 2: return cudaDevAttrPciDeviceId;
    default: return cudaDevAttrMultiProcessorCount;
  }
}

// [0] cudaGetDevice's error, [1] the device; then, for each queried attribute of device `queried`, the query's error
// and the value.
__global__ void device_management(int queried, int* seen) {
  int device = -1;
  seen[0] = cudaGetDevice(&device);
  seen[1] = device;
  for (int i = 0; i < kQueriedAttributes; ++i) {
    int value = -1;
    seen[2 + 2 * i] = cudaDeviceGetAttribute(&value, queried_attribute(i), queried);
    seen[3 + 2 * i] = value;
  }
}

// What device_management should see, by the host's own answers: the current device and `queried`'s attributes.
std::vector<int> device_management_by_the_host(int current, int queried) {
  std::vector<int> expected = {cudaSuccess, current};
  for (int i = 0; i < kQueriedAttributes; ++i) {
    int value = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&value, queried_attribute(i), queried));
    expected.insert(expected.end(), {cudaSuccess, value});
  }
  return expected;
}

// device_management's observations, launched on the current device.
std::vector<int> device_management_seen(int queried) {
  DeviceBuffer<int> seen(2 + 2 * kQueriedAttributes);
  launch(device_management, 1, 1, queried, seen.get());
  return seen.to_host();
}

const char* const kDeviceManagementLayout =
    "[0] cudaGetDevice's error, [1] its device, then error and value of the PCI domain, bus, device and SM count";

__device__ int shared_with_child;
__constant__ int constant_for_all;

__global__ void child_reads_and_adds(int* seen) {
  seen[0] = shared_with_child;
  seen[1] = constant_for_all;
  shared_with_child += 1000;
}

__global__ void parent_writes_device_variable(int* seen) {
  shared_with_child = 41;
  child_reads_and_adds<<<1, 1, 0, cudaStreamTailLaunch>>>(seen);
}

__global__ void child_reports_its_stack_limit(unsigned long long* seen) {
  size_t stack = 0;
  seen[1] = cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  seen[2] = stack;
}

__global__ void parent_reports_then_launches(unsigned long long* seen) {
  size_t stack = 0;
  cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  seen[0] = stack;
  child_reports_its_stack_limit<<<1, 1>>>(seen);
}

// Even threads launch a child with 2048 threads per block (an invalid configuration), odd threads a valid one;
// each records cudaGetLastError() twice.
__global__ void per_thread_launch_errors(int* first, int* second) {
  const int t = threadIdx.x;
  if (t % 2 == 0) {
    empty_child<<<1, 2048, 0, cudaStreamFireAndForget>>>();
  } else {
    empty_child<<<1, 32, 0, cudaStreamFireAndForget>>>();
  }
  first[t] = cudaGetLastError();
  second[t] = cudaGetLastError();
}

// [0] record and [1] wait on cudaStreamFireAndForget, [2] record and [3] wait on cudaStreamTailLaunch, [4] record on
// a stream of the grid (the control: the event itself is usable).
std::vector<int> event_errors_on_named_streams() {
  DeviceBuffer<int> errors(5);
  launch(events_on_named_streams, 1, 1, errors.get());
  return errors.to_host();
}

RULE_F(DynamicParallelism, FireAndForgetStreamCannotRecordOrWaitOnEvents, "PG12.9 13.3.1.2.2",
       "the fire-and-forget stream cannot be used to record or wait on events: cudaErrorInvalidValue") {
  const std::vector<int> errors = event_errors_on_named_streams();
  EXPECT_EQ(errors[4], cudaSuccess) << "recording the event on a stream of the grid failed";
  EXPECT_EQ(errors[0], cudaErrorInvalidValue) << "cudaEventRecord on cudaStreamFireAndForget";
  EXPECT_EQ(errors[1], cudaErrorInvalidValue) << "cudaStreamWaitEvent on cudaStreamFireAndForget";
}

RULE_F(DynamicParallelism, TailLaunchStreamCannotRecordOrWaitOnEvents, "PG12.9 13.3.1.2.3",
       "the tail launch stream cannot be used to record or wait on events: cudaErrorInvalidValue") {
  const std::vector<int> errors = event_errors_on_named_streams();
  EXPECT_EQ(errors[4], cudaSuccess) << "recording the event on a stream of the grid failed";
  EXPECT_EQ(errors[2], cudaErrorInvalidValue) << "cudaEventRecord on cudaStreamTailLaunch";
  EXPECT_EQ(errors[3], cudaErrorInvalidValue) << "cudaStreamWaitEvent on cudaStreamTailLaunch";
}

RULE_F(DynamicParallelism, DeviceManagementSeesTheHostsDeviceNumber, "PG12.9 13.3.1.5",
       "the active device as seen from the GPU (cudaGetDevice() in a kernel) has the same device number as seen "
       "from the host; cudaDeviceGetAttribute() in a kernel answers for it as on the host") {
  int host_device = -1;
  CUDA_ASSERT(cudaGetDevice(&host_device));
  EXPECT_TRUE(
      ElementsEqual(device_management_seen(host_device), device_management_by_the_host(host_device, host_device)))
      << kDeviceManagementLayout << "; device " << host_device;
}

RULE_F(DynamicParallelismTwoGpus, DeviceGetAttributeAnswersForAnotherDevice, "PG12.9 13.3.1.5",
       "cudaDeviceGetAttribute() in a kernel may request information about another device, whose device ID it "
       "takes as a parameter") {
  REQUIRE_DEVICE_COUNT(2);  // with one GPU visible there is no other device to ask about
  int host_device = -1;
  CUDA_ASSERT(cudaGetDevice(&host_device));
  const int other = host_device == 0 ? 1 : 0;
  const std::vector<int> own = device_management_by_the_host(host_device, host_device);
  const std::vector<int> expected = device_management_by_the_host(host_device, other);
  // The control: the two devices' PCI locations differ, so an answer about the kernel's own device shows.
  ASSERT_FALSE(std::equal(own.begin() + 2, own.begin() + 8, expected.begin() + 2))
      << "devices " << host_device << " and " << other << " report the same PCI domain, bus and device";
  EXPECT_TRUE(ElementsEqual(device_management_seen(other), expected))
      << kDeviceManagementLayout << "; a kernel on device " << host_device << " asking about device " << other;
}

RULE_F(DynamicParallelism, DeviceAndConstantVariablesAreSharedWithChildren, "PG12.9 13.3.1.6.1",
       "kernels launched by the host or the device runtime have the same view of __device__ and __constant__ "
       "variables") {
  const int constant_value = 1234;
  CUDA_ASSERT(cudaMemcpyToSymbol(constant_for_all, &constant_value, sizeof(int)));
  DeviceBuffer<int> seen(2);
  launch(parent_writes_device_variable, 1, 1, seen.get());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), std::vector<int>{41, constant_value}));
  int after = 0;
  CUDA_ASSERT(cudaMemcpyFromSymbol(&after, shared_with_child, sizeof(int)));
  EXPECT_EQ(after, 1041) << "the child's write to the __device__ variable is not what the host reads";
}

RULE_F(DynamicParallelism, ChildInheritsTheDeviceLimits, "PG12.9 13.3.1.1.2",
       "device limits returned by cudaDeviceGetLimit() are inherited from the parent; the stack size remains as "
       "configured") {
  size_t original = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&original, cudaLimitStackSize));
  CUDA_ASSERT(cudaDeviceSetLimit(cudaLimitStackSize, original + 2048));
  size_t configured = 0;
  CUDA_ASSERT(cudaDeviceGetLimit(&configured, cudaLimitStackSize));
  DeviceBuffer<unsigned long long> seen(3);
  launch(parent_reports_then_launches, 1, 1, seen.get());
  const std::vector<unsigned long long> host = seen.to_host();
  CUDA_EXPECT(cudaDeviceSetLimit(cudaLimitStackSize, original));
  EXPECT_EQ(host[0], configured) << "the parent's stack limit";
  EXPECT_EQ(host[1], static_cast<unsigned long long>(cudaSuccess)) << "the child's cudaDeviceGetLimit";
  EXPECT_EQ(host[2], configured) << "the child's stack limit";
}

RULE_F(DynamicParallelism, LaunchErrorsAreRecordedPerThread, "PG12.9 13.3.1.7",
       "errors are recorded per thread: cudaGetLastError() in a kernel returns the most recent error of the calling "
       "thread (and resets it, as on the host)") {
  constexpr int kThreads = 64;
  DeviceBuffer<int> first(kThreads), second(kThreads);
  launch(per_thread_launch_errors, 1, kThreads, first.get(), second.get());
  const std::vector<int> first_host = first.to_host(), second_host = second.to_host();
  ASSERT_NE(first_host[0], cudaSuccess) << "a device-side launch of 2048 threads per block reported no error";
  std::vector<int> expected_first(kThreads), expected_second(kThreads, cudaSuccess);
  for (int t = 0; t < kThreads; ++t) expected_first[t] = t % 2 == 0 ? first_host[0] : cudaSuccess;
  EXPECT_TRUE(ElementsEqual(first_host, expected_first)) << "even threads launched invalidly, odd threads validly";
  EXPECT_TRUE(ElementsEqual(second_host, expected_second)) << "the second cudaGetLastError() of each thread";
  record_metric("invalid_launch_error", static_cast<long long>(first_host[0]));
}

// ---- 13.3.1.7: a device-side exception in a child grid is returned to the host ----

// Stores to address 16, which is never mapped: an illegal address.
__global__ void child_stores_to_an_unmapped_address() {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(16ull), "r"(1u) : "memory");
}

// [0] the parent's own launch of the faulting child (cudaGetLastError right after it).
__global__ void parent_of_a_faulting_child(int* seen) {
  child_stores_to_an_unmapped_address<<<1, 1>>>();
  seen[0] = cudaGetLastError();
}

TEST(DynamicParallelismChild, DISABLED_ChildGridFaults) {
  DeviceBuffer<int> seen(std::vector<int>{-1});
  parent_of_a_faulting_child<<<1, 1>>>(seen.get());
  observe("host_launch_error", cudaGetLastError());
  observe("synchronize_error", cudaDeviceSynchronize());
}

CHILD_PROCESS_RULE_F(
    DynamicParallelism, ChildGridFaultIsReturnedToTheHost, "PG12.9 13.3.1.7",
    "for device-side exceptions, e.g. access to an invalid address, an error in a child grid is returned to the "
    "host: the host's synchronization returns cudaErrorIllegalAddress") {
  const ChildRun run = run_child("DynamicParallelismChild.DISABLED_ChildGridFaults");
  ASSERT_TRUE(run.passed()) << run.describe();
  EXPECT_EQ(run.number("host_launch_error"), cudaSuccess) << "the host's launch of the parent\n" << run.describe();
  EXPECT_EQ(run.number("synchronize_error"), cudaErrorIllegalAddress)
      << "the host's cudaDeviceSynchronize after a child grid stored to address 16\n"
      << run.describe();
}

}  // namespace
}  // namespace cuconform::cdp
