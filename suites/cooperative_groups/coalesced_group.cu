// PG12.9 11.5.2.2 Coalesced Groups and PG12.9 11.6.2 / 11.6.3 labeled_partition and binary_partition:
// coalesced_threads() inside data-dependent (and nested) branches, in full and partial warps and in 3-D blocks; its
// members, ranks and every member function's result per lane against a host model; the discovery pattern.
#include "cg_common.h"

#include <algorithm>
#include <bitset>
#include <string>
#include <vector>

namespace {

using namespace cuconform::cg_area;

constexpr unsigned kNoGroup = 0xffffffffu;

// The branch each warp takes: lanes with `outer` enter the first `if`, those with `inner` too the nested one.
struct BranchPattern {
  unsigned outer, inner;
};

const BranchPattern kPatterns[] = {
    {0xffffffffu, 0xffffffffu},  // the whole warp
    {0x00000114u, 0xffffffffu},  // the guide's example: lanes 2, 4 and 8
    {0x80000001u, 0xffffffffu},  // the first and the last lane
    {0x55555555u, 0xffffffffu},  // even lanes
    {0xf0f0f00fu, 0xffffffffu}, {0x9e3779b9u, 0xffffffffu}, {0x00000001u, 0xffffffffu},  // a group of one
    {0xffffffffu, 0x0000ffffu},                                                          // nested: the lower half
    {0x9e3779b9u, 0x7f4a7c15u},                                                          // nested: scattered
};
constexpr unsigned kPatternCount = sizeof(kPatterns) / sizeof(kPatterns[0]);

__host__ __device__ inline int coalesced_predicate(unsigned g) { return static_cast<int>((mix(g + 11) >> 3) & 1u); }
__host__ __device__ inline unsigned coalesced_match_value(unsigned g) { return mix(g + 3) % 3; }

// What one thread saw; `rank` is kNoGroup for a thread outside the branch.
struct CoalescedView {
  unsigned rank, num_threads, size, meta_group_size, meta_group_rank;
  unsigned member_lanes;  // bit lane set for each member, learned through shfl(lane, r) for every rank r
  unsigned synced;        // after active.sync(): the shared slot of the member of rank (rank+1) % num_threads
  Wide shfl, shfl_up_1, shfl_up_3, shfl_down_1, shfl_down_3;
  int any, all, all_true;
  unsigned ballot, match_any, match_all_uniform, match_all_mixed;
  int match_all_uniform_pred, match_all_mixed_pred;
};

// Launched with up to 1024 threads (T1024): the bound makes ptxas keep the registers within one block's share.
__global__ void __launch_bounds__(1024) record_coalesced(const BranchPattern* patterns, CoalescedView* views) {
  __shared__ unsigned slots[1024];
  const unsigned n = blockDim.x * blockDim.y * blockDim.z, l = linear_thread(), lane = l % 32;
  const unsigned g = linear_block() * n + l, warp = linear_block() * ((n + 31) / 32) + l / 32;
  const BranchPattern p = patterns[warp % kPatternCount];
  CoalescedView v{};
  v.rank = kNoGroup;
  if ((p.outer >> lane) & 1u) {
    if ((p.inner >> lane) & 1u) {
      const cg::coalesced_group active = cg::coalesced_threads();
      v.rank = active.thread_rank();
      v.num_threads = active.num_threads();
      v.size = active.size();
      v.meta_group_size = active.meta_group_size();
      v.meta_group_rank = active.meta_group_rank();
      for (unsigned r = 0; r < v.num_threads; ++r) v.member_lanes |= 1u << active.shfl(lane, r);
      const unsigned next_lane = active.shfl(lane, (v.rank + 1) % v.num_threads);
      slots[l] = mix(g);
      active.sync();
      v.synced = slots[l - lane + next_lane];
      const Wide w = wide_value(g);
      v.shfl = active.shfl(w, (v.rank * 3 + 1) % v.num_threads);
      v.shfl_up_1 = active.shfl_up(w, 1);
      v.shfl_up_3 = active.shfl_up(w, 3);
      v.shfl_down_1 = active.shfl_down(w, 1);
      v.shfl_down_3 = active.shfl_down(w, 3);
      v.any = active.any(coalesced_predicate(g));
      v.all = active.all(coalesced_predicate(g));
      v.all_true = active.all(1);
      v.ballot = active.ballot(coalesced_predicate(g));
      v.match_any = active.match_any(coalesced_match_value(g));
      v.match_all_uniform = active.match_all(warp * 7ull + 1, v.match_all_uniform_pred);
      v.match_all_mixed = active.match_all(v.rank % 2, v.match_all_mixed_pred);
    }
  }
  views[g] = v;
}

struct CoalescedShape {
  BlockShape shape;
  unsigned blocks;  // enough warps for every pattern
};

void PrintTo(const CoalescedShape& c, std::ostream* out) { PrintTo(c.shape, out); }

const CoalescedShape kCoalescedShapes[] = {
    {{"T45", dim3(45)}, 5},          // partial second warp (13 lanes)
    {{"T7x5x3", dim3(7, 5, 3)}, 3},  // 4 warps, the last of 9 lanes
    {{"T64", dim3(64)}, 5},
    {{"T1024", dim3(1024)}, 1},
};

class CoalescedThreads : public cuconform::GpuTestWithParam<CoalescedShape> {
 protected:
  // One warp of the launch: where its threads' views are and which lanes took the branch.
  struct Warp {
    unsigned first;   // index of lane 0's view
    unsigned branch;  // lanes that exist and took both branches
  };
  void SetUp() override {
    GpuTestWithParam::SetUp();
    if (IsSkipped()) return;
    const CoalescedShape& c = GetParam();
    const unsigned n = c.shape.threads(), warps_per_block = (n + 31) / 32;
    cuconform::DeviceBuffer<BranchPattern> patterns(
        std::vector<BranchPattern>(std::begin(kPatterns), std::end(kPatterns)));
    cuconform::DeviceBuffer<CoalescedView> out(c.blocks * n);
    cuconform::launch(record_coalesced, dim3(c.blocks), c.shape.block, patterns.get(), out.get());
    views_ = out.to_host();
    for (unsigned b = 0; b < c.blocks; ++b) {
      for (unsigned w = 0; w < warps_per_block; ++w) {
        const unsigned lanes = std::min(32u, n - 32 * w);
        const unsigned exists = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
        const BranchPattern& p = kPatterns[(b * warps_per_block + w) % kPatternCount];
        warps_.push_back({b * n + 32 * w, p.outer & p.inner & exists});
      }
    }
  }
  static unsigned rank_in(unsigned members, unsigned lane) {
    return std::bitset<32>(members & ((1u << lane) - 1)).count();
  }
  static unsigned count(unsigned members) { return std::bitset<32>(members).count(); }
  // The lane of rank r among `members`.
  static unsigned lane_of(unsigned members, unsigned r) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (((members >> lane) & 1u) && r-- == 0) return lane;
    }
    return 32;
  }
  std::string where(const Warp& w, unsigned lane) const {
    return "warp at view " + std::to_string(w.first) + " (branch lanes 0x" + hex(w.branch) + "), lane " +
           std::to_string(lane);
  }
  static std::string hex(unsigned v) {
    char text[16];
    std::snprintf(text, sizeof text, "%08x", v);
    return text;
  }
  std::vector<CoalescedView> views_;
  std::vector<Warp> warps_;
};

