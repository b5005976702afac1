// Launching with thread block clusters: cudaLaunchKernelEx with the cluster-dimension attribute, and the record every
// cluster rule reads (what the cluster group API tells each block).
#pragma once

// cooperative_groups.h offers the cluster group only to NVIDIA's compilers unless told that the cluster intrinsics
// exist; clang 22 has them (barrier.cluster, mapa, %cluster_* registers) for sm_90.
#if defined(__clang__) && defined(__CUDA__) && !defined(_CG_CLUSTER_INTRINSICS_AVAILABLE)
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#endif
#include <cooperative_groups.h>

#include <cuconform/build_targets.h>
#include <cuconform/cluster_launch.h>
#include <cuconform/cuconform.h>

// The CUDA headers declare cluster_group, this_cluster() and grid_group::cluster_index() for CC 9.0 targets only:
// device code built for a lower target (an sm_80 build) compiles the cluster API out of the kernels, and
// REQUIRE_CLUSTERS skips the rules that read it (on the device's CC and on the code it runs). Such code still
// launches in clusters on a CC 9.0 device (the driver JIT-compiles it; the sm80-ptx run of 2026-11-29 launched
// compute_80 code in clusters of up to 8 blocks), so the rules about the launch alone ask REQUIRE_CLUSTER_LAUNCH.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CUCONFORM_CLUSTER_CODE 0
#else
#define CUCONFORM_CLUSTER_CODE 1
#endif

namespace cuconform::clusters {

// The cudaLaunchKernelEx helper with a cluster dimension is cuconform::launch_with_clusters (suites/common).
using ::cuconform::launch_with_clusters;

// What the first thread of each block learned from the cluster group API.
struct ClusterView {
  unsigned block[3];             // blockIdx
  unsigned grid_dim[3];          // gridDim
  unsigned cluster_index[3];     // this_grid().cluster_index()
  unsigned block_in_cluster[3];  // cluster.block_index()
  unsigned dim_blocks[3];        // cluster.dim_blocks()
  unsigned block_rank;           // cluster.block_rank()
  unsigned num_blocks;           // cluster.num_blocks()
  unsigned num_threads;          // cluster.num_threads()
};

// Code without the cluster API records what any code sees (blockIdx, gridDim) and leaves the cluster fields 0.
__device__ inline void record_cluster_view(ClusterView* views) {
  if (threadIdx.x != 0 || threadIdx.y != 0 || threadIdx.z != 0) return;
  const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
#if !CUCONFORM_CLUSTER_CODE
  views[b] = {{blockIdx.x, blockIdx.y, blockIdx.z}, {gridDim.x, gridDim.y, gridDim.z}};
#else
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  const dim3 ci = cg::this_grid().cluster_index(), bic = cluster.block_index(), dims = cluster.dim_blocks();
  views[b] = {{blockIdx.x, blockIdx.y, blockIdx.z},
              {gridDim.x, gridDim.y, gridDim.z},
              {ci.x, ci.y, ci.z},
              {bic.x, bic.y, bic.z},
              {dims.x, dims.y, dims.z},
              cluster.block_rank(),
              cluster.num_blocks(),
              cluster.num_threads()};
#endif
}

// Skips unless the device launches thread block clusters (whatever target the code was built for).
#define REQUIRE_CLUSTER_LAUNCH()                                                \
  do {                                                                          \
    REQUIRE_CC(9, 0);                                                           \
    REQUIRE_ATTRIBUTE(cudaDevAttrClusterLaunch, "thread block cluster launch"); \
  } while (0)

// Skips unless the device launches thread block clusters and the code it runs has the cluster API.
#define REQUIRE_CLUSTERS()     \
  do {                         \
    REQUIRE_CLUSTER_LAUNCH();  \
    REQUIRE_DEVICE_CODE(9, 0); \
  } while (0)

}  // namespace cuconform::clusters
