// 5.4.8.6 The guide's four DPX examples, each with the result its comment states.
#include <cuconform/cuconform.h>

#include <vector>

namespace {

enum Result : int {
  kMax3ReluPositive,    // __vimax3_s32_relu(-15, 8, 5)
  kMax3ReluNegative,    // __vimax3_s32_relu(-15, -2, -4)
  kAddMaxReluPositive,  // __viaddmax_s32_relu(-5, 6, -2)
  kAddMaxReluNegative,  // __viaddmax_s32_relu(-5, 4, -2)
  kVibminValue,         // __vibmin_u32(9, 6, &smaller_value)
  kVibminSmallerValue,  // smaller_value
  kVimax3U16x2,         // __vimax3_u16x2(0x00050002, 0x00070004, 0x00020006)
  kResultCount
};

// The guide's examples, with their operands passed in so that nothing is folded at compile time.
__global__ void guide_examples(const int* s, const unsigned* u, unsigned* results) {
  int a = s[0], b = s[1], c = s[2];
  results[kMax3ReluPositive] = static_cast<unsigned>(__vimax3_s32_relu(a, b, c));
  int d = s[3], e = s[4];
  results[kMax3ReluNegative] = static_cast<unsigned>(__vimax3_s32_relu(a, d, e));

  a = s[5], b = s[6], c = s[7];
  results[kAddMaxReluPositive] = static_cast<unsigned>(__viaddmax_s32_relu(a, b, c));
  d = s[8];
  results[kAddMaxReluNegative] = static_cast<unsigned>(__viaddmax_s32_relu(a, d, c));

  bool smaller_value = false;
  results[kVibminValue] = __vibmin_u32(u[0], u[1], &smaller_value);
  results[kVibminSmallerValue] = smaller_value;

  results[kVimax3U16x2] = __vimax3_u16x2(u[2], u[3], u[4]);
}

class DpxGuideExample : public cuconform::GpuTest {
 protected:
  unsigned result(Result r) {
    cuconform::DeviceBuffer<int> s(std::vector<int>{-15, 8, 5, -2, -4, -5, 6, -2, 4});
    cuconform::DeviceBuffer<unsigned> u(std::vector<unsigned>{9, 6, 0x00050002, 0x00070004, 0x00020006});
    cuconform::DeviceBuffer<unsigned> results(kResultCount);
    cuconform::launch(guide_examples, 1, 1, s.get(), u.get(), results.get());
    return results.value_at(r);
  }
};

RULE_F(DpxGuideExample, Vimax3S32Relu, "5.4.8.6",
       "__vimax3_s32_relu(-15, 8, 5) is 8 and __vimax3_s32_relu(-15, -2, -4) is 0") {
  EXPECT_EQ(static_cast<int>(result(kMax3ReluPositive)), 8);
  EXPECT_EQ(static_cast<int>(result(kMax3ReluNegative)), 0);
}

RULE_F(DpxGuideExample, ViaddmaxS32Relu, "5.4.8.6",
       "__viaddmax_s32_relu(-5, 6, -2) is 1 and __viaddmax_s32_relu(-5, 4, -2) is 0") {
  EXPECT_EQ(static_cast<int>(result(kAddMaxReluPositive)), 1);
  EXPECT_EQ(static_cast<int>(result(kAddMaxReluNegative)), 0);
}

RULE_F(DpxGuideExample, VibminU32Value, "5.4.8.6", "__vibmin_u32(9, 6, &smaller_value) returns 6") {
  EXPECT_EQ(result(kVibminValue), 6u);
}

// The CUDA Math API defines the predicate as (a <= b), false for (9, 6): the guide's comment contradicts it.
RULE_F(DpxGuideExample, VibminU32SmallerValue, "5.4.8.6",
       "__vibmin_u32(9, 6, &smaller_value) sets smaller_value to true, as the guide's example states") {
  EXPECT_EQ(result(kVibminSmallerValue), 1u);
}

RULE_F(DpxGuideExample, Vimax3U16x2, "5.4.8.6", "__vimax3_u16x2(0x00050002, 0x00070004, 0x00020006) is 0x00070006") {
  EXPECT_EQ(result(kVimax3U16x2), 0x00070006u);
}

}  // namespace
