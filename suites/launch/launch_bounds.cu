// 5.4.3.2 Launch Bounds: __launch_bounds__(maxThreadsPerBlock, minBlocksPerMultiprocessor, maxBlocksPerCluster) —
// the register limit the compiler derives from it, the launches that succeed and those that fail, and the guide's
// example of bounds that depend on __CUDA_ARCH__.
#include <cuconform/build_targets.h>
#include <cuconform/cuconform.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "cluster_launch.h"
#include "register_pressure.h"

namespace {

using namespace cuconform::registers;

__global__ void __launch_bounds__(256) bounded_to_256(unsigned* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x;
}

class LaunchBounds : public cuconform::GpuTest {};

RULE_F(LaunchBounds, FunctionAttributeReportsMaxThreadsPerBlock, "5.4.3.2",
       "maxThreadsPerBlock is the most threads per block the kernel will be launched with: cudaFuncGetAttributes "
       "reports it as the kernel's maxThreadsPerBlock") {
  EXPECT_EQ(attributes_of(reinterpret_cast<const void*>(bounded_to_256)).maxThreadsPerBlock, 256);
}

RULE_F(LaunchBounds, LaunchWithMaxThreadsPerBlockSucceeds, "5.4.3.2",
       "a kernel launches with maxThreadsPerBlock threads per block") {
  cuconform::DeviceBuffer<unsigned> out(2 * 256);
  ASSERT_EQ(cuconform::try_launch(bounded_to_256, cuconform::Shape{2, 256}, out.get()), cudaSuccess);
  std::vector<unsigned> expected(2 * 256);
  for (unsigned i = 0; i < expected.size(); ++i) expected[i] = i;
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

RULE_F(LaunchBounds, LaunchWithMoreThreadsThanTheBoundFails, "5.4.3.2",
       "a kernel fails to launch with more threads per block than its launch bound maxThreadsPerBlock") {
  cuconform::DeviceBuffer<unsigned> out(257);
  const cudaError_t error = cuconform::try_launch(bounded_to_256, cuconform::Shape{1, 257}, out.get());
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess) << "257 threads for __launch_bounds__(256)";
}

constexpr int kLiveValues = 100;  // wants about 100 registers without a bound (ptxas: 96 on sm_90)

__global__ void __launch_bounds__(1024) bounded_to_1024(const unsigned* in, unsigned* out) {
  fold_live_values<kLiveValues>(in, out);
}

RULE_F(LaunchBounds, RegistersAllowOneBlockOfMaxThreads, "5.4.3.2",
       "the compiler limits registers to L so that one block of maxThreadsPerBlock threads fits on a multiprocessor "
       "(L = registers per SM / 1024 here; it spills if needed) and the kernel runs correctly at that size") {
  REQUIRE_DOCUMENTED(registers_per_sm, "registers_per_sm");
  REQUIRE_DOCUMENTED(registers_per_block, "max_registers_per_block");
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(bounded_to_1024));
  const long long limit = std::min(registers_per_sm, registers_per_block) / 1024;
  cuconform::record_metric("num_regs", (long long)a.numRegs);
  cuconform::record_metric("local_bytes", (long long)a.localSizeBytes);
  EXPECT_LE(a.numRegs, limit);
  EXPECT_TRUE(FoldsCorrectly<kLiveValues>(bounded_to_1024, 2, 1024));
}

__global__ void __launch_bounds__(256, 4) bounded_to_4_blocks_of_256(const unsigned* in, unsigned* out) {
  fold_live_values<kLiveValues>(in, out);
}

RULE_F(LaunchBounds, MinBlocksPerMultiprocessorCanBeResident, "5.4.3.2",
       "with minBlocksPerMultiprocessor the register limit lets that many blocks of maxThreadsPerBlock threads "
       "reside on a multiprocessor (registers <= registers per SM / (4 x 256); occupancy >= 4 blocks)") {
  REQUIRE_DOCUMENTED(registers_per_sm, "registers_per_sm");
  const cudaFuncAttributes a = attributes_of(reinterpret_cast<const void*>(bounded_to_4_blocks_of_256));
  cuconform::record_metric("num_regs", (long long)a.numRegs);
  EXPECT_LE(a.numRegs, registers_per_sm / (4 * 256));
  int resident = 0;
  CUDA_ASSERT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, bounded_to_4_blocks_of_256, 256, 0));
  cuconform::record_metric("resident_blocks", (long long)resident);
  EXPECT_GE(resident, 4);
  EXPECT_TRUE(FoldsCorrectly<kLiveValues>(bounded_to_4_blocks_of_256, 8, 256));
}

__global__ void __launch_bounds__(128, 1, 2) at_most_2_blocks_per_cluster(cuconform::clusters::ClusterView* views) {
  cuconform::clusters::record_cluster_view(views);
}

