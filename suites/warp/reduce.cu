// 5.4.6.4 Warp Reduce Functions (compute capability 8.x or higher): __reduce_add/min/max_sync for unsigned and int,
// __reduce_and/or/xor_sync for unsigned. Every caller's result is checked against a host fold over the non-exited
// threads named in its mask, for every participation in warp_setup.h. The values make the documented corners
// visible: unsigned sums that wrap, values with the top bit set (the smallest ints, the largest unsigneds), one bit
// per lane for the bitwise reductions.
#include <cuconform/cuconform.h>

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "warp_setup.h"

namespace {

using warp_test::LaneCheck;
using warp_test::Participation;

enum class Reduce { Add, Min, Max, And, Or, Xor };

const char* name_of(Reduce op) {
  switch (op) {
    case Reduce::Add: return "add";
    case Reduce::Min: return "min";
    case Reduce::Max: return "max";
    case Reduce::And: return "and";
    case Reduce::Or: return "or";
    case Reduce::Xor: return "xor";
  }
  return "?";
}

template <class T>
__global__ void reduce(Reduce op, const unsigned* masks, const T* values, unsigned patterns, T* results) {
  const unsigned t = threadIdx.x;
  const unsigned mask = masks[t];
  if (mask == 0) return;
  for (unsigned p = 0; p < patterns; ++p) {
    const unsigned i = p * blockDim.x + t;
    const T value = values[i];
    T result = 0;
    switch (op) {
      case Reduce::Add: result = __reduce_add_sync(mask, value); break;
      case Reduce::Min: result = __reduce_min_sync(mask, value); break;
      case Reduce::Max: result = __reduce_max_sync(mask, value); break;
      case Reduce::And:
        if constexpr (std::is_same_v<T, unsigned>) result = __reduce_and_sync(mask, value);
        break;
      case Reduce::Or:
        if constexpr (std::is_same_v<T, unsigned>) result = __reduce_or_sync(mask, value);
        break;
      case Reduce::Xor:
        if constexpr (std::is_same_v<T, unsigned>) result = __reduce_xor_sync(mask, value);
        break;
    }
    results[i] = result;
  }
}

// The value (as 32 bits) each thread passes.
struct ValuePattern {
  const char* name;
  std::uint32_t (*bits)(unsigned t);
};

std::uint32_t low_bits(unsigned t) { return static_cast<std::uint32_t>(warp_test::mix(t)); }

const ValuePattern kSmall{"Small", [](unsigned t) { return std::uint32_t(t + 1); }};
const ValuePattern kAllEqual{"AllEqual", [](unsigned) { return std::uint32_t(0x5EED1234); }};
const ValuePattern kAllEqualNegative{"AllEqualNegative", [](unsigned) { return std::uint32_t(-12345); }};
const ValuePattern kRandom{"Random", low_bits};
// Sums of these wrap around 2^32.
const ValuePattern kNearUnsignedMax{"NearUnsignedMax", [](unsigned t) { return 0xFFFFFFF0u + t % 16; }};
// The top bit set on every other thread: the largest unsigned values, the smallest ints.
const ValuePattern kTopBitAlternating{"TopBitAlternating",
                                      [](unsigned t) { return (t % 2 ? 0x80000000u : 0u) | (low_bits(t) >> 8); }};
const ValuePattern kIntExtremes{"IntExtremes", [](unsigned t) {
                                  const std::uint32_t values[] = {0x80000000u, 0x7FFFFFFFu, 0u, 0xFFFFFFFFu, 1u};
                                  return values[t % 5];
                                }};
// Ints of both signs whose sum cannot overflow.
const ValuePattern kSmallBothSigns{"SmallBothSigns",
                                   [](unsigned t) { return std::uint32_t(int(low_bits(t) % (1u << 21)) - (1 << 20)); }};
const ValuePattern kNegative{"Negative", [](unsigned t) { return std::uint32_t(-int(t + 1) * 1000); }};
const ValuePattern kOneBitPerLane{"OneBitPerLane", [](unsigned t) { return 1u << (t % 32); }};
const ValuePattern kAllButOneBitPerLane{"AllButOneBitPerLane", [](unsigned t) { return ~(1u << (t % 32)); }};

using Patterns = std::vector<ValuePattern>;
const Patterns kUnsignedPatterns = {kSmall,         kAllEqual,           kRandom, kNearUnsignedMax, kTopBitAlternating,
                                    kOneBitPerLane, kAllButOneBitPerLane};
const Patterns kIntMinMaxPatterns = {kSmall, kAllEqual, kRandom, kTopBitAlternating, kIntExtremes, kNegative};
const Patterns kIntAddPatterns = {kSmall, kAllEqualNegative, kSmallBothSigns, kNegative};

// The documented result for `callers` holding `values` (as bits), folded in T.
template <class T>
std::uint32_t fold(Reduce op, const std::vector<std::uint32_t>& values) {
  std::int64_t sum = 0;
  std::uint32_t wrapped = 0, ands = ~0u, ors = 0, xors = 0;
  T lo = static_cast<T>(values[0]), hi = lo;
  for (std::uint32_t bits : values) {
    const T v = static_cast<T>(bits);
    sum += v;
    wrapped += bits;
    ands &= bits;
    ors |= bits;
    xors ^= bits;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  switch (op) {
    case Reduce::Add:
      if (std::is_signed_v<T> && (sum < INT_MIN || sum > INT_MAX)) throw std::logic_error("int sum overflows");
      return std::is_signed_v<T> ? static_cast<std::uint32_t>(sum) : wrapped;
    case Reduce::Min: return static_cast<std::uint32_t>(lo);
    case Reduce::Max: return static_cast<std::uint32_t>(hi);
    case Reduce::And: return ands;
    case Reduce::Or: return ors;
    case Reduce::Xor: return xors;
  }
  return 0;
}

// Runs `op` on T over every pattern and checks each caller's result against fold<T>.
template <class T>
::testing::AssertionResult reduces_as_documented(Reduce op, const Participation& p, const Patterns& patterns) {
  warp_test::valid(p);
  std::vector<T> values(patterns.size() * p.threads);
  for (unsigned k = 0; k < patterns.size(); ++k) {
    for (unsigned t = 0; t < p.threads; ++t) values[k * p.threads + t] = static_cast<T>(patterns[k].bits(t));
  }
  cuconform::DeviceBuffer<unsigned> masks(p.masks);
  cuconform::DeviceBuffer<T> device_values(values);
  cuconform::DeviceBuffer<T> results(values.size());
  cuconform::launch(reduce<T>, 1, p.threads, op, masks.get(), device_values.get(), unsigned(patterns.size()),
                    results.get());
  const std::vector<T> got = results.to_host();

  LaneCheck check;
  for (unsigned k = 0; k < patterns.size(); ++k) {
    for (unsigned t = 0; t < p.threads; ++t) {
      if (!p.calls(t)) continue;
      std::vector<std::uint32_t> named;
      const unsigned callers = p.callers_in_mask(t);
      for (unsigned lane = 0; lane < warp_test::kLanes; ++lane) {
        if (warp_test::has_lane(callers, lane)) named.push_back(patterns[k].bits(warp_test::warp_base(t) + lane));
      }
      check.expect_equal(static_cast<std::uint32_t>(got[k * p.threads + t]), fold<T>(op, named), [&] {
        return std::string(name_of(op)) + " of " + patterns[k].name + ", thread " + std::to_string(t) + " (mask " +
               LaneCheck::hex(p.masks[t]) + ", " + std::to_string(named.size()) + " callers)";
      });
    }
  }
  return check.result();
}

// 5.4.6.4: "Supported by devices of compute capability 8.x or higher."
template <class Base>
class ReduceFixture : public Base {
 protected:
  void SetUp() override {
    Base::SetUp();
    if (this->IsSkipped()) return;
    REQUIRE_CC(8, 0);
  }
};
using ReduceTest = ReduceFixture<warp_test::WarpTestWithParam<Participation>>;

class ReduceAddSync : public ReduceTest {};
class ReduceMinSync : public ReduceTest {};
class ReduceMaxSync : public ReduceTest {};
class ReduceAndSync : public ReduceTest {};
class ReduceOrSync : public ReduceTest {};
class ReduceXorSync : public ReduceTest {};

RULE_P(ReduceAddSync, UnsignedReturnsTheSumModulo2To32, "5.4.6.4",
       "__reduce_add_sync(mask, unsigned) returns the sum, wrapping modulo 2^32, of the values of the non-exited "
       "threads named in mask") {
  EXPECT_TRUE(reduces_as_documented<unsigned>(Reduce::Add, GetParam(), kUnsignedPatterns));
}

RULE_P(ReduceAddSync, IntReturnsTheSum, "5.4.6.4",
       "__reduce_add_sync(mask, int) returns the sum of the values of the non-exited threads named in mask") {
  EXPECT_TRUE(reduces_as_documented<int>(Reduce::Add, GetParam(), kIntAddPatterns));
}

RULE_P(ReduceMinSync, UnsignedReturnsTheUnsignedMinimum, "5.4.6.4",
       "__reduce_min_sync(mask, unsigned) returns the minimum, compared as unsigned, of the values of the non-exited "
       "threads named in mask") {
  EXPECT_TRUE(reduces_as_documented<unsigned>(Reduce::Min, GetParam(), kUnsignedPatterns));
}

RULE_P(ReduceMinSync, IntReturnsTheSignedMinimum, "5.4.6.4",
       "__reduce_min_sync(mask, int) returns the minimum, compared as signed, of the values of the non-exited "
       "threads named in mask") {
  EXPECT_TRUE(reduces_as_documented<int>(Reduce::Min, GetParam(), kIntMinMaxPatterns));
}

RULE_P(ReduceMaxSync, UnsignedReturnsTheUnsignedMaximum, "5.4.6.4",
       "__reduce_max_sync(mask, unsigned) returns the maximum, compared as unsigned, of the values of the non-exited "
       "threads named in mask") {
  EXPECT_TRUE(reduces_as_documented<unsigned>(Reduce::Max, GetParam(), kUnsignedPatterns));
}

RULE_P(ReduceMaxSync, IntReturnsTheSignedMaximum, "5.4.6.4",
       "__reduce_max_sync(mask, int) returns the maximum, compared as signed, of the values of the non-exited "
       "threads named in mask") {
  EXPECT_TRUE(reduces_as_documented<int>(Reduce::Max, GetParam(), kIntMinMaxPatterns));
}

RULE_P(ReduceAndSync, ReturnsTheBitwiseAnd, "5.4.6.4",
       "__reduce_and_sync(mask, unsigned) returns the bitwise AND of the values of the non-exited threads named in "
       "mask") {
  EXPECT_TRUE(reduces_as_documented<unsigned>(Reduce::And, GetParam(), kUnsignedPatterns));
}

RULE_P(ReduceOrSync, ReturnsTheBitwiseOr, "5.4.6.4",
       "__reduce_or_sync(mask, unsigned) returns the bitwise OR of the values of the non-exited threads named in "
       "mask") {
  EXPECT_TRUE(reduces_as_documented<unsigned>(Reduce::Or, GetParam(), kUnsignedPatterns));
}

RULE_P(ReduceXorSync, ReturnsTheBitwiseXor, "5.4.6.4",
       "__reduce_xor_sync(mask, unsigned) returns the bitwise XOR of the values of the non-exited threads named in "
       "mask") {
  EXPECT_TRUE(reduces_as_documented<unsigned>(Reduce::Xor, GetParam(), kUnsignedPatterns));
}

INSTANTIATE_TEST_SUITE_P(Participations, ReduceAddSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());
INSTANTIATE_TEST_SUITE_P(Participations, ReduceMinSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());
INSTANTIATE_TEST_SUITE_P(Participations, ReduceMaxSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());
INSTANTIATE_TEST_SUITE_P(Participations, ReduceAndSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());
INSTANTIATE_TEST_SUITE_P(Participations, ReduceOrSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());
INSTANTIATE_TEST_SUITE_P(Participations, ReduceXorSync, ::testing::ValuesIn(warp_test::all_participations()),
                         warp_test::ParticipationName());

// The synopsis declares T __reduce_{add,min,max}_sync(unsigned mask, T value) with T unsigned or int: the int
// overloads return int. Checked in device code, where the functions can be named.
__global__ void reduce_result_types(int* is_int) {
  is_int[0] = std::is_same_v<decltype(__reduce_add_sync(0u, int{})), int>;
  is_int[1] = std::is_same_v<decltype(__reduce_min_sync(0u, int{})), int>;
  is_int[2] = std::is_same_v<decltype(__reduce_max_sync(0u, int{})), int>;
}

class ReduceOverloads : public ReduceFixture<warp_test::WarpTest> {};

RULE_F(ReduceOverloads, IntAddMinMaxReturnInt, "5.4.6.4",
       "__reduce_add_sync, __reduce_min_sync and __reduce_max_sync have overloads T f(unsigned mask, T value) for "
       "T = int, which return int") {
  cuconform::DeviceBuffer<int> is_int(3);
  cuconform::launch(reduce_result_types, 1, 1, is_int.get());
  EXPECT_TRUE(cuconform::ElementsEqual(is_int.to_host(), std::vector<int>{1, 1, 1}))
      << "[0] add, [1] min, [2] max: 1 where decltype(f(0u, int{})) is int";
}

}  // namespace
