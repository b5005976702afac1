// PG12.9 13.3.1.8 Table 15: the device runtime's queries, which behave as their host runtime equivalents where the
// table gives no difference (Table 14's heading: "behavior is identical if no description"). A kernel makes each
// query and records what it returned; the host makes the same query through the host runtime, which is the model.
// Also 13.5.1: cudaLimitDevRuntimeSyncDepth is unsupported with CDP2 and on CC 9.0 and higher.
#include "cdp.h"

#include <cuda.h>

#include <cstring>
#include <string>
#include <vector>

namespace cuconform::cdp {
namespace {

// The function the occupancy and attribute queries ask about: static shared memory, a local array and enough
// registers to make its answers differ from an empty kernel's.
__global__ void __launch_bounds__(512) queried_kernel(float* out, int n) {
  __shared__ float staged[1024];
  float local[16];
  for (int i = 0; i < 16; ++i) local[i] = out[(threadIdx.x + i * 7) % n];
  staged[threadIdx.x] = local[threadIdx.x % 16] * local[(threadIdx.x + 3) % 16];
  __syncthreads();
  out[threadIdx.x] = staged[(threadIdx.x + 1) % blockDim.x];
}

// Shared memory per block for cudaOccupancyMaxPotentialBlockSizeVariableSMem: 16 bytes a thread.
struct SixteenBytesPerThread {
  __host__ __device__ size_t operator()(int block_size) const { return 16 * static_cast<size_t>(block_size); }
};

// The (block size, dynamic shared memory) pairs the occupancy rule asks about.
struct OccupancyQuery {
  int block_size;
  size_t dynamic_shared_bytes;
};
constexpr OccupancyQuery kOccupancyQueries[] = {{32, 0},    {128, 0},     {256, 0},     {512, 0},
                                                {64, 8192}, {128, 16384}, {256, 32768}, {96, 1000}};
constexpr int kOccupancyQueryCount = sizeof(kOccupancyQueries) / sizeof(kOccupancyQueries[0]);

__global__ void occupancy_on_device(const OccupancyQuery* queries, int count, int* errors, int* blocks) {
  for (int i = 0; i < count; ++i) {
    // The C form (const void *): clang's -fgpu-rdc link leaves the kernel-taking template of the device runtime
    // header undefined (README, "Statements that are not rules").
    errors[i] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks[i], reinterpret_cast<const void*>(queried_kernel),
                                                              queries[i].block_size, queries[i].dynamic_shared_bytes);
  }
}

// [0] error, [1] min grid size, [2] block size: fixed shared memory (0 bytes), then the same for 16 bytes per thread.
__global__ void potential_block_size_on_device(int* fixed, int* variable) {
  fixed[0] = cudaOccupancyMaxPotentialBlockSize(&fixed[1], &fixed[2], queried_kernel, 0, 0);
  variable[0] = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&variable[1], &variable[2], queried_kernel,
                                                               SixteenBytesPerThread());
}

__global__ void attributes_on_device(cudaFuncAttributes* attributes, int* error) {
  *error = cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(queried_kernel));
}

// [0] cudaDeviceGetCacheConfig's error, [1] the configuration; [2] cudaRuntimeGetVersion's error, [3] the version;
// [4] cudaGetDeviceCount's error, [5] the count.
__global__ void device_wide_queries(int* seen) {
  cudaFuncCache cache = cudaFuncCachePreferNone;
  seen[0] = cudaDeviceGetCacheConfig(&cache);
  seen[1] = cache;
  seen[2] = cudaRuntimeGetVersion(&seen[3]);
  seen[4] = cudaGetDeviceCount(&seen[5]);
}

__global__ void empty_child() {}

// An invalid launch (2048 threads per block), then cudaPeekAtLastError twice and cudaGetLastError twice.
__global__ void peek_then_get(int* seen) {
  empty_child<<<1, 2048>>>();
  seen[0] = cudaPeekAtLastError();
  seen[1] = cudaPeekAtLastError();
  seen[2] = cudaGetLastError();
  seen[3] = cudaGetLastError();
}

constexpr int kErrorStringBytes = 160;

