// PG12.9 10.26.8: the memory barrier primitives (__mbarrier_t in shared memory). __mbarrier_test_wait(bar, token) is
// false while the token's phase is the current one and true once it is the preceding phase; arrive_and_drop removes
// the caller from the next phase; a barrier initialized with __mbarrier_maximum_count() completes after exactly that
// many arrivals. Waits are bounded spins: the GPU records what test_wait returned, the host judges.
//
// The guide names the header <cuda_aware_barrier_primitives.h>; the toolkit ships <cuda_awbarrier_primitives.h>
// (README.md, statements not made rules).
#include <cuconform/cuconform.h>

#include <cuda_awbarrier_primitives.h>

#include <vector>

namespace {

constexpr unsigned kSpinLimit = 1u << 22;

// Spins until test_wait(token) is true or the limit passes; returns the last result.
__device__ bool spin_test_wait(__mbarrier_t* bar, __mbarrier_token_t token) {
  for (unsigned spin = 0; spin < kSpinLimit; ++spin) {
    if (__mbarrier_test_wait(bar, token)) return true;
    __nanosleep(32);
  }
  return false;
}

__device__ unsigned spin_until_set(unsigned* flag) {
  for (unsigned spin = 0; spin < kSpinLimit && atomicAdd(flag, 0u) == 0; ++spin) __nanosleep(32);
  return atomicAdd(flag, 0u);
}

enum Observation : unsigned {
  kFirstTestWaitBeforeOtherArrives,  // thread 0, own token, thread 32 not arrived: false
  kTestWaitAfterOtherArrives,        // thread 0, after the spin: true
  kPayloadAfterWait,                 // thread 0 reads what thread 32 wrote before its arrive
  kTestWaitOfTheCompletingArrival,   // thread 32, own token after completing the phase: true
  kFlagSeen,                         // thread 32 saw thread 0's flag (bounded spin)
  kObservations
};

__global__ void test_wait_phases(unsigned* out) {
  __shared__ __mbarrier_t bar;
  __shared__ unsigned flag, payload;
  const unsigned t = threadIdx.x;
  if (t == 0) {
    __mbarrier_init(&bar, 2);
    flag = 0;
    payload = 0;
  }
  __syncthreads();
  if (t == 0) {
    const __mbarrier_token_t token = __mbarrier_arrive(&bar);
    out[kFirstTestWaitBeforeOtherArrives] = __mbarrier_test_wait(&bar, token);
    atomicExch(&flag, 1u);
    out[kTestWaitAfterOtherArrives] = spin_test_wait(&bar, token);
    out[kPayloadAfterWait] = payload;
  } else if (t == 32) {
    out[kFlagSeen] = spin_until_set(&flag);
    payload = 0xBEEFu;
    const __mbarrier_token_t token = __mbarrier_arrive(&bar);
    out[kTestWaitOfTheCompletingArrival] = __mbarrier_test_wait(&bar, token);
  }
  __syncthreads();
  if (t == 0) __mbarrier_inval(&bar);
}

class MbarrierPrimitives : public cuconform::GpuTest {};

RULE_F(MbarrierPrimitives, TestWaitIsTrueOnlyOnceTheTokensPhaseHasCompleted, "PG12.9 10.26.8.2",
       "__mbarrier_test_wait(bar, token) returns false while token belongs to the current phase and true once it "
       "belongs to the immediately preceding phase; memory updates before an arrive are visible after it") {
  cuconform::DeviceBuffer<unsigned> out(kObservations);
  cuconform::launch(test_wait_phases, dim3(1), dim3(64), out.get());
  const std::vector<unsigned> seen = out.to_host();
  ASSERT_EQ(seen[kFlagSeen], 1u) << "thread 32 never saw thread 0's flag: __mbarrier_arrive blocked?";
  EXPECT_EQ(seen[kFirstTestWaitBeforeOtherArrives], 0u) << "test_wait true before the second of 2 arrivals";
  EXPECT_EQ(seen[kTestWaitAfterOtherArrives], 1u) << "test_wait never true after both arrivals";
  EXPECT_EQ(seen[kPayloadAfterWait], 0xBEEFu) << "update before the other thread's arrive not visible";
  EXPECT_EQ(seen[kTestWaitOfTheCompletingArrival], 1u) << "test_wait false for the arrival that completed the phase";
}

// Three participants (threads 0, 32, 64); thread 64 drops in phase 0. Phase 0 needs 3 arrivals, phases 1 and 2 only
// 2. Each participant records test_wait after its bounded spin, per phase.
__global__ void drop_phases(unsigned* out) {
  __shared__ __mbarrier_t bar;
  const unsigned t = threadIdx.x, who = t / 32;
  if (t == 0) __mbarrier_init(&bar, 3);
  __syncthreads();
  if (t % 32 == 0) {
    for (unsigned phase = 0; phase < 3; ++phase) {
      if (who == 2) {
        (void)__mbarrier_arrive_and_drop(&bar);
        break;
      }
      out[phase * 2 + who] = spin_test_wait(&bar, __mbarrier_arrive(&bar));
    }
  }
  __syncthreads();
  if (t == 0) __mbarrier_inval(&bar);
}

RULE_F(MbarrierPrimitives, ArriveAndDropLowersTheNextPhasesExpectedCount, "PG12.9 10.26.8.2",
       "__mbarrier_arrive_and_drop decrements the pending count of the current phase and the expected count of "
       "the next: the remaining participants complete later phases without the dropped one") {
  cuconform::DeviceBuffer<unsigned> out(6);
  cuconform::launch(drop_phases, dim3(1), dim3(96), out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<unsigned>(6, 1u)))
      << "test_wait after the spin; index = phase * 2 + (0: thread 0, 1: thread 32)";
}

