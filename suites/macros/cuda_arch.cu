// 5.4.7.1 __CUDA_ARCH__ and 5.4.7.2 __CUDA_ARCH_SPECIFIC__ / __CUDA_ARCH_FAMILY_SPECIFIC__: defined only in device code
// (__device__, __host__ __device__ and __global__ functions), with __CUDA_ARCH__ = <version> * 10 for the virtual
// architecture compute_<version>. The device code records what the preprocessor gave it; GPU rules read that back
// and compare it with the targets this binary was built for (build_targets.h) and with the PTX version the runtime
// reports for the kernel. Other targets (sm_90a, sm_100f, compute_80 code run on sm_90, ...) are compile-time rules
// of suites/compile.
#include <cuconform/cuconform.h>

#include <optional>
#include <vector>

#include <cuconform/build_targets.h>

namespace {

using cuconform::device_targets;
using cuconform::Target;

// What the preprocessor defined where a view was taken.
struct MacroView {
  int arch_defined;
  int arch;
  int arch_specific_defined;
  int arch_specific;
  int family_specific_defined;
  int family_specific;
};

// The body differs between host and device compilation; the signature does not (5.4.7.1 constraint 1).
__host__ __device__ MacroView macros_here() {
  MacroView v{0, 0, 0, 0, 0, 0};
#if defined(__CUDA_ARCH__)
  v.arch_defined = 1;
  v.arch = __CUDA_ARCH__;
#endif
#if defined(__CUDA_ARCH_SPECIFIC__)
  v.arch_specific_defined = 1;
  v.arch_specific = __CUDA_ARCH_SPECIFIC__;
#endif
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  v.family_specific_defined = 1;
  v.family_specific = __CUDA_ARCH_FAMILY_SPECIFIC__;
#endif
  return v;
}

__device__ MacroView macros_in_device_function() { return macros_here(); }

// views[0]: in the __global__ function itself; [1]: in a __device__ function; [2]: in a __host__ __device__ one.
__global__ void capture_macros(MacroView* views) {
  MacroView v{0, 0, 0, 0, 0, 0};
#if defined(__CUDA_ARCH__)
  v.arch_defined = 1;
  v.arch = __CUDA_ARCH__;
#endif
#if defined(__CUDA_ARCH_SPECIFIC__)
  v.arch_specific_defined = 1;
  v.arch_specific = __CUDA_ARCH_SPECIFIC__;
#endif
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  v.family_specific_defined = 1;
  v.family_specific = __CUDA_ARCH_FAMILY_SPECIFIC__;
#endif
  views[0] = v;
  views[1] = macros_in_device_function();
  views[2] = macros_here();
}

MacroView macros_in_host_function() {
  MacroView v{0, 0, 0, 0, 0, 0};
#if defined(__CUDA_ARCH__)
  v.arch_defined = 1;
#endif
#if defined(__CUDA_ARCH_SPECIFIC__)
  v.arch_specific_defined = 1;
#endif
#if defined(__CUDA_ARCH_FAMILY_SPECIFIC__)
  v.family_specific_defined = 1;
#endif
  return v;
}

constexpr const char* kPlaces[3] = {"__global__ function", "__device__ function", "__host__ __device__ function"};

class DeviceMacros : public cuconform::GpuTest {
 protected:
  std::vector<MacroView> views() {
    cuconform::DeviceBuffer<MacroView> views(3);
    cuconform::launch(capture_macros, 1, 1, views.get());
    return views.to_host();
  }

  // The compute_<version> this kernel's code came from, as the runtime reports it.
  int ptx_version() {
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, capture_macros));
    return attributes.ptxVersion;
  }

  // The build target the running code was compiled for: the only one, or the one whose version the runtime
  // reports for the kernel.
  std::optional<Target> running_target() {
    const std::vector<Target> targets = device_targets();
    cuconform::record_metric("ptx_version", static_cast<long long>(ptx_version()));
    if (targets.size() == 1) return targets[0];
    for (const Target& t : targets) {
      if (t.version == ptx_version()) return t;
    }
    return std::nullopt;
  }
};

#define CUCONFORM_REQUIRE_RUNNING_TARGET(var)                                                             \
  const std::optional<Target> var##_found = running_target();                                             \
  if (!var##_found) {                                                                                     \
    GTEST_SKIP() << "the build targets '" CUCONFORM_DEVICE_TARGETS "' name no compute_" << ptx_version(); \
  }                                                                                                       \
  const Target var = *var##_found

