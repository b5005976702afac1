// 5.4.6.5 Warp Shuffle Functions: the synopsis (width defaults to warpSize; each overload returns its T) and the
// outcomes the guide states for its own examples, run as written, with compile-time operands.
#include <cuconform/cuconform.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "shuffle_model.h"
#include "shuffle_rounds.h"
#include "shuffle_types.h"
#include "warp_setup.h"

namespace {

using warp_test::kLanes;
using warp_test::LaneCheck;
using warp_test::Participation;
using warp_test::ShuffleMode;
using warp_test::ShuffleRound;

// ---- width defaults to warpSize ----

template <class T>
__global__ void shuffle_default_width(ShuffleMode mode, const T* values, unsigned rounds, const int* operands,
                                      T* results) {
  const unsigned t = threadIdx.x;
  const T value = values[t];
  for (unsigned r = 0; r < rounds; ++r) {
    const int operand = operands[r * blockDim.x + t];
    T got = value;
    switch (mode) {
      case ShuffleMode::Idx: got = __shfl_sync(warp_test::kFullMask, value, operand); break;
      case ShuffleMode::Up: got = __shfl_up_sync(warp_test::kFullMask, value, static_cast<unsigned>(operand)); break;
      case ShuffleMode::Down:
        got = __shfl_down_sync(warp_test::kFullMask, value, static_cast<unsigned>(operand));
        break;
      case ShuffleMode::Xor: got = __shfl_xor_sync(warp_test::kFullMask, value, operand); break;
    }
    results[r * blockDim.x + t] = got;
  }
}

// Every caller of every round with width omitted, against the model with width 32.
template <class T>
::testing::AssertionResult default_width_is_warp_size() {
  const Participation two_warps{"TwoWarps", 64, std::vector<unsigned>(64, warp_test::kFullMask)};
  std::vector<T> values(two_warps.threads);
  for (unsigned t = 0; t < two_warps.threads; ++t)
    values[t] = warp_test::from_bits<T>(warp_test::shuffle_value_bits<T>(t));
  cuconform::DeviceBuffer<T> device_values(values);
  LaneCheck check;
  for (ShuffleMode mode : {ShuffleMode::Idx, ShuffleMode::Up, ShuffleMode::Down, ShuffleMode::Xor}) {
    std::vector<ShuffleRound> rounds;
    for (ShuffleRound& round : warp_test::candidate_rounds(mode, two_warps)) {
      if (round.width == kLanes) rounds.push_back(std::move(round));
    }
    std::vector<int> operands;
    for (const ShuffleRound& round : rounds)
      operands.insert(operands.end(), round.operands.begin(), round.operands.end());
    cuconform::DeviceBuffer<int> device_operands(operands);
    cuconform::DeviceBuffer<T> results(operands.size());
    cuconform::launch(shuffle_default_width<T>, 1, two_warps.threads, mode, device_values.get(),
                      unsigned(rounds.size()), device_operands.get(), results.get());
    const std::vector<T> got = results.to_host();
    for (unsigned r = 0; r < rounds.size(); ++r) {
      for (unsigned t = 0; t < two_warps.threads; ++t) {
        const long long operand = warp_test::operand_value(mode, rounds[r].operands[t]);
        const unsigned source = warp_test::warp_base(t) +
                                warp_test::documented_shuffle(mode, warp_test::lane_of(t), operand, kLanes).source;
        check.expect_equal(warp_test::to_bits(got[r * two_warps.threads + t]), warp_test::to_bits(values[source]), [&] {
          return std::string(warp_test::name_of(mode)) + " without width, operand " + std::to_string(operand) +
                 ", thread " + std::to_string(t) + " (expected the value of thread " + std::to_string(source) + ")";
        });
      }
    }
  }
  return check.result();
}

struct DefaultWidthType {
  const char* name;
  ::testing::AssertionResult (*check)();
};

void PrintTo(const DefaultWidthType& type, std::ostream* out) { *out << type.name; }

template <class T>
constexpr DefaultWidthType default_width_type() {
  return {warp_test::kTypeName<T>, default_width_is_warp_size<T>};
}

class ShuffleDefaultWidth : public warp_test::WarpTestWithParam<DefaultWidthType> {};

RULE_P(ShuffleDefaultWidth, IsWarpSize, "5.4.6.5",
       "__shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync called without width behave as with "
       "width = warpSize (the declared default)") {
  EXPECT_TRUE(GetParam().check());
}

const DefaultWidthType kDefaultWidthTypes[] = {
    default_width_type<int>(),           default_width_type<unsigned>(),      default_width_type<long>(),
    default_width_type<unsigned long>(), default_width_type<long long>(),     default_width_type<unsigned long long>(),
    default_width_type<float>(),         default_width_type<double>(),        default_width_type<__half>(),
    default_width_type<__half2>(),       default_width_type<__nv_bfloat16>(), default_width_type<__nv_bfloat162>(),
};

struct TypeName {
  std::string operator()(const ::testing::TestParamInfo<DefaultWidthType>& info) const { return info.param.name; }
};

INSTANTIATE_TEST_SUITE_P(Types, ShuffleDefaultWidth, ::testing::ValuesIn(kDefaultWidthTypes), TypeName());

// ---- each overload returns its T ----

template <class T>
__device__ int returns_t() {
  const T value{};
  return std::is_same_v<decltype(__shfl_sync(0u, value, 0, 32)), T> +
         std::is_same_v<decltype(__shfl_up_sync(0u, value, 0u, 32)), T> * 2 +
         std::is_same_v<decltype(__shfl_down_sync(0u, value, 0u, 32)), T> * 4 +
         std::is_same_v<decltype(__shfl_xor_sync(0u, value, 0, 32)), T> * 8;
}

// One entry per type, in kReturnTypeNames' order: a bit per function (1 idx, 2 up, 4 down, 8 xor) returning T.
__global__ void shuffle_return_types(int* returns) {
  returns[0] = returns_t<int>();
  returns[1] = returns_t<unsigned>();
  returns[2] = returns_t<long>();
  returns[3] = returns_t<unsigned long>();
  returns[4] = returns_t<long long>();
  returns[5] = returns_t<unsigned long long>();
  returns[6] = returns_t<float>();
  returns[7] = returns_t<double>();
  returns[8] = returns_t<__half>();
  returns[9] = returns_t<__half2>();
  returns[10] = returns_t<__nv_bfloat16>();
  returns[11] = returns_t<__nv_bfloat162>();
}

class ShuffleOverloads : public warp_test::WarpTest {};

RULE_F(ShuffleOverloads, ReturnTheirValueType, "5.4.6.5",
       "T __shfl_sync / __shfl_up_sync / __shfl_down_sync / __shfl_xor_sync(unsigned mask, T value, ...) return T "
       "for each T the guide lists") {
  cuconform::DeviceBuffer<int> returns(12);
  cuconform::launch(shuffle_return_types, 1, 1, returns.get());
  EXPECT_TRUE(cuconform::ElementsEqual(returns.to_host(), std::vector<int>(12, 15)))
      << "entries: int, unsigned, long, unsigned long, long long, unsigned long long, float, double, __half, "
         "__half2, __nv_bfloat16, __nv_bfloat162; bits: 1 __shfl_sync, 2 up, 4 down, 8 xor return T";
}

// ---- the guide's examples ----

enum class Example { Broadcast, ScanOf8, ButterflySum, HalfWarpSrcLane, DownByTwo };

// Each lane of two warps records what the example leaves in its variable.
__global__ void guide_example(Example example, int input, int* results) {
  const int laneId = threadIdx.x % warpSize;
  int data = 1000 * static_cast<int>(threadIdx.x / warpSize) + 7 * laneId + 3;  // distinct per thread
  int result = 0;
  switch (example) {
    case Example::Broadcast:  // Example 1
      if (laneId == 0) data = input;
      result = __shfl_sync(0xFFFFFFFF, data, 0);
      break;
    case Example::ScanOf8: {  // Example 2
      int value = 31 - laneId;
      for (int delta = 1; delta <= 4; delta *= 2) {
        const int tmp = __shfl_up_sync(0xFFFFFFFF, value, delta, /*width=*/8);
        const int source_lane = laneId % 8 - delta;
        if (source_lane >= 0) value += tmp;
      }
      result = value;
      break;
    }
    case Example::ButterflySum: {  // Example 3
      int value = 31 - laneId;
      for (int i = 1; i <= 16; i *= 2) value += __shfl_xor_sync(0xFFFFFFFF, value, i);
      result = value;
      break;
    }
    // "valid usage": result3. The guide shuffles `value`, which its snippet never declares; its comment names `data`.
    case Example::HalfWarpSrcLane: result = __shfl_sync(0xFFFFFFFF, data, warpSize / 2); break;
    case Example::DownByTwo:  // "valid usage": result4
      result = __shfl_down_sync(0xFFFFFFFF, data, 2);
      break;
  }
  results[threadIdx.x] = result;
}

class ShuffleGuideExamples : public warp_test::WarpTest {
 protected:
  static constexpr unsigned kThreads = 64;

