// 5.4.8.6 DPX comparison functions: three-way minimum and maximum, with and without ReLU (clamping to zero), and
// the two-parameter forms that also report which operand was larger or smaller. Each rule sweeps the boundary and
// random inputs of dpx_functions.h in one launch and compares every result and predicate with the host model.
// DPX is hardware-accelerated or emulated depending on the compute capability: the results are the same either way.
#include <cuconform/cuconform.h>

#include "dpx_sweep.h"

namespace {

using namespace cuconform_dpx;

class DpxComparison : public cuconform::GpuTest {};

RULE_F(DpxComparison, Vimax3S32, "5.4.8.6", "__vimax3_s32(a, b, c) returns max(a, b, c) of signed 32-bit integers") {
  EXPECT_TRUE(MatchesModel(kVimax3S32));
}

RULE_F(DpxComparison, Vimax3S16x2, "5.4.8.6",
       "__vimax3_s16x2(a, b, c) returns max(a, b, c) of each pair of signed 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kVimax3S16x2));
}

RULE_F(DpxComparison, Vimax3U32, "5.4.8.6", "__vimax3_u32(a, b, c) returns max(a, b, c) of unsigned 32-bit integers") {
  EXPECT_TRUE(MatchesModel(kVimax3U32));
}

RULE_F(DpxComparison, Vimax3U16x2, "5.4.8.6",
       "__vimax3_u16x2(a, b, c) returns max(a, b, c) of each pair of unsigned 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kVimax3U16x2));
}

RULE_F(DpxComparison, Vimin3S32, "5.4.8.6", "__vimin3_s32(a, b, c) returns min(a, b, c) of signed 32-bit integers") {
  EXPECT_TRUE(MatchesModel(kVimin3S32));
}

RULE_F(DpxComparison, Vimin3S16x2, "5.4.8.6",
       "__vimin3_s16x2(a, b, c) returns min(a, b, c) of each pair of signed 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kVimin3S16x2));
}

RULE_F(DpxComparison, Vimin3U32, "5.4.8.6", "__vimin3_u32(a, b, c) returns min(a, b, c) of unsigned 32-bit integers") {
  EXPECT_TRUE(MatchesModel(kVimin3U32));
}

RULE_F(DpxComparison, Vimin3U16x2, "5.4.8.6",
       "__vimin3_u16x2(a, b, c) returns min(a, b, c) of each pair of unsigned 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kVimin3U16x2));
}

RULE_F(DpxComparison, VimaxS32Relu, "5.4.8.6", "__vimax_s32_relu(a, b) returns max(a, b, 0)") {
  EXPECT_TRUE(MatchesModel(kVimaxS32Relu));
}

RULE_F(DpxComparison, VimaxS16x2Relu, "5.4.8.6",
       "__vimax_s16x2_relu(a, b) returns max(a, b, 0) of each pair of signed 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kVimaxS16x2Relu));
}

RULE_F(DpxComparison, ViminS32Relu, "5.4.8.6", "__vimin_s32_relu(a, b) returns max(min(a, b), 0)") {
  EXPECT_TRUE(MatchesModel(kViminS32Relu));
}

RULE_F(DpxComparison, ViminS16x2Relu, "5.4.8.6",
       "__vimin_s16x2_relu(a, b) returns max(min(a, b), 0) of each pair of signed 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kViminS16x2Relu));
}

RULE_F(DpxComparison, Vimax3S32Relu, "5.4.8.6", "__vimax3_s32_relu(a, b, c) returns max(a, b, c, 0)") {
  EXPECT_TRUE(MatchesModel(kVimax3S32Relu));
}

RULE_F(DpxComparison, Vimax3S16x2Relu, "5.4.8.6",
       "__vimax3_s16x2_relu(a, b, c) returns max(a, b, c, 0) of each pair of signed 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kVimax3S16x2Relu));
}

RULE_F(DpxComparison, Vimin3S32Relu, "5.4.8.6", "__vimin3_s32_relu(a, b, c) returns max(min(a, b, c), 0)") {
  EXPECT_TRUE(MatchesModel(kVimin3S32Relu));
}

RULE_F(DpxComparison, Vimin3S16x2Relu, "5.4.8.6",
       "__vimin3_s16x2_relu(a, b, c) returns max(min(a, b, c), 0) of each pair of signed 16-bit halves") {
  EXPECT_TRUE(MatchesModel(kVimin3S16x2Relu));
}

RULE_F(DpxComparison, VibmaxS32, "5.4.8.6", "__vibmax_s32(a, b, &pred) returns max(a, b) and sets pred to (a >= b)") {
  EXPECT_TRUE(MatchesModel(kVibmaxS32));
}

RULE_F(DpxComparison, VibmaxU32, "5.4.8.6", "__vibmax_u32(a, b, &pred) returns max(a, b) and sets pred to (a >= b)") {
  EXPECT_TRUE(MatchesModel(kVibmaxU32));
}

RULE_F(DpxComparison, VibmaxS16x2, "5.4.8.6",
       "__vibmax_s16x2(a, b, &pred_hi, &pred_lo) returns max(a, b) of each pair of signed 16-bit halves and "
       "sets pred_hi, pred_lo to (a >= b) of each half") {
  EXPECT_TRUE(MatchesModel(kVibmaxS16x2));
}

RULE_F(DpxComparison, VibmaxU16x2, "5.4.8.6",
       "__vibmax_u16x2(a, b, &pred_hi, &pred_lo) returns max(a, b) of each pair of unsigned 16-bit halves "
       "and sets pred_hi, pred_lo to (a >= b) of each half") {
  EXPECT_TRUE(MatchesModel(kVibmaxU16x2));
}

RULE_F(DpxComparison, VibminS32, "5.4.8.6", "__vibmin_s32(a, b, &pred) returns min(a, b) and sets pred to (a <= b)") {
  EXPECT_TRUE(MatchesModel(kVibminS32));
}

RULE_F(DpxComparison, VibminU32, "5.4.8.6", "__vibmin_u32(a, b, &pred) returns min(a, b) and sets pred to (a <= b)") {
  EXPECT_TRUE(MatchesModel(kVibminU32));
}

RULE_F(DpxComparison, VibminS16x2, "5.4.8.6",
       "__vibmin_s16x2(a, b, &pred_hi, &pred_lo) returns min(a, b) of each pair of signed 16-bit halves and "
       "sets pred_hi, pred_lo to (a <= b) of each half") {
  EXPECT_TRUE(MatchesModel(kVibminS16x2));
}

RULE_F(DpxComparison, VibminU16x2, "5.4.8.6",
       "__vibmin_u16x2(a, b, &pred_hi, &pred_lo) returns min(a, b) of each pair of unsigned 16-bit halves "
       "and sets pred_hi, pred_lo to (a <= b) of each half") {
  EXPECT_TRUE(MatchesModel(kVibminU16x2));
}

}  // namespace
