// 5.4.11.6 Element Types and Matrix Sizes, 8-bit integer rows: unsigned char and signed char A and B with an int
// accumulator, in the shapes 16x16x16, 32x8x16 and 8x32x16.
#include "wmma_tile.h"

namespace {

using namespace cuconform_wmma;

// The whole range of each type; C in [-2^20, 2^20]: the int accumulator holds every result.
template <int M, int N, int K>
using UnsignedChar = Dense<M, N, K, unsigned char, unsigned char, int, 0, 255, -(1 << 20), 1 << 20>;
template <int M, int N, int K>
using SignedChar = Dense<M, N, K, signed char, signed char, int, -128, 127, -(1 << 20), 1 << 20>;

class WmmaInteger : public cuconform::GpuTestWithParam<Case> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<Case>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(7, 2);
  }
};

RULE_P(WmmaInteger, UnsignedCharM16N16K16, "5.4.11.6",
       "mma_sync with unsigned char A and B and an int accumulator, m16n16k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<UnsignedChar<16, 16, 16>>(GetParam())));
}

RULE_P(WmmaInteger, UnsignedCharM32N8K16, "5.4.11.6",
       "mma_sync with unsigned char A and B and an int accumulator, m32n8k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<UnsignedChar<32, 8, 16>>(GetParam())));
}

RULE_P(WmmaInteger, UnsignedCharM8N32K16, "5.4.11.6",
       "mma_sync with unsigned char A and B and an int accumulator, m8n32k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<UnsignedChar<8, 32, 16>>(GetParam())));
}

RULE_P(WmmaInteger, SignedCharM16N16K16, "5.4.11.6",
       "mma_sync with signed char A and B and an int accumulator, m16n16k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<SignedChar<16, 16, 16>>(GetParam())));
}

RULE_P(WmmaInteger, SignedCharM32N8K16, "5.4.11.6",
       "mma_sync with signed char A and B and an int accumulator, m32n8k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<SignedChar<32, 8, 16>>(GetParam())));
}

RULE_P(WmmaInteger, SignedCharM8N32K16, "5.4.11.6",
       "mma_sync with signed char A and B and an int accumulator, m8n32k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<SignedChar<8, 32, 16>>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(Layouts, WmmaInteger, ::testing::ValuesIn(every_layout()), case_name);

}  // namespace
