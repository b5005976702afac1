// 5.4.7.3 CUDA Feature Testing Macros, with the features enabled: CMake compiles this translation unit with
// --extended-lambda --expt-relaxed-constexpr (nvcc only), and both macros must then be defined, in the host and the
// device compilation, and the features they announce must work. With clang these rules skip.
#include <cuconform/cuconform.h>

#include "feature_macros.h"

namespace {

using cuconform_macros::FeatureMacros;

#define CUCONFORM_REQUIRE_NVCC()                                                                      \
  do {                                                                                                \
    if (!CUCONFORM_NVIDIA_COMPILER) GTEST_SKIP() << "nvcc's flags and macros; this build uses clang"; \
  } while (0)

FeatureMacros host_view() { return CUCONFORM_FEATURE_MACROS_HERE; }

__global__ void capture_feature_macros(FeatureMacros* out) { *out = CUCONFORM_FEATURE_MACROS_HERE; }

// A constexpr host function: device code may call it only with relaxed constexpr.
constexpr int host_constexpr_square(int x) { return x * x; }

__global__ void call_host_constexpr(int x, int* out) {
#if defined(__CUDACC_RELAXED_CONSTEXPR__)
  *out = host_constexpr_square(x);
#endif
}

}  // namespace

namespace cuconform_macros {

template <class F>
__global__ void apply(F f, int x, int* out) {
  *out = f(x);
}

// Runs a __device__ lambda in a kernel; an extended lambda may not be defined in a private member function such as a
// test body, so it is defined here.
int seven_times_on_device(int x) {
  cuconform::DeviceBuffer<int> out(1);
#if defined(__CUDACC_EXTENDED_LAMBDA__)
  auto lambda = [] __device__(int v) { return 7 * v; };
  cuconform::launch(apply<decltype(lambda)>, 1, 1, lambda, x, out.get());
#endif
  return out.value_at(0);
}

}  // namespace cuconform_macros

namespace {

class EnabledFeatureMacro : public cuconform::GpuTest {};

RULE_F(EnabledFeatureMacro, ExtendedLambdaMacroDefinedWithTheFlag, "5.4.7.3",
       "with --extended-lambda, __CUDACC_EXTENDED_LAMBDA__ is defined in host and device compilation, and a "
       "__device__ lambda passed to a kernel runs") {
  CUCONFORM_REQUIRE_NVCC();
  cuconform::DeviceBuffer<FeatureMacros> device(1);
  cuconform::launch(capture_feature_macros, 1, 1, device.get());
  EXPECT_EQ(host_view().extended_lambda, 1);
  EXPECT_EQ(device.value_at(0).extended_lambda, 1);
  EXPECT_EQ(cuconform_macros::seven_times_on_device(6), 42);
}

RULE_F(EnabledFeatureMacro, RelaxedConstexprMacroDefinedWithTheFlag, "5.4.7.3",
       "with --expt-relaxed-constexpr, __CUDACC_RELAXED_CONSTEXPR__ is defined in host and device compilation, and "
       "device code can call a constexpr host function") {
  CUCONFORM_REQUIRE_NVCC();
  cuconform::DeviceBuffer<FeatureMacros> device(1);
  cuconform::launch(capture_feature_macros, 1, 1, device.get());
  EXPECT_EQ(host_view().relaxed_constexpr, 1);
  EXPECT_EQ(device.value_at(0).relaxed_constexpr, 1);
  cuconform::DeviceBuffer<int> out(1);
  cuconform::launch(call_host_constexpr, 1, 1, 9, out.get());
  EXPECT_EQ(out.value_at(0), 81);
}

}  // namespace
