// 5.4.6.6 Warp __sync Intrinsic Constraints: the statements with an outcome a test can check.
//   - "Exited threads are ignored": the guide's valid example, a mask naming a thread that returned.
//   - Disjoint masks may be used concurrently, "even in divergent control flow": at one call site and from the two
//     sides of a branch.
//   - "The intrinsic waits until all non-exited warp threads specified in the mask reach the call": threads that
//     arrive after very different amounts of divergent work still exchange their final values.
//   - Which thread a mask bit names: "Each bit in the mask corresponds to a thread's lane ID
//     (threadIdx.x % warpSize)", against how PG12.9 7.1 and 2.2.2 form warps from linear thread IDs.
// The constraints whose breach is undefined behaviour are not run (README.md).
#include <cuconform/cuconform.h>

#include <cstdint>
#include <string>
#include <vector>

#include "warp_setup.h"

namespace {

using warp_test::kFullMask;
using warp_test::kLanes;
using warp_test::LaneCheck;

enum class Intrinsic { Ballot, AllSync, MatchAny, ReduceAdd, ShflIdx };

const char* name_of(Intrinsic i) {
  switch (i) {
    case Intrinsic::Ballot: return "Ballot";
    case Intrinsic::AllSync: return "AllSync";
    case Intrinsic::MatchAny: return "MatchAny";
    case Intrinsic::ReduceAdd: return "ReduceAdd";
    case Intrinsic::ShflIdx: return "ShflIdx";
  }
  return "?";
}

void PrintTo(Intrinsic i, std::ostream* out) { *out << name_of(i); }

// The intrinsic, on a value: ballot and all of (value & 1), match of (value % 3), sum of value, value of lane src.
__device__ unsigned call(Intrinsic which, unsigned mask, unsigned value, int src) {
  switch (which) {
    case Intrinsic::Ballot: return __ballot_sync(mask, value & 1);
    case Intrinsic::AllSync: return __all_sync(mask, value & 1) != 0;
    case Intrinsic::MatchAny: return __match_any_sync(mask, value % 3);
    case Intrinsic::ReduceAdd:
#if __CUDA_ARCH__ >= 800
      return __reduce_add_sync(mask, value);
#else
      return 0;  // the rule skips below compute capability 8.0 (5.4.6.4)
#endif
    case Intrinsic::ShflIdx: return __shfl_sync(mask, value, src);
  }
  return 0;
}

// The documented result for a caller whose call takes part `callers` (a mask of lanes), given every lane's value.
unsigned model(Intrinsic which, unsigned callers, const unsigned* lane_values, unsigned caller_lane, unsigned src) {
  unsigned ballot = 0, same = 0, sum = 0;
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    if (!warp_test::has_lane(callers, lane)) continue;
    ballot |= (lane_values[lane] & 1) << lane;
    if (lane_values[lane] % 3 == lane_values[caller_lane] % 3) same |= 1u << lane;
    sum += lane_values[lane];
  }
  switch (which) {
    case Intrinsic::Ballot: return ballot;
    case Intrinsic::AllSync: return ballot == callers;
    case Intrinsic::MatchAny: return same;
    case Intrinsic::ReduceAdd: return sum;
    case Intrinsic::ShflIdx: return lane_values[src % kLanes];
  }
  return 0;
}

std::vector<unsigned> thread_values(unsigned threads) {
  std::vector<unsigned> values(threads);
  for (unsigned t = 0; t < threads; ++t) values[t] = static_cast<unsigned>(warp_test::mix(t));
  return values;
}

// ---- exited threads are ignored ----

// 5.4.6.6's valid example, in every warp of the block: lane 0 returns, the rest call with the full mask.
__global__ void exited_lane_zero(int* all, unsigned* ballot) {
  const unsigned t = threadIdx.x;
  if (t % warpSize == 0) return;  // exit
  all[t] = __all_sync(0xFFFFFFFF, 1);
  ballot[t] = __ballot_sync(0xFFFFFFFF, 1);
}

class SyncConstraints : public warp_test::WarpTest {};

RULE_F(SyncConstraints, ExitedThreadsNamedInTheMaskAreIgnored, "5.4.6.6",
       "A mask may name exited threads: they are ignored (the guide's valid example: lane 0 returns, the others call "
       "__all_sync(0xFFFFFFFF, pred))") {
  constexpr unsigned kThreads = 64;
  cuconform::DeviceBuffer<int> all(kThreads);
  cuconform::DeviceBuffer<unsigned> ballot(kThreads);
  cuconform::launch(exited_lane_zero, 1, kThreads, all.get(), ballot.get());
  const auto alls = all.to_host();
  const auto ballots = ballot.to_host();
  LaneCheck check;
  for (unsigned t = 0; t < kThreads; ++t) {
    if (t % kLanes == 0) continue;
    auto where = [t] { return "thread " + std::to_string(t); };
    check.expect_truth(static_cast<unsigned>(alls[t]), true, where);  // every non-exited thread's predicate holds
    check.expect_equal(ballots[t], 0xFFFFFFFEu, where);
  }
  EXPECT_TRUE(check.result());
}

