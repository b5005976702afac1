// PG12.9 15.9 and 15.12: the stream-ordered allocator's reuse policies. The guide says when a policy ALLOWS a freed
// block to serve a new allocation, never that it must, so observed reuse is a metric; the verdicts are what the
// guide guarantees: with the policies disabled, an allocation in another stream never aliases a block whose free is
// not ordered before it, and a reused block holds what its new owner writes. Each rule uses a fresh explicit pool
// with the release threshold at UINT64_MAX, so freed blocks stay in the pool.
#include <chrono>
#include <thread>

#include "memory_common.cuh"

namespace cuconform::memory_management {
namespace {

constexpr std::size_t kCount = 1 << 19;  // 2 MiB of int
constexpr std::size_t kBytes = kCount * sizeof(int);

using ReusePolicy = StreamOrderedAllocatorTest;

struct Policies {
  bool follow_event_dependencies;
  bool allow_opportunistic;
  bool allow_internal_dependencies;
};

void apply(Pool& pool, Policies policies) {
  pool.set_attribute(cudaMemPoolAttrReleaseThreshold, UINT64_MAX);
  pool.set_policy(cudaMemPoolReuseFollowEventDependencies, policies.follow_event_dependencies);
  pool.set_policy(cudaMemPoolReuseAllowOpportunistic, policies.allow_opportunistic);
  pool.set_policy(cudaMemPoolReuseAllowInternalDependencies, policies.allow_internal_dependencies);
}

constexpr Policies kNone{false, false, false};

// Writes a pattern into `p` in `stream` and checks it on the host: a reused block serves its new owner.
::testing::AssertionResult serves_new_owner(int* p, cudaStream_t stream, int seed) {
  launch_write_pattern(p, kCount, seed, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return ElementsEqual(read_back(p, kCount), pattern(kCount, seed));
}

RULE_F(ReusePolicy, PolicyAttributesReadBackWhatWasSet, "PG12.9 15.9",
       "The pool attributes cudaMemPoolReuseFollowEventDependencies, AllowOpportunistic and "
       "AllowInternalDependencies control the reuse policies: each reads back what was set") {
  Pool pool(device().ordinal);
  for (auto attr : {cudaMemPoolReuseFollowEventDependencies, cudaMemPoolReuseAllowOpportunistic,
                    cudaMemPoolReuseAllowInternalDependencies}) {
    for (int value : {0, 1}) {
      pool.set_policy(attr, value != 0);
      int read = -1;
      CUDA_ASSERT(cudaMemPoolGetAttribute(pool, attr, &read));
      EXPECT_EQ(read != 0, value != 0) << "attribute " << attr << " set to " << value;
    }
  }
}

RULE_F(ReusePolicy, MemoryFreedInAStreamServesTheNextAllocationInIt, "PG12.9 15.9",
       "Memory freed in a stream can be reused at once by the next allocation in the same stream, even with every "
       "policy disabled; the reused block serves its new owner (reuse recorded)") {
  Pool pool(device().ordinal);
  apply(pool, kNone);
  Stream stream;
  int *a = nullptr, *b = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&a), kBytes, pool, stream));
  launch_write_pattern(a, kCount, 1, stream);
  CUDA_ASSERT(cudaFreeAsync(a, stream));
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&b), kBytes, pool, stream));
  record_metric("reused", static_cast<long long>(ranges_overlap(a, kBytes, b, kBytes)));
  EXPECT_TRUE(serves_new_owner(b, stream, 2));
  CUDA_ASSERT(cudaFreeAsync(b, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

RULE_F(ReusePolicy, WithEveryPolicyDisabledAnUnorderedFreeIsNotReusedInAnotherStream, "PG12.9 15.9.4",
       "With every reuse policy disabled, an allocation in another stream does not alias a block whose free is "
       "not ordered before it (no event, no synchronization)") {
  Pool pool(device().ordinal);
  apply(pool, kNone);
  Stream first, second;
  int *a = nullptr, *b = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&a), kBytes, pool, first));
  launch_write_pattern(a, kCount, 3, first);
  CUDA_ASSERT(cudaFreeAsync(a, first));
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&b), kBytes, pool, second));
  EXPECT_FALSE(ranges_overlap(a, kBytes, b, kBytes)) << "freed block " << a << ", new block " << b;
  EXPECT_TRUE(serves_new_owner(b, second, 4));
  // Issue 34's rule for effects, the control: once a synchronization made the free available to every stream
  // (15.12), the same allocation in the other stream may reuse the block. Where it never does, "not reused" above
  // proves nothing (a pool that never reuses would pass): the rule then cannot observe the policies here.
  CUDA_ASSERT(cudaStreamSynchronize(first));
  int* c = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&c), kBytes, pool, second));
  const bool control_reused = ranges_overlap(a, kBytes, c, kBytes);
  record_metric("control_reused_after_synchronize", static_cast<long long>(control_reused));
  EXPECT_TRUE(serves_new_owner(c, second, 5));
  CUDA_ASSERT(cudaFreeAsync(b, second));
  CUDA_ASSERT(cudaFreeAsync(c, second));
  CUDA_ASSERT(cudaDeviceSynchronize());
  if (!control_reused) GTEST_SKIP() << "not observable on this GPU: the freed block was not reused after a synchronize";
}

