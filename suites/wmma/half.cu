// 5.4.11.6 Element Types and Matrix Sizes, __half rows: __half A and B with a float or a __half accumulator, in the
// shapes 16x16x16, 32x8x16 and 8x32x16 (5.4.11.1: load_matrix_sync, mma_sync, store_matrix_sync, every layout).
#include "wmma_tile.h"

namespace {

using namespace cuconform_wmma;

// Operands in [-4, 4] and C in [-16, 16]: every product, sum and result is exact in __half.
template <int M, int N, int K>
using HalfFloat = Dense<M, N, K, __half, __half, float, -4, 4, -16, 16>;
template <int M, int N, int K>
using HalfHalf = Dense<M, N, K, __half, __half, __half, -4, 4, -16, 16>;

class WmmaHalf : public cuconform::GpuTestWithParam<Case> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<Case>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(7, 0);
  }
};

RULE_P(WmmaHalf, FloatAccumulatorM16N16K16, "5.4.11.6",
       "mma_sync with __half A and B and a float accumulator, m16n16k16, computes D = A*B + C exactly, for every "
       "layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<HalfFloat<16, 16, 16>>(GetParam())));
}

RULE_P(WmmaHalf, FloatAccumulatorM32N8K16, "5.4.11.6",
       "mma_sync with __half A and B and a float accumulator, m32n8k16, computes D = A*B + C exactly, for every "
       "layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<HalfFloat<32, 8, 16>>(GetParam())));
}

RULE_P(WmmaHalf, FloatAccumulatorM8N32K16, "5.4.11.6",
       "mma_sync with __half A and B and a float accumulator, m8n32k16, computes D = A*B + C exactly, for every "
       "layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<HalfFloat<8, 32, 16>>(GetParam())));
}

RULE_P(WmmaHalf, HalfAccumulatorM16N16K16, "5.4.11.6",
       "mma_sync with __half A and B and a __half accumulator, m16n16k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<HalfHalf<16, 16, 16>>(GetParam())));
}

RULE_P(WmmaHalf, HalfAccumulatorM32N8K16, "5.4.11.6",
       "mma_sync with __half A and B and a __half accumulator, m32n8k16, computes D = A*B + C exactly, for every "
       "layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<HalfHalf<32, 8, 16>>(GetParam())));
}

RULE_P(WmmaHalf, HalfAccumulatorM8N32K16, "5.4.11.6",
       "mma_sync with __half A and B and a __half accumulator, m8n32k16, computes D = A*B + C exactly, for every "
       "layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<HalfHalf<8, 32, 16>>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(Layouts, WmmaHalf, ::testing::ValuesIn(every_layout()), case_name);

}  // namespace
