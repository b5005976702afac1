// PG12.9 10.27.4: completion of cooperative_groups::memcpy_async. cg::wait_prior<N>(group) waits for every copy but
// the N most recent (here: three copies in flight, N = 1 and 2), cg::wait for all; a destination may be read, and
// copied over again, once its copy completed: a sequence of overlapping copies into one shared window leaves exactly
// the sequential model's bytes after each step.
#include <cuconform/cuconform.h>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include <vector>

#include "copy_cases.h"

namespace async_copy {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned kRegion = 512;  // bytes per copy
constexpr unsigned kCopies = 3;

// Copy k (k = 0, 1, 2) takes source bytes [k * kRegion, (k + 1) * kRegion) to region k. After wait_prior<N> the
// block dumps the regions of copies 0 .. kCopies - 1 - N (complete by then); after cg::wait, the rest.
template <unsigned N>
__global__ void wait_prior_regions(const unsigned char* source, unsigned char* early, unsigned char* late) {
  __shared__ alignas(16) unsigned char regions[kCopies][kRegion];
  auto block = cg::this_thread_block();
  for (unsigned k = 0; k < kCopies; ++k) {
    cg::memcpy_async(block, regions[k], source + k * kRegion, std::size_t{kRegion});
  }
  cg::wait_prior<N>(block);
  for (unsigned i = threadIdx.x; i < (kCopies - N) * kRegion; i += blockDim.x)
    early[i] = regions[i / kRegion][i % kRegion];
  cg::wait(block);
  for (unsigned i = threadIdx.x; i < kCopies * kRegion; i += blockDim.x) late[i] = regions[i / kRegion][i % kRegion];
}

class CooperativeGroupsWaitPrior : public cuconform::GpuTest {};

template <unsigned N>
void expect_complete_after_wait_prior() {
  SCOPED_TRACE(testing::Message() << "wait_prior<" << N << "> with " << kCopies << " copies in flight");
  const std::vector<unsigned char> source = random_source();
  cuconform::DeviceBuffer<unsigned char> source_device(source), early((kCopies - N) * kRegion), late(kCopies * kRegion);
  cuconform::launch(wait_prior_regions<N>, dim3(1), dim3(96), source_device.get(), early.get(), late.get());
  const std::vector<unsigned char> first(source.begin(), source.begin() + (kCopies - N) * kRegion);
  const std::vector<unsigned char> all(source.begin(), source.begin() + kCopies * kRegion);
  EXPECT_TRUE(cuconform::ElementsEqual(early.to_host(), first)) << "regions of the older copies after wait_prior";
  EXPECT_TRUE(cuconform::ElementsEqual(late.to_host(), all)) << "every region after cg::wait";
}

RULE_F(CooperativeGroupsWaitPrior, OlderCopiesAreCompleteAfterWaitPrior, "PG12.9 10.27.4",
       "cooperative_groups::wait_prior<N>(group) returns once all but the N most recent memcpy_async of the "
       "group have completed; cooperative_groups::wait once all have") {
  expect_complete_after_wait_prior<1>();
  expect_complete_after_wait_prior<2>();
}

// ---- reuse after completion ----

constexpr unsigned kSteps = 8;
constexpr unsigned kWindow = 160;

struct Step {
  unsigned size, src_offset, dst_offset;  // dst_offset from the window start
};

__host__ __device__ Step step(unsigned k) {
  // Overlapping destinations, changing sizes and misalignments, each from a fresh part of the source.
  return {37u + 11u * k, 300u * k + (5u * k) % 16u, (7u * k) % 40u};
}

__global__ void overlapping_copies(const unsigned char* source, unsigned char* dumps) {
  __shared__ alignas(16) unsigned char window[kWindow];
  auto block = cg::this_thread_block();
  for (unsigned i = threadIdx.x; i < kWindow; i += blockDim.x) window[i] = static_cast<unsigned char>(i ^ 0xA5);
  block.sync();
  for (unsigned k = 0; k < kSteps; ++k) {
    const Step s = step(k);
    cg::memcpy_async(block, window + s.dst_offset, source + s.src_offset, s.size);
    cg::wait(block);
    for (unsigned i = threadIdx.x; i < kWindow; i += blockDim.x) dumps[k * kWindow + i] = window[i];
    block.sync();  // every read of this step before the next copy writes the window
  }
}

class MemcpyAsyncReuse : public cuconform::GpuTest {};

RULE_F(MemcpyAsyncReuse, CompletedDestinationCanBeReadAndOverwritten, "PG12.9 10.27.4",
       "after cooperative_groups::wait the destination may be read and be the destination of a new, overlapping "
       "memcpy_async: each step leaves exactly the bytes of the sequential model") {
  const std::vector<unsigned char> source = random_source();
  cuconform::DeviceBuffer<unsigned char> source_device(source), dumps(kSteps * kWindow);
  cuconform::launch(overlapping_copies, dim3(1), dim3(64), source_device.get(), dumps.get());
  std::vector<unsigned char> model(kWindow), expected;
  for (unsigned i = 0; i < kWindow; ++i) model[i] = static_cast<unsigned char>(i ^ 0xA5);
  for (unsigned k = 0; k < kSteps; ++k) {
    const Step s = step(k);
    for (unsigned j = 0; j < s.size; ++j) model[s.dst_offset + j] = source[s.src_offset + j];
    expected.insert(expected.end(), model.begin(), model.end());
  }
  EXPECT_TRUE(cuconform::ElementsEqual(dumps.to_host(), expected)) << "index = step * " << kWindow << " + byte";
}

}  // namespace
}  // namespace async_copy
