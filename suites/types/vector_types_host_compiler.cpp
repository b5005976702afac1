// 5.4.2.3 Built-in Types: 'If host code is not compiled with nvcc, the vector types and related functions can be
// imported by including the cuda_runtime.h header provided in the CUDA toolkit.' This file is plain C++: the build
// compiles it with the host C++ compiler, not in CUDA mode.
#if defined(__CUDACC__)
#error "vector_types_host_compiler.cpp must be compiled by the host C++ compiler, not as CUDA"
#endif

#include <cuda_runtime.h>

#include <cuconform/cuconform.h>

#include "vector_types_check.h"

namespace {

using namespace cuconform::types;

class HostCompilerVectorType : public ::testing::TestWithParam<int> {
 protected:
  const DocumentedLayout& row() const { return kDocumentedLayouts[GetParam()]; }
};

RULE_P(HostCompilerVectorType, SizeAndAlignmentMatchTable42, "5.4.2.3",
       "with cuda_runtime.h and a host compiler that is not nvcc, each vector type has the size and alignment of "
       "Table 42") {
  static const Layout layouts[] = CUCONFORM_MEASURED_LAYOUTS;
  EXPECT_TRUE(SizeAndAlignmentMatch(layouts[GetParam()], row()));
  EXPECT_TRUE(ComponentsInOrder(layouts[GetParam()], row()));
}

RULE_P(HostCompilerVectorType, MakeSetsComponentsInOrder, "5.4.2.3",
       "with cuda_runtime.h and a host compiler that is not nvcc, make_<type>(a, b, c, d) returns the vector whose "
       "x, y, z, w are a, b, c, d") {
  static const Made made[] = CUCONFORM_MADE_VALUES;
  EXPECT_TRUE(MadeInOrder(made[GetParam()], row()));
}

INSTANTIATE_TEST_SUITE_P(Table42, HostCompilerVectorType, ::testing::Range(0, kVectorTypeCount), vector_type_name);

}  // namespace