  static std::vector<int> run(Example example, int input = 0) {
    cuconform::DeviceBuffer<int> results(kThreads);
    cuconform::launch(guide_example, 1, kThreads, example, input, results.get());
    return results.to_host();
  }
  static int data_of(unsigned t) { return 1000 * int(t / kLanes) + 7 * int(t % kLanes) + 3; }
  // `expected(t)` for every thread.
  template <class Expected>
  static std::vector<int> every_thread(Expected expected) {
    std::vector<int> values(kThreads);
    for (unsigned t = 0; t < kThreads; ++t) values[t] = expected(t);
    return values;
  }
};

RULE_F(ShuffleGuideExamples, BroadcastGivesEveryLaneTheValueOfLane0, "5.4.6.5",
       "Example 1: __shfl_sync(0xFFFFFFFF, value, 0) gives every lane of the warp the value of lane 0") {
  EXPECT_TRUE(cuconform::ElementsEqual(run(Example::Broadcast, 1234), every_thread([](unsigned) { return 1234; })));
}

RULE_F(ShuffleGuideExamples, InclusiveScanOverSubPartitionsOf8Threads, "5.4.6.5",
       "Example 2: three __shfl_up_sync(..., width=8) steps give each lane the inclusive plus-scan of its 8-lane "
       "sub-partition") {
  EXPECT_TRUE(cuconform::ElementsEqual(run(Example::ScanOf8), every_thread([](unsigned t) {
                                         int sum = 0;
                                         const unsigned lane = t % kLanes;
                                         for (unsigned l = lane - lane % 8; l <= lane; ++l) sum += 31 - int(l);
                                         return sum;
                                       })));
}

RULE_F(ShuffleGuideExamples, ButterflyReductionGivesEveryLaneTheWarpSum, "5.4.6.5",
       "Example 3: five __shfl_xor_sync butterfly steps leave the sum over the warp in every lane") {
  EXPECT_TRUE(cuconform::ElementsEqual(run(Example::ButterflySum), every_thread([](unsigned) { return 496; })));
}

RULE_F(ShuffleGuideExamples, DownByTwoKeepsLanes30And31, "5.4.6.5",
       "Example: __shfl_down_sync(0xFFFFFFFF, data, 2) gives each lane the data of the lane two above; lanes 30 and "
       "31 get their original value") {
  EXPECT_TRUE(cuconform::ElementsEqual(run(Example::DownByTwo), every_thread([&](unsigned t) {
                                         return t % kLanes < 30 ? data_of(t + 2) : data_of(t);
                                       })));
}

// The example's comment contradicts the definition of srcLane (which gives all 32 lanes the data of lane 16, see
// ShflSync.ReturnsTheValueOfLogicalLaneSrcLane); it matches __shfl_sync(0xFFFFFFFF, data, 0, warpSize / 2). The rule
// checks the comment, so it fails while the documentation contradicts itself (FINDINGS.md).
RULE_F(ShuffleGuideExamples, HalfWarpSrcLaneGivesEachHalfItsFirstLane, "5.4.6.5",
       "Example: __shfl_sync(0xFFFFFFFF, value, warpSize / 2) gives lanes 0-15 the data of lane 0 and lanes 16-31 "
       "the data of lane 16 (as the example's comment states)") {
  EXPECT_TRUE(cuconform::ElementsEqual(run(Example::HalfWarpSrcLane),
                                       every_thread([&](unsigned t) { return data_of(t - t % 16); })));
}

}  // namespace