// ---- disjoint masks, concurrently, also in divergent code ----

enum class Form { OneCallSite, DivergentBranches };

struct DisjointCase {
  Intrinsic which;
  Form form;
};

void PrintTo(const DisjointCase& c, std::ostream* out) {
  *out << name_of(c.which) << (c.form == Form::OneCallSite ? " at one call site" : " from both sides of a branch");
}

struct DisjointCaseName {
  std::string operator()(const ::testing::TestParamInfo<DisjointCase>& info) const {
    return std::string(name_of(info.param.which)) +
           (info.param.form == Form::OneCallSite ? "OneCallSite" : "DivergentBranches");
  }
};

// The lanes in `group` call with mask `group`, the others with ~group; shuffles read the first lane of their group.
__global__ void disjoint_groups(Intrinsic which, Form form, unsigned group, const unsigned* values, unsigned* results) {
  const unsigned t = threadIdx.x;
  const unsigned lane = t % warpSize;
  const unsigned value = values[t];
  const bool in_group = (group >> lane) & 1u;
  unsigned result;
  if (form == Form::OneCallSite) {
    const unsigned mask = in_group ? group : ~group;
    result = call(which, mask, value, __ffs(mask) - 1);
  } else if (in_group) {
    result = call(which, group, value, __ffs(group) - 1);
  } else {
    __nanosleep(200);
    result = call(which, ~group, value, __ffs(~group) - 1);
  }
  results[t] = result;
}

class SyncDisjointMasks : public warp_test::WarpTestWithParam<DisjointCase> {};

RULE_P(SyncDisjointMasks, MayBeUsedConcurrentlyEvenInDivergentCode, "5.4.6.6",
       "Warp threads may call a __sync intrinsic concurrently with different masks provided the masks are disjoint, "
       "even in divergent control flow: each call acts on its own mask's threads") {
  const DisjointCase c = GetParam();
  if (c.which == Intrinsic::ReduceAdd) REQUIRE_CC(8, 0);
  constexpr unsigned kThreads = 64;
  const std::vector<unsigned> values = thread_values(kThreads);
  cuconform::DeviceBuffer<unsigned> device_values(values);
  LaneCheck check;
  for (unsigned group : {0x0000FFFFu, 0x55555555u, 0x9E3779B9u}) {
    cuconform::DeviceBuffer<unsigned> results(kThreads);
    cuconform::launch(disjoint_groups, 1, kThreads, c.which, c.form, group, device_values.get(), results.get());
    const auto got = results.to_host();
    for (unsigned t = 0; t < kThreads; ++t) {
      const unsigned mask = warp_test::has_lane(group, t % kLanes) ? group : ~group;
      const unsigned src = static_cast<unsigned>(__builtin_ctz(mask));
      const unsigned expected = model(c.which, mask, &values[warp_test::warp_base(t)], t % kLanes, src);
      check.expect_equal(got[t], expected,
                         [&] { return "group " + LaneCheck::hex(group) + ", thread " + std::to_string(t); });
    }
  }
  EXPECT_TRUE(check.result());
}

INSTANTIATE_TEST_SUITE_P(Intrinsics, SyncDisjointMasks,
                         ::testing::Values(DisjointCase{Intrinsic::Ballot, Form::OneCallSite},
                                           DisjointCase{Intrinsic::Ballot, Form::DivergentBranches},
                                           DisjointCase{Intrinsic::MatchAny, Form::OneCallSite},
                                           DisjointCase{Intrinsic::MatchAny, Form::DivergentBranches},
                                           DisjointCase{Intrinsic::ReduceAdd, Form::OneCallSite},
                                           DisjointCase{Intrinsic::ReduceAdd, Form::DivergentBranches},
                                           DisjointCase{Intrinsic::ShflIdx, Form::OneCallSite},
                                           DisjointCase{Intrinsic::ShflIdx, Form::DivergentBranches}),
                         DisjointCaseName());

// ---- the intrinsic waits for every named thread ----

// Lane-dependent amounts of divergent work (1 to 23 steps, some lanes sleeping in each): threads reach the call at
// very different times, each with a value only its last step gives.
__host__ __device__ unsigned uneven_work(unsigned t) {
  const unsigned lane = t % 32;
  unsigned value = t + 1;
  for (unsigned step = 0; step <= (lane * 7) % 23; ++step) {
    value = value * 1664525u + 1013904223u;
#ifdef __CUDA_ARCH__
    if (lane % 4 == 0) __nanosleep(64);
#endif
  }
  return value;
}

__global__ void after_uneven_work(Intrinsic which, unsigned* results) {
  const unsigned t = threadIdx.x;
  const unsigned value = uneven_work(t);
  results[t] = call(which, 0xFFFFFFFF, value, static_cast<int>((t * 5 + 3) % warpSize));
}

struct IntrinsicName {
  std::string operator()(const ::testing::TestParamInfo<Intrinsic>& info) const { return name_of(info.param); }
};

class SyncUnevenArrival : public warp_test::WarpTestWithParam<Intrinsic> {};

