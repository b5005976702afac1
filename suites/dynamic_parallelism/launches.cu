// PG12.9 13.2 and 13.3.1.2: what a child grid sees of its parent, when a parent grid is complete, and the order the
// device-side streams give: the implicit (NULL) stream of a block, cudaStreamFireAndForget and cudaStreamTailLaunch.
// The kernels only record; the host compares every element with the documented outcome. "B waits for A" is made
// observable by A sleeping (cdp.h) before it writes.
#include "cdp.h"

#include <vector>

namespace cuconform::cdp {
namespace {

constexpr int kThreads = 256;

std::vector<int> iota_plus(int offset) {
  std::vector<int> values(kThreads);
  for (int i = 0; i < kThreads; ++i) values[i] = i + offset;
  return values;
}

__global__ void write_after_delay(int* to, int offset) {
  spin_for(kDelayMicroseconds);
  to[threadIdx.x] = threadIdx.x + offset;
}

__global__ void copy_now(const int* from, int* to) { to[threadIdx.x] = from[threadIdx.x]; }

// 13.2.2.1.1: the parent's writes before the launch (all of the block's, through __syncthreads) reach the child. The
// child copies at once: a launch that did not order the writes before it would let the child read them stale.
__global__ void parent_writes_then_launches(int* data, int* seen_by_child) {
  data[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) copy_now<<<1, kThreads>>>(data, seen_by_child);
}

// 13.2.1.1: the parent is complete only when its children are; the host reads after synchronizing with the parent.
__global__ void parent_launches_slow_children(int* out) {
  write_after_delay<<<1, kThreads>>>(out + blockIdx.x * kThreads, 100 * blockIdx.x);
}

// 13.3.1.2.3, the guide's "C will only launch after all X, F and P complete": the tail launch comes first; then a
// child in the NULL stream, a fire-and-forget child, and the parent's own late writes.
__global__ void parent_with_tail_launched_first(int* x, int* f, int* p, int* seen_x, int* seen_f, int* seen_p) {
  if (threadIdx.x == 0) {
    copy_now<<<1, kThreads, 0, cudaStreamTailLaunch>>>(x, seen_x);
    copy_now<<<1, kThreads, 0, cudaStreamTailLaunch>>>(f, seen_f);
    copy_now<<<1, kThreads, 0, cudaStreamTailLaunch>>>(p, seen_p);
    write_after_delay<<<1, kThreads>>>(x, 1);
    write_after_delay<<<1, kThreads, 0, cudaStreamFireAndForget>>>(f, 2);
  }
  spin_for(kDelayMicroseconds);
  p[threadIdx.x] = threadIdx.x + 3;
}

// 13.3.1.2.3: a second tail launch waits for the first and all its descendants.
__global__ void first_tail(int* a) {
  if (threadIdx.x == 0) write_after_delay<<<1, kThreads>>>(a, 7);  // a descendant of the first tail launch
}

__global__ void parent_with_two_tail_launches(int* a, int* seen) {
  first_tail<<<1, 1, 0, cudaStreamTailLaunch>>>(a);
  copy_now<<<1, kThreads, 0, cudaStreamTailLaunch>>>(a, seen);
}

// 13.3.1.2.3, the guide's P1/P2 example: the next grid in the parent's stream waits for the parent's tail launch.
__global__ void p1_tail_launches_slow_writer(int* c) {
  write_after_delay<<<1, kThreads, 0, cudaStreamTailLaunch>>>(c, 5);
}

// 13.2.1.4: grids one thread launches into the block's implicit stream run in order.
__global__ void parent_launches_two_in_the_null_stream(int* a, int* seen) {
  write_after_delay<<<1, kThreads>>>(a, 9);
  copy_now<<<1, kThreads>>>(a, seen);
}

RULE_F(DynamicParallelism, ChildGridSeesTheParentsWritesMadeBeforeItsLaunch, "PG12.9 13.2.2.1.1",
       "all global memory operations in the parent thread prior to the child grid's invocation are visible to the "
       "child grid") {
  DeviceBuffer<int> data(kThreads), seen(kThreads);
  launch(parent_writes_then_launches, 1, kThreads, data.get(), seen.get());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), iota_plus(0)));
}

RULE_F(DynamicParallelism, ParentGridIsCompleteOnlyWhenItsChildrenAre, "PG12.9 13.2.1.1",
       "the parent grid is not considered complete until all child grids created by its threads have completed") {
  constexpr int kParents = 4;
  DeviceBuffer<int> out(kThreads * kParents);
  launch(parent_launches_slow_children, kParents, 1, out.get());
  std::vector<int> expected;
  for (int b = 0; b < kParents; ++b) {
    for (int i = 0; i < kThreads; ++i) expected.push_back(i + 100 * b);
  }
  EXPECT_TRUE(ElementsEqual(out.to_host(), expected)) << "the host read a child's output before the child finished";
}

RULE_F(DynamicParallelism, TailLaunchStartsAfterTheParentAndAllItsOtherWork, "PG12.9 13.3.1.2.3",
       "a tail launch does not launch until the parent grid and all work it launched to other streams (NULL, "
       "fire-and-forget), including work launched after the tail launch, have completed") {
  DeviceBuffer<int> x(kThreads), f(kThreads), p(kThreads), seen_x(kThreads), seen_f(kThreads), seen_p(kThreads);
  launch(parent_with_tail_launched_first, 1, kThreads, x.get(), f.get(), p.get(), seen_x.get(), seen_f.get(),
         seen_p.get());
  EXPECT_TRUE(ElementsEqual(seen_x.to_host(), iota_plus(1))) << "the NULL-stream child had not finished";
  EXPECT_TRUE(ElementsEqual(seen_f.to_host(), iota_plus(2))) << "the fire-and-forget child had not finished";
  EXPECT_TRUE(ElementsEqual(seen_p.to_host(), iota_plus(3))) << "the parent's own writes had not finished";
}

RULE_F(DynamicParallelism, SecondTailLaunchWaitsForTheFirstAndItsDescendants, "PG12.9 13.3.1.2.3",
       "if two grids are launched to the same grid's tail launch stream, the later does not launch until the earlier "
       "grid and all its descendent work has completed") {
  DeviceBuffer<int> a(kThreads), seen(kThreads);
  launch(parent_with_two_tail_launches, 1, 1, a.get(), seen.get());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), iota_plus(7)));
}

RULE_F(DynamicParallelism, NextGridInTheParentsStreamWaitsForTheTailLaunch, "PG12.9 13.3.1.2.3",
       "the next grid in the parent grid's stream is not launched before the parent grid's tail launch work has "
       "completed") {
  DeviceBuffer<int> c(kThreads), seen(kThreads);
  p1_tail_launches_slow_writer<<<1, 1>>>(c.get());
  copy_now<<<1, kThreads>>>(c.get(), seen.get());  // P2, in the same (host NULL) stream
  CUDA_ASSERT(cudaPeekAtLastError());
  CUDA_ASSERT(cudaDeviceSynchronize());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), iota_plus(5)));
}

RULE_F(DynamicParallelism, GridsOneThreadLaunchesIntoTheNullStreamRunInOrder, "PG12.9 13.2.1.4",
       "grids launched into the same stream execute in order; the block's implicit NULL stream is such a stream") {
  DeviceBuffer<int> a(kThreads), seen(kThreads);
  launch(parent_launches_two_in_the_null_stream, 1, 1, a.get(), seen.get());
  EXPECT_TRUE(ElementsEqual(seen.to_host(), iota_plus(9)));
}

}  // namespace
}  // namespace cuconform::cdp
