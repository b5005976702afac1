// 5.4.6.5 Warp Shuffle Functions: __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync, for every type T
// the guide lists (shuffle_types.h), every width 1, 2, 4, 8, 16, 32, and every operand of shuffle_rounds.h, in
// complete warps, a block's last partial warp, under disjoint masks called concurrently, under partial masks and
// under a mask naming exited threads. Each rule checks, bit for bit, every caller that its clause of 5.4.6.5 decides
// (shuffle_model.h): e.g. the up-shift rule checks the callers whose source lies in their subsection, the clamp rule
// those whose source does not.
#include <cuconform/cuconform.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shuffle_model.h"
#include "shuffle_rounds.h"
#include "shuffle_types.h"
#include "warp_setup.h"

namespace {

using warp_test::LaneCheck;
using warp_test::LaneFate;
using warp_test::Participation;
using warp_test::ShuffleMode;
using warp_test::ShuffleRound;

template <class T>
__global__ void shuffle_rounds(ShuffleMode mode, const unsigned* masks, const T* values, unsigned rounds,
                               const int* widths, const int* operands, T* results) {
  const unsigned t = threadIdx.x;
  const unsigned mask = masks[t];
  if (mask == 0) return;
  const T value = values[t];
  for (unsigned r = 0; r < rounds; ++r) {
    const int width = widths[r];
    const int operand = operands[r * blockDim.x + t];
    T got = value;
    switch (mode) {
      case ShuffleMode::Idx: got = __shfl_sync(mask, value, operand, width); break;
      case ShuffleMode::Up: got = __shfl_up_sync(mask, value, static_cast<unsigned>(operand), width); break;
      case ShuffleMode::Down: got = __shfl_down_sync(mask, value, static_cast<unsigned>(operand), width); break;
      case ShuffleMode::Xor: got = __shfl_xor_sync(mask, value, operand, width); break;
    }
    results[r * blockDim.x + t] = got;
  }
}

// One launch: the bits each thread held and the bits each caller received in each round.
struct ShuffleRun {
  std::vector<std::uint64_t> held;      // [t]
  std::vector<std::uint64_t> received;  // [round * threads + t]
};

template <class T>
ShuffleRun run_shuffle(ShuffleMode mode, const Participation& p, const std::vector<ShuffleRound>& rounds) {
  ShuffleRun run{std::vector<std::uint64_t>(p.threads), {}};
  std::vector<T> values(p.threads);
  for (unsigned t = 0; t < p.threads; ++t) {
    run.held[t] = warp_test::shuffle_value_bits<T>(t);
    values[t] = warp_test::from_bits<T>(run.held[t]);
  }
  std::vector<int> widths, operands;
  for (const ShuffleRound& round : rounds) {
    widths.push_back(static_cast<int>(round.width));
    operands.insert(operands.end(), round.operands.begin(), round.operands.end());
  }
  cuconform::DeviceBuffer<unsigned> masks(p.masks);
  cuconform::DeviceBuffer<T> device_values(values);
  cuconform::DeviceBuffer<int> device_widths(widths), device_operands(operands);
  cuconform::DeviceBuffer<T> results(rounds.size() * p.threads);
  cuconform::launch(shuffle_rounds<T>, 1, p.threads, mode, masks.get(), device_values.get(), unsigned(rounds.size()),
                    device_widths.get(), device_operands.get(), results.get());
  for (const T& value : results.to_host()) run.received.push_back(warp_test::to_bits(value));
  return run;
}

struct ShuffleType {
  const char* name;
  ShuffleRun (*run)(ShuffleMode, const Participation&, const std::vector<ShuffleRound>&);
};

template <class T>
constexpr ShuffleType shuffle_type() {
  return {warp_test::kTypeName<T>, run_shuffle<T>};
}

void PrintTo(const ShuffleType& type, std::ostream* out) { *out << type.name; }

class ShuffleTest : public warp_test::WarpTestWithParam<ShuffleType> {
 protected:
  // Runs `mode` with the rounds `make_rounds(p)` allows in every participation, and checks the callers whose fate
  // is `fate` against the model.
  template <class MakeRounds>
  ::testing::AssertionResult shuffles_as_documented(ShuffleMode mode, LaneFate fate, MakeRounds make_rounds) {
    LaneCheck check;
    for (const Participation& p : warp_test::shuffle_participations(cuconform::full_profile())) {
      const std::vector<ShuffleRound> rounds = warp_test::defined_rounds(mode, p, make_rounds(p));
      if (rounds.empty()) continue;
      const ShuffleRun run = GetParam().run(mode, p, rounds);
      for (unsigned r = 0; r < rounds.size(); ++r) {
        for (unsigned t = 0; t < p.threads; ++t) {
          if (!p.calls(t)) continue;
          const long long operand = warp_test::operand_value(mode, rounds[r].operands[t]);
          const auto outcome = warp_test::documented_shuffle(mode, warp_test::lane_of(t), operand, rounds[r].width);
          if (outcome.fate != fate) continue;
          const unsigned source = warp_test::warp_base(t) + outcome.source;
          check.expect_equal(run.received[r * p.threads + t], run.held[source], [&] {
            return p.name + ", " + warp_test::name_of(mode) + " " + rounds[r].description + ", thread " +
                   std::to_string(t) + " (operand " + std::to_string(operand) + "; expected the value of thread " +
                   std::to_string(source) + ")";
          });
        }
      }
    }
    return check.result();
  }

