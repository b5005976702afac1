// 5.4.3 Kernel Configuration: <<<grid_dim, block_dim, dynamic_smem_bytes, stream>>> — the number of blocks and of
// threads per block, the dynamic shared memory (default 0, in addition to static memory) and the stream (default
// NULL), and the order in which the configuration and the arguments are evaluated.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <string>
#include <vector>

#include "host_release.h"

namespace {

using namespace cuconform::release;

__global__ void count_blocks_and_threads(unsigned* blocks, unsigned* threads_per_block) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) atomicAdd(blocks, 1u);
  atomicAdd(&threads_per_block[block], 1u);
}

class ExecutionConfiguration : public cuconform::GpuTest {
 protected:
  static constexpr unsigned kGridBlocks = 3 * 4 * 5, kBlockThreads = 2 * 3 * 7;
  void count(std::vector<unsigned>& blocks, std::vector<unsigned>& threads) {
    cuconform::DeviceBuffer<unsigned> block_count(1), thread_counts(kGridBlocks);
    cuconform::launch(count_blocks_and_threads, dim3(3, 4, 5), dim3(2, 3, 7), block_count.get(), thread_counts.get());
    blocks = block_count.to_host();
    threads = thread_counts.to_host();
  }
};

RULE_F(ExecutionConfiguration, GridDimProductIsTheNumberOfBlocks, "5.4.3",
       "grid_dim.x * grid_dim.y * grid_dim.z equals the number of blocks launched") {
  std::vector<unsigned> blocks, threads;
  count(blocks, threads);
  EXPECT_EQ(blocks[0], kGridBlocks) << "blocks that ran for grid (3, 4, 5)";
}

RULE_F(ExecutionConfiguration, BlockDimProductIsTheThreadsPerBlock, "5.4.3",
       "block_dim.x * block_dim.y * block_dim.z equals the number of threads per block") {
  std::vector<unsigned> blocks, threads;
  count(blocks, threads);
  EXPECT_TRUE(cuconform::ElementsEqual(threads, std::vector<unsigned>(kGridBlocks, kBlockThreads)))
      << "threads that ran in each block, for block (2, 3, 7)";
}

__global__ void report_dynamic_smem_size(unsigned* size) {
  unsigned bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  *size = bytes;
}

RULE_F(ExecutionConfiguration, DynamicSharedMemoryDefaultsToZero, "5.4.3",
       "dynamic_smem_bytes is optional and defaults to zero (%dynamic_smem_size reads 0)") {
  cuconform::DeviceBuffer<unsigned> size(1);
  CUDA_ASSERT(cudaMemset(size.get(), 0xff, sizeof(unsigned)));
  report_dynamic_smem_size<<<1, 1>>>(size.get());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_EQ(size.value_at(0), 0u);
}

class DynamicSharedMemoryArgument : public cuconform::GpuTestWithParam<unsigned> {};

RULE_P(DynamicSharedMemoryArgument, IsTheBytesAllocatedPerBlock, "5.4.3",
       "dynamic_smem_bytes is the number of bytes of shared memory dynamically allocated per block for the call "
       "(%dynamic_smem_size reads it)") {
  cuconform::DeviceBuffer<unsigned> size(1);
  cuconform::launch(report_dynamic_smem_size, cuconform::Shape{1, 1, GetParam()}, size.get());
  EXPECT_EQ(size.value_at(0), GetParam());
}

INSTANTIATE_TEST_SUITE_P(Bytes, DynamicSharedMemoryArgument, ::testing::Values(16u, 1024u, 12288u, 49152u));

// --- Order of evaluation (host side). --------------------------------------------------------------------------------

__global__ void take_one_argument(int argument, int* out) { *out = argument; }

dim3 grid_noting(std::string& order) { return order += 'g', dim3(1); }
dim3 block_noting(std::string& order) { return order += 'b', dim3(1); }
size_t smem_noting(std::string& order) { return order += 's', size_t(0); }
int argument_noting(std::string& order) { return order += 'a', 42; }

RULE_F(ExecutionConfiguration, ConfigurationIsEvaluatedBeforeTheArguments, "5.4.3",
       "the arguments of the execution configuration are evaluated before the arguments of the function") {
  std::string order;
  cuconform::DeviceBuffer<int> out(1);
  take_one_argument<<<grid_noting(order), block_noting(order), smem_noting(order)>>>(argument_noting(order), out.get());
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  ASSERT_EQ(order.size(), 4u) << "evaluation order: " << order;
  EXPECT_EQ(order.back(), 'a') << "evaluation order (g grid, b block, s shared memory, a argument): " << order;
  EXPECT_EQ(out.value_at(0), 42);
}

// --- The stream. -----------------------------------------------------------------------------------------------------

