// PG12.9 10.26.2-10.26.4: cuda::barrier<thread_scope_block> in shared memory. Split arrive/wait orders memory (every
// update before a participant's arrive is visible after every participant's wait), the expected arrival count counts
// arrive() calls, arrive() does not block, wait() on a token of the phase that already completed returns, and the
// barrier resets itself for the next phase. The GPU records what each thread read after each wait; the host compares
// every observation with the stamp the model says was written.
#include <cuconform/cuconform.h>

#include <cuda/barrier>

#include <string>
#include <vector>

#include "shared_object.h"

namespace {

using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

constexpr unsigned kMaxThreads = 1024;
constexpr unsigned kPartners = 3;  // slots each thread reads after each wait

__host__ __device__ unsigned stamp(unsigned phase, unsigned thread) { return (phase + 1) * 0x10000u + thread; }
__host__ __device__ unsigned partner(unsigned thread, unsigned k, unsigned threads) {
  const unsigned offsets[kPartners] = {1, threads / 2, threads - 1 - 2 * thread % threads};
  return (thread + offsets[k]) % threads;
}

unsigned phases() { return cuconform::full_profile() ? 64 : 8; }

enum class WaitForm { ArriveThenWait, ArriveAndWait };

// Each phase: write own slot of buffer phase%2, arrive, (late threads sleep between arrive and wait), wait, read
// kPartners slots of other threads. Two buffers: a slot of buffer b is rewritten two phases later, after every reader
// of it has arrived at the phase in between (10.26.4: the barrier resets and is reused every phase).
__global__ void arrive_wait_phases(WaitForm form, unsigned phases, unsigned* seen) {
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  __shared__ unsigned slots[2][kMaxThreads];
  const unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  for (unsigned phase = 0; phase < phases; ++phase) {
    unsigned* const buffer = slots[phase % 2];
    if (t % 7 == phase % 7) __nanosleep(200);  // arrive late
    buffer[t] = stamp(phase, t);
    if (form == WaitForm::ArriveThenWait) {
      BlockBarrier::arrival_token token = bar.arrive();
      if (t % 5 == phase % 5) __nanosleep(300);  // work between arrive and wait
      bar.wait(std::move(token));
    } else {
      bar.arrive_and_wait();
    }
    for (unsigned k = 0; k < kPartners; ++k) {
      seen[(phase * n + t) * kPartners + k] = buffer[partner(t, k, n)];
    }
  }
}

struct BlockCase {
  unsigned threads;
  WaitForm form;
};

void PrintTo(const BlockCase& c, std::ostream* out) {
  *out << c.threads << " threads, "
       << (c.form == WaitForm::ArriveThenWait ? "arrive() then wait(token)" : "arrive_and_wait()");
}

std::string case_name(const ::testing::TestParamInfo<BlockCase>& info) {
  return std::to_string(info.param.threads) + "Threads" +
         (info.param.form == WaitForm::ArriveThenWait ? "ArriveThenWait" : "ArriveAndWait");
}

class BarrierPhases : public cuconform::GpuTestWithParam<BlockCase> {};

RULE_P(BarrierPhases, UpdatesBeforeArriveAreVisibleAfterWaitInEveryPhase, "PG12.9 10.26.2",
       "memory updates before every participant's arrive() are visible to every participant after its "
       "wait(token) (or arrive_and_wait()), in every phase of a reused barrier") {
  const BlockCase c = GetParam();
  const unsigned n = c.threads, count = phases();
  cuconform::DeviceBuffer<unsigned> seen(std::size_t{count} * n * kPartners);
  cuconform::launch(arrive_wait_phases, dim3(1), dim3(n), c.form, count, seen.get());
  std::vector<unsigned> expected(seen.size());
  for (unsigned phase = 0; phase < count; ++phase) {
    for (unsigned t = 0; t < n; ++t) {
      for (unsigned k = 0; k < kPartners; ++k) {
        expected[(phase * n + t) * kPartners + k] = stamp(phase, partner(t, k, n));
      }
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected))
      << "index = (phase * threads + thread) * " << kPartners << " + partner";
}

INSTANTIATE_TEST_SUITE_P(
    Blocks, BarrierPhases,
    ::testing::Values(BlockCase{1, WaitForm::ArriveThenWait}, BlockCase{45, WaitForm::ArriveThenWait},
                      BlockCase{256, WaitForm::ArriveThenWait}, BlockCase{1024, WaitForm::ArriveThenWait},
                      BlockCase{45, WaitForm::ArriveAndWait}, BlockCase{1024, WaitForm::ArriveAndWait}),
    case_name);

class BarrierCountdown : public cuconform::GpuTest {};

// Threads [0, participants) take part; each calls arrive() `calls` times per phase (the first calls after writing
// its first slot, the last after writing its second). The barrier expects participants * calls arrivals. A waiter
// records both slots of every participant: all must hold this phase's stamps.
__global__ void counted_arrivals(unsigned participants, unsigned calls, unsigned phases, unsigned* seen) {
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  __shared__ unsigned first[2][kMaxThreads], last[2][kMaxThreads];
  const unsigned t = threadIdx.x;
  if (t == 0) init(&bar, participants * calls);
  __syncthreads();
  if (t >= participants) return;  // not a participant: never arrives
  for (unsigned phase = 0; phase < phases; ++phase) {
    const unsigned b = phase % 2;
    first[b][t] = stamp(phase, t);
    for (unsigned call = 1; call < calls; ++call) (void)bar.arrive();
    __nanosleep(t % 3 == 0 ? 500 : 0);  // the last arrivals come late
    last[b][t] = stamp(phase, t) ^ 0x8000u;
    bar.wait(bar.arrive());
    const unsigned other = (t + phase + 1) % participants;
    seen[(phase * participants + t) * 2 + 0] = first[b][other];
    seen[(phase * participants + t) * 2 + 1] = last[b][other];
  }
}

RULE_F(BarrierCountdown, ExpectedCountCountsArriveCallsOfTheParticipants, "PG12.9 10.26.3",
       "a barrier initialized with expected count N completes a phase after N calls to arrive() by the "
       "participating threads (not N threads); threads that never arrive do not take part") {
  struct Case {
    unsigned threads, participants, calls;
  };
  const unsigned count = phases();
  for (const Case c : {Case{64, 64, 2}, Case{64, 5, 3}, Case{200, 97, 1}, Case{200, 33, 4}}) {
    SCOPED_TRACE(testing::Message() << c.threads << " threads, " << c.participants << " participants, " << c.calls
                                    << " arrive() calls each per phase");
    cuconform::DeviceBuffer<unsigned> seen(std::size_t{count} * c.participants * 2);
    cuconform::launch(counted_arrivals, dim3(1), dim3(c.threads), c.participants, c.calls, count, seen.get());
    std::vector<unsigned> expected(seen.size());
    for (unsigned phase = 0; phase < count; ++phase) {
      for (unsigned t = 0; t < c.participants; ++t) {
        const unsigned other = (t + phase + 1) % c.participants;
        expected[(phase * c.participants + t) * 2 + 0] = stamp(phase, other);
        expected[(phase * c.participants + t) * 2 + 1] = stamp(phase, other) ^ 0x8000u;
      }
    }
    EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected))
        << "index = (phase * participants + thread) * 2 + (0: first slot, 1: last slot)";
  }
}

