// PG12.9 6.3 Versioning and Compatibility: the driver API is backward compatible but not forward compatible, so "the
// installed driver must be of the same or higher version than the maximum Driver API version against which any
// application, plug-ins, or libraries that must run on that system were built". This suite's runtime is linked in
// statically: the version it was built against is cudaRuntimeGetVersion(). A host rule: neither version function
// needs a device or initializes the runtime (6.2.1), so it still runs where the runtime refuses the driver, when
// every GPU rule skips with cudaErrorInsufficientDriver (the mutant driver-version-lowered of issue 34's campaign).
#include <cuconform/cuconform.h>

#include <cuda_runtime.h>

#include <string>

namespace {

// 13000 -> "13.0"
std::string version_name(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

RULE(Versioning, TheDriverIsNotOlderThanTheRuntime, "PG12.9 6.3",
     "the installed driver is of the same or a higher version than the Driver API version the runtime was built "
     "against: cudaDriverGetVersion() reports at least what cudaRuntimeGetVersion() does") {
  int runtime = 0, driver = 0;
  ASSERT_EQ(cudaRuntimeGetVersion(&runtime), cudaSuccess);
  ASSERT_EQ(cudaDriverGetVersion(&driver), cudaSuccess);
  if (driver == 0) GTEST_SKIP() << "no NVIDIA driver: cudaDriverGetVersion() reports 0 (libcuda.so.1 is not installed)";
  cuconform::record_metric("driver_version", static_cast<long long>(driver));
  cuconform::record_metric("runtime_version", static_cast<long long>(runtime));
  EXPECT_GE(driver, runtime) << "the driver reports CUDA " << version_name(driver) << " (" << driver
                             << "), older than the runtime's CUDA " << version_name(runtime) << " (" << runtime << ")";
}

}  // namespace
