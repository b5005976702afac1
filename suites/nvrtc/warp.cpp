// 5.4.6 Warp Functions, through NVRTC: kernels/warp.cu compiled at run time, on full warps. Every lane's result is
// checked against a host model of its warp.
#include <cuconform/cuconform.h>

#include <vector>

#include "jit_kernels.h"

namespace {

constexpr unsigned kWarps = 3, kLanes = 32, kThreads = kWarps * kLanes;

class NvrtcWarp : public cuconform::GpuTest {
 protected:
  cuconform::nvrtc::JitModule& module() { return cuconform::nvrtc::jit_module("warp.cu"); }

  static std::vector<int> distinct_values() {
    std::vector<int> values(kThreads);
    for (unsigned i = 0; i < kThreads; ++i) values[i] = static_cast<int>(1000 * i + 7);
    return values;
  }
};

RULE_F(NvrtcWarp, ShflSyncBroadcastsSourceLane, "5.4.6.5",
       "in NVRTC-compiled code, __shfl_sync(mask, var, srcLane) returns var of lane srcLane to every lane") {
  const std::vector<int> values = distinct_values();
  constexpr int kSource = 13;
  cuconform::DeviceBuffer<int> in(values), out(kThreads);
  module().launch("shfl_broadcast", dim3(1), dim3(kThreads), in.get(), kSource, out.get());
  std::vector<int> expected(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) expected[i] = values[(i / kLanes) * kLanes + kSource];
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

RULE_F(NvrtcWarp, ShflXorButterflySumsTheWarp, "5.4.6.5",
       "in NVRTC-compiled code, __shfl_xor_sync with lane masks 16, 8, 4, 2, 1 gives every lane the warp's sum") {
  const std::vector<int> values = distinct_values();
  cuconform::DeviceBuffer<int> in(values), out(kThreads);
  module().launch("shfl_xor_sum", dim3(1), dim3(kThreads), in.get(), out.get());
  std::vector<int> expected(kThreads);
  for (unsigned w = 0; w < kWarps; ++w) {
    int sum = 0;
    for (unsigned l = 0; l < kLanes; ++l) sum += values[w * kLanes + l];
    for (unsigned l = 0; l < kLanes; ++l) expected[w * kLanes + l] = sum;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

RULE_F(NvrtcWarp, BallotSyncSetsBitOfEachTrueLane, "5.4.6.2",
       "in NVRTC-compiled code, __ballot_sync returns a mask whose Nth bit is set iff lane N's predicate is non-zero") {
  cuconform::DeviceBuffer<unsigned> out(kThreads);
  module().launch("ballot_every_third", dim3(1), dim3(kThreads), out.get());
  unsigned mask = 0;
  for (unsigned l = 0; l < kLanes; l += 3) mask |= 1u << l;
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), std::vector<unsigned>(kThreads, mask)));
}

RULE_F(NvrtcWarp, AllAndAnySyncReduceThePredicate, "5.4.6.2",
       "in NVRTC-compiled code, __all_sync is non-zero iff every lane's predicate is, __any_sync iff one lane's is") {
  // Warp 0: all true; warp 1: only lane 31 true; warp 2: none true.
  std::vector<int> predicate(kThreads, 0);
  for (unsigned l = 0; l < kLanes; ++l) predicate[l] = static_cast<int>(l + 1);
  predicate[kLanes + 31] = -4;
  cuconform::DeviceBuffer<int> in(predicate), all(kThreads), any(kThreads);
  module().launch("all_any", dim3(1), dim3(kThreads), in.get(), all.get(), any.get());
  std::vector<int> all_truthy, any_truthy;
  for (int v : all.to_host()) all_truthy.push_back(v != 0);
  for (int v : any.to_host()) any_truthy.push_back(v != 0);
  std::vector<int> expected_all(kThreads, 0), expected_any(kThreads, 0);
  for (unsigned l = 0; l < kLanes; ++l) {
    expected_all[l] = 1;
    expected_any[l] = 1;
    expected_any[kLanes + l] = 1;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(all_truthy, expected_all)) << "__all_sync";
  EXPECT_TRUE(cuconform::ElementsEqual(any_truthy, expected_any)) << "__any_sync";
}

RULE_F(NvrtcWarp, MatchAnySyncGroupsEqualValues, "5.4.6.3",
       "in NVRTC-compiled code, __match_any_sync returns to each lane the mask of lanes holding the same value") {
  std::vector<int> values(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) values[i] = static_cast<int>((i % kLanes) % 5);  // five groups per warp
  cuconform::DeviceBuffer<int> in(values);
  cuconform::DeviceBuffer<unsigned> out(kThreads);
  module().launch("match_any", dim3(1), dim3(kThreads), in.get(), out.get());
  std::vector<unsigned> expected(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) {
    unsigned mask = 0;
    for (unsigned l = 0; l < kLanes; ++l) mask |= (values[(i / kLanes) * kLanes + l] == values[i] ? 1u : 0u) << l;
    expected[i] = mask;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

RULE_F(NvrtcWarp, ReduceAddSyncSumsTheWarp, "5.4.6.4",
       "in NVRTC-compiled code, __reduce_add_sync returns the sum of the values of the lanes in mask (CC 8.x+)") {
  REQUIRE_CC(8, 0);
  std::vector<unsigned> values(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) values[i] = 0x01000000u * (i % 7) + i;  // sums wrap modulo 2^32
  cuconform::DeviceBuffer<unsigned> in(values), out(kThreads);
  module().launch("reduce_add", dim3(1), dim3(kThreads), in.get(), out.get());
  std::vector<unsigned> expected(kThreads);
  for (unsigned w = 0; w < kWarps; ++w) {
    unsigned sum = 0;
    for (unsigned l = 0; l < kLanes; ++l) sum += values[w * kLanes + l];
    for (unsigned l = 0; l < kLanes; ++l) expected[w * kLanes + l] = sum;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), expected));
}

}  // namespace