RULE_F(ReusePolicy, FollowEventDependenciesMayReuseAFreeBeforeAWaitedEvent, "PG12.9 15.9.1",
       "With cudaMemPoolReuseFollowEventDependencies a block freed before an event that another stream waits on "
       "may serve that stream's next allocation; the block serves its new owner (reuse with the policy on and off "
       "recorded)") {
  for (bool follow : {true, false}) {
    SCOPED_TRACE(follow ? "FollowEventDependencies enabled" : "FollowEventDependencies disabled");
    Pool pool(device().ordinal);
    apply(pool, {follow, false, false});
    Stream original, other;
    Event freed(cudaEventDisableTiming);
    int *a = nullptr, *b = nullptr;
    CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&a), kBytes, pool, original));
    launch_write_pattern(a, kCount, 5, original);
    CUDA_ASSERT(cudaFreeAsync(a, original));
    CUDA_ASSERT(cudaEventRecord(freed, original));
    CUDA_ASSERT(cudaStreamWaitEvent(other, freed));
    CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&b), kBytes, pool, other));
    record_metric(follow ? "reused_with_policy" : "reused_without_policy",
                  static_cast<long long>(ranges_overlap(a, kBytes, b, kBytes)));
    EXPECT_TRUE(serves_new_owner(b, other, 6));
    CUDA_ASSERT(cudaFreeAsync(b, other));
    CUDA_ASSERT(cudaDeviceSynchronize());
  }
}

RULE_F(ReusePolicy, WithoutOpportunisticReuseACompletedFreeIsNotReusedInAnotherStream, "PG12.9 15.9.2",
       "With cudaMemPoolReuseAllowOpportunistic disabled, a block freed in a stream that has since passed the free "
       "is not reused by another stream without synchronization; enabled, it may be (recorded)") {
  // Issue 34's rule for effects: the enabled case is the control. Where it does not reuse the block either, the
  // disabled case's "not reused" proves nothing (a pool that ignored the policy, or never reused, would pass), and
  // the rule cannot observe the policy on this GPU.
  bool control_reused = false;
  for (bool opportunistic : {false, true}) {
    SCOPED_TRACE(opportunistic ? "AllowOpportunistic enabled" : "AllowOpportunistic disabled");
    Pool pool(device().ordinal);
    apply(pool, {false, opportunistic, false});
    Stream original, other;
    int *a = nullptr, *b = nullptr;
    CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&a), kBytes, pool, original));
    launch_write_pattern(a, kCount, 7, original);
    CUDA_ASSERT(cudaFreeAsync(a, original));
    // The guide's "wait(10)": give the stream time to pass the free, without a synchronizing call.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&b), kBytes, pool, other));
    const bool reused = ranges_overlap(a, kBytes, b, kBytes);
    if (opportunistic) {
      record_metric("reused_with_policy", static_cast<long long>(reused));
      control_reused = reused;
    } else {
      EXPECT_FALSE(reused) << "freed block " << a << ", new block " << b;
    }
    EXPECT_TRUE(serves_new_owner(b, other, 8));
    CUDA_ASSERT(cudaFreeAsync(b, other));
    CUDA_ASSERT(cudaDeviceSynchronize());
  }
  if (!control_reused) GTEST_SKIP() << "not observable on this GPU: no reuse with AllowOpportunistic enabled either";
}

