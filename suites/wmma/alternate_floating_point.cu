// 5.4.11.2 Alternate Floating Point and 5.4.11.6: __nv_bfloat16 A and B with a float accumulator in the shapes of
// __half, and precision::tf32 (loaded from float memory holding values already representable in tf32) in 16x16x8.
#include "wmma_tile.h"

namespace {

using namespace cuconform_wmma;

// Operands in [-4, 4] (bf16) or [-8, 8] (tf32): exact in the type, and the float accumulator holds every result.
template <int M, int N, int K>
using Bfloat16 = Dense<M, N, K, __nv_bfloat16, __nv_bfloat16, float, -4, 4, -16, 16>;
using Tf32 = Dense<16, 16, 8, wmma::precision::tf32, float, float, -8, 8, -32, 32>;

class WmmaAlternateFloat : public cuconform::GpuTestWithParam<Case> {
 protected:
  void SetUp() override {
    cuconform::GpuTestWithParam<Case>::SetUp();
    if (IsSkipped()) return;
    REQUIRE_CC(8, 0);
  }
};

RULE_P(WmmaAlternateFloat, Bfloat16M16N16K16, "5.4.11.6",
       "mma_sync with __nv_bfloat16 A and B and a float accumulator, m16n16k16, computes D = A*B + C exactly, "
       "for every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<Bfloat16<16, 16, 16>>(GetParam())));
}

RULE_P(WmmaAlternateFloat, Bfloat16M32N8K16, "5.4.11.6",
       "mma_sync with __nv_bfloat16 A and B and a float accumulator, m32n8k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<Bfloat16<32, 8, 16>>(GetParam())));
}

RULE_P(WmmaAlternateFloat, Bfloat16M8N32K16, "5.4.11.6",
       "mma_sync with __nv_bfloat16 A and B and a float accumulator, m8n32k16, computes D = A*B + C exactly, for "
       "every layout of A, B, C and D and for ldm equal to and larger than the tile") {
  EXPECT_TRUE((MatchesHostReference<Bfloat16<8, 32, 16>>(GetParam())));
}

RULE_P(WmmaAlternateFloat, Tf32M16N16K8, "5.4.11.6",
       "mma_sync with precision::tf32 A and B loaded from float memory and a float accumulator, m16n16k8 (the "
       "only tf32 shape), computes D = A*B + C exactly, for every layout and ldm") {
  EXPECT_TRUE((MatchesHostReference<Tf32>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(Layouts, WmmaAlternateFloat, ::testing::ValuesIn(every_layout()), case_name);

}  // namespace
