// PG12.9 10.26: the library's barriers take a thread scope (10.26, "extensions that allow users to specify the scope
// of barrier objects"); a barrier in one block's shared memory at cluster scope counts arrivals from the other blocks
// of its cluster through distributed shared memory (10.29 Table 9 names the mbarrier as the completion mechanism
// across shared::cluster). Block 0 of each cluster of 4 owns an mbarrier expecting 3 x 32 arrivals per phase; in
// every phase threads 0-31 of blocks 1-3 write a value into block 0's shared memory and arrive on block 0's barrier
// with release at cluster scope; block 0 waits with acquire at cluster scope (bounded try_wait_parity) and records
// every value. Before the other blocks may arrive (a cluster barrier holds them), block 0 records that the phase is
// not complete. Launched with clusters through cuconform/cluster_launch.h.
#include <cuconform/cluster_launch.h>
#include <cuconform/cuconform.h>

#include <cuda/ptx>

#include <cstdint>
#include <vector>

#include "tma_common.h"

namespace {

namespace ptx = cuda::ptx;

constexpr unsigned kClusterSize = 4;
constexpr unsigned kClusters = 3;
constexpr unsigned kArrivers = 32;  // threads per remote block that arrive in each phase
constexpr unsigned kPhases = 5;
constexpr unsigned kRemoteSlots = (kClusterSize - 1) * kArrivers;

// Per cluster and phase: before (try_wait_parity before anyone may arrive), after (bounded wait), then the slots.
constexpr unsigned kRecord = 2 + kRemoteSlots;

__host__ __device__ constexpr unsigned value_of(unsigned cluster, unsigned phase, unsigned rank, unsigned thread) {
  return 0x40000000u | cluster << 20 | phase << 12 | rank << 8 | thread;
}

#if CUCONFORM_SM90_COMPILED
// The generic address of the same shared variable in block `rank` of the cluster.
template <class T>
__device__ T* in_block(T* local, unsigned rank) {
  std::uint64_t mapped;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(mapped) : "l"(reinterpret_cast<std::uint64_t>(local)), "r"(rank));
  return reinterpret_cast<T*>(mapped);
}

// Arrive (release, cluster scope) on the barrier at the same shared offset as `local`, in block `rank`.
__device__ void arrive_remote(std::uint64_t* local, unsigned rank) {
  const std::uint32_t remote = tma::cluster_address(local, rank);
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" : : "r"(remote) : "memory");
}
#endif

__global__ void cluster_arrivals(unsigned* out, unsigned* clustered) {
#if CUCONFORM_SM90_COMPILED
  __shared__ std::uint64_t bar;
  __shared__ unsigned slots[kRemoteSlots];
  const unsigned t = threadIdx.x, rank = ptx::get_sreg_cluster_ctarank();
  const unsigned cluster = blockIdx.x / kClusterSize;
  if (ptx::get_sreg_cluster_nctarank() != kClusterSize) {  // not launched as clusters of 4: record, do nothing
    if (t == 0) atomicExch(clustered, 0u);
    return;
  }
  if (rank == 0 && t == 0) {
    const std::uint32_t expected_arrivals = kRemoteSlots;  // passed by reference: a variable, not the constant
    ptx::mbarrier_init(&bar, expected_arrivals);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // the init is visible to remote arrivals
  }
  tma::cluster_sync();
  for (unsigned phase = 0; phase < kPhases; ++phase) {
    unsigned* const record = out + (cluster * kPhases + phase) * kRecord;
    const unsigned parity = phase & 1;
    if (rank == 0 && t == 0) {
      record[0] = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, parity);
    }
    tma::cluster_sync();  // phase begins: from here the other blocks arrive
    if (rank != 0 && t < kArrivers) {
      in_block(slots, 0)[(rank - 1) * kArrivers + t] = value_of(cluster, phase, rank, t);
      arrive_remote(&bar, 0);
    }
    if (rank == 0 && t == 0) {
      bool done = false;
      for (unsigned tries = 0; tries < tma::kTryWaitLimit && !done; ++tries) {
        done = ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &bar, parity);
      }
      record[1] = done;
      for (unsigned i = 0; i < kRemoteSlots; ++i) record[2 + i] = done ? slots[i] : 0u;
    }
    tma::cluster_sync();  // block 0 has read the slots before the next phase rewrites them
  }
#else
  (void)out;
  (void)clustered;
#endif
}

class BarrierClusterScope : public cuconform::GpuTest {};

RULE_F(BarrierClusterScope, RemoteArrivalsCompleteAPhaseOfABarrierInAnotherBlocksSharedMemory, "PG12.9 10.26",
       "an mbarrier in block 0's shared memory completes a phase only when the expected arrivals from the other "
       "blocks of the cluster (release, cluster scope) are in; after the acquire wait, block 0 sees what they wrote") {
  REQUIRE_CC(9, 0);
  REQUIRE_DEVICE_CODE(9, 0);
  cuconform::DeviceBuffer<unsigned> out(std::size_t{kClusters} * kPhases * kRecord);
  cuconform::DeviceBuffer<unsigned> clustered(std::vector<unsigned>{1u});
  CUDA_ASSERT(cuconform::launch_with_clusters(cluster_arrivals, dim3(kClusters * kClusterSize), dim3(64),
                                              dim3(kClusterSize), 0, out.get(), clustered.get()));
  ASSERT_EQ(clustered.value_at(0), 1u) << "the kernel did not run in clusters of " << kClusterSize;
  std::vector<unsigned> expected;
  for (unsigned cluster = 0; cluster < kClusters; ++cluster) {
    for (unsigned phase = 0; phase < kPhases; ++phase) {
      expected.push_back(0);  // not complete before the remote arrivals
      expected.push_back(1);  // complete after them
      for (unsigned rank = 1; rank < kClusterSize; ++rank) {
        for (unsigned t = 0; t < kArrivers; ++t) expected.push_back(value_of(cluster, phase, rank, t));
      }
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected))
      << "index = (cluster * " << kPhases << " + phase) * " << kRecord
      << " + (0: try_wait before arrivals, 1: after the bounded wait, 2 + (rank - 1) * 32 + thread: slot)";
}

}  // namespace
