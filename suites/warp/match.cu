// 5.4.6.3 Warp Match Functions: __match_any_sync, __match_all_sync (and its pred), for every T the guide lists:
// int, unsigned, long, unsigned long, long long, unsigned long long, float, double.
// Values are compared bitwise: the patterns include values that differ only in the sign bit or only in the upper
// half of a 64-bit value, +0.0 and -0.0 (equal as numbers, different bits) and NaNs with the same bits (unequal as
// numbers, same bits). Every caller's results are checked for every participation in warp_setup.h.
#include <cuconform/cuconform.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "warp_setup.h"

namespace {

using warp_test::LaneCheck;
using warp_test::Participation;

template <class T>
__global__ void match(const unsigned* masks, const T* values, unsigned patterns, unsigned* any, unsigned* all,
                      int* pred) {
  const unsigned t = threadIdx.x;
  const unsigned mask = masks[t];
  if (mask == 0) return;
  for (unsigned p = 0; p < patterns; ++p) {
    const unsigned i = p * blockDim.x + t;
    const T value = values[i];
    any[i] = __match_any_sync(mask, value);
    int all_equal = -1;  // left as -1 if the call does not set it
    all[i] = __match_all_sync(mask, value, &all_equal);
    pred[i] = all_equal;
  }
}

// The bits each thread passes, as a 64-bit pattern of which a `bits`-wide T takes the low `bits` bits.
struct ValuePattern {
  const char* name;
  std::uint64_t (*bits)(const Participation& p, unsigned t, unsigned width);
};

constexpr std::uint64_t kSame = 0x3FF1C0DE5EED1234ull;
std::uint64_t sign_bit(unsigned width) { return std::uint64_t{1} << (width - 1); }
std::uint64_t quiet_nan(unsigned width) { return width == 32 ? 0x7FC00000u : 0x7FF8000000000000ull; }
// The highest lane of a mask; ~0u for 0 (a thread that does not call).
unsigned highest_lane(unsigned mask) { return mask ? 31u - static_cast<unsigned>(__builtin_clz(mask)) : ~0u; }

const ValuePattern kPatterns[] = {
    {"AllEqual", [](const Participation&, unsigned, unsigned) { return kSame; }},
    {"AllDistinct", [](const Participation&, unsigned t, unsigned) { return warp_test::mix(t); }},
    {"ThreeGroups", [](const Participation&, unsigned t, unsigned) { return kSame + t % 3; }},
    {"AllEqualButHighestCaller",
     [](const Participation& p, unsigned t, unsigned) {
       return kSame ^ std::uint64_t(warp_test::lane_of(t) == highest_lane(p.callers_in_mask(t)));
     }},
    {"DifferOnlyInSignBit",
     [](const Participation&, unsigned t, unsigned width) { return kSame ^ (t % 2 ? sign_bit(width) : 0); }},
    {"DifferOnlyInUpperHalf", [](const Participation&, unsigned t,
                                 unsigned width) { return kSame ^ (t % 2 ? std::uint64_t{1} << (width / 2) : 0); }},
    // As float or double: +0.0 and -0.0.
    {"PlusAndMinusZero", [](const Participation&, unsigned t, unsigned width) { return t % 2 ? sign_bit(width) : 0; }},
    // As float or double: the same NaN everywhere, and NaNs with three payloads.
    {"IdenticalNaNs", [](const Participation&, unsigned, unsigned width) { return quiet_nan(width) | 5; }},
    {"NaNsOfThreePayloads",
     [](const Participation&, unsigned t, unsigned width) { return quiet_nan(width) | (1 + t % 3); }},
};
constexpr unsigned kPatternCount = sizeof(kPatterns) / sizeof(kPatterns[0]);

// One participation's launch: the values each thread passed (as bits) and what each caller got.
struct MatchRun {
  const Participation* p;
  std::vector<std::uint64_t> bits;  // [pattern * threads + t]
  std::vector<unsigned> any, all;
  std::vector<int> pred;

  std::string where(unsigned pattern, unsigned t) const {
    return p->name + ", values " + kPatterns[pattern].name + ", thread " + std::to_string(t) + " (mask " +
           LaneCheck::hex(p->masks[t]) + ")";
  }
  // The lanes taking part in thread t's call that passed the same bits as t.
  unsigned same_value_callers(unsigned pattern, unsigned t) const {
    const unsigned callers = p->callers_in_mask(t);
    unsigned same = 0;
    for (unsigned lane = 0; lane < warp_test::kLanes; ++lane) {
      const unsigned other = warp_test::warp_base(t) + lane;
      if (warp_test::has_lane(callers, lane) && bits[pattern * p->threads + other] == bits[pattern * p->threads + t]) {
        same |= 1u << lane;
      }
    }
    return same;
  }
  bool all_callers_equal(unsigned pattern, unsigned t) const {
    return same_value_callers(pattern, t) == p->callers_in_mask(t);
  }
};

template <class T>
MatchRun run_match(const Participation& p) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  constexpr unsigned width = 8 * sizeof(T);
  MatchRun run{&warp_test::valid(p), std::vector<std::uint64_t>(kPatternCount * p.threads), {}, {}, {}};
  std::vector<T> values(run.bits.size());
  for (unsigned pattern = 0; pattern < kPatternCount; ++pattern) {
    for (unsigned t = 0; t < p.threads; ++t) {
      std::uint64_t bits = kPatterns[pattern].bits(p, t, width);
      if (width == 32) bits &= 0xFFFFFFFFu;
      run.bits[pattern * p.threads + t] = bits;
      std::memcpy(&values[pattern * p.threads + t], &bits, sizeof(T));  // little-endian: the low bytes
    }
  }
  cuconform::DeviceBuffer<unsigned> masks(p.masks);
  cuconform::DeviceBuffer<T> device_values(values);
  cuconform::DeviceBuffer<unsigned> any(values.size()), all(values.size());
  cuconform::DeviceBuffer<int> pred(values.size());
  cuconform::launch(match<T>, 1, p.threads, masks.get(), device_values.get(), kPatternCount, any.get(), all.get(),
                    pred.get());
  run.any = any.to_host();
  run.all = all.to_host();
  run.pred = pred.to_host();
  return run;
}