RULE_P(CoalescedThreads, IsAGroupOfActiveThreadsRankedByLane, "PG12.9 11.5.2.2",
       "coalesced_threads() returns a group of active threads (which ones is not guaranteed): every member took the "
       "branch, all members see the same set, num_threads() (alias size()) is its size and thread_rank() orders it by "
       "lane") {
  for (const Warp& w : warps_) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!((w.branch >> lane) & 1u)) continue;
      const CoalescedView& v = views_[w.first + lane];
      const unsigned m = v.member_lanes;
      ASSERT_TRUE((m >> lane) & 1u) << where(w, lane) << ": members 0x" << hex(m) << " lack the caller";
      ASSERT_EQ(m & ~w.branch, 0u) << where(w, lane) << ": members 0x" << hex(m) << " include inactive lanes";
      for (unsigned other = 0; other < 32; ++other) {
        if ((m >> other) & 1u) {
          ASSERT_EQ(views_[w.first + other].member_lanes, m) << where(w, lane) << ": member lane " << other;
        }
      }
      ASSERT_EQ(v.num_threads, count(m)) << where(w, lane);
      ASSERT_EQ(v.size, count(m)) << where(w, lane);
      ASSERT_EQ(v.rank, rank_in(m, lane)) << where(w, lane) << ", members 0x" << hex(m);
    }
  }
}

