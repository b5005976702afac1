// Shared memory per block (PG12.9 20.2 Table 28 and footnote 35, 20.6.4-20.10.3): 48 KB without opt-in, up to the
// documented maximum with cudaFuncAttributeMaxDynamicSharedMemorySize, and one byte past each fails.
#include <cuconform/cuconform.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

__host__ __device__ unsigned char dynamic_pattern(unsigned i) { return (i * 37u + 11u) & 0xffu; }
__host__ __device__ unsigned char static_pattern(unsigned i) { return (i * 13u + 3u) & 0xffu; }

// Writes a pattern over the whole dynamic allocation; each byte is read back by another thread, which records it in
// seen[blockIdx.x * bytes + i] (seen may be null: a launch that is meant to fail).
template <int Tag>
__global__ void use_all_dynamic_shared(unsigned bytes, unsigned char* seen) {
  extern __shared__ unsigned char dynamic_bytes[];
  for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) dynamic_bytes[i] = dynamic_pattern(i);
  __syncthreads();
  if (seen == nullptr) return;
  for (unsigned i = (threadIdx.x + 7) % blockDim.x; i < bytes; i += blockDim.x) {
    seen[blockIdx.x * bytes + i] = dynamic_bytes[i];
  }
}

constexpr unsigned kBlocks = 2;

// The bytes every block read back, against the pattern written.
::testing::AssertionResult read_back_as_written(const std::vector<unsigned char>& seen, unsigned bytes,
                                                unsigned char (*pattern)(unsigned)) {
  std::vector<unsigned char> expected;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned i = 0; i < bytes; ++i) expected.push_back(pattern(i));
  }
  return cuconform::ElementsEqual(seen, expected, [bytes](std::size_t i) {
    return "block " + std::to_string(i / bytes) + ", byte " + std::to_string(i % bytes) + " (read by another thread)";
  });
}

class SharedMemoryLimit : public cuconform::GpuTest {
 protected:
  // Launches kBlocks blocks with `bytes` of dynamic shared memory; with `seen`, what they read back.
  template <int Tag>
  static cudaError_t run(unsigned bytes, std::vector<unsigned char>* seen = nullptr) {
    cuconform::DeviceBuffer<unsigned char> device_seen(seen ? std::size_t(kBlocks) * bytes : 1);
    const cudaError_t error = cuconform::try_launch(use_all_dynamic_shared<Tag>, cuconform::Shape{kBlocks, 256, bytes},
                                                    bytes, seen ? device_seen.get() : nullptr);
    if (seen && error == cudaSuccess) *seen = device_seen.to_host();
    return error;
  }
  template <int Tag>
  static cudaError_t opt_in(long long bytes) {
    return cudaFuncSetAttribute(use_all_dynamic_shared<Tag>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  }
};

RULE_F(SharedMemoryLimit, FortyEightKilobytesWithoutOptIn, "PG12.9 20.2",
       "without opt-in a block launches with 48 KB of dynamic shared memory, all of it usable") {
  REQUIRE_DOCUMENTED(without_optin, "max_shared_memory_per_block_without_optin");
  std::vector<unsigned char> seen;
  ASSERT_EQ(run<0>(unsigned(without_optin), &seen), cudaSuccess);
  EXPECT_TRUE(read_back_as_written(seen, unsigned(without_optin), dynamic_pattern));
}

RULE_F(SharedMemoryLimit, OneByteBeyondFortyEightKilobytesNeedsOptIn, "PG12.9 20.2",
       "above 48 KB per block requires the opt-in: 48 KB + 1 byte without it fails to launch") {
  REQUIRE_DOCUMENTED(without_optin, "max_shared_memory_per_block_without_optin");
  const cudaError_t error = run<1>(unsigned(without_optin) + 1);
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess);
}

