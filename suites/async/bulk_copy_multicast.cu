// PG12.9 10.29: "when in a cluster, a bulk-asynchronous operation can be specified as being multicast ... data can be
// transferred from global memory to the shared memory of multiple blocks within the cluster" (completion: the
// mbarrier of each destination block, Table 9). Block 0 of each cluster of 4 issues one multicast cp.async.bulk to
// all four; each block's barrier expects the bytes; each block dumps its buffer and the host checks every byte.
//
// libcu++ offers the multicast form for sm_90a only (10.29: multicast is "optimized for sm_90a"), so this file is
// also compiled for sm_90a (CMakeLists.txt) and the rule skips if the device ran the sm_90 code.
#include <cuconform/cuconform.h>

#include <cuda/barrier>
#include <cuda/ptx>

#include <vector>

#include "copy_cases.h"
#include "shared_object.h"

namespace {

namespace ptx = cuda::ptx;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
#define CUCONFORM_MULTICAST 1
#else
#define CUCONFORM_MULTICAST 0
#endif

constexpr unsigned kCluster = 4;
constexpr unsigned kClusters = 2;
constexpr unsigned kBuffer = 4096;  // bytes of each block's destination (async_copy::kSourceBytes >= kBuffer)

// barrier.cluster.arrive (release) + wait (acquire): cooperative_groups::this_cluster() is not available in clang.
__device__ void cluster_sync() {
  ptx::barrier_cluster_arrive();
  ptx::barrier_cluster_wait();
}

// Launched with a cluster dimension attribute (clang does not carry __cluster_dims__ into its PTX).
__global__ void multicast_to_cluster(const unsigned char* source, unsigned size, unsigned* sm90a_code, unsigned char* dump) {
#if CUCONFORM_MULTICAST
  __shared__ alignas(128) unsigned char buffer[kBuffer];
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  const unsigned t = threadIdx.x;
  if (ptx::get_sreg_cluster_nctarank() != kCluster) {  // not launched as clusters of kCluster: record, do nothing
    if (t == 0 && blockIdx.x == 0) *sm90a_code = 2;
    return;
  }
  for (unsigned i = t; i < kBuffer; i += blockDim.x) buffer[i] = static_cast<unsigned char>(~source[i]);
  ptx::fence_proxy_async(ptx::space_shared);
  if (t == 0) init(&bar, blockDim.x);
  ptx::fence_proxy_async(ptx::space_shared);
  cluster_sync();  // every block's buffer and barrier are ready before the multicast writes and signals them
  BlockBarrier::arrival_token token;
  if (t == 0) {
    if (ptx::get_sreg_cluster_ctarank() == 0) {
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buffer, source, size,
                         cuda::device::barrier_native_handle(bar), static_cast<uint16_t>((1u << kCluster) - 1));
    }
    token = cuda::device::barrier_arrive_tx(bar, 1, size);  // each destination block expects the bytes
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (unsigned i = t; i < kBuffer; i += blockDim.x) dump[std::size_t{blockIdx.x} * kBuffer + i] = buffer[i];
  if (t == 0 && blockIdx.x == 0) *sm90a_code = 1;
  cluster_sync();  // no block leaves while the cluster still uses its shared memory
#else
  if (threadIdx.x == 0 && blockIdx.x == 0) *sm90a_code = 0;
  (void)source;
  (void)size;
  (void)dump;
#endif
}

class BulkCopyMulticast : public cuconform::GpuTest {};

RULE_F(BulkCopyMulticast, OneCopyFillsTheSharedMemoryOfEveryBlockInTheMask, "PG12.9 10.29",
       "a multicast bulk copy from global memory writes the same bytes to the same shared offset of every block "
       "of the cluster named in its mask, each completing on its own block's barrier") {
  REQUIRE_CC(9, 0);
  const std::vector<unsigned char> source = async_copy::random_source();
  cuconform::DeviceBuffer<unsigned char> source_device(source), dump(std::size_t{kCluster} * kClusters * kBuffer);
  cuconform::DeviceBuffer<unsigned> sm90a_code(1);
  for (unsigned size : {16u, 48u, 256u, 1040u, kBuffer}) {
    SCOPED_TRACE(testing::Message() << size << " bytes");
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = kCluster;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kCluster * kClusters);
    config.blockDim = dim3(64);
    config.attrs = &cluster;
    config.numAttrs = 1;
    CUDA_ASSERT(cudaLaunchKernelEx(&config, multicast_to_cluster, static_cast<const unsigned char*>(source_device.get()),
                                   size, sm90a_code.get(), dump.get()));
    CUDA_ASSERT(cudaDeviceSynchronize());
    const unsigned code = sm90a_code.value_at(0);
    ASSERT_NE(code, 2u) << "the kernel did not run in clusters of " << kCluster;
    if (code != 1) SKIP_COMPILED_OUT("the device ran the sm_90 code; multicast is sm_90a");
    std::vector<unsigned char> expected;
    for (unsigned block = 0; block < kCluster * kClusters; ++block) {
      for (unsigned i = 0; i < kBuffer; ++i) {
        expected.push_back(i < size ? source[i] : static_cast<unsigned char>(~source[i]));
      }
    }
    EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), expected)) << "index = block * " << kBuffer << " + byte";
  }
}

}  // namespace