RULE_P(CoalescedThreads, InADataDependentBranchIsEveryThreadOfTheBranch, "PG12.9 11.5.2.2",
       "the guide's example: coalesced_threads() in a branch that lanes 2, 4 and 8 take gives those three threads, "
       "ranks 0-2; checked for that and eight other (also nested) branches, in full and partial warps") {
  for (const Warp& w : warps_) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if ((w.branch >> lane) & 1u) {
        ASSERT_EQ(views_[w.first + lane].member_lanes, w.branch) << where(w, lane);
        ASSERT_EQ(views_[w.first + lane].rank, rank_in(w.branch, lane)) << where(w, lane);
      }
    }
  }
}

RULE_P(CoalescedThreads, MetaGroupIsOneGroupOfRankZero, "PG12.9 11.5.2.2",
       "for a group from coalesced_threads() meta_group_size() is 1 and meta_group_rank() is 0") {
  for (const Warp& w : warps_) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!((w.branch >> lane) & 1u)) continue;
      ASSERT_EQ(views_[w.first + lane].meta_group_size, 1u) << where(w, lane);
      ASSERT_EQ(views_[w.first + lane].meta_group_rank, 0u) << where(w, lane);
    }
  }
}

RULE_P(CoalescedThreads, SyncMakesTheMembersWritesVisible, "PG12.9 11.7.1.2",
       "coalesced_group::sync() synchronizes the threads named in the group: a shared-memory write before it is seen "
       "by the other members after it") {
  for (const Warp& w : warps_) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!((w.branch >> lane) & 1u)) continue;
      const CoalescedView& v = views_[w.first + lane];
      const unsigned m = v.member_lanes, next = lane_of(m, (rank_in(m, lane) + 1) % count(m));
      ASSERT_EQ(v.synced, mix(w.first + next)) << where(w, lane) << ", the slot of lane " << next;
    }
  }
}

RULE_P(CoalescedThreads, ShufflesAddressRanksOfTheGroup, "PG12.9 11.5.2.2",
       "on a coalesced group shfl(var, r) returns var of group rank r, shfl_up / shfl_down(var, d) that of rank "
       "rank -/+ d or the caller's own var where no such rank exists, for a 32-byte trivially copyable type") {
  for (const Warp& w : warps_) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!((w.branch >> lane) & 1u)) continue;
      const CoalescedView& v = views_[w.first + lane];
      const unsigned m = v.member_lanes, k = count(m), r = rank_in(m, lane);
      auto value_of_rank = [&](unsigned rank) { return wide_value(w.first + lane_of(m, rank)); };
      const Wide own = wide_value(w.first + lane);
      ASSERT_EQ(v.shfl, value_of_rank((r * 3 + 1) % k)) << "shfl, " << where(w, lane);
      ASSERT_EQ(v.shfl_up_1, r >= 1 ? value_of_rank(r - 1) : own) << "shfl_up 1, " << where(w, lane);
      ASSERT_EQ(v.shfl_up_3, r >= 3 ? value_of_rank(r - 3) : own) << "shfl_up 3, " << where(w, lane);
      ASSERT_EQ(v.shfl_down_1, r + 1 < k ? value_of_rank(r + 1) : own) << "shfl_down 1, " << where(w, lane);
      ASSERT_EQ(v.shfl_down_3, r + 3 < k ? value_of_rank(r + 3) : own) << "shfl_down 3, " << where(w, lane);
    }
  }
}