// Expected count __mbarrier_maximum_count(): every thread of 1024 arrives until all but one arrival are in; thread 0
// records test_wait on its token, makes the last arrival and records test_wait again.
__global__ void maximum_count(unsigned* out) {
  __shared__ __mbarrier_t bar;
  const unsigned t = threadIdx.x, n = blockDim.x, total = __mbarrier_maximum_count();
  if (t == 0) __mbarrier_init(&bar, total);
  __syncthreads();
  // total - 1 arrivals spread over the threads: thread t makes (total - 1) / n, the first (total - 1) % n one more.
  const unsigned mine = (total - 1) / n + (t < (total - 1) % n ? 1 : 0);
  __mbarrier_token_t token{};
  for (unsigned i = 0; i < mine; ++i) token = __mbarrier_arrive(&bar);
  __syncthreads();
  if (t == 0) {
    out[0] = total;
    out[1] = mine > 0 ? __mbarrier_test_wait(&bar, token) : 2u;
    const __mbarrier_token_t last = __mbarrier_arrive(&bar);
    out[2] = __mbarrier_test_wait(&bar, last);
  }
  __syncthreads();
  if (t == 0) __mbarrier_inval(&bar);
}

RULE_F(MbarrierPrimitives, MaximumCountIsAUsableExpectedCount, "PG12.9 10.26.8.2",
       "__mbarrier_init accepts expected_count == __mbarrier_maximum_count(), and the phase completes on exactly "
       "that many arrivals, not one fewer") {
  cuconform::DeviceBuffer<unsigned> out(3);
  cuconform::launch(maximum_count, dim3(1), dim3(1024), out.get());
  const std::vector<unsigned> seen = out.to_host();
  EXPECT_EQ(seen[0], __mbarrier_maximum_count()) << "device and host __mbarrier_maximum_count() differ";
  EXPECT_EQ(seen[1], 0u) << "test_wait true after maximum_count - 1 arrivals";
  EXPECT_EQ(seen[2], 1u) << "test_wait false after maximum_count arrivals";
}

}  // namespace