// Two participants in different warps. Thread 0 arrives, then publishes a flag; thread 32 waits for the flag (a
// bounded spin) before it arrives. arrive() blocking would leave the flag unset: thread 32 records whether it saw it.
__global__ void arrive_then_signal(unsigned* observations) {
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  __shared__ unsigned flag, payload;
  const unsigned t = threadIdx.x;
  if (t == 0) {
    init(&bar, 2);
    flag = 0;
    payload = 0;
  }
  __syncthreads();
  if (t == 0) {
    payload = 0xC0FFEEu;
    BlockBarrier::arrival_token token = bar.arrive();
    atomicExch(&flag, 1u);  // after arrive() returned
    bar.wait(std::move(token));
  } else if (t == 32) {
    unsigned spins = 0;
    while (atomicAdd(&flag, 0u) == 0 && spins < (1u << 20)) {
      __nanosleep(100);
      ++spins;
    }
    observations[0] = atomicAdd(&flag, 0u);
    bar.arrive_and_wait();
    observations[1] = payload;  // written before thread 0's arrive()
  }
}

RULE_F(BarrierCountdown, ArriveDoesNotBlock, "PG12.9 10.26.2",
       "arrive() does not block the calling thread: it proceeds before the other participants arrive") {
  cuconform::DeviceBuffer<unsigned> observations(2);
  cuconform::launch(arrive_then_signal, dim3(1), dim3(64), observations.get());
  const std::vector<unsigned> seen = observations.to_host();
  EXPECT_EQ(seen[0], 1u) << "thread 32 never saw the flag thread 0 sets after its arrive() returned";
  EXPECT_EQ(seen[1], 0xC0FFEEu) << "thread 0's update before arrive() not visible after thread 32's wait";
}

// Every thread arrives; __syncthreads() then guarantees the phase has completed before anyone waits. Each thread then
// waits with its token (of the phase just completed) and reads a partner's slot.
__global__ void wait_after_completion(unsigned phases, unsigned* seen) {
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  __shared__ unsigned slots[2][kMaxThreads];
  const unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  for (unsigned phase = 0; phase < phases; ++phase) {
    slots[phase % 2][t] = stamp(phase, t);
    BlockBarrier::arrival_token token = bar.arrive();
    __syncthreads();  // every participant has arrived: the phase is complete
    bar.wait(std::move(token));
    seen[phase * n + t] = slots[phase % 2][(t + 1) % n];
  }
}

RULE_F(BarrierCountdown, WaitOnATokenOfTheCompletedPhaseReturns, "PG12.9 10.26.4",
       "if the phase advanced before wait(token) is called, the thread does not block, and the barrier has been "
       "reset for the next phase (its countdown restarts at the expected count)") {
  const unsigned n = 96, count = phases();
  cuconform::DeviceBuffer<unsigned> seen(std::size_t{count} * n);
  cuconform::launch(wait_after_completion, dim3(1), dim3(n), count, seen.get());
  std::vector<unsigned> expected(seen.size());
  for (unsigned phase = 0; phase < count; ++phase) {
    for (unsigned t = 0; t < n; ++t) expected[phase * n + t] = stamp(phase, (t + 1) % n);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected)) << "index = phase * threads + thread";
}

// max(): the largest expected count the implementation supports, a positive value.
__global__ void read_max(long long* out) { *out = static_cast<long long>(BlockBarrier::max()); }

RULE_F(BarrierCountdown, MaxIsAtLeastAFullBlock, "PG12.9 10.26.3",
       "a block-scope barrier can be initialized with block.size() as expected count: max() is at least 1024") {
  cuconform::DeviceBuffer<long long> out(1);
  cuconform::launch(read_max, dim3(1), dim3(1), out.get());
  EXPECT_GE(out.value_at(0), 1024) << "cuda::barrier<thread_scope_block>::max() on the device";
  EXPECT_EQ(out.value_at(0), static_cast<long long>(BlockBarrier::max())) << "host and device max() differ";
}

}  // namespace