RULE_P(CoalescedThreads, VotesCoverTheGroupWithBallotBitsByRank, "PG12.9 11.5.2.2",
       "on a coalesced group any / all vote over its members and ballot(p) has bit r set iff p holds on group rank r") {
  for (const Warp& w : warps_) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!((w.branch >> lane) & 1u)) continue;
      const CoalescedView& v = views_[w.first + lane];
      const unsigned m = v.member_lanes, k = count(m);
      unsigned ballot = 0;
      for (unsigned r = 0; r < k; ++r) {
        if (coalesced_predicate(w.first + lane_of(m, r))) ballot |= 1u << r;
      }
      const unsigned all_bits = k == 32 ? 0xffffffffu : (1u << k) - 1;
      ASSERT_EQ(v.ballot, ballot) << where(w, lane);
      ASSERT_EQ(v.any != 0, ballot != 0) << where(w, lane);
      ASSERT_EQ(v.all != 0, ballot == all_bits) << where(w, lane);
      ASSERT_NE(v.all_true, 0) << "all(1), " << where(w, lane);
    }
  }
}

RULE_P(CoalescedThreads, MatchesReturnRankMasks, "PG12.9 11.5.2.2",
       "on a coalesced group match_any(v) is the mask (by rank) of members holding the caller's v; match_all(v, "
       "pred) is every member's rank bit with pred true when all hold the same v, else 0 with pred false") {
  for (const Warp& w : warps_) {
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (!((w.branch >> lane) & 1u)) continue;
      const CoalescedView& v = views_[w.first + lane];
      const unsigned m = v.member_lanes, k = count(m);
      const unsigned all_bits = k == 32 ? 0xffffffffu : (1u << k) - 1;
      unsigned match = 0;
      for (unsigned r = 0; r < k; ++r) {
        if (coalesced_match_value(w.first + lane_of(m, r)) == coalesced_match_value(w.first + lane)) match |= 1u << r;
      }
      ASSERT_EQ(v.match_any, match) << where(w, lane);
      ASSERT_EQ(v.match_all_uniform, all_bits) << "match_all(warp-uniform value), " << where(w, lane);
      ASSERT_EQ(v.match_all_uniform_pred, 1) << "match_all(warp-uniform value) pred, " << where(w, lane);
      ASSERT_EQ(v.match_all_mixed, k == 1 ? all_bits : 0u) << "match_all(rank % 2), " << where(w, lane);
      ASSERT_EQ(v.match_all_mixed_pred, k == 1 ? 1 : 0) << "match_all(rank % 2) pred, " << where(w, lane);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, CoalescedThreads, ::testing::ValuesIn(kCoalescedShapes),
                         [](const ::testing::TestParamInfo<CoalescedShape>& info) { return info.param.shape.name; });

// --- The discovery pattern (PG12.9 11.5.2.2.1): an aggregated atomic increment per coalesced group. -----------------

__global__ void aggregated_increment(const BranchPattern* patterns, unsigned* counter, unsigned* offsets) {
  const unsigned n = blockDim.x, l = threadIdx.x, lane = l % 32, g = blockIdx.x * n + l;
  const BranchPattern p = patterns[(blockIdx.x * ((n + 31) / 32) + l / 32) % kPatternCount];
  offsets[g] = kNoGroup;
  if ((p.outer >> lane) & 1u) {
    if ((p.inner >> lane) & 1u) {
      const cg::coalesced_group group = cg::coalesced_threads();
      unsigned previous = 0;
      if (group.thread_rank() == 0) previous = atomicAdd(counter, static_cast<unsigned>(group.num_threads()));
      offsets[g] = group.thread_rank() + group.shfl(previous, 0);
    }
  }
}

class CoalescedDiscoveryPattern : public cuconform::GpuTest {};

RULE_F(CoalescedDiscoveryPattern, AggregatedIncrementGivesEachThreadItsOwnOffset, "PG12.9 11.5.2.2.1",
       "the guide's aggregated atomic increment through coalesced_threads() gives the threads that call it the "
       "offsets 0 .. count-1, each once, consecutive within each warp's group in lane order") {
  constexpr unsigned kBlocks = 4, kThreads = 45 * 3;
  cuconform::DeviceBuffer<BranchPattern> patterns(
      std::vector<BranchPattern>(std::begin(kPatterns), std::end(kPatterns)));
  cuconform::DeviceBuffer<unsigned> counter(1), offsets(kBlocks * kThreads);
  cuconform::launch(aggregated_increment, dim3(kBlocks), dim3(kThreads), patterns.get(), counter.get(), offsets.get());
  std::vector<unsigned> got;
  unsigned callers = 0;
  const std::vector<unsigned> all = offsets.to_host();
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned w = 0; w * 32 < kThreads; ++w) {
      const BranchPattern& p = kPatterns[(b * ((kThreads + 31) / 32) + w) % kPatternCount];
      const unsigned lanes = std::min(32u, kThreads - 32 * w);
      unsigned previous_lane_offset = kNoGroup;
      for (unsigned lane = 0; lane < lanes; ++lane) {
        const unsigned offset = all[b * kThreads + 32 * w + lane];
        if (!(((p.outer & p.inner) >> lane) & 1u)) {
          ASSERT_EQ(offset, kNoGroup) << "block " << b << " warp " << w << " lane " << lane;
          continue;
        }
        ++callers;
        got.push_back(offset);
        if (previous_lane_offset != kNoGroup) {
          EXPECT_EQ(offset, previous_lane_offset + 1) << "block " << b << " warp " << w << " lane " << lane;
        }
        previous_lane_offset = offset;
      }
    }
  }
  std::vector<unsigned> expected(callers);
  for (unsigned i = 0; i < callers; ++i) expected[i] = i;
  EXPECT_TRUE(cuconform::SameMultiset(got, expected));
  EXPECT_EQ(counter.value_at(0), callers);
}

