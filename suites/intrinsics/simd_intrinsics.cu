// CUDA Math API 13.0 "SIMD Intrinsics": the 2-lane (16-bit halfword) and 4-lane (byte) forms of each operation,
// every lane against the host model (model.h). One rule per documented statement; its tests are the intrinsics
// the statement covers. Binary intrinsics sweep inputs that give each lane every pair of lane values (Lanes16,
// Lanes8 in functions.h): exhaustive per lane in the full profile.
#include <cuconform/cuconform.h>

#include "sweep.h"

namespace {

using namespace cuconform_intrinsics;

#define SIMD_RULE(fixture, name, statement, ...)                                                                    \
  class fixture : public IntrinsicTestWithParam {};                                                                 \
  RULE_P(fixture, name, "CUDA Math API 13.0 SIMD Intrinsics", statement) { EXPECT_TRUE(MatchesModel(GetParam())); } \
  INSTANTIATE_TEST_SUITE_P(Intrinsics, fixture, ::testing::Values(__VA_ARGS__), ParamName)

SIMD_RULE(SimdWrapAround, AbsAndNegWrapPerLane,
          "__vabs2/4 and __vneg2/4 return each lane's absolute value or negation modulo the lane width (the most "
          "negative lane stays itself)",
          k_vabs2, k_vabs4, k_vneg2, k_vneg4);

SIMD_RULE(SimdSignedSaturation, AbsAndNegSaturatePerLane,
          "__vabsss2/4 and __vnegss2/4 return each lane's absolute value or negation with signed saturation", k_vabsss2,
          k_vabsss4, k_vnegss2, k_vnegss4);

SIMD_RULE(SimdAddSubtract, WrapAroundPerLane,
          "__vadd2/4 and __vsub2/4 add or subtract corresponding lanes with wrap-around", k_vadd2, k_vadd4, k_vsub2,
          k_vsub4);

SIMD_RULE(SimdAddSubtractSigned, SaturatePerLane,
          "__vaddss2/4 and __vsubss2/4 add or subtract corresponding signed lanes with signed saturation", k_vaddss2,
          k_vaddss4, k_vsubss2, k_vsubss4);

SIMD_RULE(SimdAddSubtractUnsigned, SaturatePerLane,
          "__vaddus2/4 and __vsubus2/4 add or subtract corresponding unsigned lanes with unsigned saturation",
          k_vaddus2, k_vaddus4, k_vsubus2, k_vsubus4);

SIMD_RULE(SimdAverage, RoundedPerLane,
          "__vavgs2/4 and __vavgu2/4 return the rounded average (a + b + 1) >> 1 of corresponding signed or "
          "unsigned lanes, without overflow",
          k_vavgs2, k_vavgs4, k_vavgu2, k_vavgu4);

SIMD_RULE(SimdHalvingAdd, TruncatedPerLane,
          "__vhaddu2/4 return the average (a + b) >> 1 of corresponding unsigned lanes, without overflow", k_vhaddu2,
          k_vhaddu4);

SIMD_RULE(SimdAbsoluteDifference, PerLane,
          "__vabsdiffs2/4 and __vabsdiffu2/4 return |a - b| of corresponding signed or unsigned lanes", k_vabsdiffs2,
          k_vabsdiffs4, k_vabsdiffu2, k_vabsdiffu4);

SIMD_RULE(SimdMinMax, PerLane,
          "__vmaxs/__vmaxu/__vmins/__vminu 2/4 return the signed or unsigned maximum or minimum of corresponding "
          "lanes",
          k_vmaxs2, k_vmaxs4, k_vmaxu2, k_vmaxu4, k_vmins2, k_vmins4, k_vminu2, k_vminu4);

SIMD_RULE(SimdSumOfAbsoluteDifferences, AcrossLanes,
          "__vsads2/4 and __vsadu2/4 return the sum over the lanes of |a - b| of corresponding signed or unsigned "
          "lanes",
          k_vsads2, k_vsads4, k_vsadu2, k_vsadu4);

SIMD_RULE(SimdCompare, AllOnesLaneWhereTheComparisonHolds,
          "__vcmp<op>2/4 set each lane to all ones (0xffff, 0xff) where a <op> b holds for that lane (signed for "
          "...s, unsigned for ...u), else 0",
          k_vcmpeq2, k_vcmpeq4, k_vcmpne2, k_vcmpne4, k_vcmpges2, k_vcmpges4, k_vcmpgeu2, k_vcmpgeu4, k_vcmpgts2,
          k_vcmpgts4, k_vcmpgtu2, k_vcmpgtu4, k_vcmples2, k_vcmples4, k_vcmpleu2, k_vcmpleu4, k_vcmplts2, k_vcmplts4,
          k_vcmpltu2, k_vcmpltu4);

SIMD_RULE(SimdSet, ReturnsOneWhenEveryLaneCompares,
          "__vset<op>2/4 return 1 if a <op> b holds for both (all 4) pairs of lanes, else 0", k_vseteq2, k_vseteq4,
          k_vsetne2, k_vsetne4, k_vsetges2, k_vsetges4, k_vsetgeu2, k_vsetgeu4, k_vsetgts2, k_vsetgts4, k_vsetgtu2,
          k_vsetgtu4, k_vsetles2, k_vsetles4, k_vsetleu2, k_vsetleu4, k_vsetlts2, k_vsetlts4, k_vsetltu2, k_vsetltu4);

}  // namespace
