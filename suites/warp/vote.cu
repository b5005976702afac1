// 5.4.6.2 Warp Vote Functions: __all_sync, __any_sync, __ballot_sync.
// Every caller's result is checked against a host model, for every participation in warp_setup.h (complete, partial
// and last partial warps, disjoint masks called concurrently, masks naming exited threads) and for predicates that
// hold for no lane, every lane, one lane, all but one, and non-zero values other than 1.
#include <cuconform/cuconform.h>

#include <climits>
#include <string>
#include <vector>

#include "warp_setup.h"

namespace {

using warp_test::LaneCheck;
using warp_test::Participation;

enum class Vote { All, Any, Ballot };

__global__ void vote(Vote kind, const unsigned* masks, const int* predicates, unsigned patterns, unsigned* results) {
  const unsigned t = threadIdx.x;
  const unsigned mask = masks[t];
  if (mask == 0) return;
  for (unsigned p = 0; p < patterns; ++p) {
    const int predicate = predicates[p * blockDim.x + t];
    unsigned result = 0;
    switch (kind) {
      case Vote::All: result = static_cast<unsigned>(__all_sync(mask, predicate)); break;
      case Vote::Any: result = static_cast<unsigned>(__any_sync(mask, predicate)); break;
      case Vote::Ballot: result = __ballot_sync(mask, predicate); break;
    }
    results[p * blockDim.x + t] = result;
  }
}

// The predicates each thread passes: one row of `threads` values per pattern.
struct PredicatePattern {
  const char* name;
  int (*value)(const Participation& p, unsigned t);
};

// The lowest and highest lanes of a mask; kNoLane for 0 (a thread that does not call).
constexpr unsigned kNoLane = ~0u;
unsigned lowest_lane(unsigned mask) { return mask ? static_cast<unsigned>(__builtin_ctz(mask)) : kNoLane; }
unsigned highest_lane(unsigned mask) { return mask ? 31u - static_cast<unsigned>(__builtin_clz(mask)) : kNoLane; }

const PredicatePattern kPatterns[] = {
    {"None", [](const Participation&, unsigned) { return 0; }},
    {"All", [](const Participation&, unsigned) { return 1; }},
    {"EvenLanes", [](const Participation&, unsigned t) { return int(t % 2 == 0); }},
    {"OnlyHighestCaller", [](const Participation& p,
                             unsigned t) { return int(warp_test::lane_of(t) == highest_lane(p.callers_in_mask(t))); }},
    {"AllButLowestCaller", [](const Participation& p,
                              unsigned t) { return int(warp_test::lane_of(t) != lowest_lane(p.callers_in_mask(t))); }},
    // Predicates are compared with zero: INT_MIN, -1, 2 and 256 all count as true.
    {"NonZeroOtherThanOne",
     [](const Participation&, unsigned t) {
       const int values[] = {INT_MIN, 0, -1, 2, 0, 256};
       return values[t % 6];
     }},
    {"Scattered",
     [](const Participation&, unsigned t) {
       const auto bits = warp_test::mix(t);
       return (bits & 1) ? static_cast<int>(bits >> 32) | 1 : 0;
     }},
};
constexpr unsigned kPatternCount = sizeof(kPatterns) / sizeof(kPatterns[0]);

// One launch of a vote over every predicate pattern, with what each caller got.
class VoteRun {
 public:
  VoteRun(Vote kind, const Participation& p) : p_(warp_test::valid(p)), predicates_(kPatternCount * p.threads) {
    for (unsigned pattern = 0; pattern < kPatternCount; ++pattern) {
      for (unsigned t = 0; t < p.threads; ++t) predicates_[pattern * p.threads + t] = kPatterns[pattern].value(p, t);
    }
    cuconform::DeviceBuffer<unsigned> masks(p.masks);
    cuconform::DeviceBuffer<int> predicates(predicates_);
    cuconform::DeviceBuffer<unsigned> results(predicates_.size());
    cuconform::launch(vote, 1, p.threads, kind, masks.get(), predicates.get(), kPatternCount, results.get());
    results_ = results.to_host();
  }

  // Calls check(callers, holds, actual, where) for every call: `callers` are the lanes taking part in it, `holds` those
  // of them whose predicate is non-zero.
  template <class Check>
  void for_each_call(Check check) const {
    for (unsigned pattern = 0; pattern < kPatternCount; ++pattern) {
      for (unsigned t = 0; t < p_.threads; ++t) {
        if (!p_.calls(t)) continue;
        const unsigned callers = p_.callers_in_mask(t);
        unsigned holds = 0;
        for (unsigned lane = 0; lane < warp_test::kLanes; ++lane) {
          if (warp_test::has_lane(callers, lane) && predicate(pattern, warp_test::warp_base(t) + lane) != 0) {
            holds |= 1u << lane;
          }
        }
        auto where = [this, pattern, t] {
          return std::string("predicates ") + kPatterns[pattern].name + ", thread " + std::to_string(t) + " (mask " +
                 LaneCheck::hex(p_.masks[t]) + ")";
        };
        check(callers, holds, results_[pattern * p_.threads + t], where);
      }
    }
  }

 private:
  int predicate(unsigned pattern, unsigned t) const { return predicates_[pattern * p_.threads + t]; }

  const Participation& p_;
  std::vector<int> predicates_;
  std::vector<unsigned> results_;
};

class AllSync : public warp_test::WarpTestWithParam<Participation> {};
class AnySync : public warp_test::WarpTestWithParam<Participation> {};
class BallotSync : public warp_test::WarpTestWithParam<Participation> {};

RULE_P(AllSync, NonZeroIffPredicateHoldsForEveryNamedNonExitedThread, "5.4.6.2",
       "__all_sync(mask, predicate) returns non-zero, to every caller, iff predicate is non-zero for all non-exited "
       "threads in mask") {
  LaneCheck check;
  VoteRun(Vote::All, GetParam()).for_each_call([&](unsigned callers, unsigned holds, unsigned actual, auto where) {
    check.expect_truth(actual, holds == callers, where);
  });
  EXPECT_TRUE(check.result());
}

RULE_P(AnySync, NonZeroIffPredicateHoldsForSomeNamedNonExitedThread, "5.4.6.2",
       "__any_sync(mask, predicate) returns non-zero, to every caller, iff predicate is non-zero for one or more "
       "non-exited threads in mask") {
  LaneCheck check;
  VoteRun(Vote::Any, GetParam()).for_each_call([&](unsigned, unsigned holds, unsigned actual, auto where) {
    check.expect_truth(actual, holds != 0, where);
  });
  EXPECT_TRUE(check.result());
}

RULE_P(BallotSync, SetsBitNIffLaneNIsActiveAndItsPredicateNonZero, "5.4.6.2",
       "__ballot_sync(mask, predicate) returns, to every caller, a mask whose Nth bit is set iff thread N of the warp "
       "takes part in the call and its predicate is non-zero; lanes outside mask and exited lanes give 0 bits") {
  LaneCheck check;
  VoteRun(Vote::Ballot, GetParam()).for_each_call([&](unsigned, unsigned holds, unsigned actual, auto where) {
    check.expect_equal(actual, holds, where);
  });
  EXPECT_TRUE(check.result());
}

INSTANTIATE_TEST_SUITE_P(Participations, AllSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());
INSTANTIATE_TEST_SUITE_P(Participations, AnySync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());
INSTANTIATE_TEST_SUITE_P(Participations, BallotSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());

}  // namespace
