// PG12.9 10.29: bulk-asynchronous copies can "copy from shared memory to Distributed Shared Memory of another block
// in the same cluster" (Table 9: shared::cta -> shared::cluster completes on an mbarrier, the one of the destination
// block). In each cluster of 4, block r copies `size` bytes of its own shared buffer into the inbox of block
// (r + 1) % 4, signalling that block's barrier; every block expects the bytes on its own barrier, waits (bounded) and
// dumps its inbox, which before the copy held the complement of what the copy brings. The host checks every byte of
// every inbox: the copied prefix from the right block, the rest untouched.
#include <cuconform/cluster_launch.h>
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

constexpr unsigned kCluster = 4, kClusters = 2, kBuffer = 4096;

// The byte block b holds at index i of its source buffer (also the complement pre-filled into inboxes).
__host__ __device__ unsigned char source_byte(unsigned block, unsigned i) {
  return static_cast<unsigned char>((i * 13 + block * 71 + (i >> 8) * 5) % 251);
}

__global__ void copy_to_next_block(unsigned size, unsigned char* dump, unsigned* completed) {
#if CUCONFORM_SM90_COMPILED
  __shared__ alignas(128) unsigned char source[kBuffer];
  __shared__ alignas(128) unsigned char inbox[kBuffer];
  __shared__ std::uint64_t bar;
  const unsigned t = threadIdx.x, rank = ptx::get_sreg_cluster_ctarank();
  const unsigned sender = (rank + kCluster - 1) % kCluster, receiver = (rank + 1) % kCluster;
  const unsigned first_block = blockIdx.x - rank;
  if (ptx::get_sreg_cluster_nctarank() != kCluster) {  // not launched as clusters of 4: record, do nothing
    if (t == 0) completed[blockIdx.x] = 2;
    return;
  }
  for (unsigned i = t; i < kBuffer; i += blockDim.x) {
    source[i] = source_byte(blockIdx.x, i);
    inbox[i] = static_cast<unsigned char>(~source_byte(first_block + sender, i));
  }
  ptx::fence_proxy_async(ptx::space_shared);  // both buffers' generic writes before the async proxy's accesses
  if (t == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  tma::cluster_sync();  // every block's inbox and barrier are ready before any copy writes or signals them
  if (t == 0) {
    const std::uint32_t bytes = size;
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :
                 : "r"(tma::cluster_address(inbox, receiver)),
                   "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(source))), "r"(size),
                   "r"(tma::cluster_address(&bar, receiver))
                 : "memory");
  }
  const bool done = tma::bounded_wait_parity(&bar, 0);
  if (t == 0) completed[blockIdx.x] = done;
  if (done) {
    for (unsigned i = t; i < kBuffer; i += blockDim.x) dump[std::size_t{blockIdx.x} * kBuffer + i] = inbox[i];
  }
  tma::cluster_sync();  // no block leaves while its source may still be read or its inbox written
#else
  (void)size;
  (void)dump;
  (void)completed;
#endif
}

class BulkCopyDistributedShared : public cuconform::GpuTest {};

RULE_F(BulkCopyDistributedShared, SharedToAnotherBlocksSharedCompletesOnTheDestinationBarrier, "PG12.9 10.29",
       "a bulk copy from a block's shared memory to the distributed shared memory of another block of its cluster "
       "writes exactly the size bytes there and completes on the destination block's mbarrier") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  constexpr unsigned kBlocks = kCluster * kClusters;
  for (unsigned size : {16u, 48u, 256u, 1040u, kBuffer}) {
    SCOPED_TRACE(testing::Message() << size << " bytes");
    cuconform::DeviceBuffer<unsigned char> dump(std::size_t{kBlocks} * kBuffer);
    cuconform::DeviceBuffer<unsigned> completed(kBlocks);
    CUDA_ASSERT(cuconform::launch_with_clusters(copy_to_next_block, dim3(kBlocks), dim3(128), dim3(kCluster), 0, size,
                                                dump.get(), completed.get()));
    ASSERT_TRUE(cuconform::ElementsEqual(completed.to_host(), std::vector<unsigned>(kBlocks, 1u)))
        << "per block: 1 = its barrier completed, 0 = the bounded wait ran out, 2 = not launched in clusters of 4";
    std::vector<unsigned char> expected;
    for (unsigned block = 0; block < kBlocks; ++block) {
      const unsigned rank = block % kCluster, sender = block - rank + (rank + kCluster - 1) % kCluster;
      for (unsigned i = 0; i < kBuffer; ++i) {
        const unsigned char byte = source_byte(sender, i);
        expected.push_back(i < size ? byte : static_cast<unsigned char>(~byte));
      }
    }
    EXPECT_TRUE(cuconform::ElementsEqual(dump.to_host(), expected)) << "index = block * " << kBuffer << " + byte";
  }
}

}  // namespace
