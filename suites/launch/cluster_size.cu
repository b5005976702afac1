// The size of a thread block cluster (PG12.9 5.2.1 and 8.2.3.1): 8 blocks is the portable maximum; larger,
// non-portable sizes need cudaFuncAttributeNonPortableClusterSizeAllowed (16 on H100, Hopper tuning guide);
// cudaOccupancyMaxPotentialClusterSize reports the largest size that can run.
#include <cuconform/cuconform.h>

#include <vector>

#include "cluster_launch.h"

namespace {

namespace cg = cooperative_groups;
using cuconform::clusters::launch_with_clusters;

// One kernel per rule (the tag), so that a function attribute one rule sets does not leak into another.
template <int Tag>
__global__ void record_cluster_size(unsigned* sizes) {
  if (threadIdx.x == 0) sizes[blockIdx.x] = cg::this_cluster().num_blocks();
}

class ClusterSize : public cuconform::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CLUSTERS();
  }
  template <int Tag>
  static void allow_non_portable() {
    CUDA_CHECK(cudaFuncSetAttribute(record_cluster_size<Tag>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  }
  // Launches `clusters` clusters of `size` blocks; the error, and each block's cluster.num_blocks().
  template <int Tag>
  static cudaError_t launch(unsigned size, unsigned clusters, std::vector<unsigned>* sizes = nullptr) {
    cuconform::DeviceBuffer<unsigned> device_sizes(size * clusters);
    const cudaError_t error =
        launch_with_clusters(record_cluster_size<Tag>, size * clusters, 32, dim3(size), 0, device_sizes.get());
    if (sizes && error == cudaSuccess) *sizes = device_sizes.to_host();
    return error;
  }
  template <int Tag>
  static int potential_cluster_size() {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(64);
    config.blockDim = dim3(32);
    int size = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&size, record_cluster_size<Tag>, &config));
    return size;
  }
};

RULE_F(ClusterSize, PortableMaximumLaunches, "PG12.9 5.2.1",
       "a maximum of 8 thread blocks in a cluster is supported as a portable cluster size") {
  REQUIRE_DOCUMENTED(portable, "max_cluster_size_portable");
  std::vector<unsigned> sizes;
  ASSERT_EQ(launch<0>(unsigned(portable), 2, &sizes), cudaSuccess);
  EXPECT_TRUE(cuconform::ElementsEqual(sizes, std::vector<unsigned>(sizes.size(), unsigned(portable))));
}

RULE_F(ClusterSize, BeyondPortableFailsWithoutOptIn, "PG12.9 5.2.1",
       "a cluster larger than the portable 8 does not launch unless the kernel allows non-portable sizes") {
  REQUIRE_DOCUMENTED(portable, "max_cluster_size_portable");
  const cudaError_t error = launch<1>(unsigned(portable) + 1, 1);
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess) << "a cluster of " << portable + 1 << " without the opt-in";
}

RULE_F(ClusterSize, NonPortableMaximumLaunchesWithOptIn, "PG12.9 5.2.1",
       "with cudaFuncAttributeNonPortableClusterSizeAllowed a cluster of the architecture's non-portable maximum "
       "(16 on CC 9.0) launches") {
  REQUIRE_DOCUMENTED(non_portable, "max_cluster_size_nonportable");
  allow_non_portable<2>();
  std::vector<unsigned> sizes;
  const cudaError_t error = launch<2>(unsigned(non_portable), 2, &sizes);
  ASSERT_EQ(error, cudaSuccess) << "a cluster of " << non_portable << ": " << cuconform::describe(error);
  EXPECT_TRUE(cuconform::ElementsEqual(sizes, std::vector<unsigned>(sizes.size(), unsigned(non_portable))));
}

RULE_F(ClusterSize, BeyondNonPortableMaximumFails, "PG12.9 5.2.1",
       "even with the opt-in, a cluster one block larger than the non-portable maximum does not launch") {
  REQUIRE_DOCUMENTED(non_portable, "max_cluster_size_nonportable");
  allow_non_portable<3>();
  const cudaError_t error = launch<3>(unsigned(non_portable) + 1, 1);
  cuconform::record_metric("error", cudaGetErrorName(error));
  EXPECT_NE(error, cudaSuccess) << "a cluster of " << non_portable + 1 << " with the opt-in";
}

RULE_F(ClusterSize, OccupancyReportsThePortableMaximum, "PG12.9 5.2.1",
       "cudaOccupancyMaxPotentialClusterSize reports the maximum cluster size: the portable 8 without the opt-in "
       "(unless the GPU or MIG instance is too small for 8 multiprocessors)") {
  REQUIRE_DOCUMENTED(portable, "max_cluster_size_portable");
  const int size = potential_cluster_size<4>();
  cuconform::record_metric("potential_cluster_size", (long long)size);
  if (cuconform::device().properties.multiProcessorCount < portable) {
    EXPECT_LE(size, cuconform::device().properties.multiProcessorCount);
  } else {
    EXPECT_EQ(size, portable);
  }
}

RULE_F(ClusterSize, OccupancyReportsTheNonPortableMaximumWithOptIn, "PG12.9 5.2.1",
       "larger configurations supporting a cluster size beyond 8 are found with cudaOccupancyMaxPotentialClusterSize "
       "(16 on CC 9.0 with the non-portable opt-in)") {
  REQUIRE_DOCUMENTED(non_portable, "max_cluster_size_nonportable");
  allow_non_portable<5>();
  const int size = potential_cluster_size<5>();
  cuconform::record_metric("potential_cluster_size", (long long)size);
  EXPECT_EQ(size, non_portable);
}

}  // namespace
