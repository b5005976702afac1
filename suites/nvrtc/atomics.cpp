// 5.4.5 Atomic Functions, through NVRTC: kernels/atomics.cu compiled at run time. Each rule checks the final value
// and the multiset of old values the threads got back against a host model.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "jit_kernels.h"

namespace {

constexpr unsigned kBlocks = 4, kThreads = 96;  // 384 threads contend for one location
constexpr unsigned kTotal = kBlocks * kThreads;

class NvrtcAtomics : public cuconform::GpuTest {
 protected:
  cuconform::nvrtc::JitModule& module() { return cuconform::nvrtc::jit_module("atomics.cu"); }
};

RULE_F(NvrtcAtomics, AtomicAddReturnsEveryOldValueOnce, "5.4.5.1.1",
       "in NVRTC-compiled code, atomicAdd(address, 1) by N threads leaves N and returns each of 0 .. N-1 once") {
  cuconform::DeviceBuffer<int> counter(1), old(kTotal);
  module().launch("add_one", dim3(kBlocks), dim3(kThreads), counter.get(), old.get());
  EXPECT_EQ(counter.value_at(0), static_cast<int>(kTotal));
  std::vector<int> expected(kTotal);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_TRUE(cuconform::SameMultiset(old.to_host(), expected));
}

RULE_F(NvrtcAtomics, AtomicCasLetsExactlyOneThreadClaim, "5.4.5.1.11",
       "in NVRTC-compiled code, atomicCAS(flag, 0, i + 1) by N threads succeeds for exactly one: it returns 0 to it "
       "and its value to all others") {
  cuconform::DeviceBuffer<int> flag(1), old(kTotal);
  module().launch("cas_claim", dim3(kBlocks), dim3(kThreads), flag.get(), old.get());
  const int winner_value = flag.value_at(0);
  ASSERT_GE(winner_value, 1);
  ASSERT_LE(winner_value, static_cast<int>(kTotal));
  std::vector<int> expected(kTotal, winner_value);
  expected[winner_value - 1] = 0;  // the winner saw the initial 0
  EXPECT_TRUE(cuconform::ElementsEqual(old.to_host(), expected));
}

RULE_F(NvrtcAtomics, AtomicIncWrapsAtBound, "5.4.5.1.3",
       "in NVRTC-compiled code, atomicInc stores ((old >= val) ? 0 : (old + 1)) and returns old") {
  constexpr unsigned kBound = 9;
  cuconform::DeviceBuffer<unsigned> counter(1), old(kTotal);
  module().launch("inc_wrapping", dim3(kBlocks), dim3(kThreads), counter.get(), kBound, old.get());
  // Whatever the order, the k-th operation sees k mod (bound + 1).
  std::vector<unsigned> expected(kTotal);
  for (unsigned k = 0; k < kTotal; ++k) expected[k] = k % (kBound + 1);
  EXPECT_EQ(counter.value_at(0), kTotal % (kBound + 1));
  EXPECT_TRUE(cuconform::SameMultiset(old.to_host(), expected));
}

RULE_F(NvrtcAtomics, AtomicMaxKeepsTheMaximum, "5.4.5.1.9",
       "in NVRTC-compiled code, atomicMax stores the maximum of old and val and returns old") {
  std::vector<int> values(kTotal);
  std::mt19937 random(7);
  std::uniform_int_distribution<int> pick(-100000, 100000);
  for (int& v : values) v = pick(random);
  cuconform::DeviceBuffer<int> in(values), result(std::vector<int>{-1000000}), old(kTotal);
  module().launch("max_of", dim3(kBlocks), dim3(kThreads), in.get(), result.get(), old.get());
  EXPECT_EQ(result.value_at(0), *std::max_element(values.begin(), values.end()));
  // A thread stores its value only when it exceeds the old one it saw, so every old value is the initial one (seen
  // by exactly one thread: the first, as every value exceeds it) or a value some thread stored that way.
  const std::vector<int> got = old.to_host();
  EXPECT_EQ(std::count(got.begin(), got.end(), -1000000), 1);
  std::vector<int> stored;
  for (unsigned i = 0; i < kTotal; ++i) {
    if (got[i] < values[i]) stored.push_back(values[i]);
  }
  for (unsigned i = 0; i < kTotal; ++i) {
    EXPECT_TRUE(got[i] == -1000000 || std::find(stored.begin(), stored.end(), got[i]) != stored.end())
        << "thread " << i << " got " << got[i] << ", which no thread stored";
  }
}

RULE_F(NvrtcAtomics, BuiltinFetchAddReturnsEveryOldValueOnce, "5.4.5.2.1",
       "in NVRTC-compiled code, __nv_atomic_fetch_add(address, 1, relaxed, device) by N threads leaves N and returns "
       "each of 0 .. N-1 once") {
  cuconform::DeviceBuffer<unsigned> counter(1), old(kTotal);
  module().launch("builtin_fetch_add", dim3(kBlocks), dim3(kThreads), counter.get(), old.get());
  EXPECT_EQ(counter.value_at(0), kTotal);
  std::vector<unsigned> expected(kTotal);
  std::iota(expected.begin(), expected.end(), 0u);
  EXPECT_TRUE(cuconform::SameMultiset(old.to_host(), expected));
}

}  // namespace
