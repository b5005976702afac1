// 5.4.4.2 Warp Synchronization Function: __syncwarp(mask) orders memory among the threads named in mask.
// Every thread named in a mask writes its slot, calls __syncwarp(mask), and checks the slot of every thread named
// in the mask, in shared and in global memory, over several phases, with some threads arriving late. Masks: the full
// warp, disjoint masks called concurrently at one call site and from both sides of a branch (the forms of the guide's
// examples in 5.4.6.6), partial masks whose other threads do not call, and a block's last partial warp. Every mask
// names only threads that execute the call (README.md: masks naming exited threads are not run).
#include <cuconform/cuconform.h>

#include <string>
#include <vector>

#include "block_cases.h"

namespace {

constexpr unsigned kLanes = 32;  // a mask has one bit per lane
constexpr unsigned kMaxThreads = 64;

// Phases per launch: more in the full profile, for more chances to see a stale value.
unsigned phases() { return cuconform::full_profile() ? 16 : 3; }

enum class Space { Shared, Global };
// One: every thread calls from the same line. BranchPerGroup: the mask holding lane 0 calls from one side of a
// branch, the other (disjoint) mask from the other side; all threads of one mask call at the same program point.
enum class CallSite { One, BranchPerGroup };

// Each thread with a non-zero masks[t] takes part; a thread with mask 0 returns at once and is named by no mask.
__global__ void syncwarp_visibility(Space space, CallSite site, bool default_argument, unsigned phases,
                                    const unsigned* masks, unsigned* global_slots, unsigned* stale) {
  __shared__ unsigned shared_slots[kMaxThreads];
  const unsigned t = threadIdx.x, lane = t % kLanes, base = t - lane;
  const unsigned mask = masks[t];
  if (mask == 0) return;
  unsigned* const slots = (space == Space::Shared ? shared_slots : global_slots) + base;
  unsigned stale_reads = 0;
  for (unsigned phase = 0; phase < phases; ++phase) {
    if (lane % 5 == phase % 5) __nanosleep(500);  // arrive late
    slots[lane] = sync_test::stamp(phase, t);
    if (default_argument) {
      __syncwarp();
    } else if (site == CallSite::One) {
      __syncwarp(mask);
    } else if (mask & 1u) {
      __syncwarp(mask);
    } else {
      __nanosleep(100);
      __syncwarp(mask);
    }
    for (unsigned other = 0; other < kLanes; ++other) {
      if ((mask >> other) & 1u) stale_reads += slots[other] != sync_test::stamp(phase, base + other);
    }
    __syncwarp(mask);  // every read of this phase before any write of the next
  }
  stale[t] = stale_reads;
}

struct MaskCase {
  std::string name;
  unsigned threads;
  unsigned (*mask_of)(unsigned t);  // 0: the thread does not call
  CallSite site;
};

void PrintTo(const MaskCase& c, std::ostream* out) {
  *out << c.name << " (" << c.threads << " threads, "
       << (c.site == CallSite::One ? "one call site" : "call sites in both sides of a branch") << ")";
}

struct MaskCaseName {
  std::string operator()(const ::testing::TestParamInfo<MaskCase>& info) const { return info.param.name; }
};

unsigned full(unsigned) { return 0xFFFFFFFFu; }
unsigned halves(unsigned t) { return t % kLanes < 16 ? 0x0000FFFFu : 0xFFFF0000u; }
unsigned even_odd(unsigned t) { return t % 2 == 0 ? 0x55555555u : 0xAAAAAAAAu; }
unsigned scattered(unsigned t) { return (0x9E3779B9u >> (t % kLanes)) & 1u ? 0x9E3779B9u : ~0x9E3779B9u; }
unsigned own_lane(unsigned t) { return 1u << (t % kLanes); }
unsigned second_byte_only(unsigned t) { return t % kLanes / 8 == 1 ? 0x0000FF00u : 0u; }
unsigned partial_last_warp(unsigned t) { return t < 32 ? 0xFFFFFFFFu : 0x00001FFFu; }

const MaskCase kMaskCases[] = {
    {"FullWarps", 64, full, CallSite::One},
    // 5.4.6.6 example_syncwarp_with_mask: mask = threadIdx.x < 16 ? 0xFFFF : 0xFFFF0000 at one call site.
    {"DisjointHalvesOneCallSite", 64, halves, CallSite::One},
    // 5.4.6.6 example_syncwarp_with_mask_branches: each half calls from its own side of a branch.
    {"DisjointHalvesBranches", 64, halves, CallSite::BranchPerGroup},
    {"EvenAndOddLanesOneCallSite", 64, even_odd, CallSite::One},
    {"ScatteredDisjointBranches", 64, scattered, CallSite::BranchPerGroup},
    {"EachLaneAlone", 64, own_lane, CallSite::One},
    {"SecondByteOnlyOthersDoNotCall", 64, second_byte_only, CallSite::One},
    {"PartialLastWarp", 45, partial_last_warp, CallSite::One},
};

// Runs the visibility check; every calling thread must have read no stale slot.
::testing::AssertionResult writes_visible(Space space, const MaskCase& c, bool default_argument) {
  std::vector<unsigned> masks(c.threads);
  for (unsigned t = 0; t < c.threads; ++t) masks[t] = c.mask_of(t);
  cuconform::DeviceBuffer<unsigned> device_masks(masks);
  cuconform::DeviceBuffer<unsigned> global_slots(kMaxThreads), stale(c.threads);
  cuconform::launch(syncwarp_visibility, 1, c.threads, space, c.site, default_argument, phases(), device_masks.get(),
                    global_slots.get(), stale.get());
  const std::vector<unsigned> got = stale.to_host();
  std::vector<unsigned> calling;
  for (unsigned t = 0; t < c.threads; ++t) {
    if (masks[t] != 0) calling.push_back(got[t]);
  }
  auto result = cuconform::ElementsEqual(calling, std::vector<unsigned>(calling.size(), 0));
  if (!result) result << "\n  (stale reads per calling thread, in thread order)";
  return result;
}

class Syncwarp : public cuconform::GpuTestWithParam<MaskCase> {};

RULE_P(Syncwarp, SharedMemoryWritesAreVisibleToTheThreadsNamedInMask, "5.4.4.2",
       "__syncwarp(mask) orders memory among the threads named in mask: a shared-memory write made before it by one "
       "of them is seen after it by all of them") {
  EXPECT_TRUE(writes_visible(Space::Shared, GetParam(), false));
}

RULE_P(Syncwarp, GlobalMemoryWritesAreVisibleToTheThreadsNamedInMask, "5.4.4.2",
       "__syncwarp(mask) orders memory among the threads named in mask: a global-memory write made before it by one "
       "of them is seen after it by all of them") {
  EXPECT_TRUE(writes_visible(Space::Global, GetParam(), false));
}

INSTANTIATE_TEST_SUITE_P(Masks, Syncwarp, ::testing::ValuesIn(kMaskCases), MaskCaseName());

class SyncwarpDefaultMask : public cuconform::GpuTest {};

RULE_F(SyncwarpDefaultMask, IsTheFullWarp, "5.4.4.2",
       "__syncwarp() without a mask is __syncwarp(0xFFFFFFFF): it orders memory among all 32 threads of the warp") {
  const MaskCase full_warps{"FullWarps", 64, full, CallSite::One};
  EXPECT_TRUE(writes_visible(Space::Shared, full_warps, true)) << "shared memory";
  EXPECT_TRUE(writes_visible(Space::Global, full_warps, true)) << "global memory";
}

}  // namespace