// --- labeled_partition and binary_partition (PG12.9 11.6.2, 11.6.3). -------------------------------------------------

struct PartitionView {
  unsigned rank, num_threads, member_lanes;
};

__host__ __device__ inline unsigned long long partition_label(unsigned g) {
  return (static_cast<unsigned long long>(mix(g + 29) % 3) << 40) | 7u;  // labels that differ above 32 bits only
}
__host__ __device__ inline bool partition_predicate(unsigned g) { return (mix(g + 41) & 4u) != 0; }

template <class Group>
__device__ PartitionView describe(const Group& group, unsigned lane) {
  PartitionView v{static_cast<unsigned>(group.thread_rank()), static_cast<unsigned>(group.num_threads()), 0};
  for (unsigned r = 0; r < v.num_threads; ++r) v.member_lanes |= 1u << group.shfl(lane, r);
  return v;
}

// views: [0] labeled_partition of the tile, [1] binary_partition of the tile, [2] labeled_partition of the coalesced
// group of a branch, [3] binary_partition of it; 4 per thread.
template <unsigned TileSize>
__global__ void record_partitions(const BranchPattern* patterns, PartitionView* views) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<TileSize> tile = cg::tiled_partition<TileSize>(block);
  const unsigned n = block.num_threads(), l = block.thread_rank(), lane = l % 32, g = linear_block() * n + l;
  PartitionView* mine = views + 4 * g;
  mine[0] = describe(cg::labeled_partition(tile, partition_label(g)), lane);
  mine[1] = describe(cg::binary_partition(tile, partition_predicate(g)), lane);
  mine[2] = mine[3] = PartitionView{kNoGroup, 0, 0};
  const BranchPattern p = patterns[(linear_block() * ((n + 31) / 32) + l / 32) % kPatternCount];
  if ((p.outer >> lane) & 1u) {
    if ((p.inner >> lane) & 1u) {
      const cg::coalesced_group active = cg::coalesced_threads();
      mine[2] = describe(cg::labeled_partition(active, partition_label(g)), lane);
      mine[3] = describe(cg::binary_partition(active, partition_predicate(g)), lane);
    }
  }
}

struct PartitionCase {
  const char* name;
  unsigned tile;
  dim3 block;
  unsigned blocks;
};

void PrintTo(const PartitionCase& c, std::ostream* out) { *out << c.name; }

const PartitionCase kPartitionCases[] = {
    {"Tile32_T64", 32, dim3(64), 5},
    {"Tile32_T8x4x3", 32, dim3(8, 4, 3), 3},
    {"Tile8_T12x4", 8, dim3(12, 4), 5},
};

