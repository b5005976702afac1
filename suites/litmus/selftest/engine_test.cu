// Host-side checks of the litmus engine, runnable without a GPU (build/<preset>/selftest/cuconform-litmus-selftest):
// the thread layout (every instance gets each role exactly once, partners sit where the placement says, locations
// never share a slot), the outcome classification of every shape, the verdicts, the configuration, the case table.
// Not a suite: these check the engine, not the CUDA documentation.
#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/case.h"
#include "engine/config.h"
#include "engine/device_code.h"
#include "engine/kernels.cuh"
#include "engine/plan.h"
#include "engine/runner.h"
#include "engine/shapes.cuh"
#include "engine/verdict.h"

namespace litmus {
namespace {

struct Seat {
  uint32_t group, block, thread;
};

struct LayoutCase {
  Placement placement;
  uint32_t roles, locations, block_size, blocks, stress_percent;
};

std::string describe(const LayoutCase& c) {
  return std::string(name_of(c.placement)) + " roles=" + std::to_string(c.roles) +
         " locations=" + std::to_string(c.locations) + " block=" + std::to_string(c.block_size) +
         " blocks=" + std::to_string(c.blocks) + " stress%=" + std::to_string(c.stress_percent);
}

// Runs assign() for every thread of every GPU of the launch and checks the layout's promises.
void check_layout(const LayoutCase& c, uint64_t seed) {
  SCOPED_TRACE(describe(c) + " seed=" + std::to_string(seed));
  GeometryRequest request{c.placement, c.roles, c.locations, c.block_size, c.blocks, 4, c.stress_percent};
  Geometry g;
  ASSERT_EQ(make_geometry(request, g), "");
  const Iteration it = make_iteration(g, seed, 64);
  std::map<std::pair<uint32_t, uint32_t>, Seat> seats;  // (instance, role) -> thread
  uint32_t testing = 0;
  for (uint32_t group = 0; group < g.groups; ++group) {
    for (uint32_t block = 0; block < g.blocks; ++block) {
      for (uint32_t thread = 0; thread < g.block_size; ++thread) {
        const Assignment a = assign(g, it, group, block, thread);
        if (!a.testing) continue;
        ++testing;
        ASSERT_LT(a.instance, g.instances);
        ASSERT_LT(a.role, g.roles);
        ASSERT_EQ(a.role % g.groups, group) << "role on the wrong GPU";
        ASSERT_EQ(a.instance_in_block, a.instance % g.slice_size);
        const bool fresh = seats.emplace(std::make_pair(a.instance, a.role), Seat{group, block, thread}).second;
        ASSERT_TRUE(fresh) << "instance " << a.instance << " role " << a.role << " assigned twice";
      }
    }
  }
  ASSERT_EQ(testing, g.instances * g.roles) << "every instance needs each role exactly once";
  for (uint32_t i = 0; i < g.instances; ++i) {
    for (uint32_t r = 0; r < g.roles; ++r) {
      const Seat& a = seats.at({i, r});
      for (uint32_t q = r + 1; q < g.roles; ++q) {
        const Seat& b = seats.at({i, q});
        switch (c.placement) {
          case Placement::Warps:
          case Placement::Shared:
            ASSERT_EQ(a.block, b.block) << "instance " << i << ": partners in one block";
            ASSERT_NE(a.thread / kWarpSize, b.thread / kWarpSize) << "instance " << i << ": partners in one warp";
            break;
          case Placement::SubPartitions:
          case Placement::SharedBanks:
            ASSERT_EQ(a.block, b.block) << "instance " << i << ": partners in one block";
            ASSERT_NE(a.thread / kWarpSize % kQuadWarps, b.thread / kWarpSize % kQuadWarps)
                << "instance " << i << ": partners on one sub-partition (warp id mod 4)";
            break;
          case Placement::Blocks:
          case Placement::HostMemory:
            ASSERT_NE(a.block, b.block) << "instance " << i << ": partners in one block";
            break;
          case Placement::Cluster:
            ASSERT_NE(a.block, b.block) << "instance " << i << ": partners in one block";
            ASSERT_EQ(a.block / g.shuffle_unit, b.block / g.shuffle_unit) << "instance " << i << ": other clusters";
            break;
          case Placement::Devices:
            if (a.group == b.group) ASSERT_NE(a.block, b.block) << "instance " << i << ": same GPU, same block";
            break;
          case Placement::HostThread: FAIL() << "HostThread is laid out by pairs and rounds, not by assign()";
        }
      }
    }
  }
  std::set<uint32_t> slots;
  for (uint32_t i = 0; i < g.instances; ++i) {
    for (uint32_t v = 0; v < g.locations; ++v) {
      const uint32_t slot = location_slot(g, it, i, v);
      ASSERT_LT(slot, g.instances * g.locations);
      ASSERT_TRUE(slots.insert(slot).second) << "two locations share slot " << slot;
    }
  }
  std::set<uint32_t> shared;
  for (uint32_t j = 0; j < g.slice_size; ++j) {
    for (uint32_t v = 0; v < g.locations; ++v) {
      ASSERT_TRUE(shared.insert(shared_location_slot(g, it, j, v)).second);
    }
  }
  ASSERT_LT(*shared.rbegin(), g.slice_size * g.locations);
}

TEST(Layout, EveryInstanceGetsEveryRoleOnceWherePlacementSays) {
  const Placement placements[] = {Placement::Warps,         Placement::Shared,     Placement::Blocks,
                                  Placement::Cluster,       Placement::HostMemory, Placement::Devices,
                                  Placement::SubPartitions, Placement::SharedBanks};
  for (Placement p : placements) {
    for (uint32_t roles = 1; roles <= 4; ++roles) {
      for (uint32_t block_size : {128u, 256u, 384u}) {
        for (uint32_t blocks : {8u, 20u}) {
          for (uint32_t stress : {0u, 30u}) {
            for (uint64_t seed : {1ULL, 99ULL}) {
              check_layout({p, roles, 1 + roles % 3, block_size, blocks, stress}, seed);
              if (HasFatalFailure()) return;
            }
          }
        }
      }
    }
  }
}

TEST(Layout, HoldsAtTheSizeOfAnH100Launch) {
  check_layout({Placement::Blocks, 2, 2, 256, 132 * 8, 10}, 3);  // 1056 co-resident blocks of 256 threads
  check_layout({Placement::Cluster, 4, 2, 256, 132 * 8, 10}, 4);
}

TEST(Layout, ShufflesBlocksRolesAndLocationsBetweenIterations) {
  Geometry g;
  ASSERT_EQ(make_geometry({Placement::Blocks, 2, 2, 256, 40, 4, 10}, g), "");
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;  // (logical block of block 0, role of thread 0, slot)
  for (uint64_t seed = 0; seed < 32; ++seed) {
    const Iteration it = make_iteration(g, seed, 64);
    const Assignment a = assign(g, it, 0, 0, 0);
    seen.insert({a.logical_block, a.role, location_slot(g, it, 0, 0)});
  }
  EXPECT_GT(seen.size(), 16u) << "the same layout comes back too often";
}

TEST(Layout, RejectsWhatCannotBeLaidOut) {
  Geometry g;
  EXPECT_NE(make_geometry({Placement::Warps, 4, 2, 96, 8, 4, 0}, g), "") << "4 roles need 4 warps";
  EXPECT_NE(make_geometry({Placement::Blocks, 3, 2, 256, 2, 4, 0}, g), "") << "3 roles need 3 blocks";
  EXPECT_NE(make_geometry({Placement::Cluster, 4, 2, 256, 10, 4, 0}, g), "") << "blocks not a multiple of 4";
  EXPECT_NE(make_geometry({Placement::Cluster, 4, 2, 256, 8, 2, 0}, g), "") << "4 roles in clusters of 2";
  EXPECT_NE(make_geometry({Placement::SubPartitions, 2, 2, 320, 8, 4, 0}, g), "") << "320 threads: not whole quads";
}

TEST(Random, AffineMapsAreBijections) {
  Random random(7);
  for (uint32_t m : {1u, 2u, 3u, 12u, 97u, 1000u, 4096u}) {
    for (int trial = 0; trial < 20; ++trial) {
      const Affine f = random_affine(random, m);
      std::set<uint32_t> image;
      for (uint32_t x = 0; x < m; ++x) image.insert(f(x));
      EXPECT_EQ(image.size(), m);
      EXPECT_LT(*image.rbegin(), m);
    }
  }
}

const ShapeInfo* const kShapes[] = {&MP::info,   &GuideXY::info,     &SB::info,   &LB::info,   &S::info,
                                    &R::info,    &TwoPlusTwoW::info, &CoRR::info, &CoRW::info, &CoWR::info,
                                    &CoWW::info, &IRIW::info,        &WRC::info,  &ISA2::info};

TEST(Outcomes, ClassifyInvertsValuesOfEveryBin) {
  for (const ShapeInfo* shape : kShapes) {
    SCOPED_TRACE(shape->name);
    const Outcomes& o = shape->outcomes;
    ASSERT_LE(o.bins(), kMaxBins);
    std::set<std::string> names;
    for (uint32_t bin = 0; bin < o.value_bins(); ++bin) {
      int32_t value[kMaxObservables];
      o.values_of(bin, value);
      EXPECT_EQ(o.classify(value, true), bin);
      EXPECT_EQ(o.classify(value, false), o.incomplete_bin());
      names.insert(outcome_name(*shape, bin));
    }
    names.insert(outcome_name(*shape, o.other_bin()));
    names.insert(outcome_name(*shape, o.incomplete_bin()));
    EXPECT_EQ(names.size(), o.bins()) << "outcome names must be unique";
    EXPECT_LT(o.weak_bin(), o.value_bins()) << "the weak outcome must be one of the shape's values";
    EXPECT_FALSE(o.never(o.weak_bin())) << "the weak outcome must be allowed by some ordering";
    EXPECT_TRUE(o.never(o.other_bin()));
    EXPECT_TRUE(o.never(o.incomplete_bin()));
    int32_t garbage[kMaxObservables] = {12345, 12345, 12345, 12345};
    EXPECT_EQ(o.classify(garbage, true), o.other_bin());
    EXPECT_EQ(o.result_words(), o.registers + o.roles);
    for (uint32_t k = 0; k < o.observables; ++k) {
      if (o.observed[k].location < 0) {
        EXPECT_LT(o.observed[k].index, o.registers);
      } else {
        EXPECT_LT(static_cast<uint32_t>(o.observed[k].location), o.locations);
      }
    }
  }
}

TEST(Outcomes, NamesTheWeakOutcomeOfEachShape) {
  EXPECT_EQ(outcome_name(MP::info, MP::info.outcomes.weak_bin()), "r0:1,r1:0");
  EXPECT_EQ(outcome_name(GuideXY::info, GuideXY::info.outcomes.weak_bin()), "B:20,A:1");
  EXPECT_EQ(outcome_name(SB::info, SB::info.outcomes.weak_bin()), "r0:0,r1:0");
  EXPECT_EQ(outcome_name(S::info, S::info.outcomes.weak_bin()), "r0:1,x:2");
  EXPECT_EQ(outcome_name(IRIW::info, IRIW::info.outcomes.weak_bin()), "r0:1,r1:0,r2:1,r3:0");
  EXPECT_EQ(outcome_name(CoWW::info, CoWW::info.outcomes.weak_bin()), "x:1");
}

TEST(Outcomes, CoherenceNeverValuesAreNeverAllowed) {
  const int32_t own_later_store[] = {1, 2};  // CoRW: r0 == 1 reads the thread's own later store
  EXPECT_TRUE(CoRW::info.outcomes.never(CoRW::info.outcomes.classify(own_later_store, true)));
  const int32_t before_own_store[] = {0, 2};  // CoWR: r0 == 0 is older than the thread's own store
  EXPECT_TRUE(CoWR::info.outcomes.never(CoWR::info.outcomes.classify(before_own_store, true)));
  const int32_t fine[] = {2, 2};
  EXPECT_FALSE(CoWR::info.outcomes.never(CoWR::info.outcomes.classify(fine, true)));
}

// A case and a tally built by hand.
Case fake_case(const char* name, Expect expect, const char* sibling) {
  Case c;
  c.name = name;
  c.shape = &MP::info;
  c.expect = expect;
  c.sibling = sibling;
  c.source = "test";
  return c;
}

Tally tally(uint64_t weak, uint64_t other = 0, uint64_t incomplete = 0) {
  Tally t;
  const Outcomes& o = MP::info.outcomes;
  t.bins.assign(o.bins(), 0);
  t.bins[0] = 1000;
  t.bins[o.weak_bin()] = weak;
  t.bins[o.other_bin()] = other;
  t.bins[o.incomplete_bin()] = incomplete;
  for (uint64_t n : t.bins) t.instances += n;
  t.gpu_ms = 10;
  return t;
}

TEST(Verdict, ForbiddenOutcomeSeenFails) {
  const Case test = fake_case("T", Expect::Forbidden, "S"), sibling = fake_case("S", Expect::Allowed, "");
  const Tally t = tally(1), s = tally(50);
  const Verdict v = judge(test, t, &sibling, &s);
  EXPECT_EQ(v.kind, Verdict::Kind::Fail);
  EXPECT_NE(v.message.find("r0:1,r1:0"), std::string::npos) << v.message;
}

TEST(Verdict, SilentSiblingMakesForbiddenTestInconclusive) {
  const Case test = fake_case("T", Expect::Forbidden, "S"), sibling = fake_case("S", Expect::Allowed, "");
  const Tally t = tally(0), s = tally(0);
  const Verdict v = judge(test, t, &sibling, &s);
  EXPECT_EQ(v.kind, Verdict::Kind::Inconclusive);
  EXPECT_EQ(v.message, "inconclusive: sibling S saw 0 weak outcomes (r0:1,r1:0) in 1000 instances");
}

TEST(Verdict, SilentSiblingInOneBlockIsNotObservableOnThisGpu) {
  for (Placement p : {Placement::Warps, Placement::Shared, Placement::SubPartitions, Placement::SharedBanks}) {
    Case test = fake_case("T", Expect::Forbidden, "S"), sibling = fake_case("S", Expect::Allowed, "");
    test.placement = sibling.placement = p;
    const Tally t = tally(0), s = tally(0);
    const Verdict v = judge(test, t, &sibling, &s);
    EXPECT_EQ(v.kind, Verdict::Kind::Inconclusive) << name_of(p);
    EXPECT_EQ(v.message.rfind("not observable on this GPU: 0 weak outcomes (r0:1,r1:0) in 1000 instances of the "
                              "unfenced sibling S (placement " +
                                  std::string(name_of(p)) + ": ",
                              0),
              0u)
        << v.message;
  }
}

TEST(Verdict, ForbiddenTestPassesOnlyWhenSiblingSawWeakOutcomes) {
  const Case test = fake_case("T", Expect::Forbidden, "S"), sibling = fake_case("S", Expect::Allowed, "");
  const Tally t = tally(0), s = tally(3);
  EXPECT_EQ(judge(test, t, &sibling, &s).kind, Verdict::Kind::Pass);
  EXPECT_EQ(judge(test, t, nullptr, nullptr).kind, Verdict::Kind::Fail) << "a forbidden test without its sibling";
}

TEST(Verdict, AllowedTestFailsOnlyOnNeverAllowedOutcomes) {
  const Case test = fake_case("T", Expect::Allowed, "");
  EXPECT_EQ(judge(test, tally(500), nullptr, nullptr).kind, Verdict::Kind::Pass);
  EXPECT_EQ(judge(test, tally(0, 1), nullptr, nullptr).kind, Verdict::Kind::Fail) << "a value no thread wrote";
  EXPECT_EQ(judge(test, tally(0, 0, 1), nullptr, nullptr).kind, Verdict::Kind::Fail) << "a role that never ran";
  Tally lost = tally(0);
  lost.instances += 1;
  EXPECT_EQ(judge(test, lost, nullptr, nullptr).kind, Verdict::Kind::Fail) << "instances lost by classification";
}

TEST(Verdict, BarrierTimeoutsOnTheGpuAreAnEngineError) {
  Case test = fake_case("T", Expect::Forbidden, "S"), sibling = fake_case("S", Expect::Allowed, "");
  Tally t = tally(0), s = tally(10);
  s.barrier_timeouts = 1;
  const Verdict v = judge(test, t, &sibling, &s);
  EXPECT_EQ(v.kind, Verdict::Kind::Fail);
  EXPECT_NE(v.message.find("spin barrier"), std::string::npos) << v.message;
  test.placement = sibling.placement = Placement::HostThread;
  EXPECT_EQ(judge(test, t, &sibling, &s).kind, Verdict::Kind::Pass) << "a host partner may be descheduled";
}

TEST(Verdict, SiblingsNeverAllowedOutcomesFailTheTest) {
  const Case test = fake_case("T", Expect::Forbidden, "S"), sibling = fake_case("S", Expect::Allowed, "");
  const Tally t = tally(0), s = tally(10, 1);
  EXPECT_EQ(judge(test, t, &sibling, &s).kind, Verdict::Kind::Fail);
}

TEST(Verdict, HistogramTableShowsCaseAndSiblingSideBySide) {
  const Case test = fake_case("MPBlocksThreadfence", Expect::Forbidden, "MPBlocksRelaxed");
  const Case sibling = fake_case("MPBlocksRelaxed", Expect::Allowed, "");
  const Tally t = tally(0), s = tally(42, 0, 0);
  const std::string table = histogram_table(test, t, &sibling, &s);
  std::printf("%s", table.c_str());
  EXPECT_NE(table.find("MPBlocksThreadfence"), std::string::npos);
  EXPECT_NE(table.find("MPBlocksRelaxed"), std::string::npos);
  EXPECT_NE(table.find("r0:1,r1:0 (weak)"), std::string::npos);
  EXPECT_NE(table.find("42"), std::string::npos);
  const Case corr = [] {
    Case c = fake_case("CoRRBlocksRelaxed", Expect::Forbidden, "MPBlocksRelaxed");
    c.shape = &CoRR::info;
    return c;
  }();
  Tally corr_tally;
  corr_tally.bins.assign(CoRR::info.outcomes.bins(), 0);
  corr_tally.bins[0] = corr_tally.instances = 7;
  const std::string mixed = histogram_table(corr, corr_tally, &sibling, &s);
  std::printf("%s", mixed.c_str());
  EXPECT_NE(mixed.find("CoRR r0:1,r1:0 (weak)"), std::string::npos);
  EXPECT_NE(mixed.find("MP r0:1,r1:0 (weak)"), std::string::npos);
}

TEST(Config, OverridesApplyAndRoundTrip) {
  Config c = profile_config(false);
  ASSERT_EQ(apply_overrides(c, "iterations=7,budget_ms=250,stress=0,blocks_per_sm=3,seed=42,instances=10000000000,"
                               "bank_stress=0"),
            "");
  EXPECT_EQ(c.instances, 10000000000u);
  EXPECT_FALSE(c.bank_stress);
  EXPECT_EQ(c.max_iterations, 7u);
  EXPECT_EQ(c.budget_ms, 250);
  EXPECT_FALSE(c.stress);
  EXPECT_EQ(c.blocks_per_sm, 3u);
  EXPECT_EQ(c.seed, 42u);
  Config again = profile_config(true);
  ASSERT_EQ(apply_overrides(again, describe(c)), "");
  EXPECT_EQ(describe(again), describe(c));
}

TEST(Config, RejectsMalformedOverrides) {
  Config c = profile_config(false);
  EXPECT_NE(apply_overrides(c, "bogus=1"), "");
  EXPECT_NE(apply_overrides(c, "stress=2"), "");
  EXPECT_NE(apply_overrides(c, "iterations"), "");
  EXPECT_NE(apply_overrides(c, "iterations=-1"), "");
  EXPECT_NE(apply_overrides(c, "block_size=64"), "");
  EXPECT_NE(apply_overrides(c, "stress_lines=4,stress_target_lines=8"), "");
  EXPECT_EQ(apply_overrides(c, ""), "");
}

TEST(Config, QuickProfileIsShorterThanFull) {
  EXPECT_LT(profile_config(false).budget_ms, profile_config(true).budget_ms);
}

// The HostThread rounds with both sides on host threads (the host counterparts of the orderings): every instance
// completes and is classified; store buffering with seq_cst fences never shows its weak outcome (x86-TSO and C++
// both forbid it), without fences it may.
template <class O>
std::vector<uint64_t> store_buffering_on_host_threads(uint64_t seed) {
  constexpr uint32_t kPairs = 1, kRounds = 4000;
  const Outcomes& o = SB::info.outcomes;
  std::vector<int32_t> memory(kPairs * kRounds * o.locations * 8), results(kPairs * kRounds * o.result_words());
  std::vector<uint32_t> flags(2 * kPairs * kRounds), gpu_timeouts(kPairs);
  HostPairArgs h;
  h.pairs = kPairs;
  h.rounds = kRounds;
  h.instances = kPairs * kRounds;
  h.locations = o.locations;
  h.memory = memory.data();
  h.stride = 8;
  h.results = results.data();
  h.result_words = o.result_words();
  h.registers = o.registers;
  h.flags = flags.data();
  h.gpu_timeouts = gpu_timeouts.data();
  h.spin_limit = 1u << 26;
  reset_pairs(o, h, seed);
  std::vector<std::thread> threads;
  for (uint32_t p = 0; p < kPairs; ++p) {
    for (uint32_t role = 0; role < 2; ++role) {
      threads.emplace_back([&h, p, role] {
        EXPECT_EQ((partner_rounds<SB, typename HostOf<O>::type>(h, p, role)), 0u) << "barrier timeouts";
      });
    }
  }
  for (std::thread& t : threads) t.join();
  std::vector<uint64_t> bins(kMaxBins, 0);
  classify_pairs(o, h, bins);
  return bins;
}

TEST(HostThreadRounds, CompleteAndClassifyEveryInstance) {
  const Outcomes& o = SB::info.outcomes;
  const std::vector<uint64_t> relaxed = store_buffering_on_host_threads<Relaxed>(5);
  const std::vector<uint64_t> fenced = store_buffering_on_host_threads<Fenced<RelaxedAccess, ThreadfenceSystem>>(6);
  for (const auto* bins : {&relaxed, &fenced}) {
    uint64_t total = 0;
    for (uint64_t n : *bins) total += n;
    EXPECT_EQ(total, 4000u);
    EXPECT_EQ((*bins)[o.incomplete_bin()], 0u);
    EXPECT_EQ((*bins)[o.other_bin()], 0u);
  }
  EXPECT_EQ(fenced[o.weak_bin()], 0u) << "store buffering with seq_cst fences on both host threads";
  std::printf("store buffering on two host threads: %llu weak of 4000 relaxed, %llu weak of 4000 fenced\n",
              static_cast<unsigned long long>(relaxed[o.weak_bin()]),
              static_cast<unsigned long long>(fenced[o.weak_bin()]));
}

TEST(CaseTable, ForbiddenCasesHaveAnAllowedSiblingAtTheirPlacement) {
  EXPECT_TRUE(duplicate_cases().empty());
  const auto cases = all_cases();
  ASSERT_GT(cases.size(), 100u);
  for (const Case* c : cases) {
    SCOPED_TRACE(c->name);
    ASSERT_NE(c->shape, nullptr);
    EXPECT_FALSE(c->rule.empty());
    EXPECT_FALSE(c->source.empty());
    EXPECT_EQ(c->name.find('_'), std::string::npos) << "GoogleTest names have no underscores";
    if (c->expect == Expect::Allowed) {
      EXPECT_TRUE(c->sibling.empty());
      continue;
    }
    const Case* sibling = find_case(c->sibling);
    ASSERT_NE(sibling, nullptr) << "sibling " << c->sibling;
    EXPECT_EQ(sibling->expect, Expect::Allowed);
    EXPECT_EQ(sibling->placement, c->placement);
    EXPECT_EQ(sibling->shape->outcomes.roles <= kMaxRoles, true);
  }
}

TEST(CaseTable, EveryShapeAndPlacementIsCovered) {
  std::set<std::string> shapes;
  std::set<Placement> placements;
  for (const Case* c : all_cases()) {
    shapes.insert(c->shape->name);
    placements.insert(c->placement);
  }
  EXPECT_EQ(shapes.size(), std::size(kShapes));
  EXPECT_EQ(placements.size(), 9u);
}

TEST(CaseTable, EveryCaseHasALaunchableGeometry) {
  const Config config = profile_config(false);
  for (const Case* c : all_cases()) {
    Geometry g;
    GeometryRequest request{c->placement, c->shape->outcomes.roles, c->shape->outcomes.locations, config.block_size,
                            132 * 8,      config.cluster_size,      config.stress_percent};
    EXPECT_EQ(make_geometry(request, g), "") << c->name;
  }
}

// What the fence-code rule (fence_code.cpp) reads: cuobjdump's SASS listing.
TEST(DeviceCode, ParsesSassAndFindsBlockScopeFences) {
  const std::string listing =
      "\tcode for sm_90\n"
      "\t\tFunction : _Z2wrPiS_S_\n"
      "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
      "        /*0110*/                   ST.E.STRONG.GPU desc[UR4][R2.64], R7 ;    /* 0x0000000702007985 */\n"
      "        /*0120*/                   MEMBAR.SC.CTA ;                           /* 0x0000000000007992 */\n"
      "        /*0130*/              @!P0 MEMBAR.ALL.GPU ;                          /* 0x0000000000007992 */\n"
      "        /*0140*/                   EXIT ;                                    /* 0x000000000000794d */\n"
      "\t\tFunction : _Z5plainPi\n"
      "        /*0000*/                   LD.E.STRONG.GPU R5, desc[UR4][R4.64] ;    /* 0x0000000404057980 */\n";
  DeviceCode code;
  parse_sass(listing, code);
  ASSERT_EQ(code.functions.size(), 2u);
  const auto& fenced = code.functions.at("_Z2wrPiS_S_");
  ASSERT_EQ(fenced.size(), 1u);
  ASSERT_EQ(fenced[0].size(), 4u);
  EXPECT_EQ(fenced[0][1], "MEMBAR.SC.CTA");
  EXPECT_EQ(block_scope_fences(fenced[0]), (std::vector<std::string>{"MEMBAR.SC.CTA", "@!P0 MEMBAR.ALL.GPU"}));
  EXPECT_TRUE(block_scope_fences(code.functions.at("_Z5plainPi")[0]).empty());
  EXPECT_EQ(find_function(code, "_Z5plainPi"), &code.functions.at("_Z5plainPi"));
  EXPECT_EQ(find_function(code, "wr(int*, int*, int*)"), &code.functions.at("_Z2wrPiS_S_")) << "by demangled name";
  EXPECT_EQ(find_function(code, "nothing"), nullptr);
}

// With a cuobjdump at hand, the self-check's own kernels (it links the engine and every case) are read back: the
// fenced kernels have a block-scope MEMBAR, the relaxed ones none.
TEST(DeviceCode, ReadsThisExecutable) {
  if (find_cuobjdump().empty()) GTEST_SKIP() << "no cuobjdump (set CUCONFORM_CUOBJDUMP)";
  const DeviceCode code = read_device_code("/proc/self/exe");
  if (code.error.rfind("no SASS", 0) == 0) GTEST_SKIP() << code.error;  // a PTX-only build (the sm80-ptx preset)
  ASSERT_EQ(code.error, "");
  std::printf("%zu functions in %zu fatbins, read by %s\n", code.functions.size(), code.fatbins, code.tool.c_str());
  size_t fenced = 0, relaxed = 0;
  for (const auto& [name, variants] : code.functions) {
    if (name.find("litmus_test") == std::string::npos) continue;
    const bool block_fence = name.find("16ThreadfenceBlock") != std::string::npos;
    const bool no_fence =
        name.find("7NoFence") != std::string::npos && name.find("13RelaxedAccess") != std::string::npos;
    for (const auto& variant : variants) {
      if (block_fence) EXPECT_FALSE(block_scope_fences(variant).empty()) << name;
      if (no_fence) EXPECT_TRUE(block_scope_fences(variant).empty()) << name;
    }
    fenced += block_fence;
    relaxed += no_fence;
  }
  EXPECT_GT(fenced, 0u);
  EXPECT_GT(relaxed, 0u);
}

}  // namespace
}  // namespace litmus
