// PG12.9 10.29: "when in a cluster, a bulk-asynchronous operation can be specified as being multicast ... data can be
// transferred from global memory to the shared memory of multiple blocks within the cluster" (completion: the
// mbarrier of each destination block, Table 9). Block 0 of each cluster of 4 issues one multicast cp.async.bulk to
// all four; each block's barrier expects the bytes; each block dumps its buffer and the host checks every byte.
//
// libcu++ offers the multicast form for sm_90a only (10.29: multicast is "optimized for sm_90a"), so this file is
// also compiled for sm_90a (CMakeLists.txt) and the rule skips if the device ran the sm_90 code.
#include <cuconform/cluster_launch.h>
#include <cuconform/cuconform.h>

#include <cuda/barrier>
#include <cuda/ptx>

#include <cstdint>
#include <utility>
#include <vector>

#include "copy_cases.h"
#include "shared_object.h"
#include "tensor_map_shapes.h"
#include "tma_common.h"

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

// Launched with a cluster dimension attribute (clang does not carry __cluster_dims__ into its PTX).
__global__ void multicast_to_cluster(const unsigned char* source, unsigned size, unsigned* sm90a_code,
                                     unsigned char* dump) {
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
  tma::cluster_sync();  // every block's buffer and barrier are ready before the multicast writes and signals them
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
  tma::cluster_sync();  // no block leaves while the cluster still uses its shared memory
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
    CUDA_ASSERT(cudaLaunchKernelEx(&config, multicast_to_cluster,
                                   static_cast<const unsigned char*>(source_device.get()), size, sm90a_code.get(),
                                   dump.get()));
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

// The tensor form (10.29: "a bulk-asynchronous operation can be specified as being multicast"): block 0 of each
// cluster of 4 issues one tiled tensor copy of a rank-3 box with a cta mask; every block in the mask expects the box
// on its own barrier, a block outside it only arrives. Each block dumps its buffer: the box in the masked blocks
// (the host model of tensor_map_shapes.cpp), the untouched 0xFF pre-fill in the others.
// clang-format off
const tma::TiledShape kMulticastShape{"Rank3", CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, 3, {12, 7, 5}, {64, 512}, {8, 4, 3},
                                      {1, 1, 1}, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, 1, {}};
// clang-format on
constexpr unsigned kBoxBytes = 8 * 4 * 3 * 4;

struct Corner {
  int x, y, z;
};

__global__ void multicast_tensor(const __grid_constant__ CUtensorMap map, Corner at, unsigned mask,
                                 unsigned* sm90a_code, unsigned char* dump, unsigned* completed) {
#if CUCONFORM_MULTICAST
  __shared__ alignas(128) unsigned char box[kBoxBytes];
  __shared__ std::uint64_t bar;
  const unsigned t = threadIdx.x, rank = ptx::get_sreg_cluster_ctarank();
  if (ptx::get_sreg_cluster_nctarank() != kCluster) {
    if (t == 0 && blockIdx.x == 0) *sm90a_code = 2;
    return;
  }
  tma::prepare_load(box, kBoxBytes, &bar);
  if (t == 0) ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  tma::cluster_sync();  // every block's buffer and barrier are ready before the multicast writes and signals them
  if (t == 0) {
    if (mask >> rank & 1) {
      const std::uint32_t tx = kBoxBytes;
      (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, tx);
    } else {
      (void)ptx::mbarrier_arrive(&bar);
    }
    if (rank == 0) {
      const std::int32_t coords[3] = {at.x, at.y, at.z};
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, &map, coords, &bar,
                                static_cast<std::uint16_t>(mask));
    }
  }
  tma::finish_load(&bar, box, kBoxBytes, dump + std::size_t{blockIdx.x} * kBoxBytes, completed + blockIdx.x);
  if (t == 0 && blockIdx.x == 0) *sm90a_code = 1;
  tma::cluster_sync();  // no block leaves while the cluster still uses its shared memory
#else
  if (threadIdx.x == 0 && blockIdx.x == 0) *sm90a_code = 0;
  (void)map;
  (void)at;
  (void)mask;
  (void)dump;
  (void)completed;
#endif
}

class BulkTensorMulticast : public cuconform::GpuTest {};

RULE_F(BulkTensorMulticast, OneTensorCopyLandsTheBoxInEveryBlockOfTheMaskAndNoOther, "PG12.9 10.29",
       "a multicast bulk tensor copy writes the box, element by element with zero fill, to the same shared offset of "
       "every block of the cluster named in its cta mask, completing on each one's barrier, and writes no other "
       "block") {
  REQUIRE_CC(9, 0);
  const std::vector<unsigned char> tensor = tma::tensor_bytes(kMulticastShape);
  cuconform::DeviceBuffer<unsigned char> global(tensor);
  CUtensorMap map{};
  ASSERT_EQ(tma::encode(&map, kMulticastShape, global.get()), CUDA_SUCCESS) << "cuTensorMapEncodeTiled";
  constexpr unsigned kBlocks = kCluster * kClusters;
  cuconform::DeviceBuffer<unsigned> sm90a_code(1);
  for (const auto& [corner, mask] :
       {std::pair<Corner, unsigned>{Corner{0, 0, 0}, 0xFu}, {Corner{8, 5, -1}, 0xBu}, {Corner{-4, 2, 3}, 0x6u}}) {
    SCOPED_TRACE(testing::Message() << "box at (" << corner.x << ", " << corner.y << ", " << corner.z
                                    << "), cta mask 0x" << std::hex << mask);
    cuconform::DeviceBuffer<unsigned char> dump(std::size_t{kBlocks} * kBoxBytes);
    cuconform::DeviceBuffer<unsigned> completed(kBlocks);
    CUDA_ASSERT(cuconform::launch_with_clusters(multicast_tensor, dim3(kBlocks), dim3(64), dim3(kCluster), 0, map,
                                                corner, mask, sm90a_code.get(), dump.get(), completed.get()));
    const unsigned code = sm90a_code.value_at(0);
    ASSERT_NE(code, 2u) << "the kernel did not run in clusters of " << kCluster;
    if (code != 1) SKIP_COMPILED_OUT("the device ran the sm_90 code; multicast is sm_90a");
    ASSERT_TRUE(cuconform::ElementsEqual(completed.to_host(), std::vector<unsigned>(kBlocks, 1u)))
        << "per block: 1 = its barrier completed, 0 = the bounded wait ran out";
    const std::vector<unsigned char> box = tma::expected_box(kMulticastShape, {corner.x, corner.y, corner.z}, tensor);
    std::vector<unsigned char> expected;
    for (unsigned block = 0; block < kBlocks; ++block) {
      if (mask >> (block % kCluster) & 1) {
        expected.insert(expected.end(), box.begin(), box.end());
      } else {
        expected.insert(expected.end(), kBoxBytes, 0xFF);
      }
    }
    EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), expected)) << "index = block * " << kBoxBytes << " + byte";
  }
}

}  // namespace
