// Checks of one measured vector type against its row of Table 42 (5.4.2.3), shared by the host and device rules.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "vector_types_table.h"

namespace cuconform::types {

// The components make_<type>() is called with in every rule: distinct, so that a swapped field shows.
inline constexpr double kMakeArguments[4] = {3, 5, 7, 11};

// What make_<type>(3, 5, 7, 11) (first `components` arguments) put into x, y, z, w.
struct Made {
  double component[4];
};

#define CUCONFORM_MAKE_1_(type) make_##type(3)
#define CUCONFORM_MAKE_2_(type) make_##type(3, 5)
#define CUCONFORM_MAKE_3_(type) make_##type(3, 5, 7)
#define CUCONFORM_MAKE_4_(type) make_##type(3, 5, 7, 11)

template <int N, class T>
CUCONFORM_HOST_DEVICE Made components_of(const T& v) {
  Made made{{double(v.x), 0, 0, 0}};
  if constexpr (N >= 2) made.component[1] = double(v.y);
  if constexpr (N >= 3) made.component[2] = double(v.z);
  if constexpr (N >= 4) made.component[3] = double(v.w);
  return made;
}

#define CUCONFORM_MADE_ROW_(type, component, n, ...) components_of<n>(CUCONFORM_MAKE_##n##_(type)),
#define CUCONFORM_MADE_VALUES {CUCONFORM_VECTOR_TYPES(CUCONFORM_MADE_ROW_)}

inline ::testing::AssertionResult SizeAndAlignmentMatch(const Layout& measured, const DocumentedLayout& row) {
  if (measured.size == row.size && measured.alignment == row.alignment) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << row.name << ": sizeof " << measured.size << ", alignof " << measured.alignment
                                       << "; Table 42 documents size " << row.size << ", alignment " << row.alignment;
}

// x, y, z, w are the first, second, third and fourth components: consecutive, in that order.
inline ::testing::AssertionResult ComponentsInOrder(const Layout& measured, const DocumentedLayout& row) {
  for (int i = 0; i < row.components; ++i) {
    if (measured.offset[i] != i * row.component_size) {
      return ::testing::AssertionFailure() << row.name << ": component " << "xyzw"[i] << " at offset "
                                           << measured.offset[i] << ", expected " << i * row.component_size;
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult MadeInOrder(const Made& made, const DocumentedLayout& row) {
  for (int i = 0; i < row.components; ++i) {
    if (made.component[i] != kMakeArguments[i]) {
      return ::testing::AssertionFailure()
             << "make_" << row.name << ": component " << "xyzw"[i] << " is " << made.component[i]
             << ", expected argument " << i + 1 << " (" << kMakeArguments[i] << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

inline std::string vector_type_name(const ::testing::TestParamInfo<int>& info) {
  return kDocumentedLayouts[info.param].name;
}

}  // namespace cuconform::types
