// 5.4.4.2 Warp Synchronization Function: __syncwarp(mask) orders memory among the threads named in mask.
// Every thread named in a mask writes its slot, calls __syncwarp(mask), and reads the slot of every thread named in
// the mask, in shared and in global memory, over several phases, with some threads arriving late; the host compares
// each value read with the one written. Masks: the full warp, disjoint masks called concurrently at one call site
// and from both sides of a branch (the forms of the guide's examples in 5.4.6.6), partial masks whose other threads
// do not call, and a block's last partial warp. Every mask names only threads that execute the call (README.md:
// masks naming exited threads are not run).
#include <cuconform/cuconform.h>

#include <cstddef>
#include <cstdio>
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
// seen[(t * phases + phase) * kLanes + lane]: what thread t read in the slot of `lane` of its warp (0 where its mask
// does not name that lane, and for threads that do not call).
__global__ void syncwarp_visibility(Space space, CallSite site, bool default_argument, unsigned phases,
                                    const unsigned* masks, unsigned* global_slots, unsigned* seen) {
  __shared__ unsigned shared_slots[kMaxThreads];
  const unsigned t = threadIdx.x, lane = t % kLanes, base = t - lane;
  const unsigned mask = masks[t];
  if (mask == 0) return;
  unsigned* const slots = (space == Space::Shared ? shared_slots : global_slots) + base;
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
    unsigned* const row = seen + (t * phases + phase) * kLanes;
    for (unsigned other = 0; other < kLanes; ++other) {
      if ((mask >> other) & 1u) row[other] = slots[other];
    }
    __syncwarp(mask);  // every read of this phase before any write of the next
  }
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

std::string warp_hex(unsigned mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

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

// Runs the visibility check: every value a calling thread read must be what the slot's thread wrote in that phase.
::testing::AssertionResult writes_visible(Space space, const MaskCase& c, bool default_argument) {
  std::vector<unsigned> masks(c.threads);
  for (unsigned t = 0; t < c.threads; ++t) masks[t] = c.mask_of(t);
  const unsigned phase_count = phases();
  cuconform::DeviceBuffer<unsigned> device_masks(masks);
  cuconform::DeviceBuffer<unsigned> global_slots(kMaxThreads), seen(c.threads * phase_count * kLanes);
  cuconform::launch(syncwarp_visibility, 1, c.threads, space, c.site, default_argument, phase_count, device_masks.get(),
                    global_slots.get(), seen.get());
  std::vector<unsigned> expected(seen.size(), 0);
  for (unsigned t = 0; t < c.threads; ++t) {
    for (unsigned phase = 0; phase < phase_count; ++phase) {
      for (unsigned other = 0; other < kLanes; ++other) {
        if ((masks[t] >> other) & 1u) {
          expected[(t * phase_count + phase) * kLanes + other] = sync_test::stamp(phase, t - t % kLanes + other);
        }
      }
    }
  }
  return cuconform::ElementsEqual(seen.to_host(), expected, [&](std::size_t i) {
    const std::size_t other = i % kLanes, phase = i / kLanes % phase_count, t = i / kLanes / phase_count;
    return "thread " + std::to_string(t) + " (mask " + warp_hex(masks[t]) + "), phase " + std::to_string(phase) +
           ", reading the slot of lane " + std::to_string(other);
  });
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
