// 5.4.1.4 __restrict__ Pointers and 5.4.1.5 __grid_constant__ Parameters.
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

// ==================================================================================================================
// 5.4.1.4 __restrict__ Pointers: with restricted pointers that do not alias, the compiler may reorder and eliminate
// common sub-expressions 'while maintaining identical functionality to the abstract execution model'. The guide's
// two examples are run and compared with the abstract model on the host.
// ==================================================================================================================

// The guide's device_function, its six shown statements (the '...' omitted).
__device__ void device_function(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
  c[0] = a[0] * b[0];
  c[1] = a[0] * b[0];
  c[2] = a[0] * b[0] * a[1];
  c[3] = a[0] * a[1];
  c[4] = a[0] * b[0];
  c[5] = b[0];
}

__global__ void run_device_function(const float* a, const float* b, float* c) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  device_function(a + 2 * i, b + i, c + 6 * i);
}

std::vector<float> abstract_model(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c;
  for (size_t i = 0; i < b.size(); ++i) {
    const float a0 = a[2 * i], a1 = a[2 * i + 1], b0 = b[i];
    const float products[6] = {a0 * b0, a0 * b0, a0 * b0 * a1, a0 * a1, a0 * b0, b0};
    c.insert(c.end(), products, products + 6);
  }
  return c;
}

class RestrictPointers : public cuconform::GpuTest {};

RULE_F(RestrictPointers, GuideDeviceFunctionMatchesAbstractModel, "5.4.1.4",
       "with non-aliasing __restrict__ pointers the guide's device_function computes what the abstract execution "
       "model computes") {
  constexpr unsigned kThreads = 256;
  std::vector<float> a(2 * kThreads), b(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) {
    a[2 * i] = 1.0f + i * 0.37f;
    a[2 * i + 1] = -2.5f + i * 0.011f;
    b[i] = 0.75f - i * 0.123f;
  }
  cuconform::DeviceBuffer<float> device_a(a), device_b(b), device_c(6 * kThreads);
  cuconform::launch(run_device_function, 2, kThreads / 2, device_a.get(), device_b.get(), device_c.get());
  EXPECT_TRUE(cuconform::ElementsEqual(device_c.to_host(), abstract_model(a, b)));
}

// The guide's kernel2: a const __restrict__ kernel parameter is read through the read-only cache.
__global__ void kernel2(const float* __restrict__ in, float* out) { *out = *in; }

__global__ void copy_through_restrict(const float* __restrict__ in, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

RULE_F(RestrictPointers, ConstRestrictKernelParameterReadsTheInput, "5.4.1.4",
       "loads through a const __restrict__ kernel parameter (compiled as read-only cache loads) read the input") {
  std::vector<float> in(512);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 1.5f - 100.0f;
  cuconform::DeviceBuffer<float> device_in(in), out(in.size()), single(1);
  cuconform::launch(kernel2, 1, 1, device_in.get() + 7, single.get());
  EXPECT_EQ(single.value_at(0), in[7]);
  cuconform::launch(copy_through_restrict, 4, 128, device_in.get(), out.get());
  EXPECT_TRUE(cuconform::ElementsEqual(out.to_host(), in));
}

}  // namespace