  ::testing::AssertionResult shuffles_as_documented(ShuffleMode mode, LaneFate fate) {
    return shuffles_as_documented(mode, fate,
                                  [mode](const Participation& p) { return warp_test::candidate_rounds(mode, p); });
  }
};

class ShflSync : public ShuffleTest {};
class ShflUpSync : public ShuffleTest {};
class ShflDownSync : public ShuffleTest {};
class ShflXorSync : public ShuffleTest {};

RULE_P(ShflSync, ReturnsTheValueOfLogicalLaneSrcLane, "5.4.6.5",
       "__shfl_sync(mask, value, srcLane, width) with srcLane in [0, width-1] returns the value held by logical lane "
       "srcLane of the caller's width-lane subsection (each subsection behaves as a separate entity)") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Idx, LaneFate::IdxInRange));
}

RULE_P(ShflSync, SrcLaneOutsideTheWidthIsTakenModuloWidth, "5.4.6.5",
       "__shfl_sync with srcLane outside [0, width-1] returns the value held by lane srcLane % width of the caller's "
       "subsection (negative srcLane included, modulo taken as a lane index in [0, width-1])") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Idx, LaneFate::IdxOutOfRange));
}

RULE_P(ShflUpSync, ReturnsTheValueDeltaLanesBelow, "5.4.6.5",
       "__shfl_up_sync(mask, value, delta, width) returns the value of the lane delta below the caller when that "
       "lane is in the caller's width-lane subsection") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Up, LaneFate::Shifted));
}

RULE_P(ShflUpSync, LowestDeltaLanesOfEachSubsectionKeepTheirValue, "5.4.6.5",
       "__shfl_up_sync does not wrap around width: the lowest delta lanes of each subsection get their own value") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Up, LaneFate::Kept));
}

RULE_P(ShflDownSync, ReturnsTheValueDeltaLanesAbove, "5.4.6.5",
       "__shfl_down_sync(mask, value, delta, width) returns the value of the lane delta above the caller when that "
       "lane is in the caller's width-lane subsection") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Down, LaneFate::Shifted));
}

RULE_P(ShflDownSync, HighestDeltaLanesOfEachSubsectionKeepTheirValue, "5.4.6.5",
       "__shfl_down_sync does not wrap around width: the highest delta lanes of each subsection get their own value") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Down, LaneFate::Kept));
}

RULE_P(ShflXorSync, ReturnsTheValueOfLaneXorLaneMask, "5.4.6.5",
       "__shfl_xor_sync(mask, value, laneMask, width) returns the value of lane (caller's lane ^ laneMask) when that "
       "lane is in the caller's width-group") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Xor, LaneFate::XorSameGroup));
}

RULE_P(ShflXorSync, ReadsLanesOfEarlierGroups, "5.4.6.5",
       "__shfl_xor_sync with width < warpSize lets a group of width threads read the value of lane (lane ^ laneMask) "
       "in an earlier group") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Xor, LaneFate::XorEarlierGroup));
}

RULE_P(ShflXorSync, LaterGroupsGiveTheCallerItsOwnValue, "5.4.6.5",
       "__shfl_xor_sync returns the caller's own value when lane ^ laneMask lies in a later group of width threads") {
  EXPECT_TRUE(shuffles_as_documented(ShuffleMode::Xor, LaneFate::XorLaterGroup));
}

// No wrap around for any delta: the guide neither bounds delta nor says it is reduced modulo 32. These run in
// complete warps only, so that a device that does reduce delta still reads only lanes that take part.
template <class MakeRounds>
auto complete_warps_only(MakeRounds make_rounds) {
  return [make_rounds](const Participation& p) {
    return p.name == "TwoWarps" ? make_rounds(p) : std::vector<ShuffleRound>{};
  };
}

RULE_P(ShflUpSync, DeltaOfWarpSizeOrMoreLeavesEveryLaneItsValue, "5.4.6.5",
       "__shfl_up_sync with delta >= 32 gives every caller its own value: 'the source lane index will not wrap "
       "around the value of width, so the lower delta lanes will remain unchanged'") {
  EXPECT_TRUE(
      shuffles_as_documented(ShuffleMode::Up, LaneFate::Kept, complete_warps_only(warp_test::large_delta_rounds)));
}

RULE_P(ShflDownSync, DeltaOfWarpSizeOrMoreLeavesEveryLaneItsValue, "5.4.6.5",
       "__shfl_down_sync with delta >= 32 gives every caller its own value: 'the source lane will not wrap around "
       "the value of width and so the upper delta lanes will remain unchanged'") {
  EXPECT_TRUE(
      shuffles_as_documented(ShuffleMode::Down, LaneFate::Kept, complete_warps_only(warp_test::large_delta_rounds)));
}

const ShuffleType kTypes[] = {
    shuffle_type<int>(),           shuffle_type<unsigned>(),      shuffle_type<long>(),
    shuffle_type<unsigned long>(), shuffle_type<long long>(),     shuffle_type<unsigned long long>(),
    shuffle_type<float>(),         shuffle_type<double>(),        shuffle_type<__half>(),
    shuffle_type<__half2>(),       shuffle_type<__nv_bfloat16>(), shuffle_type<__nv_bfloat162>(),
};

struct TypeName {
  std::string operator()(const ::testing::TestParamInfo<ShuffleType>& info) const { return info.param.name; }
};

INSTANTIATE_TEST_SUITE_P(Types, ShflSync, ::testing::ValuesIn(kTypes), TypeName());
INSTANTIATE_TEST_SUITE_P(Types, ShflUpSync, ::testing::ValuesIn(kTypes), TypeName());
INSTANTIATE_TEST_SUITE_P(Types, ShflDownSync, ::testing::ValuesIn(kTypes), TypeName());
INSTANTIATE_TEST_SUITE_P(Types, ShflXorSync, ::testing::ValuesIn(kTypes), TypeName());

}  // namespace