RULE_F(ReusePolicy, InternalDependenciesOnlyWhenThePoolCannotGrow, "PG12.9 15.9.3",
       "In a pool that cannot grow (maxSize one block), a second stream's allocation while the first block's free "
       "is pending fails or is a fresh block with AllowInternalDependencies disabled; enabled, the driver may reuse "
       "the block by inserting a dependency, and the block then serves its new owner") {
  // Issue 34's rule for effects: the enabled case is the control (as in
  // WithoutOpportunisticReuseACompletedFreeIsNotReusedInAnotherStream).
  bool control_reused = false;
  for (bool internal : {false, true}) {
    SCOPED_TRACE(internal ? "AllowInternalDependencies enabled" : "AllowInternalDependencies disabled");
    cudaMemPoolProps props = device_pool_props(device().ordinal);
    props.maxSize = kBytes;
    Pool pool(props);
    apply(pool, {false, false, internal});
    Stream original, other;
    int *a = nullptr, *b = nullptr;
    CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&a), kBytes, pool, original));
    launch_write_pattern(a, kCount, 9, original);
    CUDA_ASSERT(cudaFreeAsync(a, original));
    const cudaError_t allocated = cudaMallocFromPoolAsync(reinterpret_cast<void**>(&b), kBytes, pool, other);
    (void)cudaGetLastError();
    const bool reused = allocated == cudaSuccess && ranges_overlap(a, kBytes, b, kBytes);
    record_metric(internal ? "error_with_policy" : "error_without_policy", cudaGetErrorName(allocated));
    if (internal) {
      record_metric("reused_with_policy", static_cast<long long>(reused));
      control_reused = reused;
    } else {
      EXPECT_FALSE(reused) << "freed block " << a << ", new block " << b;
      EXPECT_TRUE(allocated == cudaSuccess || allocated == cudaErrorMemoryAllocation) << describe(allocated);
    }
    if (allocated == cudaSuccess) {
      EXPECT_TRUE(serves_new_owner(b, other, 10));
      CUDA_ASSERT(cudaFreeAsync(b, other));
    }
    CUDA_ASSERT(cudaDeviceSynchronize());
  }
  if (!control_reused)
    GTEST_SKIP() << "not observable on this GPU: no reuse with AllowInternalDependencies enabled either";
}

RULE_F(ReusePolicy, SynchronizationMakesFreesAvailableToEveryStream, "PG12.9 15.12",
       "After a synchronization guarantees a free completed, the block is available to any stream regardless of "
       "the disabled policies; an allocation in another stream succeeds and is served (reuse recorded)") {
  Pool pool(device().ordinal);
  apply(pool, kNone);
  Stream original, other;
  int *a = nullptr, *b = nullptr;
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&a), kBytes, pool, original));
  launch_write_pattern(a, kCount, 11, original);
  CUDA_ASSERT(cudaFreeAsync(a, original));
  CUDA_ASSERT(cudaStreamSynchronize(original));
  const auto reserved_before = pool.attribute(cudaMemPoolAttrReservedMemCurrent);
  CUDA_ASSERT(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&b), kBytes, pool, other));
  record_metric("reused", static_cast<long long>(ranges_overlap(a, kBytes, b, kBytes)));
  record_metric("reserved_growth", static_cast<long long>(pool.attribute(cudaMemPoolAttrReservedMemCurrent)) -
                                       static_cast<long long>(reserved_before));
  EXPECT_TRUE(serves_new_owner(b, other, 12));
  CUDA_ASSERT(cudaFreeAsync(b, other));
  CUDA_ASSERT(cudaStreamSynchronize(other));
}

}  // namespace
}  // namespace cuconform::memory_management