struct MatchType {
  const char* name;
  MatchRun (*run)(const Participation&);
};

void PrintTo(const MatchType& type, std::ostream* out) { *out << type.name; }

class MatchTest : public warp_test::WarpTestWithParam<MatchType> {
 protected:
  // Calls check(run, pattern, t, index) for every call, in every participation that `include` accepts.
  template <class Include, class Check>
  void for_each_call(Include include, Check check) {
    for (const Participation& p : warp_test::all_participations()) {
      if (!include(p)) continue;
      const MatchRun run = GetParam().run(p);
      for (unsigned pattern = 0; pattern < kPatternCount; ++pattern) {
        for (unsigned t = 0; t < p.threads; ++t) {
          if (p.calls(t)) check(run, pattern, t, pattern * p.threads + t);
        }
      }
    }
  }
  static bool every(const Participation&) { return true; }
};

class MatchAnySync : public MatchTest {};
class MatchAllSync : public MatchTest {};

RULE_P(MatchAnySync, ReturnsTheNamedNonExitedLanesHoldingTheSameBitwiseValue, "5.4.6.3",
       "__match_any_sync(mask, value) returns the mask of non-exited threads in mask that have the same bitwise "
       "value as the caller") {
  LaneCheck check;
  for_each_call(every, [&](const MatchRun& run, unsigned pattern, unsigned t, unsigned i) {
    check.expect_equal(run.any[i], run.same_value_callers(pattern, t), [&] { return run.where(pattern, t); });
  });
  EXPECT_TRUE(check.result());
}

RULE_P(MatchAllSync, ReturnsMaskIffAllNamedNonExitedLanesHoldTheSameBitwiseValue, "5.4.6.3",
       "__match_all_sync(mask, value, pred) returns mask if all non-exited threads in mask have the same bitwise "
       "value; otherwise 0") {
  LaneCheck check;
  auto no_exited_lanes_named = [](const Participation& p) { return !p.names_exited_lanes(); };
  for_each_call(no_exited_lanes_named, [&](const MatchRun& run, unsigned pattern, unsigned t, unsigned i) {
    const unsigned expected = run.all_callers_equal(pattern, t) ? run.p->masks[t] : 0u;
    check.expect_equal(run.all[i], expected, [&] { return run.where(pattern, t); });
  });
  EXPECT_TRUE(check.result());
}

// Kept apart from the rule above: the guide says "returns mask", the PTX ISA (match.sync) says the mask of the
// non-exited threads in membermask. They differ exactly when mask names exited threads, which 5.4.6.6 allows
// ("Exited threads are ignored"; its valid example returns lane 0 and calls with 0xFFFFFFFF): not undefined
// behaviour. A finding on H100 (FINDINGS.md).
RULE_P(MatchAllSync, ReturnsMaskAsPassedWhenItNamesExitedThreads, "5.4.6.3",
       "__match_all_sync returns mask itself (with the bits of the exited threads it names) when all non-exited "
       "threads in mask have the same bitwise value; otherwise 0") {
  LaneCheck check;
  auto exited_lanes_named = [](const Participation& p) { return p.names_exited_lanes(); };
  for_each_call(exited_lanes_named, [&](const MatchRun& run, unsigned pattern, unsigned t, unsigned i) {
    const unsigned expected = run.all_callers_equal(pattern, t) ? run.p->masks[t] : 0u;
    check.expect_equal(run.all[i], expected, [&] { return run.where(pattern, t); });
  });
  EXPECT_TRUE(check.result());
}

RULE_P(MatchAllSync, SetsPredTrueIffAllNamedNonExitedLanesHoldTheSameBitwiseValue, "5.4.6.3",
       "__match_all_sync sets *pred to true if all non-exited threads in mask have the same bitwise value; "
       "otherwise to false") {
  LaneCheck check;
  for_each_call(every, [&](const MatchRun& run, unsigned pattern, unsigned t, unsigned i) {
    check.expect_equal(static_cast<std::uint32_t>(run.pred[i]), run.all_callers_equal(pattern, t) ? 1u : 0u,
                       [&] { return run.where(pattern, t); });
  });
  EXPECT_TRUE(check.result());
}

const MatchType kTypes[] = {
    {"Int", run_match<int>},
    {"Unsigned", run_match<unsigned>},
    {"Long", run_match<long>},
    {"UnsignedLong", run_match<unsigned long>},
    {"LongLong", run_match<long long>},
    {"UnsignedLongLong", run_match<unsigned long long>},
    {"Float", run_match<float>},
    {"Double", run_match<double>},
};

struct TypeName {
  std::string operator()(const ::testing::TestParamInfo<MatchType>& info) const { return info.param.name; }
};

INSTANTIATE_TEST_SUITE_P(Types, MatchAnySync, ::testing::ValuesIn(kTypes), TypeName());
INSTANTIATE_TEST_SUITE_P(Types, MatchAllSync, ::testing::ValuesIn(kTypes), TypeName());

}  // namespace
