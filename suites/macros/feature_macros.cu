// 5.4.7.3 CUDA Feature Testing Macros: nvcc defines __CUDACC_DEVICE_ATOMIC_BUILTINS__ and
// __NVCC_DIAG_PRAGMA_SUPPORT__, and defines __CUDACC_EXTENDED_LAMBDA__ and __CUDACC_RELAXED_CONSTEXPR__ only when
// --extended-lambda and --expt-relaxed-constexpr are given. This translation unit is compiled with the build's flags;
// feature_macros_enabled.cu with both flags. The macros are nvcc's: with clang these rules skip.
#include <cuconform/cuconform.h>

#include "feature_macros.h"

#ifndef CUCONFORM_BUILD_HAS_EXTENDED_LAMBDA
#define CUCONFORM_BUILD_HAS_EXTENDED_LAMBDA 0
#endif
#ifndef CUCONFORM_BUILD_HAS_RELAXED_CONSTEXPR
#define CUCONFORM_BUILD_HAS_RELAXED_CONSTEXPR 0
#endif

namespace {

using cuconform_macros::FeatureMacros;

#define CUCONFORM_REQUIRE_NVCC()                                                                            \
  do {                                                                                                      \
    if (!CUCONFORM_NVIDIA_COMPILER) GTEST_SKIP() << "nvcc's feature-testing macros; this build uses clang"; \
  } while (0)

FeatureMacros host_view() { return CUCONFORM_FEATURE_MACROS_HERE; }

__global__ void capture_feature_macros(FeatureMacros* out) { *out = CUCONFORM_FEATURE_MACROS_HERE; }

// The device atomic built-ins the macro announces (5.4.5.2), used only where it is defined.
__global__ void use_atomic_builtins(int* value, int* old) {
#if defined(__CUDACC_DEVICE_ATOMIC_BUILTINS__)
  *old = __nv_atomic_fetch_add(value, 5, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
#endif
}

RULE(FeatureMacro, NvccDefinesDeviceAtomicBuiltinsMacro, "5.4.7.3",
     "nvcc defines __CUDACC_DEVICE_ATOMIC_BUILTINS__ (the device atomic built-ins are supported)") {
  CUCONFORM_REQUIRE_NVCC();
  EXPECT_EQ(host_view().device_atomic_builtins, 1);
}

RULE(FeatureMacro, NvccDefinesDiagPragmaSupportMacro, "5.4.7.3",
     "nvcc defines __NVCC_DIAG_PRAGMA_SUPPORT__ (the diagnostic control pragmas are supported)") {
  CUCONFORM_REQUIRE_NVCC();
  EXPECT_EQ(host_view().diag_pragma_support, 1);
}

RULE(FeatureMacro, ExtendedLambdaMacroFollowsTheFlag, "5.4.7.3",
     "__CUDACC_EXTENDED_LAMBDA__ is defined exactly when --extended-lambda (or --expt-extended-lambda) is given") {
  CUCONFORM_REQUIRE_NVCC();
  EXPECT_EQ(host_view().extended_lambda, CUCONFORM_BUILD_HAS_EXTENDED_LAMBDA) << "compiled with this build's flags";
}

RULE(FeatureMacro, RelaxedConstexprMacroFollowsTheFlag, "5.4.7.3",
     "__CUDACC_RELAXED_CONSTEXPR__ is defined exactly when --expt-relaxed-constexpr is given") {
  CUCONFORM_REQUIRE_NVCC();
  EXPECT_EQ(host_view().relaxed_constexpr, CUCONFORM_BUILD_HAS_RELAXED_CONSTEXPR) << "compiled with this build's flags";
}

class DeviceFeatureMacro : public cuconform::GpuTest {};

RULE_F(DeviceFeatureMacro, DeviceCompilationSeesTheSameMacros, "5.4.7.3",
       "the device compilation of a translation unit sees the same feature-testing macros as its host compilation") {
  CUCONFORM_REQUIRE_NVCC();
  cuconform::DeviceBuffer<FeatureMacros> device(1);
  cuconform::launch(capture_feature_macros, 1, 1, device.get());
  const FeatureMacros d = device.value_at(0), h = host_view();
  EXPECT_EQ(d.device_atomic_builtins, h.device_atomic_builtins) << "__CUDACC_DEVICE_ATOMIC_BUILTINS__";
  EXPECT_EQ(d.diag_pragma_support, h.diag_pragma_support) << "__NVCC_DIAG_PRAGMA_SUPPORT__";
  EXPECT_EQ(d.extended_lambda, h.extended_lambda) << "__CUDACC_EXTENDED_LAMBDA__";
  EXPECT_EQ(d.relaxed_constexpr, h.relaxed_constexpr) << "__CUDACC_RELAXED_CONSTEXPR__";
}

RULE_F(DeviceFeatureMacro, AtomicBuiltinsWorkWhereTheMacroIsDefined, "5.4.7.3",
       "where __CUDACC_DEVICE_ATOMIC_BUILTINS__ is defined, the device atomic built-ins compile and work") {
  if (!CUCONFORM_SEES_ATOMIC_BUILTINS)
    GTEST_SKIP() << "this compiler does not define __CUDACC_DEVICE_ATOMIC_BUILTINS__";
  cuconform::DeviceBuffer<int> value(std::vector<int>{37}), old(1);
  cuconform::launch(use_atomic_builtins, 1, 1, value.get(), old.get());
  EXPECT_EQ(value.value_at(0), 42);
  EXPECT_EQ(old.value_at(0), 37);
}

}  // namespace
