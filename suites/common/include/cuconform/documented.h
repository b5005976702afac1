// Documented per-compute-capability values (limits, feature availability) from spec/cc_values.toml.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string_view>

namespace cuconform {

// The value documented for `key` at compute capability `cc` (90 for 9.0), looked up through the chain
// sm_90 -> sm_9x -> common, as the harness does.
std::optional<long long> documented_value(std::string_view key, int cc);
// The same, for the device under test.
std::optional<long long> documented_value(std::string_view key);

}  // namespace cuconform

// Declares `const long long var` holding the documented value, or skips when the guide documents none here.
#define REQUIRE_DOCUMENTED(var, key)                                                                            \
  const auto var##_documented_ = ::cuconform::documented_value(key);                                            \
  if (!var##_documented_) {                                                                                     \
    GTEST_SKIP() << "spec/cc_values.toml documents no '" << key << "' for " << ::cuconform::device().cc_name(); \
  }                                                                                                             \
  const long long var = *var##_documented_