// cudaGetErrorString of each code, copied into kErrorStringBytes per code (null-terminated, cut if longer).
__global__ void error_strings_on_device(const int* codes, int count, char* strings) {
  for (int i = 0; i < count; ++i) {
    const char* text = cudaGetErrorString(static_cast<cudaError_t>(codes[i]));
    char* to = strings + i * kErrorStringBytes;
    int length = 0;
    for (; text && text[length] && length < kErrorStringBytes - 1; ++length) to[length] = text[length];
    to[length] = '\0';
  }
}

// [0] the device-side cudaDeviceGetLimit's error for cudaLimitDevRuntimeSyncDepth, then cudaGetLastError (clearing
// it), and the stack-size query as the control.
__global__ void sync_depth_on_device(int* seen) {
  size_t value = 0;
  seen[0] = cudaDeviceGetLimit(&value, cudaLimitDevRuntimeSyncDepth);
  cudaGetLastError();
  seen[1] = cudaDeviceGetLimit(&value, cudaLimitStackSize);
}

// ---- occupancy ----

RULE_F(DynamicParallelism, DeviceOccupancyMaxActiveBlocksAgreesWithTheHost, "PG12.9 13.3.1.8 Table 15",
       "cudaOccupancyMaxActiveBlocksPerMultiprocessor() is supported in device code: a kernel gets the host "
       "runtime's answer for every block size and dynamic shared memory size") {
  const std::vector<OccupancyQuery> queries(std::begin(kOccupancyQueries), std::end(kOccupancyQueries));
  std::vector<int> expected(kOccupancyQueryCount);
  for (int i = 0; i < kOccupancyQueryCount; ++i) {
    CUDA_ASSERT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&expected[i], queried_kernel, queries[i].block_size,
                                                              queries[i].dynamic_shared_bytes));
  }
  DeviceBuffer<OccupancyQuery> on_device(queries);
  DeviceBuffer<int> errors(std::vector<int>(kOccupancyQueryCount, -1)), blocks(kOccupancyQueryCount);
  launch(occupancy_on_device, 1, 1, on_device.get(), kOccupancyQueryCount, errors.get(), blocks.get());
  const auto where = [&](std::size_t i) {
    return "block size " + std::to_string(queries[i].block_size) + ", " +
           std::to_string(queries[i].dynamic_shared_bytes) + " bytes of dynamic shared memory";
  };
  EXPECT_TRUE(ElementsEqual(errors.to_host(), std::vector<int>(kOccupancyQueryCount, cudaSuccess), where));
  EXPECT_TRUE(ElementsEqual(blocks.to_host(), expected, where)) << "blocks per multiprocessor (the host's: expected)";
}

RULE_F(DynamicParallelism, DeviceOccupancyMaxPotentialBlockSizeAgreesWithTheHost, "PG12.9 13.3.1.8 Table 15",
       "cudaOccupancyMaxPotentialBlockSize() and cudaOccupancyMaxPotentialBlockSizeVariableSMem() are supported in "
       "device code: a kernel gets the host runtime's minimum grid size and block size") {
  std::vector<int> fixed_expected(3, cudaSuccess), variable_expected(3, cudaSuccess);
  CUDA_ASSERT(cudaOccupancyMaxPotentialBlockSize(&fixed_expected[1], &fixed_expected[2], queried_kernel, 0, 0));
  CUDA_ASSERT(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&variable_expected[1], &variable_expected[2],
                                                             queried_kernel, SixteenBytesPerThread()));
  DeviceBuffer<int> fixed(std::vector<int>(3, -1)), variable(std::vector<int>(3, -1));
  launch(potential_block_size_on_device, 1, 1, fixed.get(), variable.get());
  EXPECT_TRUE(ElementsEqual(fixed.to_host(), fixed_expected))
      << "cudaOccupancyMaxPotentialBlockSize: [0] error, [1] minimum grid size, [2] block size";
  EXPECT_TRUE(ElementsEqual(variable.to_host(), variable_expected))
      << "cudaOccupancyMaxPotentialBlockSizeVariableSMem with 16 bytes per thread: [0] error, [1] minimum grid "
         "size, [2] block size";
}

// ---- cudaFuncGetAttributes ----