RULE_F(SharedMemoryLimit, OptInUpToTheDocumentedMaximum, "PG12.9 20.2",
       "with cudaFuncAttributeMaxDynamicSharedMemorySize set to the documented maximum per block (227 KB on 9.0) a "
       "block launches with that much dynamic shared memory, all of it usable") {
  REQUIRE_DOCUMENTED(maximum, "max_shared_memory_per_block");
  REQUIRE_DOCUMENTED(without_optin, "max_shared_memory_per_block_without_optin");
  if (maximum <= without_optin) GTEST_SKIP() << "no opt-in above 48 KB on " << cuconform::device().cc_name();
  CUDA_ASSERT(opt_in<2>(maximum));
  std::vector<unsigned char> seen;
  ASSERT_EQ(run<2>(unsigned(maximum), &seen), cudaSuccess);
  EXPECT_TRUE(read_back_as_written(seen, unsigned(maximum), dynamic_pattern));
}

RULE_F(SharedMemoryLimit, OptInBeyondTheMaximumIsAnInvalidValue, "PG12.9 20.2",
       "opting in to one byte more than the documented maximum per block is refused: cudaFuncSetAttribute returns "
       "cudaErrorInvalidValue (CUDA Runtime API: 'if the value is incorrect')") {
  REQUIRE_DOCUMENTED(maximum, "max_shared_memory_per_block");
  EXPECT_EQ(opt_in<3>(maximum + 1), cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

// 5.4.3: 'the function call fails if ... dynamic_smem_bytes is greater than the available shared memory'; the guide
// does not say with which error, so the error is recorded, not checked.
RULE_F(SharedMemoryLimit, LaunchBeyondTheMaximumFails, "PG12.9 20.2",
       "a launch requesting one byte more dynamic shared memory than the device supports per block (after the "
       "opt-in to the maximum) fails to launch (5.4.3)") {
  REQUIRE_DOCUMENTED(maximum, "max_shared_memory_per_block");
  REQUIRE_DOCUMENTED(without_optin, "max_shared_memory_per_block_without_optin");
  if (maximum > without_optin) CUDA_ASSERT(opt_in<4>(maximum));
  const cudaError_t error = run<4>(unsigned(maximum) + 1);
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess);
}

constexpr unsigned kStaticBytes = 48 * 1024;  // checked against the documented value in the rule

// Every byte is read back by another thread, which records it in seen[blockIdx.x * kStaticBytes + i].
__global__ void use_all_static_shared(unsigned char* seen) {
  __shared__ unsigned char static_bytes[kStaticBytes];
  for (unsigned i = threadIdx.x; i < kStaticBytes; i += blockDim.x) static_bytes[i] = static_pattern(i);
  __syncthreads();
  for (unsigned i = (threadIdx.x + 5) % blockDim.x; i < kStaticBytes; i += blockDim.x) {
    seen[blockIdx.x * kStaticBytes + i] = static_bytes[i];
  }
}

RULE_F(SharedMemoryLimit, FortyEightKilobytesOfStaticSharedMemory, "PG12.9 20.2",
       "a block uses 48 KB of static shared memory (only above 48 KB is dynamic shared memory required, footnote 35)") {
  REQUIRE_DOCUMENTED(without_optin, "max_shared_memory_per_block_without_optin");
  ASSERT_EQ(kStaticBytes, without_optin) << "the kernel's static array must be the documented 48 KB";
  cudaFuncAttributes attributes{};
  CUDA_ASSERT(cudaFuncGetAttributes(&attributes, use_all_static_shared));
  EXPECT_EQ(attributes.sharedSizeBytes, kStaticBytes);
  cuconform::DeviceBuffer<unsigned char> seen(kBlocks * kStaticBytes);
  ASSERT_EQ(cuconform::try_launch(use_all_static_shared, cuconform::Shape{kBlocks, 256}, seen.get()), cudaSuccess);
  EXPECT_TRUE(read_back_as_written(seen.to_host(), kStaticBytes, static_pattern));
}

}  // namespace
