// 5.4.1.5 __grid_constant__ Parameters: all threads of the grid access the parameter through one address, a
// reference to it binds to that object (no per-thread copy), and it holds the launch argument.
#include <cuconform/cuconform.h>

#include <cstdint>
#include <vector>

namespace {

struct GridParams {
  int values[64];
  int tag;
};

// Not inlined: the reference must be materialized as an address.
__device__ __noinline__ unsigned long long address_of(const GridParams& p) {
  return reinterpret_cast<std::uintptr_t>(&p);
}

__global__ void use_grid_constant(const __grid_constant__ GridParams p, unsigned long long* direct,
                                  unsigned long long* through_reference, int* sums) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  direct[i] = reinterpret_cast<std::uintptr_t>(&p);
  through_reference[i] = address_of(p);
  int sum = p.tag;
  for (int k = 0; k < 64; ++k) sum += p.values[(k + i) % 64] * (k + 1);
  sums[i] = sum;
}

class GridConstant : public cuconform::GpuTest {
 protected:
  static constexpr unsigned kBlocks = 4, kThreads = 96, kCount = kBlocks * kThreads;
  GridParams params() const {
    GridParams p{};
    for (int k = 0; k < 64; ++k) p.values[k] = 3 * k - 50;
    p.tag = 0x1234;
    return p;
  }
  struct Result {
    std::vector<unsigned long long> direct, through_reference;
    std::vector<int> sums;
  };
  Result run() {
    cuconform::DeviceBuffer<unsigned long long> direct(kCount), through_reference(kCount);
    cuconform::DeviceBuffer<int> sums(kCount);
    cuconform::launch(use_grid_constant, kBlocks, kThreads, params(), direct.get(), through_reference.get(),
                      sums.get());
    return {direct.to_host(), through_reference.to_host(), sums.to_host()};
  }
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(7, 0);  // __grid_constant__ needs compute capability 7.0
  }
};

RULE_F(GridConstant, EveryThreadSeesTheSameAddress, "5.4.1.5",
       "all threads of the grid see the same address for a __grid_constant__ parameter") {
  const Result r = run();
  EXPECT_TRUE(cuconform::ElementsEqual(r.direct, std::vector<unsigned long long>(kCount, r.direct[0])));
}

RULE_F(GridConstant, ReferenceBindsToTheParameterItself, "5.4.1.5",
       "passing a __grid_constant__ parameter by const reference creates no per-thread copy: the reference is to the "
       "parameter's single address") {
  const Result r = run();
  EXPECT_TRUE(cuconform::ElementsEqual(r.through_reference, r.direct));
}

RULE_F(GridConstant, HoldsTheLaunchArgument, "5.4.1.5",
       "a __grid_constant__ parameter holds the value passed at launch, for every thread") {
  const Result r = run();
  const GridParams p = params();
  std::vector<int> expected;
  for (unsigned i = 0; i < kCount; ++i) {
    int sum = p.tag;
    for (int k = 0; k < 64; ++k) sum += p.values[(k + i) % 64] * (k + 1);
    expected.push_back(sum);
  }
  EXPECT_TRUE(cuconform::ElementsEqual(r.sums, expected));
}

}  // namespace