class Partition : public cuconform::GpuTestWithParam<PartitionCase> {
 protected:
  void SetUp() override {
    GpuTestWithParam::SetUp();
    if (IsSkipped()) return;
    const PartitionCase& c = GetParam();
    n_ = volume(c.block);
    cuconform::DeviceBuffer<BranchPattern> patterns(
        std::vector<BranchPattern>(std::begin(kPatterns), std::end(kPatterns)));
    cuconform::DeviceBuffer<PartitionView> out(4 * c.blocks * n_);
    auto kernel = c.tile == 32 ? record_partitions<32> : record_partitions<8>;
    cuconform::launch(kernel, dim3(c.blocks), c.block, patterns.get(), out.get());
    views_ = out.to_host();
  }
  // Checks variant `which` against the parent of each thread (lanes of its tile, or of its branch) and its key.
  template <class Key>
  void check(unsigned which, bool from_branch, Key key) {
    const PartitionCase& c = GetParam();
    const unsigned warps_per_block = (n_ + 31) / 32;
    for (unsigned b = 0; b < c.blocks; ++b) {
      for (unsigned l = 0; l < n_; ++l) {
        const unsigned g = b * n_ + l, lane = l % 32, warp_first = g - lane;
        unsigned parent;
        if (from_branch) {
          const BranchPattern& p = kPatterns[(b * warps_per_block + l / 32) % kPatternCount];
          const unsigned lanes = std::min(32u, n_ - 32 * (l / 32));
          parent = p.outer & p.inner & (lanes == 32 ? 0xffffffffu : (1u << lanes) - 1);
        } else {
          const unsigned first = lane - lane % c.tile;
          parent = (c.tile == 32 ? 0xffffffffu : (1u << c.tile) - 1) << first;
        }
        const PartitionView& v = views_[4 * g + which];
        if (!((parent >> lane) & 1u)) {
          ASSERT_EQ(v.rank, kNoGroup) << "thread " << g << " is outside the branch";
          continue;
        }
        unsigned members = 0;
        for (unsigned other = 0; other < 32; ++other) {
          if (((parent >> other) & 1u) && key(warp_first + other) == key(g)) members |= 1u << other;
        }
        const unsigned rank = std::bitset<32>(members & ((1u << lane) - 1)).count();
        ASSERT_EQ(v.member_lanes, members) << "thread " << g << " (lane " << lane << "), parent lanes " << parent;
        ASSERT_EQ(v.num_threads, std::bitset<32>(members).count()) << "thread " << g;
        ASSERT_EQ(v.rank, rank) << "thread " << g;
      }
    }
  }
  unsigned n_ = 0;
  std::vector<PartitionView> views_;
};

RULE_P(Partition, LabeledPartitionOfATileGroupsEqualLabels, "PG12.9 11.6.2",
       "labeled_partition(tile, label) puts the tile's threads with the same label (any integral type; here 64-bit "
       "labels differing above bit 32) into one coalesced group, ranked in the tile's order") {
  check(0, false, partition_label);
}

RULE_P(Partition, BinaryPartitionOfATileSplitsByThePredicate, "PG12.9 11.6.3",
       "binary_partition(tile, pred) puts the tile's threads with the same pred into one coalesced group") {
  check(1, false, partition_predicate);
}

RULE_P(Partition, LabeledPartitionOfACoalescedGroupGroupsEqualLabels, "PG12.9 11.6.2",
       "labeled_partition(coalesced_group, label) partitions the coalesced group of a branch by label") {
  check(2, true, partition_label);
}

RULE_P(Partition, BinaryPartitionOfACoalescedGroupSplitsByThePredicate, "PG12.9 11.6.3",
       "binary_partition(coalesced_group, pred) partitions the coalesced group of a branch by pred") {
  check(3, true, partition_predicate);
}

INSTANTIATE_TEST_SUITE_P(Parents, Partition, ::testing::ValuesIn(kPartitionCases),
                         [](const ::testing::TestParamInfo<PartitionCase>& info) { return info.param.name; });

}  // namespace
