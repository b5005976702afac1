// 5.4.1.4 __restrict__ Pointers: with restricted pointers that do not alias, the compiler may reorder and eliminate
// common sub-expressions 'while maintaining identical functionality to the abstract execution model'. The guide's
// two examples are run and compared with the abstract model on the host.
#include <cuconform/cuconform.h>

#include <vector>

namespace {

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
