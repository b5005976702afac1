// PG12.9 20.2 Tables 27 and 28: the device's attributes against the values documented for its compute capability
// (expectations/*.toml). Each rule skips, saying so, where the guide documents no value for this CC.
#include <cuconform/cuconform.h>

namespace {

long long attribute(cudaDeviceAttr which) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, which, cuconform::device().ordinal));
  return value;
}

class DeviceAttribute : public cuconform::GpuTest {};

// The documented value of `key` against the attribute `which`.
#define EXPECT_ATTRIBUTE_IS_DOCUMENTED(which, key)                                         \
  do {                                                                                     \
    REQUIRE_DOCUMENTED(documented, key);                                                   \
    const long long reported = attribute(which);                                           \
    cuconform::record_metric("reported", reported);                                        \
    EXPECT_EQ(reported, documented) << #which << " on " << cuconform::device().describe(); \
  } while (0)

RULE_F(DeviceAttribute, WarpSize, "PG12.9 20.2", "Table 28: warp size") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrWarpSize, "warp_size");
}

RULE_F(DeviceAttribute, MaxThreadsPerBlock, "PG12.9 20.2", "Table 28: maximum number of threads per block") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxThreadsPerBlock, "max_threads_per_block");
}

RULE_F(DeviceAttribute, MaxBlockDimX, "PG12.9 20.2", "Table 28: maximum x-dimensionality of a block") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxBlockDimX, "max_block_dim_x");
}

RULE_F(DeviceAttribute, MaxBlockDimY, "PG12.9 20.2", "Table 28: maximum y-dimensionality of a block") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxBlockDimY, "max_block_dim_y");
}

RULE_F(DeviceAttribute, MaxBlockDimZ, "PG12.9 20.2", "Table 28: maximum z-dimension of a block") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxBlockDimZ, "max_block_dim_z");
}

RULE_F(DeviceAttribute, MaxGridDimX, "PG12.9 20.2", "Table 28: maximum x-dimension of a grid of thread blocks") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxGridDimX, "max_grid_dim_x");
}

RULE_F(DeviceAttribute, MaxGridDimY, "PG12.9 20.2", "Table 28: maximum y-dimension of a grid of thread blocks") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxGridDimY, "max_grid_dim_y");
}

RULE_F(DeviceAttribute, MaxGridDimZ, "PG12.9 20.2", "Table 28: maximum z-dimension of a grid of thread blocks") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxGridDimZ, "max_grid_dim_z");
}

RULE_F(DeviceAttribute, MaxResidentBlocksPerSm, "PG12.9 20.2", "Table 28: maximum number of resident blocks per SM") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxBlocksPerMultiprocessor, "max_resident_blocks_per_sm");
}

RULE_F(DeviceAttribute, MaxResidentThreadsPerSm, "PG12.9 20.2", "Table 28: maximum number of resident threads per SM") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxThreadsPerMultiProcessor, "max_resident_threads_per_sm");
}

RULE_F(DeviceAttribute, MaxResidentWarpsPerSm, "PG12.9 20.2",
       "Table 28: maximum number of resident warps per SM (resident threads per SM / warp size)") {
  REQUIRE_DOCUMENTED(documented, "max_resident_warps_per_sm");
  const long long warps = attribute(cudaDevAttrMaxThreadsPerMultiProcessor) / attribute(cudaDevAttrWarpSize);
  cuconform::record_metric("reported", warps);
  EXPECT_EQ(warps, documented);
}

RULE_F(DeviceAttribute, RegistersPerSm, "PG12.9 20.2", "Table 28: number of 32-bit registers per SM") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxRegistersPerMultiprocessor, "registers_per_sm");
}

RULE_F(DeviceAttribute, MaxRegistersPerBlock, "PG12.9 20.2",
       "Table 28: maximum number of 32-bit registers per thread block") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxRegistersPerBlock, "max_registers_per_block");
}

RULE_F(DeviceAttribute, MaxSharedMemoryPerSm, "PG12.9 20.2", "Table 28: maximum amount of shared memory per SM") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxSharedMemoryPerMultiprocessor, "max_shared_memory_per_sm");
}

RULE_F(DeviceAttribute, MaxSharedMemoryPerBlock, "PG12.9 20.2",
       "Table 28: maximum amount of shared memory per thread block (with opt-in above 48 KB)") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxSharedMemoryPerBlockOptin, "max_shared_memory_per_block");
}

RULE_F(DeviceAttribute, SharedMemoryPerBlockWithoutOptIn, "PG12.9 20.2",
       "above 48 KB of shared memory per block requires an opt-in (footnote 35, 20.6.4-20.10.3): 48 KB without") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrMaxSharedMemoryPerBlock, "max_shared_memory_per_block_without_optin");
}

RULE_F(DeviceAttribute, ConstantMemorySize, "PG12.9 20.2", "Table 28: constant memory size") {
  EXPECT_ATTRIBUTE_IS_DOCUMENTED(cudaDevAttrTotalConstantMemory, "constant_memory_size");
}

RULE_F(DeviceAttribute, ConcurrentKernelsWhereSeveralGridsCanBeResident, "PG12.9 20.2",
       "Table 28: more than one resident grid per device (Concurrent Kernel Execution): concurrentKernels is 1") {
  REQUIRE_DOCUMENTED(grids, "max_resident_grids_per_device");
  EXPECT_EQ(attribute(cudaDevAttrConcurrentKernels), grids > 1 ? 1 : 0);
}

RULE_F(DeviceAttribute, ThreadBlockClusterFeature, "PG12.9 20.2",
       "Table 27: thread block cluster support (cudaDevAttrClusterLaunch)") {
  REQUIRE_DOCUMENTED(documented, "feature_thread_block_cluster");
  EXPECT_EQ(attribute(cudaDevAttrClusterLaunch) != 0, documented != 0);
}

RULE_F(DeviceAttribute, UnifiedMemoryFeature, "PG12.9 20.2",
       "Table 27: Unified Memory Programming (cudaDevAttrManagedMemory)") {
  REQUIRE_DOCUMENTED(documented, "feature_unified_memory");
  EXPECT_EQ(attribute(cudaDevAttrManagedMemory) != 0, documented != 0);
}

RULE_F(DeviceAttribute, L2CacheResidencyManagementFeature, "PG12.9 20.2",
       "Table 27: L2 cache residency management (a non-zero cudaDevAttrMaxPersistingL2CacheSize)") {
  REQUIRE_DOCUMENTED(documented, "feature_l2_cache_residency_management");
  EXPECT_EQ(attribute(cudaDevAttrMaxPersistingL2CacheSize) > 0, documented != 0);
}

}  // namespace
