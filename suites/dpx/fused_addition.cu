// 5.4.8.6 DPX fused addition and minimum/maximum: max(a + b, c), min(a + b, c), with and without ReLU. Unsigned
// 32-bit a + b is C++ unsigned addition (modulo 2^32); where a + b overflows a signed or 16-bit lane the documentation
// does not say what the function gives, so those lanes are left out of the comparison and only counted (metrics
// inputs_with_overflowing_sum and of_those_wrapping_around).
#include <cuconform/cuconform.h>

#include "dpx_sweep.h"

namespace {

using namespace cuconform_dpx;

class DpxFusedAddition : public cuconform::GpuTest {};

RULE_F(DpxFusedAddition, ViaddmaxS32, "5.4.8.6",
       "__viaddmax_s32(a, b, c) returns max(a + b, c) (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddmaxS32));
}

RULE_F(DpxFusedAddition, ViaddmaxS16x2, "5.4.8.6",
       "__viaddmax_s16x2(a, b, c) returns max(a + b, c) of each signed 16-bit half (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddmaxS16x2));
}

RULE_F(DpxFusedAddition, ViaddmaxU32, "5.4.8.6",
       "__viaddmax_u32(a, b, c) returns max(a + b, c) with unsigned a + b modulo 2^32") {
  EXPECT_TRUE(MatchesModel(kViaddmaxU32));
}

RULE_F(DpxFusedAddition, ViaddmaxU16x2, "5.4.8.6",
       "__viaddmax_u16x2(a, b, c) returns max(a + b, c) of each unsigned 16-bit half (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddmaxU16x2));
}

RULE_F(DpxFusedAddition, ViaddminS32, "5.4.8.6",
       "__viaddmin_s32(a, b, c) returns min(a + b, c) (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddminS32));
}

RULE_F(DpxFusedAddition, ViaddminS16x2, "5.4.8.6",
       "__viaddmin_s16x2(a, b, c) returns min(a + b, c) of each signed 16-bit half (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddminS16x2));
}

RULE_F(DpxFusedAddition, ViaddminU32, "5.4.8.6",
       "__viaddmin_u32(a, b, c) returns min(a + b, c) with unsigned a + b modulo 2^32") {
  EXPECT_TRUE(MatchesModel(kViaddminU32));
}

RULE_F(DpxFusedAddition, ViaddminU16x2, "5.4.8.6",
       "__viaddmin_u16x2(a, b, c) returns min(a + b, c) of each unsigned 16-bit half (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddminU16x2));
}

RULE_F(DpxFusedAddition, ViaddmaxS32Relu, "5.4.8.6",
       "__viaddmax_s32_relu(a, b, c) returns max(a + b, c, 0) (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddmaxS32Relu));
}

RULE_F(DpxFusedAddition, ViaddmaxS16x2Relu, "5.4.8.6",
       "__viaddmax_s16x2_relu(a, b, c) returns max(a + b, c, 0) of each signed 16-bit half (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddmaxS16x2Relu));
}

RULE_F(DpxFusedAddition, ViaddminS32Relu, "5.4.8.6",
       "__viaddmin_s32_relu(a, b, c) returns max(min(a + b, c), 0) (a + b not overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddminS32Relu));
}

RULE_F(DpxFusedAddition, ViaddminS16x2Relu, "5.4.8.6",
       "__viaddmin_s16x2_relu(a, b, c) returns max(min(a + b, c), 0) of each signed 16-bit half (a + b not "
       "overflowing)") {
  EXPECT_TRUE(MatchesModel(kViaddminS16x2Relu));
}

}  // namespace
