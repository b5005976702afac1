// 5.4.11.4 Sub-byte Operations (experimental; the guide notes u4, s4 and b1 with XOR as deprecated "and will be
// removed in sm_90", yet the CUDA 13.0 headers and ptxas still build them for sm_90, so they are run): u4 and s4
// A and B with an int accumulator in 8x8x32, and b1 with bmma_sync (XOR or AND, then population count) in 8x8x128.
// A is row_major and B col_major, the only layouts allowed; elements are packed 8 (4-bit) or 32 (1-bit) to a word.
#include "wmma_tile.h"

namespace {

using namespace cuconform_wmma;

using U4 = Packed<8, 8, 32, experimental::precision::u4, 4, 0, 0, 15>;
using S4 = Packed<8, 8, 32, experimental::precision::s4, 4, 0, -8, 7>;
using B1Xor = Packed<8, 8, 128, experimental::precision::b1, 1, experimental::bmmaBitOpXOR, 0, 1>;
using B1And = Packed<8, 8, 128, experimental::precision::b1, 1, experimental::bmmaBitOpAND, 0, 1>;

class WmmaSubByte : public cuconform::GpuTestWithParam<Case> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<Case>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(7, 5);
  }
};

RULE_P(WmmaSubByte, U4M8N8K32, "5.4.11.4",
       "mma_sync with experimental::precision::u4 A and B and an int accumulator, m8n8k32, computes D = A*B + C "
       "exactly") {
  EXPECT_TRUE((MatchesHostReference<U4>(GetParam())));
}

RULE_P(WmmaSubByte, S4M8N8K32, "5.4.11.4",
       "mma_sync with experimental::precision::s4 A and B and an int accumulator, m8n8k32, computes D = A*B + C "
       "exactly") {
  EXPECT_TRUE((MatchesHostReference<S4>(GetParam())));
}

RULE_P(WmmaSubByte, B1XorPopcM8N8K128, "5.4.11.4",
       "bmma_sync with bmmaBitOpXOR on experimental::precision::b1 A and B, m8n8k128, computes D = popc(row of A "
       "XOR column of B) + C") {
  EXPECT_TRUE((MatchesHostReference<B1Xor>(GetParam())));
}

RULE_P(WmmaSubByte, B1AndPopcM8N8K128, "5.4.11.4",
       "bmma_sync with bmmaBitOpAND (compute capability 8.0 and higher) on experimental::precision::b1 A and B, "
       "m8n8k128, computes D = popc(row of A AND column of B) + C") {
  REQUIRE_CC(8, 0);
  EXPECT_TRUE((MatchesHostReference<B1And>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(Layouts, WmmaSubByte, ::testing::ValuesIn(sub_byte_layouts()), case_name);

}  // namespace
