// PG12.9 13.5.1 and 13.5.2: streams in functions compiled with CUDA_FORCE_CDP1_IF_SUPPORTED. CDP2 tracks streams
// per grid, "which allows work to be launched into a stream created by another thread block. Attempting to do so with
// the CDP1 results in cudaErrorInvalidValue." Below CC 9.0 such a function uses CDP1 (the legacy interface); on CC
// 9.0 and higher it uses CDP2. Block 0 creates a stream and publishes its handle; block 1 launches into it.
#include "cdp1.h"

#include <vector>

namespace cuconform::cdp {
namespace {

// The child, compiled with this file's CUDA_FORCE_CDP1_IF_SUPPORTED: below CC 9.0 parent and child both use CDP1.
__global__ void cdp1_child_writes(int* out, int marker) { *out = marker; }

// outcome: [0] block 0's cudaStreamCreateWithFlags, [1] block 1 saw the handle (1) or gave up after 1 s (0),
// [2] block 1's launch into block 0's stream (cudaGetLastError right after it).
__global__ void block_one_launches_into_block_zeros_stream(unsigned long long* handle, int* published, int* outcome,
                                                           int* child_out) {
  if (blockIdx.x == 0) {
    cudaStream_t stream;
    outcome[0] = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    *reinterpret_cast<volatile unsigned long long*>(handle) = reinterpret_cast<unsigned long long>(stream);
    __threadfence();
    atomicExch(published, 1);
    return;
  }
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  int seen = 0;
  do {
    seen = atomicAdd(published, 0);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (seen == 0 && now - start < 1'000'000'000ull);
  outcome[1] = seen;
  if (seen == 0) return;
  __threadfence();
  cudaStream_t stream = reinterpret_cast<cudaStream_t>(*reinterpret_cast<volatile unsigned long long*>(handle));
  cdp1_child_writes<<<1, 1, 0, stream>>>(child_out, 77);
  outcome[2] = cudaGetLastError();
}

struct StreamOutcome {
  std::vector<int> outcome;
  int child_out;
};

StreamOutcome launch_into_another_blocks_stream() {
  DeviceBuffer<unsigned long long> handle(1);
  DeviceBuffer<int> published(1), outcome(std::vector<int>(3, -1)), child_out(1);
  launch(block_one_launches_into_block_zeros_stream, 2, 1, handle.get(), published.get(), outcome.get(),
         child_out.get());
  return {outcome.to_host(), child_out.to_host()[0]};
}

RULE_F(CdpVersions, Cdp1CompiledFunctionOnCc90SharesAStreamAcrossBlocks, "PG12.9 13.5.2",
       "on compute capability 9.0 and higher a function compiled with CUDA_FORCE_CDP1_IF_SUPPORTED uses the new "
       "interface, which tracks streams per grid (13.5.1): a block may launch into a stream another block created") {
  REQUIRE_CC(9, 0);
  const StreamOutcome seen = launch_into_another_blocks_stream();
  EXPECT_EQ(seen.outcome[0], cudaSuccess) << "cudaStreamCreateWithFlags in block 0";
  ASSERT_EQ(seen.outcome[1], 1) << "block 1 never saw block 0 publish the stream";
  EXPECT_EQ(seen.outcome[2], cudaSuccess) << "block 1's launch into block 0's stream";
  EXPECT_EQ(seen.child_out, 77) << "the child launched into block 0's stream did not run";
}

RULE_F(CdpVersions, Cdp1RejectsALaunchIntoAnotherBlocksStream, "PG12.9 13.5.1",
       "CDP1 tracks streams per thread block: launching work into a stream created by another thread block results "
       "in cudaErrorInvalidValue (a function compiled with CUDA_FORCE_CDP1_IF_SUPPORTED, below CC 9.0)") {
  if (device().available && device().cc() >= 90) GTEST_SKIP() << kEveryFunctionUsesCdp2 << device().describe();
  const StreamOutcome seen = launch_into_another_blocks_stream();
  EXPECT_EQ(seen.outcome[0], cudaSuccess) << "cudaStreamCreateWithFlags in block 0";
  ASSERT_EQ(seen.outcome[1], 1) << "block 1 never saw block 0 publish the stream";
  EXPECT_EQ(seen.outcome[2], cudaErrorInvalidValue) << "block 1's launch into block 0's stream";
}

}  // namespace
}  // namespace cuconform::cdp