RULE_F(LaunchBounds, LaunchWithMoreBlocksPerClusterThanTheBoundFails, "5.4.3.2",
       "a kernel fails to launch with more thread blocks per cluster than its launch bound maxBlocksPerCluster (and "
       "launches at the bound)") {
  REQUIRE_CLUSTERS();
  cuconform::DeviceBuffer<cuconform::clusters::ClusterView> views(8);
  EXPECT_EQ(cuconform::clusters::launch_with_clusters(at_most_2_blocks_per_cluster, 8, 128, dim3(2), 0, views.get()),
            cudaSuccess)
      << "clusters of 2 for maxBlocksPerCluster 2";
  const cudaError_t error =
      cuconform::clusters::launch_with_clusters(at_most_2_blocks_per_cluster, 8, 128, dim3(4), 0, views.get());
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess) << "clusters of 4 for maxBlocksPerCluster 2";
}

// --- The guide's example: bounds that depend on __CUDA_ARCH__. -------------------------------------------------------

#define THREADS_PER_BLOCK 256

#if __CUDA_ARCH__ >= 900
#define MY_KERNEL_MAX_THREADS (2 * THREADS_PER_BLOCK)
#define MY_KERNEL_MIN_BLOCKS 3
#else
#define MY_KERNEL_MAX_THREADS THREADS_PER_BLOCK
#define MY_KERNEL_MIN_BLOCKS 2
#endif

__global__ void __launch_bounds__(MY_KERNEL_MAX_THREADS, MY_KERNEL_MIN_BLOCKS) MyKernel(unsigned* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

RULE_F(LaunchBounds, HostCodeSeesTheBranchWithoutCudaArch, "5.4.3.2",
       "__CUDA_ARCH__ is undefined in host code: the guide's MY_KERNEL_MAX_THREADS is THREADS_PER_BLOCK (256) on "
       "the host while the sm_90 kernel is bounded to 2 x THREADS_PER_BLOCK") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);  // code built for compute_80 takes the other branch: 256 threads on this GPU too
  EXPECT_EQ(MY_KERNEL_MAX_THREADS, THREADS_PER_BLOCK) << "the host's value of the macro";
  EXPECT_EQ(attributes_of(reinterpret_cast<const void*>(MyKernel)).maxThreadsPerBlock, 2 * THREADS_PER_BLOCK)
      << "the bound of the device code that runs on this CC " << cuconform::device().cc_name();
}

// The guide's run-time choice reads the device's compute capability, while MyKernel's bound is the branch of the
// code the device runs, whose __CUDA_ARCH__ the build's targets choose (PG12.9 6.1.4): the two agree when the build
// holds code of the device's own major version, not in a build of compute_80 PTX that the driver JIT-compiles for a
// CC 9.0 device (__CUDA_ARCH__ 800, bound THREADS_PER_BLOCK). There the chosen 2 x THREADS_PER_BLOCK exceeds the
// bound, and the launch must fail as 5.4.3.2 says a launch beyond maxThreadsPerBlock does.
RULE_F(LaunchBounds, BlockSizeFromComputeCapabilityLaunches, "5.4.3.2",
       "the guide's fix: a block size chosen at run time from the compute capability (2 x THREADS_PER_BLOCK from "
       "CC 9) launches MyKernel where the code that runs took the same branch of __CUDA_ARCH__ (its bound is "
       "MY_KERNEL_MAX_THREADS of that code); where it did not (compute_80 code on CC 9.0) the launch fails") {
  const std::optional<int> arch = cuconform::expected_cuda_arch(cuconform::device_targets(), cuconform::device().cc());
  if (!arch) {
    GTEST_SKIP() << "the build's targets '" CUCONFORM_DEVICE_TARGETS "' hold no code for compute capability "
                 << cuconform::device().cc_name();
  }
  const int bound = *arch >= 900 ? 2 * THREADS_PER_BLOCK : THREADS_PER_BLOCK;  // the guide's #if, in that code
  cudaDeviceProp deviceProp = cuconform::device().properties;
  const int threadsPerBlock = (deviceProp.major >= 9) ? 2 * THREADS_PER_BLOCK : THREADS_PER_BLOCK;
  cuconform::record_metric("cuda_arch", (long long)*arch);
  cuconform::record_metric("threads_per_block", (long long)threadsPerBlock);
  ASSERT_EQ(attributes_of(reinterpret_cast<const void*>(MyKernel)).maxThreadsPerBlock, bound)
      << "the bound of the code for __CUDA_ARCH__ " << *arch << " (targets " CUCONFORM_DEVICE_TARGETS ")";
  const unsigned blocksPerGrid = 3;
  cuconform::DeviceBuffer<unsigned> out(blocksPerGrid * threadsPerBlock);
  const cudaError_t error =
      cuconform::try_launch(MyKernel, cuconform::Shape{blocksPerGrid, unsigned(threadsPerBlock)}, out.get());
  if (threadsPerBlock > bound) {
    cuconform::record_metric("error", cudaGetErrorName(error));
    EXPECT_NE(error, cudaSuccess) << threadsPerBlock << " threads for the bound " << bound << " of the code for "
                                  << "__CUDA_ARCH__ " << *arch;
    return;
  }
  ASSERT_EQ(error, cudaSuccess);
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<unsigned>(blocksPerGrid * threadsPerBlock, 1u)));
}

}  // namespace
