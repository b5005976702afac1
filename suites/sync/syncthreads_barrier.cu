// 5.4.4.1 Thread Block Synchronization Functions: what __syncthreads() itself guarantees.
//   - It waits until all non-exited threads of the block reach it: a block-wide arrival count read after the
//     barrier is exactly the number of threads that did not exit, in every phase, with some threads arriving late.
//   - Its memory ordering: writes made before it by any thread are seen after it by every thread of the block, in
//     shared and in global memory. Every thread reads every other non-exited thread's write, in several phases, and
//     the host compares each value read with the one written.
// Each runs for block sizes that are and are not multiples of 32, a 3-D block, and with threads exited before the
// barrier (block_cases.h). The uniform-condition rule ("permitted in conditional code") is at the end.
#include <cuconform/cuconform.h>

#include <cstddef>
#include <string>
#include <vector>

#include "block_cases.h"

namespace {

using sync_test::BlockCase;
using sync_test::Exits;

constexpr unsigned kBlocks = 2;  // each block synchronizes on its own

// Barrier phases per launch: more in the full profile, for more chances to see a stale value.
unsigned phases() { return cuconform::full_profile() ? 16 : 2; }

// A few threads arrive late, by a different amount in each phase.
__device__ void maybe_arrive_late(unsigned t, unsigned n, unsigned phase) {
  if (t % 97 == 11 + phase % 4 || t == n - 1) __nanosleep(2000 * (phase % 4 + 1));
}

// Each phase: count the arrival, wait at the barrier, read the count (atomically: the count lives in L2), wait again
// so that no thread counts the next phase before every thread has read this one.
__global__ void count_arrivals(Exits e, unsigned phases, unsigned* arrived, unsigned* seen) {
  const unsigned t = sync_test::linear_thread(), n = sync_test::block_threads();
  if (sync_test::exits(e, t, n)) return;
  unsigned* const count = &arrived[blockIdx.x];
  for (unsigned phase = 0; phase < phases; ++phase) {
    maybe_arrive_late(t, n, phase);
    atomicAdd(count, 1u);
    __syncthreads();
    seen[(blockIdx.x * phases + phase) * n + t] = atomicAdd(count, 0u);
    __syncthreads();
  }
}

enum class Space { Shared, Global };

// Each phase: every thread writes its slot, waits at the barrier, and reads the slot of every non-exited thread,
// recording each value it read (the host compares them); then waits again before the next phase overwrites them.
// seen[((block * phases + phase) * n + reader) * n + slot]; exited readers and exited slots leave their entries 0.
__global__ void read_every_slot(Space space, Exits e, unsigned phases, unsigned* global_slots, unsigned* seen) {
  extern __shared__ unsigned shared_slots[];
  const unsigned t = sync_test::linear_thread(), n = sync_test::block_threads();
  if (sync_test::exits(e, t, n)) return;
  unsigned* const slots = space == Space::Shared ? shared_slots : global_slots + blockIdx.x * n;
  for (unsigned phase = 0; phase < phases; ++phase) {
    maybe_arrive_late(t, n, phase);
    slots[t] = sync_test::stamp(phase, blockIdx.x * n + t);
    __syncthreads();
    unsigned* const row = seen + (static_cast<std::size_t>(blockIdx.x * phases + phase) * n + t) * n;
    for (unsigned k = 0; k < n; ++k) {
      const unsigned u = (t + k) % n;  // start at a different slot in each thread
      if (!sync_test::exits(e, u, n)) row[u] = slots[u];
    }
    __syncthreads();
  }
}

class SyncthreadsBarrier : public cuconform::GpuTestWithParam<BlockCase> {
 protected:
  // The entries of the non-exited threads, row by row (a row holds one value per thread of the block).
  std::vector<unsigned> non_exited(const std::vector<unsigned>& per_thread, unsigned rows) const {
    const BlockCase& c = GetParam();
    std::vector<unsigned> kept;
    for (unsigned row = 0; row < rows; ++row) {
      for (unsigned t = 0; t < c.threads(); ++t) {
        if (!sync_test::exits(c.exits, t, c.threads())) kept.push_back(per_thread[row * c.threads() + t]);
      }
    }
    return kept;
  }

