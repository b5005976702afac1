// Capability gates: a rule this device or compiler cannot exercise skips, and says why.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace cuconform {

std::optional<std::string> missing_cc(int major, int minor);
std::optional<std::string> missing_device_count(int count);
std::optional<std::string> missing_attribute(cudaDeviceAttr attribute, const char* feature);

}  // namespace cuconform

#define CUCONFORM_SKIP_IF_(reason)           \
  do {                                       \
    if (auto cuconform_reason_ = (reason)) { \
      GTEST_SKIP() << *cuconform_reason_;    \
    }                                        \
  } while (0)

#define REQUIRE_CC(major, minor) CUCONFORM_SKIP_IF_(::cuconform::missing_cc(major, minor))
#define REQUIRE_DEVICE_COUNT(count) CUCONFORM_SKIP_IF_(::cuconform::missing_device_count(count))
#define REQUIRE_ATTRIBUTE(attribute, feature) CUCONFORM_SKIP_IF_(::cuconform::missing_attribute(attribute, feature))
// The code of this rule was compiled out because the compiler cannot build it.
#define SKIP_COMPILED_OUT(reason) GTEST_SKIP() << "compiled out: " << reason
