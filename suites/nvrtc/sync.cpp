// 5.4.4.1 Thread Block Synchronization Functions, through NVRTC: kernels/sync.cu compiled at run time, on blocks
// that are not a multiple of the warp size.
#include <cuconform/cuconform.h>

#include <vector>

#include "jit_kernels.h"

namespace {

constexpr unsigned kBlocks = 3, kThreads = 100;

class NvrtcSyncthreads : public cuconform::GpuTest {
 protected:
  // Block 0: every third thread; block 1: every thread; block 2: none. Non-zero values other than 1 count as true.
  static std::vector<int> predicates() {
    std::vector<int> p(kBlocks * kThreads, 0);
    for (unsigned t = 0; t < kThreads; ++t) {
      p[t] = t % 3 == 0 ? -5 : 0;
      p[kThreads + t] = static_cast<int>(t + 2);
    }
    return p;
  }

  struct Results {
    std::vector<int> count, all, any;
  };

  Results run() {
    cuconform::DeviceBuffer<int> in(predicates()), count(kBlocks * kThreads), all(kBlocks * kThreads),
        any(kBlocks * kThreads);
    cuconform::nvrtc::jit_module("sync.cu").launch("count_and_or", dim3(kBlocks), dim3(kThreads), in.get(), count.get(),
                                                   all.get(), any.get());
    return {count.to_host(), all.to_host(), any.to_host()};
  }

  // Per block, the value every one of its threads must get.
  static std::vector<int> per_block(int b0, int b1, int b2) {
    std::vector<int> v(kBlocks * kThreads);
    for (unsigned t = 0; t < kThreads; ++t) {
      v[t] = b0;
      v[kThreads + t] = b1;
      v[2 * kThreads + t] = b2;
    }
    return v;
  }

  static std::vector<int> truthy(const std::vector<int>& values) {
    std::vector<int> out;
    for (int v : values) out.push_back(v != 0);
    return out;
  }
};

RULE_F(NvrtcSyncthreads, CountReturnsNumberOfTruePredicates, "5.4.4.1",
       "in NVRTC-compiled code, __syncthreads_count returns to every thread the number of threads whose predicate is "
       "non-zero") {
  EXPECT_TRUE(cuconform::ElementsEqual(run().count, per_block(34, 100, 0)));
}

RULE_F(NvrtcSyncthreads, AndIsNonZeroIffAllPredicatesAre, "5.4.4.1",
       "in NVRTC-compiled code, __syncthreads_and returns non-zero iff the predicate is non-zero for all threads") {
  EXPECT_TRUE(cuconform::ElementsEqual(truthy(run().all), per_block(0, 1, 0)));
}

RULE_F(NvrtcSyncthreads, OrIsNonZeroIffAnyPredicateIs, "5.4.4.1",
       "in NVRTC-compiled code, __syncthreads_or returns non-zero iff the predicate is non-zero for any thread") {
  EXPECT_TRUE(cuconform::ElementsEqual(truthy(run().any), per_block(1, 1, 0)));
}

}  // namespace
