// Comparisons that say where results differ: "3 of 1024 differ; first at [17]: actual 5, expected 6".
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace cuconform {

inline constexpr std::size_t kMismatchesShown = 8;

// Each mismatch is named by where(i), a string saying what element i observed (e.g. "block 1, phase 0, thread 5
// reading the slot of thread 9"), so that a failure reads as input, expected and observed value.
template <class T, class Where>
::testing::AssertionResult ElementsEqual(const std::vector<T>& actual, const std::vector<T>& expected,
                                         const Where& where) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << "sizes differ: actual " << actual.size() << ", expected "
                                         << expected.size();
  }
  std::size_t differing = 0;
  std::ostringstream shown;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] == expected[i]) continue;
    if (differing++ < kMismatchesShown) {
      shown << "\n  " << where(i) << ": actual " << ::testing::PrintToString(actual[i]) << ", expected "
            << ::testing::PrintToString(expected[i]);
    }
  }
  if (differing == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << differing << " of " << actual.size() << " elements differ" << shown.str();
}

template <class T>
::testing::AssertionResult ElementsEqual(const std::vector<T>& actual, const std::vector<T>& expected) {
  return ElementsEqual(actual, expected, [](std::size_t i) { return "[" + std::to_string(i) + "]"; });
}

// For atomics: the old values returned under contention are checked as a multiset against a host model.
template <class T>
::testing::AssertionResult SameMultiset(std::vector<T> actual, std::vector<T> expected) {
  std::sort(actual.begin(), actual.end());
  std::sort(expected.begin(), expected.end());
  auto result = ElementsEqual(actual, expected);
  if (!result) result << "\n  (compared as sorted multisets)";
  return result;
}

}  // namespace cuconform
