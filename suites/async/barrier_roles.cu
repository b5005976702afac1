// PG12.9 10.26.5-10.26.7: producer/consumer partitioning with two barriers per buffer, arrive_and_drop (early exit),
// and the completion function (once per phase, by one thread, after the last arrival, before any waiter returns).
// Raw observations only: what each thread read, which thread ran the completion function in which phase and what it
// saw; the host model says what each must be.
#include <cuconform/cuconform.h>

#include <cuda/barrier>

#include <vector>

#include "shared_object.h"

namespace {

using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

constexpr unsigned kMaxThreads = 256;
constexpr unsigned kNever = ~0u;

unsigned phases() { return cuconform::full_profile() ? 64 : 12; }

// ---- 10.26.5: warp 0 produces into two buffers, the other warps consume (the guide's pattern, with data). ----

__global__ void producer_consumer(unsigned batches, const unsigned* in, unsigned* out) {
  __shared__ unsigned buffer[2][kMaxThreads];
  __shared__ alignas(BlockBarrier) unsigned char storage[4][sizeof(BlockBarrier)];
  BlockBarrier* const ready = reinterpret_cast<BlockBarrier*>(storage[0]);   // ready[0], ready[1]
  BlockBarrier* const filled = reinterpret_cast<BlockBarrier*>(storage[2]);  // filled[0], filled[1]
  const unsigned t = threadIdx.x, n = blockDim.x, consumers = n - 32;
  if (t < 4) init(reinterpret_cast<BlockBarrier*>(storage[t]), n);
  __syncthreads();
  if (t < 32) {  // producer warp: fills consumer slots t, t + 32, ...
    for (unsigned i = 0; i < batches; ++i) {
      ready[i % 2].arrive_and_wait();
      for (unsigned s = t; s < consumers; s += 32) buffer[i % 2][s] = in[i * consumers + s];
      (void)filled[i % 2].arrive();
    }
  } else {  // consumers: slot t - 32
    (void)ready[0].arrive();
    (void)ready[1].arrive();
    for (unsigned i = 0; i < batches; ++i) {
      filled[i % 2].arrive_and_wait();
      out[i * consumers + (t - 32)] = buffer[i % 2][t - 32];
      (void)ready[i % 2].arrive();
    }
  }
}

class BarrierPartitioning : public cuconform::GpuTest {};

RULE_F(BarrierPartitioning, ProducerConsumerDoubleBufferDeliversEveryBatch, "PG12.9 10.26.5",
       "with a ready and a filled barrier per buffer (expected count block.size()), a producer warp and consumer "
       "warps exchange every batch through two shared buffers: each consumer reads exactly the batch produced") {
  for (unsigned threads : {64u, 160u, 256u}) {
    SCOPED_TRACE(testing::Message() << threads << " threads (1 producer warp)");
    const unsigned consumers = threads - 32, batches = phases() + 1;
    std::vector<unsigned> in(std::size_t{batches} * consumers);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned>(i * 2654435761u);
    cuconform::DeviceBuffer<unsigned> input(in), out(in.size());
    cuconform::launch(producer_consumer, dim3(1), dim3(threads), batches, input.get(), out.get());
    EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), in)) << "index = batch * consumers + consumer";
  }
}

// ---- 10.26.6: arrive_and_drop ----

// Thread t leaves at phase drop_at[t] (kNever: stays). Every thread that arrives in a phase first adds 1 to that
// phase's arrival counter; a waiter records the counter after its wait. Dropping satisfies the current phase and
// removes the thread from the next: each recorded count must be the number of threads arriving in that phase.
__global__ void drop_out(unsigned phases, const unsigned* drop_at, unsigned* arrivals, unsigned* seen) {
  CUCONFORM_SHARED_OBJECT(BlockBarrier, bar);
  const unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  for (unsigned phase = 0; phase < phases; ++phase) {
    if (t % 3 == phase % 3) __nanosleep(200);
    atomicAdd(&arrivals[phase], 1u);
    if (drop_at[t] == phase) {
      bar.arrive_and_drop();
      return;
    }
    bar.wait(bar.arrive());
    seen[phase * n + t] = atomicAdd(&arrivals[phase], 0u);
  }
}

class BarrierEarlyExit : public cuconform::GpuTest {};

