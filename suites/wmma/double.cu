// 5.4.11.3 Double Precision and 5.4.11.6: double A, B and accumulator in the shape 8x8x4. (The rounding of mma_sync
// on doubles is checked in fragments.cu.)
#include "wmma_tile.h"

namespace {

using namespace cuconform_wmma;

// Integer operands: every product and sum is exact in double.
using Double = Dense<8, 8, 4, double, double, double, -1000, 1000, -100000, 100000>;

class WmmaDouble : public cuconform::GpuTestWithParam<Case> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<Case>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(8, 0);
  }
};

RULE_P(WmmaDouble, DoubleM8N8K4, "5.4.11.6",
       "mma_sync with double A, B and accumulator, m8n8k4, computes D = A*B + C exactly, for every layout of A, "
       "B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<Double>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(Layouts, WmmaDouble, ::testing::ValuesIn(every_layout()), case_name);

}  // namespace
