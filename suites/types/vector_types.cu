// 5.4.2.3 Built-in Types: size and alignment of every vector type (Table 42), the order of its components and its
// make_<type>() factory, as nvcc/clang compile them for the host and for the device.
#include <cuconform/cuconform.h>

#include <vector>

#include "vector_types_check.h"

namespace {

using namespace cuconform::types;

// --- Host code, compiled by the CUDA compiler of this build. -------------------------------------------------------

class HostVectorType : public ::testing::TestWithParam<int> {
 protected:
  const DocumentedLayout& row() const { return kDocumentedLayouts[GetParam()]; }
  static const Layout& measured(int i) {
    static const Layout layouts[] = CUCONFORM_MEASURED_LAYOUTS;
    return layouts[i];
  }
  static const Made& made(int i) {
    static const Made values[] = CUCONFORM_MADE_VALUES;
    return values[i];
  }
};

RULE_P(HostVectorType, SizeAndAlignmentMatchTable42, "5.4.2.3",
       "in host code each vector type has the size and alignment of Table 42 (LP64 column for long)") {
  EXPECT_TRUE(SizeAndAlignmentMatch(measured(GetParam()), row()));
}

RULE_P(HostVectorType, ComponentsAreXYZWInOrder, "5.4.2.3",
       "in host code the first, second, third and fourth components of a vector type are its x, y, z, w fields") {
  EXPECT_TRUE(ComponentsInOrder(measured(GetParam()), row()));
}

RULE_P(HostVectorType, MakeSetsComponentsInOrder, "5.4.2.3",
       "in host code make_<type>(a, b, c, d) returns the vector whose x, y, z, w are a, b, c, d") {
  EXPECT_TRUE(MadeInOrder(made(GetParam()), row()));
}

INSTANTIATE_TEST_SUITE_P(Table42, HostVectorType, ::testing::Range(0, kVectorTypeCount), vector_type_name);

// --- Device code. ----------------------------------------------------------------------------------------------------

__global__ void measure_vector_types(Layout* layouts, Made* made) {
  const Layout device_layouts[] = CUCONFORM_MEASURED_LAYOUTS;
  const Made device_made[] = CUCONFORM_MADE_VALUES;
  for (int i = 0; i < kVectorTypeCount; ++i) {
    layouts[i] = device_layouts[i];
    made[i] = device_made[i];
  }
}

class DeviceVectorType : public cuconform::GpuTestWithParam<int> {
 protected:
  struct Measurements {
    std::vector<Layout> layouts;
    std::vector<Made> made;
  };
  // One launch measures every type; the rules of all types read its result.
  static const Measurements& measurements() {
    static const Measurements result = [] {
      cuconform::DeviceBuffer<Layout> layouts(kVectorTypeCount);
      cuconform::DeviceBuffer<Made> made(kVectorTypeCount);
      cuconform::launch(measure_vector_types, 1, 1, layouts.get(), made.get());
      return Measurements{layouts.to_host(), made.to_host()};
    }();
    return result;
  }
  const DocumentedLayout& row() const { return kDocumentedLayouts[GetParam()]; }
};

RULE_P(DeviceVectorType, SizeAndAlignmentMatchTable42, "5.4.2.3",
       "in device code each vector type has the size and alignment of Table 42 (LP64 column for long)") {
  EXPECT_TRUE(SizeAndAlignmentMatch(measurements().layouts[GetParam()], row()));
}

RULE_P(DeviceVectorType, ComponentsAreXYZWInOrder, "5.4.2.3",
       "in device code the first, second, third and fourth components of a vector type are its x, y, z, w fields") {
  EXPECT_TRUE(ComponentsInOrder(measurements().layouts[GetParam()], row()));
}

RULE_P(DeviceVectorType, MakeSetsComponentsInOrder, "5.4.2.3",
       "in device code make_<type>(a, b, c, d) returns the vector whose x, y, z, w are a, b, c, d") {
  EXPECT_TRUE(MadeInOrder(measurements().made[GetParam()], row()));
}

INSTANTIATE_TEST_SUITE_P(Table42, DeviceVectorType, ::testing::Range(0, kVectorTypeCount), vector_type_name);

// --- The data model of long (footnote of Table 42). ---------------------------------------------------------------

RULE(LongDataModel, HostLongIsEightBytesOnLinux, "5.4.2.3",
     "long is 8 bytes on the C++ LP64 data model (Linux 64-bit)") {
#if defined(__linux__) && defined(__LP64__)
  EXPECT_EQ(sizeof(long), 8u);
#else
  GTEST_SKIP() << "not a Linux 64-bit (LP64) host";
#endif
}

__global__ void device_sizeof_long(unsigned long long* size) { *size = sizeof(long); }

class LongDataModelOnDevice : public cuconform::GpuTest {};

RULE_F(LongDataModelOnDevice, MatchesHost, "5.4.2.3",
       "long, and so the long vector types, have the host's size in device code (4 on LLP64, 8 on LP64)") {
  cuconform::DeviceBuffer<unsigned long long> size(1);
  cuconform::launch(device_sizeof_long, 1, 1, size.get());
  EXPECT_EQ(size.value_at(0), sizeof(long));
}

}  // namespace
