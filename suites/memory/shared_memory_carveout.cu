// The shared-memory carveout (PG12.9 20.6.4, 20.7.3, 20.8.3) and the legacy cache configuration (2.2.3.2): how much
// of the unified data cache a kernel prefers as shared memory. Both are preferences the driver may override, so what
// is checked is what the documentation guarantees, not which configuration the hardware picked:
// - the carveout is set as an integer percentage or one of the named values, and cudaFuncGetAttributes reads it back;
// - "the carveout is treated as a hint. The driver may choose a different configuration if required to execute the
//   function": a kernel that needs the documented maximum of shared memory per block launches, and every byte of its
//   shared memory works, whatever carveout it prefers, even cudaSharedmemCarveoutMaxL1;
// - cudaFuncSetCacheConfig "specifies a preference to the runtime, but is not guaranteed to be honored. The runtime
//   is free to make decisions based on the available resources and the needs of the kernel": the same kernel
//   launches under every cudaFuncCache preference.
#include <cuconform/cuconform.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

__host__ __device__ unsigned char carveout_pattern(unsigned i) { return (i * 29u + 5u) & 0xffu; }

// Writes the pattern over the whole dynamic allocation; each byte is read back by another thread into
// seen[blockIdx.x * bytes + i].
template <int Tag>
__global__ void fill_dynamic_shared(unsigned bytes, unsigned char* seen) {
  extern __shared__ unsigned char dynamic_bytes[];
  for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) dynamic_bytes[i] = carveout_pattern(i);
  __syncthreads();
  for (unsigned i = (threadIdx.x + 7) % blockDim.x; i < bytes; i += blockDim.x)
    seen[blockIdx.x * bytes + i] = dynamic_bytes[i];
}

constexpr unsigned kBlocks = 2;

// Every byte of every block read back as written.
::testing::AssertionResult read_back_as_written(const std::vector<unsigned char>& seen, unsigned bytes) {
  std::vector<unsigned char> expected;
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned i = 0; i < bytes; ++i) expected.push_back(carveout_pattern(i));
  return cuconform::ElementsEqual(seen, expected, [bytes](std::size_t i) {
    return "block " + std::to_string(i / bytes) + ", byte " + std::to_string(i % bytes);
  });
}

// Configurable carveouts begin with Volta (20.6.4): the rules skip below CC 7.0.
class SharedMemoryCarveout : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(7, 0);
  }

  // Opts the kernel in to the documented maximum of shared memory per block and launches it with all of it.
  template <int Tag>
  ::testing::AssertionResult runs_with_the_maximum(unsigned maximum, const std::string& preference) {
    cudaError_t error =
        cudaFuncSetAttribute(fill_dynamic_shared<Tag>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(maximum));
    if (error != cudaSuccess)
      return ::testing::AssertionFailure() << "opting in to " << maximum << " bytes: " << cuconform::describe(error);
    cuconform::DeviceBuffer<unsigned char> seen(std::size_t(kBlocks) * maximum);
    error =
        cuconform::try_launch(fill_dynamic_shared<Tag>, cuconform::Shape{kBlocks, 256, maximum}, maximum, seen.get());
    if (error != cudaSuccess)
      return ::testing::AssertionFailure() << "under " << preference << " a kernel with " << maximum
                                           << " bytes of shared memory did not run: " << cuconform::describe(error);
    ::testing::AssertionResult same = read_back_as_written(seen.to_host(), maximum);
    if (!same) return same << " (under " << preference << ")";
    return ::testing::AssertionSuccess();
  }
};

struct NamedCarveout {
  const char* name;
  int value;
};
constexpr NamedCarveout kCarveouts[] = {
    {"cudaSharedmemCarveoutDefault", cudaSharedmemCarveoutDefault},
    {"cudaSharedmemCarveoutMaxL1", cudaSharedmemCarveoutMaxL1},
    {"cudaSharedmemCarveoutMaxShared", cudaSharedmemCarveoutMaxShared},
    {"1 percent", 1},
    {"50 percent", 50},
    {"99 percent", 99},
};

RULE_F(SharedMemoryCarveout, PreferenceIsAPercentageOrANamedValueAndReadsBack, "PG12.9 20.7.3",
       "cudaFuncSetAttribute(cudaFuncAttributePreferredSharedMemoryCarveout) takes an integer percentage of the "
       "maximum shared memory capacity or one of cudaSharedmemCarveoutDefault (-1), MaxL1 (0) and MaxShared (100); "
       "cudaFuncGetAttributes reads the preference back") {
  EXPECT_EQ(cudaSharedmemCarveoutDefault, -1);
  EXPECT_EQ(cudaSharedmemCarveoutMaxL1, 0);
  EXPECT_EQ(cudaSharedmemCarveoutMaxShared, 100);
  for (const NamedCarveout& carveout : kCarveouts) {
    CUDA_EXPECT(
        cudaFuncSetAttribute(fill_dynamic_shared<0>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout.value))
        << carveout.name;
    cudaFuncAttributes attributes{};
    CUDA_ASSERT(cudaFuncGetAttributes(&attributes, fill_dynamic_shared<0>));
    EXPECT_EQ(attributes.preferredShmemCarveout, carveout.value) << carveout.name;
  }
  // A percentage above 100 is outside what the guide describes; what it gives is only recorded.
  const cudaError_t above =
      cudaFuncSetAttribute(fill_dynamic_shared<0>, cudaFuncAttributePreferredSharedMemoryCarveout, 101);
  cudaGetLastError();
  cuconform::record_metric("error_101_percent", cudaGetErrorName(above));
}

RULE_F(SharedMemoryCarveout, HintNeverKeepsAKernelFromRunning, "PG12.9 20.6.4",
       "the carveout is a hint: the driver may choose a different configuration if required to execute the "
       "function, so a kernel using the documented maximum of shared memory per block runs, every byte usable, "
       "under every preference, cudaSharedmemCarveoutMaxL1 included") {
  REQUIRE_DOCUMENTED(maximum, "max_shared_memory_per_block");
  for (const NamedCarveout& carveout : kCarveouts) {
    CUDA_ASSERT(
        cudaFuncSetAttribute(fill_dynamic_shared<1>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout.value))
        << carveout.name;
    EXPECT_TRUE(runs_with_the_maximum<1>(unsigned(maximum), carveout.name));
  }
}

class LegacyCacheConfig : public SharedMemoryCarveout {};

struct NamedCacheConfig {
  const char* name;
  cudaFuncCache value;
};
constexpr NamedCacheConfig kCacheConfigs[] = {
    {"cudaFuncCachePreferNone", cudaFuncCachePreferNone},
    {"cudaFuncCachePreferShared", cudaFuncCachePreferShared},
    {"cudaFuncCachePreferL1", cudaFuncCachePreferL1},
    {"cudaFuncCachePreferEqual", cudaFuncCachePreferEqual},
};

RULE_F(LegacyCacheConfig, PreferenceNeverKeepsAKernelFromRunning, "2.2.3.2",
       "cudaFuncSetCacheConfig specifies a preference that the runtime is free to override for the needs of the "
       "kernel: under each cudaFuncCache value a kernel using the documented maximum of shared memory per block "
       "runs, every byte usable") {
  REQUIRE_DOCUMENTED(maximum, "max_shared_memory_per_block");
  for (const NamedCacheConfig& config : kCacheConfigs) {
    CUDA_ASSERT(cudaFuncSetCacheConfig(fill_dynamic_shared<2>, config.value)) << config.name;
    EXPECT_TRUE(runs_with_the_maximum<2>(unsigned(maximum), config.name));
  }
}

}  // namespace