RULE_F(BarrierEarlyExit, ArriveAndDropArrivesNowAndIsNotExpectedLater, "PG12.9 10.26.6",
       "arrive_and_drop() arrives in the current phase and decrements the expected count of the next, so the "
       "remaining threads complete every later phase without the dropped thread") {
  const unsigned n = 128, count = phases();
  std::vector<unsigned> drop_at(n, kNever);
  for (unsigned t = 0; t < n; ++t) {
    if (t % 3 == 1) drop_at[t] = (t * 7) % count;  // a third of the threads leave, at scattered phases
  }
  drop_at[0] = 0;              // one leaves in the first phase
  drop_at[n - 1] = count - 1;  // one in the last
  cuconform::DeviceBuffer<unsigned> drops(drop_at), arrivals(count), seen(std::size_t{count} * n);
  cuconform::launch(drop_out, dim3(1), dim3(n), count, drops.get(), arrivals.get(), seen.get());
  std::vector<unsigned> arriving(count, 0);
  for (unsigned phase = 0; phase < count; ++phase) {
    for (unsigned t = 0; t < n; ++t) arriving[phase] += drop_at[t] == kNever || drop_at[t] >= phase;
  }
  const std::vector<unsigned> seen_host = seen.to_host();
  std::vector<unsigned> actual, expected;
  for (unsigned phase = 0; phase < count; ++phase) {
    for (unsigned t = 0; t < n; ++t) {
      if (drop_at[t] != kNever && drop_at[t] <= phase) continue;  // left before waiting in this phase
      actual.push_back(seen_host[phase * n + t]);
      expected.push_back(arriving[phase]);
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(actual, expected))
      << "arrival count each waiter saw after its wait, in (phase, waiting thread) order";
  EXPECT_TRUE(cuconform::ElementsEqual(arrivals.to_host(), arriving)) << "arrivals per phase";
}

// ---- 10.26.7: the completion function ----

struct CompletionLog {
  unsigned calls;     // times the completion function ran in this phase (atomic)
  unsigned thread;    // threadIdx.x of the thread that ran it
  unsigned sum;       // sum of every slot, as the completion function read it
  unsigned arrivals;  // the phase's arrival counter, as the completion function read it
};

struct RecordPhase {
  CompletionLog* log;     // one per phase
  unsigned* phase;        // shared: the phase the completion function completes
  const unsigned* slots;  // shared: one per thread
  unsigned* arrivals;     // shared: [0] counts the arrivals of even phases, [1] is never counted
  unsigned* result;       // shared: written here, read by every waiter
  unsigned threads;
  __device__ void operator()() noexcept {
    const unsigned p = *phase;
    unsigned sum = 0;
    for (unsigned i = 0; i < threads; ++i) sum += slots[i];
    atomicAdd(&log[p].calls, 1u);
    log[p].thread = threadIdx.x;
    log[p].sum = sum;
    log[p].arrivals = atomicExch(&arrivals[p % 2], 0u);  // counted again from the next even phase
    *result = sum ^ (p << 24);
    *phase = p + 1;
  }
};

using CompletionBarrier = cuda::barrier<cuda::thread_scope_block, RecordPhase>;

__host__ __device__ unsigned slot_value(unsigned phase, unsigned t) { return (phase + 1) * 1000u + t * 3u; }

__global__ void completion_phases(unsigned phases, CompletionLog* log, unsigned* seen) {
  CUCONFORM_SHARED_OBJECT(CompletionBarrier, bar);
  __shared__ unsigned slots[kMaxThreads], arrivals[2], phase, result;
  const unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
    phase = 0;
    arrivals[0] = arrivals[1] = 0;
    init(&bar, n, RecordPhase{log, &phase, slots, arrivals, &result, n});
  }
  __syncthreads();
  for (unsigned p = 0; p < phases; ++p) {
    if (t % 9 == p % 9) __nanosleep(300);
    slots[t] = slot_value(p, t);
    atomicAdd(&arrivals[0], 1u);  // barrier phase 2p
    bar.wait(bar.arrive());
    seen[p * n + t] = result;  // written by this phase's completion function
    bar.arrive_and_wait();     // every read of slots and result before the next phase's writes
  }
}

class BarrierCompletion : public cuconform::GpuTest {};

RULE_F(BarrierCompletion, RunsOncePerPhaseAfterTheLastArrivalBeforeAnyWaiterReturns, "PG12.9 10.26.7",
       "the CompletionFunction runs once per phase on one thread, after the last arrival (it sees every "
       "arrival's memory updates) and before any waiter is unblocked (every waiter sees its writes)") {
  const unsigned n = 200, count = phases();
  const unsigned completions = 2 * count;  // two barrier phases per loop iteration
  cuconform::DeviceBuffer<CompletionLog> log(completions);
  cuconform::DeviceBuffer<unsigned> seen(std::size_t{count} * n);
  cuconform::launch(completion_phases, dim3(1), dim3(n), count, log.get(), seen.get());
  const std::vector<CompletionLog> logs = log.to_host();
  std::vector<unsigned> calls, arrivals, sums, expected_calls(completions, 1), expected_arrivals(completions),
      expected_sums(completions);
  for (unsigned c = 0; c < completions; ++c) {
    calls.push_back(logs[c].calls);
    arrivals.push_back(logs[c].arrivals);
    sums.push_back(logs[c].sum);
    EXPECT_LT(logs[c].thread, n) << "completion " << c << " ran on a thread outside the block";
    // Completion 2p ends the data phase p (every thread counted, every slot of phase p); 2p+1 ends the
    // arrive_and_wait phase, where nobody counts and the slots still hold phase p's values.
    const unsigned p = c / 2;
    expected_arrivals[c] = c % 2 == 0 ? n : 0;
    unsigned sum = 0;
    for (unsigned t = 0; t < n; ++t) sum += slot_value(p, t);
    expected_sums[c] = sum;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(calls, expected_calls)) << "times the completion function ran, per phase";
  EXPECT_TRUE(cuconform::ElementsEqual(arrivals, expected_arrivals)) << "arrivals it saw, per phase";
  EXPECT_TRUE(cuconform::ElementsEqual(sums, expected_sums)) << "sum of the slots it read, per phase";
  std::vector<unsigned> expected_seen(seen.size());
  for (unsigned p = 0; p < count; ++p) {
    for (unsigned t = 0; t < n; ++t) expected_seen[p * n + t] = expected_sums[2 * p] ^ ((2 * p) << 24);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(seen.to_host(), expected_seen))
      << "what each waiter read of the completion function's result; index = phase * threads + thread";
}

}  // namespace