  // Every value each non-exited thread read after the barrier, against the slot's writer's value of that phase.
  ::testing::AssertionResult writes_visible(Space space) {
    const BlockCase& c = GetParam();
    const unsigned n = c.threads(), phase_count = phases();
    cuconform::DeviceBuffer<unsigned> global_slots(kBlocks * n);
    cuconform::DeviceBuffer<unsigned> seen(std::size_t(kBlocks) * phase_count * n * n);
    const std::size_t shared_bytes = space == Space::Shared ? n * sizeof(unsigned) : 0;
    cuconform::launch(read_every_slot, cuconform::Shape{kBlocks, c.block, shared_bytes}, space, c.exits, phase_count,
                      global_slots.get(), seen.get());
    std::vector<unsigned> expected(seen.size(), 0);
    for (unsigned b = 0; b < kBlocks; ++b) {
      for (unsigned phase = 0; phase < phase_count; ++phase) {
        for (unsigned t = 0; t < n; ++t) {
          if (sync_test::exits(c.exits, t, n)) continue;
          const std::size_t row = (std::size_t(b * phase_count + phase) * n + t) * n;
          for (unsigned u = 0; u < n; ++u) {
            if (!sync_test::exits(c.exits, u, n)) expected[row + u] = sync_test::stamp(phase, b * n + u);
          }
        }
      }
    }
    return cuconform::ElementsEqual(seen.to_host(), expected, [&](std::size_t i) {
      const std::size_t slot = i % n, reader = i / n % n, phase = i / n / n % phase_count, b = i / n / n / phase_count;
      return "block " + std::to_string(b) + ", phase " + std::to_string(phase) + ", thread " + std::to_string(reader) +
             " reading the slot of thread " + std::to_string(slot);
    });
  }
};

RULE_P(SyncthreadsBarrier, WaitsForEveryNonExitedThread, "5.4.4.1",
       "__syncthreads() waits until all non-exited threads of the block reach it: a count of arrivals read after it "
       "is the number of non-exited threads") {
  const BlockCase& c = GetParam();
  cuconform::DeviceBuffer<unsigned> arrived(kBlocks);
  const unsigned phase_count = phases();
  cuconform::DeviceBuffer<unsigned> seen(kBlocks * phase_count * c.threads());
  cuconform::launch(count_arrivals, kBlocks, c.block, c.exits, phase_count, arrived.get(), seen.get());
  const std::vector<unsigned> got = non_exited(seen.to_host(), kBlocks * phase_count);
  std::vector<unsigned> expected;
  for (unsigned row = 0; row < kBlocks * phase_count; ++row) {
    expected.insert(expected.end(), c.remaining(), (row % phase_count + 1) * c.remaining());
  }
  EXPECT_TRUE(cuconform::ElementsEqual(got, expected))
      << "(arrivals seen per non-exited thread, by block, phase and linear thread ID; " << c.remaining()
      << " threads do not exit)";
}

RULE_P(SyncthreadsBarrier, SharedMemoryWritesAreVisibleToTheWholeBlock, "5.4.4.1",
       "__syncthreads() orders memory: a shared-memory write made before it by any thread is seen after it by every "
       "thread of the block") {
  EXPECT_TRUE(writes_visible(Space::Shared));
}

RULE_P(SyncthreadsBarrier, GlobalMemoryWritesAreVisibleToTheWholeBlock, "5.4.4.1",
       "__syncthreads() orders memory: a global-memory write made before it by any thread is seen after it by every "
       "thread of the block") {
  EXPECT_TRUE(writes_visible(Space::Global));
}

INSTANTIATE_TEST_SUITE_P(Blocks, SyncthreadsBarrier, ::testing::ValuesIn(sync_test::block_cases()),
                         sync_test::BlockCaseName());

// ---- "permitted in conditional code, but only if the condition evaluates uniformly across the entire block" ----

enum class Condition { BlockIndex, LoadedFlag, TripCount };

const char* name_of(Condition c) {
  switch (c) {
    case Condition::BlockIndex: return "BlockIndexBranch";
    case Condition::LoadedFlag: return "LoadedFlagBranch";
    case Condition::TripCount: return "UniformTripCountLoop";
  }
  return "?";
}

void PrintTo(Condition c, std::ostream* out) { *out << name_of(c); }

constexpr unsigned kGuideThreads = 128;  // the guide's example assumes blockDim.x is 128
constexpr unsigned kConditionBlocks = 4;

// BlockIndex is the guide's valid example (with the read index corrected to 127 - threadIdx.x:
// findings/repro/guide-sync-examples/README.md);
// LoadedFlag takes the branch on a per-block flag the compiler cannot see; TripCount loops blockIdx.x + 1 times,
// with two barriers in each iteration.
__global__ void barrier_under_uniform_condition(Condition condition, const int* flags, const int* input, int* output) {
  __shared__ int shared_data[kGuideThreads];
  const unsigned t = threadIdx.x, b = blockIdx.x;
  shared_data[t] = input[b * kGuideThreads + t];
  switch (condition) {
    case Condition::BlockIndex:
      if (blockIdx.x > 0) {
        __syncthreads();
        output[b * kGuideThreads + t] = shared_data[kGuideThreads - 1 - t];
      }
      break;
    case Condition::LoadedFlag:
      if (flags[b]) {
        __syncthreads();
        output[b * kGuideThreads + t] = shared_data[kGuideThreads - 1 - t];
      }
      break;
    case Condition::TripCount: {
      int sum = 0;
      for (unsigned i = 0; i <= b; ++i) {
        __syncthreads();
        sum += shared_data[(t + 1) % kGuideThreads];
        __syncthreads();
        shared_data[t] += 1;
      }
      output[b * kGuideThreads + t] = sum;
      break;
    }
  }
}

class SyncthreadsConditional : public cuconform::GpuTestWithParam<Condition> {};

RULE_P(SyncthreadsConditional, PermittedWhenTheConditionIsUniformAcrossTheBlock, "5.4.4.1",
       "__syncthreads() may be called in conditional code whose condition evaluates identically across the whole "
       "block: blocks that take the branch synchronize, blocks that do not skip it") {
  const Condition condition = GetParam();
  const std::vector<int> flags = {1, 0, 1, 1};
  constexpr int kUntouched = -1;
  std::vector<int> input(kConditionBlocks * kGuideThreads);
  for (unsigned i = 0; i < input.size(); ++i) input[i] = static_cast<int>(i * 7 + 3);
  cuconform::DeviceBuffer<int> device_flags(flags), device_input(input);
  cuconform::DeviceBuffer<int> output(std::vector<int>(input.size(), kUntouched));
  cuconform::launch(barrier_under_uniform_condition, kConditionBlocks, kGuideThreads, condition, device_flags.get(),
                    device_input.get(), output.get());

  std::vector<int> expected(input.size());
  for (unsigned b = 0; b < kConditionBlocks; ++b) {
    for (unsigned t = 0; t < kGuideThreads; ++t) {
      const unsigned i = b * kGuideThreads + t;
      const bool taken = condition == Condition::BlockIndex ? b > 0 : flags[b] != 0;
      switch (condition) {
        case Condition::BlockIndex:
        case Condition::LoadedFlag:
          expected[i] = taken ? input[b * kGuideThreads + kGuideThreads - 1 - t] : kUntouched;
          break;
        case Condition::TripCount: {
          int sum = 0;
          for (unsigned k = 0; k <= b; ++k) sum += input[b * kGuideThreads + (t + 1) % kGuideThreads] + int(k);
          expected[i] = sum;
          break;
        }
      }
    }
  }
  EXPECT_TRUE(cuconform::ElementsEqual(output.to_host(), expected));
}

INSTANTIATE_TEST_SUITE_P(Conditions, SyncthreadsConditional,
                         ::testing::Values(Condition::BlockIndex, Condition::LoadedFlag, Condition::TripCount),
                         [](const ::testing::TestParamInfo<Condition>& info) { return name_of(info.param); });

}  // namespace