RULE_F(DynamicParallelism, DeviceFuncGetAttributesAgreesWithTheHost, "PG12.9 13.3.1.8 Table 15",
       "cudaFuncGetAttributes() is supported in device code: a kernel gets the host runtime's attributes of a "
       "function (registers, shared, constant and local memory, thread limit, PTX and binary versions)") {
  cudaFuncAttributes host{};
  CUDA_ASSERT(cudaFuncGetAttributes(&host, queried_kernel));
  DeviceBuffer<cudaFuncAttributes> on_device(1);
  DeviceBuffer<int> error(std::vector<int>{-1});
  launch(attributes_on_device, 1, 1, on_device.get(), error.get());
  ASSERT_EQ(error.to_host()[0], cudaSuccess) << "cudaFuncGetAttributes in the kernel";
  const cudaFuncAttributes device = on_device.to_host()[0];
  EXPECT_EQ(device.numRegs, host.numRegs);
  EXPECT_EQ(device.maxThreadsPerBlock, host.maxThreadsPerBlock);
  EXPECT_EQ(device.sharedSizeBytes, host.sharedSizeBytes);
  EXPECT_EQ(device.constSizeBytes, host.constSizeBytes);
  EXPECT_EQ(device.localSizeBytes, host.localSizeBytes);
  EXPECT_EQ(device.ptxVersion, host.ptxVersion);
  EXPECT_EQ(device.binaryVersion, host.binaryVersion);
  record_metric("queried_kernel_registers", static_cast<long long>(host.numRegs));
  record_metric("queried_kernel_shared_bytes", static_cast<long long>(host.sharedSizeBytes));
}

// ---- device-wide queries ----

RULE_F(DynamicParallelism, DeviceCacheConfigVersionAndDeviceCountAgreeWithTheHost, "PG12.9 13.3.1.8 Table 15",
       "cudaDeviceGetCacheConfig(), cudaRuntimeGetVersion() and cudaGetDeviceCount() are supported in device code: "
       "a kernel gets the host runtime's answers") {
  // A configuration other than the default, so that a device side that ignores the host's setting shows; the
  // process's configuration is restored however the rule ends.
  struct CacheConfigRestorer {
    cudaFuncCache original = cudaFuncCachePreferNone;
    CacheConfigRestorer() { CUDA_CHECK(cudaDeviceGetCacheConfig(&original)); }
    ~CacheConfigRestorer() { cudaDeviceSetCacheConfig(original); }
  } restorer;
  CUDA_ASSERT(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  std::vector<int> expected(6, cudaSuccess);
  cudaFuncCache configured = cudaFuncCachePreferNone;
  CUDA_ASSERT(cudaDeviceGetCacheConfig(&configured));
  expected[1] = configured;
  CUDA_ASSERT(cudaRuntimeGetVersion(&expected[3]));
  CUDA_ASSERT(cudaGetDeviceCount(&expected[5]));
  DeviceBuffer<int> seen(std::vector<int>(6, -1));
  launch(device_wide_queries, 1, 1, seen.get());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), expected))
      << "[0] cudaDeviceGetCacheConfig's error, [1] the configuration (the host set cudaFuncCachePreferShared and "
         "reads "
      << configured
      << "), [2] cudaRuntimeGetVersion's error, [3] the version, [4] cudaGetDeviceCount's "
         "error, [5] the count";
}

// ---- errors ----

RULE_F(DynamicParallelism, DevicePeekAtLastErrorDoesNotResetTheError, "PG12.9 13.3.1.8 Table 15",
       "cudaPeekAtLastError() is supported in device code and, as on the host, returns the thread's last error "
       "without resetting it; cudaGetLastError() then returns it and resets it") {
  DeviceBuffer<int> seen(std::vector<int>(4, -1));
  launch(peek_then_get, 1, 1, seen.get());
  const std::vector<int> host = seen.to_host();
  ASSERT_NE(host[0], cudaSuccess) << "a device-side launch of 2048 threads per block reported no error";
  EXPECT_TRUE(ElementsEqual(host, std::vector<int>{host[0], host[0], host[0], cudaSuccess}))
      << "after an invalid launch: [0] [1] cudaPeekAtLastError, [2] [3] cudaGetLastError";
}

