// Resident blocks and threads per SM (PG12.9 20.2 Table 28): what the occupancy calculator reports for a kernel that
// needs nothing else, and how many blocks are observed resident on one SM at once (never more than documented).
#include <cuconform/cuconform.h>

#include <algorithm>
#include <vector>

namespace {

__global__ void does_nothing() {}

constexpr unsigned kMaxSmIds = 1024;

__device__ unsigned long long global_nanoseconds() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Each block counts itself into its SM's number of resident blocks, notes the peak, stays a while and leaves.
__global__ void note_resident_blocks(unsigned* resident, unsigned* peak, unsigned long long stay_ns) {
  __shared__ unsigned sm;
  if (threadIdx.x == 0) {
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (sm < kMaxSmIds) atomicMax(&peak[sm], atomicAdd(&resident[sm], 1u) + 1);
  }
  __syncthreads();
  const unsigned long long start = global_nanoseconds();
  while (global_nanoseconds() - start < stay_ns) {}
  __syncthreads();
  if (threadIdx.x == 0 && sm < kMaxSmIds) atomicSub(&resident[sm], 1u);
}

class Residency : public cuconform::GpuTest {
 protected:
  // The highest number of blocks of `threads` threads seen resident on one SM during a grid of `blocks`.
  static unsigned observed_peak(unsigned threads, unsigned blocks) {
    cuconform::DeviceBuffer<unsigned> resident(kMaxSmIds), peak(kMaxSmIds);
    cuconform::launch(note_resident_blocks, blocks, threads, resident.get(), peak.get(), 20'000ull);
    const std::vector<unsigned> peaks = peak.to_host();
    return *std::max_element(peaks.begin(), peaks.end());
  }
  static int occupancy(unsigned threads) {
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, does_nothing, int(threads), 0));
    return blocks;
  }
};

RULE_F(Residency, OccupancyOfSmallBlocksIsTheResidentBlockLimit, "PG12.9 20.2",
       "Table 28: resident blocks per SM: the occupancy calculator fits exactly that many one-warp blocks of a "
       "kernel that uses no other resource") {
  REQUIRE_DOCUMENTED(blocks, "max_resident_blocks_per_sm");
  EXPECT_EQ(occupancy(32), blocks);
}

RULE_F(Residency, OccupancyOfFullBlocksIsTheResidentThreadLimit, "PG12.9 20.2",
       "Table 28: resident threads per SM: the occupancy calculator fits resident threads / 1024 blocks of 1024 "
       "threads") {
  REQUIRE_DOCUMENTED(threads, "max_resident_threads_per_sm");
  EXPECT_EQ(occupancy(1024), threads / 1024);
}

RULE_F(Residency, ObservedBlocksPerSmStayWithinTheLimit, "PG12.9 20.2",
       "Table 28: no more than the documented number of blocks is ever resident on one SM") {
  REQUIRE_DOCUMENTED(blocks, "max_resident_blocks_per_sm");
  const unsigned sms = cuconform::device().properties.multiProcessorCount;
  const unsigned peak = observed_peak(32, 2 * sms * unsigned(blocks));
  cuconform::record_metric("peak_blocks_per_sm", (long long)peak);
  // The control: the grid is twice what fits, so the measurement must see blocks resident at all (a peak of 0 would
  // pass the bound while measuring nothing).
  EXPECT_GT(peak, 0u) << "no block was seen resident on any SM";
  EXPECT_LE(peak, blocks);
}

RULE_F(Residency, ObservedThreadsPerSmStayWithinTheLimit, "PG12.9 20.2",
       "Table 28: no more than the documented number of threads is ever resident on one SM") {
  REQUIRE_DOCUMENTED(threads, "max_resident_threads_per_sm");
  const unsigned sms = cuconform::device().properties.multiProcessorCount, per_block = 256;
  const unsigned peak = observed_peak(per_block, 2 * sms * unsigned(threads / per_block));
  cuconform::record_metric("peak_threads_per_sm", (long long)peak * per_block);
  EXPECT_GT(peak, 0u) << "no block was seen resident on any SM";  // the control, as above
  EXPECT_LE(1ll * peak * per_block, threads);
}

}  // namespace