RULE_F(DeviceMacros, CudaArchIsTheVirtualArchitectureTimesTen, "5.4.7.1",
       "in device code compiled for compute_<version>, __CUDA_ARCH__ is <version> * 10 (900 for compute_90)") {
  CUCONFORM_REQUIRE_RUNNING_TARGET(target);
  const std::vector<MacroView> v = views();
  ASSERT_EQ(v[0].arch_defined, 1);
  EXPECT_EQ(v[0].arch, target.version * 10) << "target compute_" << target.version << target.suffix;
  EXPECT_EQ(v[0].arch, ptx_version() * 10) << "the PTX version the runtime reports for the kernel";
  cuconform::record_metric("cuda_arch", static_cast<long long>(v[0].arch));
}

RULE_F(DeviceMacros, CudaArchDefinedInEveryKindOfDeviceFunction, "5.4.7.1",
       "__CUDA_ARCH__ is defined, with the same value, in __global__, __device__ and __host__ __device__ functions "
       "compiled for the device") {
  const std::vector<MacroView> v = views();
  for (int place = 0; place < 3; ++place) {
    EXPECT_EQ(v[place].arch_defined, 1) << kPlaces[place];
    EXPECT_EQ(v[place].arch, v[0].arch) << kPlaces[place];
  }
}

RULE(HostMacros, CudaArchUndefinedInHostCode, "5.4.7.1",
     "__CUDA_ARCH__ is not defined in host code: neither in a host function nor in a __host__ __device__ function "
     "compiled for the host") {
  EXPECT_EQ(macros_in_host_function().arch_defined, 0);
  EXPECT_EQ(macros_here().arch_defined, 0);
}

RULE_F(DeviceMacros, PlainTargetDefinesNoArchOrFamilySpecificMacro, "5.4.7.2",
       "for a target without 'a' or 'f' (nvcc -arch=sm_<version>), neither __CUDA_ARCH_SPECIFIC__ nor "
       "__CUDA_ARCH_FAMILY_SPECIFIC__ is defined in device code") {
  CUCONFORM_REQUIRE_RUNNING_TARGET(target);
  if (!target.suffix.empty()) GTEST_SKIP() << "this build's target is compute_" << target.version << target.suffix;
  for (const MacroView& v : views()) {
    EXPECT_EQ(v.arch_specific_defined, 0) << "__CUDA_ARCH_SPECIFIC__ = " << v.arch_specific;
    EXPECT_EQ(v.family_specific_defined, 0) << "__CUDA_ARCH_FAMILY_SPECIFIC__ = " << v.family_specific;
  }
}

RULE_F(DeviceMacros, ArchSpecificTargetDefinesBothMacros, "5.4.7.2",
       "for an architecture-specific target (arch=compute_<version>a,code=sm_<version>a), __CUDA_ARCH_SPECIFIC__ and "
       "__CUDA_ARCH_FAMILY_SPECIFIC__ both equal __CUDA_ARCH__ in device code") {
  CUCONFORM_REQUIRE_RUNNING_TARGET(target);
  if (target.suffix != "a") {
    GTEST_SKIP() << "this build's target is compute_" << target.version << target.suffix
                 << ", not architecture-specific (suites/compile covers the other targets)";
  }
  for (const MacroView& v : views()) {
    EXPECT_EQ(v.arch_specific_defined, 1);
    EXPECT_EQ(v.arch_specific, v.arch);
    EXPECT_EQ(v.family_specific_defined, 1);
    EXPECT_EQ(v.family_specific, v.arch);
  }
}

RULE_F(DeviceMacros, FamilySpecificTargetDefinesOnlyTheFamilyMacro, "5.4.7.2",
       "for a family-specific target (arch=compute_<version>f), __CUDA_ARCH_FAMILY_SPECIFIC__ equals __CUDA_ARCH__ "
       "and __CUDA_ARCH_SPECIFIC__ is not defined in device code") {
  CUCONFORM_REQUIRE_RUNNING_TARGET(target);
  if (target.suffix != "f") {
    GTEST_SKIP() << "this build's target is compute_" << target.version << target.suffix
                 << ", not family-specific (suites/compile covers the other targets)";
  }
  for (const MacroView& v : views()) {
    EXPECT_EQ(v.arch_specific_defined, 0);
    EXPECT_EQ(v.family_specific_defined, 1);
    EXPECT_EQ(v.family_specific, v.arch);
  }
}

RULE(HostMacros, ArchAndFamilySpecificMacrosUndefinedInHostCode, "5.4.7.2",
     "__CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__ are not defined in host code") {
  for (const MacroView& v : {macros_in_host_function(), macros_here()}) {
    EXPECT_EQ(v.arch_specific_defined, 0);
    EXPECT_EQ(v.family_specific_defined, 0);
  }
}

}  // namespace