RULE_F(DynamicParallelism, DeviceGetErrorStringAgreesWithTheHost, "PG12.9 13.3.1.8 Table 15",
       "cudaGetErrorString() is supported in device code: a kernel gets the host runtime's description of each "
       "error code") {
  const std::vector<int> codes = {cudaSuccess,
                                  cudaErrorInvalidValue,
                                  cudaErrorMemoryAllocation,
                                  cudaErrorInvalidDevice,
                                  cudaErrorNotReady,
                                  cudaErrorIllegalAddress,
                                  cudaErrorLaunchFailure,
                                  cudaErrorUnsupportedLimit,
                                  cudaErrorLaunchOutOfResources,
                                  cudaErrorUnknown};
  DeviceBuffer<int> on_device(codes);
  DeviceBuffer<char> strings(codes.size() * kErrorStringBytes);
  launch(error_strings_on_device, 1, 1, on_device.get(), static_cast<int>(codes.size()), strings.get());
  const std::vector<char> text = strings.to_host();
  std::vector<std::string> seen, expected;
  for (std::size_t i = 0; i < codes.size(); ++i) {
    seen.emplace_back(&text[i * kErrorStringBytes]);
    expected.emplace_back(
        std::string(cudaGetErrorString(static_cast<cudaError_t>(codes[i]))).substr(0, kErrorStringBytes - 1));
  }
  EXPECT_TRUE(ElementsEqual(seen, expected, [&](std::size_t i) { return "code " + std::to_string(codes[i]); }));
}

// ---- 13.5.1: cudaLimitDevRuntimeSyncDepth ----

using GetLimit = CUresult (*)(size_t*, CUlimit);
using SetLimit = CUresult (*)(CUlimit, size_t);

// A driver entry point through the runtime (the suite links no driver library); nullptr when there is none.
template <class Function>
Function driver_function(const char* name) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &function, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    return nullptr;
  }
  return reinterpret_cast<Function>(function);
}

RULE_F(DynamicParallelism, SyncDepthLimitIsUnsupportedOnCc90AndHigher, "PG12.9 13.5.1",
       "querying or setting cudaLimitDevRuntimeSyncDepth (or CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH) on devices of compute "
       "capability 9.0 or higher results in cudaErrorUnsupportedLimit (CUDA_ERROR_UNSUPPORTED_LIMIT)") {
  REQUIRE_CC(9, 0);
  size_t value = 0;
  EXPECT_EQ(cudaDeviceGetLimit(&value, cudaLimitDevRuntimeSyncDepth), cudaErrorUnsupportedLimit)
      << "cudaDeviceGetLimit";
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4), cudaErrorUnsupportedLimit) << "cudaDeviceSetLimit";
  (void)cudaGetLastError();        // the errors above are not sticky
  CUDA_ASSERT(cudaFree(nullptr));  // a current context for the driver calls
  const auto get = driver_function<GetLimit>("cuCtxGetLimit");
  const auto set = driver_function<SetLimit>("cuCtxSetLimit");
  ASSERT_TRUE(get && set) << "the driver has no cuCtxGetLimit or cuCtxSetLimit entry point";
  EXPECT_EQ(get(&value, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH), CUDA_ERROR_UNSUPPORTED_LIMIT) << "cuCtxGetLimit";
  EXPECT_EQ(set(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 4), CUDA_ERROR_UNSUPPORTED_LIMIT) << "cuCtxSetLimit";
}

RULE_F(DynamicParallelism, SyncDepthLimitIsUnsupportedWithCdp2, "PG12.9 13.5.1",
       "querying cudaLimitDevRuntimeSyncDepth with CDP2 results in cudaErrorUnsupportedLimit: the device-side "
       "cudaDeviceGetLimit of a CDP2 kernel returns it (and the stack-size query, the control, succeeds)") {
  DeviceBuffer<int> seen(std::vector<int>(2, -1));
  launch(sync_depth_on_device, 1, 1, seen.get());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), std::vector<int>{cudaErrorUnsupportedLimit, cudaSuccess}))
      << "[0] cudaDeviceGetLimit(cudaLimitDevRuntimeSyncDepth), [1] cudaDeviceGetLimit(cudaLimitStackSize)";
}

}  // namespace
}  // namespace cuconform::cdp