RULE_P(SyncUnevenArrival, IntrinsicWaitsForEveryNamedThread, "5.4.6.6",
       "A warp __sync intrinsic waits until all non-exited threads named in mask reach the call: threads arriving "
       "after uneven divergent work all see each other's final values") {
  const Intrinsic which = GetParam();
  if (which == Intrinsic::ReduceAdd) REQUIRE_CC(8, 0);
  constexpr unsigned kThreads = 64;
  std::vector<unsigned> values(kThreads);
  for (unsigned t = 0; t < kThreads; ++t) values[t] = uneven_work(t);
  cuconform::DeviceBuffer<unsigned> results(kThreads);
  cuconform::launch(after_uneven_work, 1, kThreads, which, results.get());
  const auto got = results.to_host();
  LaneCheck check;
  for (unsigned t = 0; t < kThreads; ++t) {
    const unsigned expected =
        model(which, kFullMask, &values[warp_test::warp_base(t)], t % kLanes, (t * 5 + 3) % kLanes);
    check.expect_equal(got[t], expected, [t] { return "thread " + std::to_string(t); });
  }
  EXPECT_TRUE(check.result());
}

INSTANTIATE_TEST_SUITE_P(Intrinsics, SyncUnevenArrival,
                         ::testing::Values(Intrinsic::Ballot, Intrinsic::AllSync, Intrinsic::MatchAny,
                                           Intrinsic::ReduceAdd, Intrinsic::ShflIdx),
                         IntrinsicName());

// ---- which thread a mask bit names ----

struct BlockShape {
  const char* name;
  dim3 block;
};

void PrintTo(const BlockShape& s, std::ostream* out) {
  *out << "block (" << s.block.x << ", " << s.block.y << ", " << s.block.z << ")";
}

struct BlockShapeName {
  std::string operator()(const ::testing::TestParamInfo<BlockShape>& info) const { return info.param.name; }
};

// Round r: only the thread of linear ID r votes true; it records the ballot, whose one set bit is its own lane.
// Every block shape used holds whole warps, so the full mask is right however lanes are numbered.
__global__ void own_ballot_bits(unsigned* bit_of_thread) {
  const unsigned linear = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  for (unsigned r = 0; r < threads; ++r) {
    const unsigned ballot = __ballot_sync(0xFFFFFFFF, linear == r);
    if (linear == r) bit_of_thread[r] = ballot;
  }
}

class SyncMaskLanes : public warp_test::WarpTestWithParam<BlockShape> {
 protected:
  // The mask bit of each thread (in linear-ID order), and each thread's threadIdx.x.
  std::vector<unsigned> bits(std::vector<unsigned>& x_of_thread) {
    const dim3 block = GetParam().block;
    const unsigned threads = block.x * block.y * block.z;
    cuconform::DeviceBuffer<unsigned> bit_of_thread(threads);
    cuconform::launch(own_ballot_bits, 1, block, bit_of_thread.get());
    x_of_thread.resize(threads);
    for (unsigned r = 0; r < threads; ++r) x_of_thread[r] = r % block.x;  // x moves fastest (2.2.2)
    return bit_of_thread.to_host();
  }
};

RULE_P(SyncMaskLanes, BitOfAThreadIsItsLinearThreadIdModuloWarpSize, "5.4.6.6",
       "The mask bit of a thread is its lane ID, and warps hold consecutive linear thread IDs x + y Dx + z Dx Dy, "
       "the first warp thread 0 (PG12.9 7.1, 5.2; 2.2.2): the lane is the linear thread ID % warpSize") {
  std::vector<unsigned> x_of_thread;
  const std::vector<unsigned> got = bits(x_of_thread);
  LaneCheck check;
  for (unsigned r = 0; r < got.size(); ++r) {
    check.expect_equal(got[r], 1u << (r % kLanes), [r] { return "linear thread " + std::to_string(r); });
  }
  EXPECT_TRUE(check.result());
}

RULE_P(SyncMaskLanes, BitOfAThreadIsThreadIdxXModuloWarpSize, "5.4.6.6",
       "Each bit in the mask corresponds to a thread's lane ID (threadIdx.x % warpSize), as 5.4.6.6 words it") {
  std::vector<unsigned> x_of_thread;
  const std::vector<unsigned> got = bits(x_of_thread);
  LaneCheck check;
  for (unsigned r = 0; r < got.size(); ++r) {
    check.expect_equal(got[r], 1u << (x_of_thread[r] % kLanes), [&] {
      return "linear thread " + std::to_string(r) + " (threadIdx.x " + std::to_string(x_of_thread[r]) + ")";
    });
  }
  EXPECT_TRUE(check.result());
}

INSTANTIATE_TEST_SUITE_P(Shapes, SyncMaskLanes,
                         ::testing::Values(BlockShape{"X64", dim3(64)}, BlockShape{"X32Y2", dim3(32, 2)},
                                           BlockShape{"X8Y4", dim3(8, 4)}, BlockShape{"X1Y64", dim3(1, 64)},
                                           BlockShape{"X4Y4Z4", dim3(4, 4, 4)}, BlockShape{"X5Y32", dim3(5, 32)}),
                         BlockShapeName());

}  // namespace