RULE_F(ExecutionConfiguration, StreamArgumentIsTheAssociatedStream, "5.4.3",
       "the fourth configuration argument is the stream the launch is associated with: that stream, and not "
       "another, is busy until the kernel completes") {
  cudaStream_t stream = nullptr, other = nullptr;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_ASSERT(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  {
    HostFlag release, started;
    cuconform::DeviceBuffer<int> outcome(1);
    wait_for_host<<<1, 1, 0, stream>>>(release.device(), started.device(), outcome.get(), kReleaseTimeoutNs);
    const cudaError_t launched = cudaGetLastError();
    EXPECT_TRUE(wait_until_started(started)) << "the kernel did not start waiting within 2 s";
    const cudaError_t stream_state = cudaStreamQuery(stream);
    const cudaError_t other_state = cudaStreamQuery(other);
    release.set();
    EXPECT_EQ(launched, cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_EQ(stream_state, cudaErrorNotReady) << "the launch's stream while the kernel runs";
    EXPECT_EQ(other_state, cudaSuccess) << "another stream while the kernel runs";
    EXPECT_EQ(outcome.value_at(0), kReleasedByHost);
  }
  cudaStreamDestroy(stream);
  cudaStreamDestroy(other);
}

RULE_F(ExecutionConfiguration, StreamDefaultsToNull, "5.4.3",
       "without a stream argument the launch is associated with the NULL (default) stream") {
  cudaStream_t other = nullptr;
  CUDA_ASSERT(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  {
    HostFlag release, started;
    cuconform::DeviceBuffer<int> outcome(1);
    wait_for_host<<<1, 1>>>(release.device(), started.device(), outcome.get(), kReleaseTimeoutNs);
    const cudaError_t launched = cudaGetLastError();
    EXPECT_TRUE(wait_until_started(started)) << "the kernel did not start waiting within 2 s";
    const cudaError_t null_state = cudaStreamQuery(nullptr);
    const cudaError_t other_state = cudaStreamQuery(other);
    release.set();
    EXPECT_EQ(launched, cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(null_state, cudaErrorNotReady) << "the NULL stream while the kernel runs";
    EXPECT_EQ(other_state, cudaSuccess) << "a non-blocking stream while the kernel runs";
    EXPECT_EQ(outcome.value_at(0), kReleasedByHost);
  }
  cudaStreamDestroy(other);
}

// --- Dynamic shared memory after static allocation. ------------------------------------------------------------------

constexpr unsigned kStaticBytes = 16 * 1024;

// Every static byte is written with `static_mark`, a value known only at run time: with a constant stored to one
// byte the compiler may fold the loads and drop the array (nvcc 13.0 did: sharedSizeBytes was 0).
__global__ void static_and_dynamic_shared(unsigned dynamic_bytes, unsigned char static_mark, unsigned* out) {
  __shared__ unsigned char static_bytes[kStaticBytes];
  extern __shared__ unsigned char dynamic_part[];
  for (unsigned i = threadIdx.x; i < kStaticBytes; i += blockDim.x) static_bytes[i] = static_mark;
  if (threadIdx.x == 0 && dynamic_bytes > 0) {
    // Late (some 50 us), so that only the barrier, not the timing, makes the write visible to the reader below.
    for (const long long start = clock64(); clock64() - start < 100'000;) {}
    dynamic_part[dynamic_bytes - 1] = 2;
  }
  __syncthreads();
  // The last static byte and the last dynamic byte, read by the last thread: in the second warp of a block of 64.
  if (threadIdx.x == blockDim.x - 1) {
    *out = static_bytes[kStaticBytes - 1] + (dynamic_bytes > 0 ? dynamic_part[dynamic_bytes - 1] : 0);
  }
}

RULE_F(ExecutionConfiguration, DynamicBeyondWhatStaticLeavesFails, "5.4.3",
       "the launch fails if dynamic_smem_bytes is greater than the shared memory available after the statically "
       "allocated memory (here without opt-in: 48 KB in all)") {
  REQUIRE_DOCUMENTED(without_optin, "max_shared_memory_per_block_without_optin");
  cudaFuncAttributes attributes{};
  CUDA_ASSERT(cudaFuncGetAttributes(&attributes, static_and_dynamic_shared));
  ASSERT_GE(attributes.sharedSizeBytes, kStaticBytes);
  const unsigned available = unsigned(without_optin - attributes.sharedSizeBytes);
  cuconform::DeviceBuffer<unsigned> out(1);
  EXPECT_EQ(cuconform::try_launch(static_and_dynamic_shared, cuconform::Shape{1, 64, available}, available,
                                  static_cast<unsigned char>(1), out.get()),
            cudaSuccess)
      << available << " dynamic bytes next to " << attributes.sharedSizeBytes << " static bytes";
  EXPECT_EQ(out.value_at(0), 3u);
  const cudaError_t beyond = cuconform::try_launch(static_and_dynamic_shared, cuconform::Shape{1, 64, available + 1},
                                                   available + 1, static_cast<unsigned char>(1), out.get());
  cuconform::record_metric("error_one_byte_beyond", cudaGetErrorName(beyond));
  EXPECT_NE(beyond, cudaSuccess) << available + 1 << " dynamic bytes next to " << attributes.sharedSizeBytes
                                 << " static bytes";
}

}  // namespace
