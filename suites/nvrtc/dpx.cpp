// 5.4.8.6 DPX instructions, through NVRTC: kernels/dpx.cu compiled at run time. Each function is checked element
// by element against its documented semantics on seeded inputs, and the guide's own examples against their stated
// results.
#include <cuconform/cuconform.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "jit_kernels.h"

namespace {

constexpr int kCount = 4096;
constexpr unsigned kThreads = 256;

class NvrtcDpx : public cuconform::GpuTest {
 protected:
  cuconform::nvrtc::JitModule& module() { return cuconform::nvrtc::jit_module("dpx.cu"); }

  // Inputs that make a + b overflow nowhere: the guide leaves overflow undocumented.
  static std::vector<int> ints(unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(-(1 << 29), 1 << 29);
    std::vector<int> v(kCount);
    for (int& x : v) x = pick(random);
    v[0] = 0;  // a few edge values
    v[1] = -1;
    v[2] = 1 << 29;
    return v;
  }

  static std::vector<unsigned> uints(unsigned seed) {
    std::mt19937 random(seed);
    std::vector<unsigned> v(kCount);
    for (unsigned& x : v) x = static_cast<unsigned>(random());
    v[0] = 0;
    v[1] = 0xffffffffu;
    return v;
  }

  template <class T>
  std::vector<T> run3(const char* kernel, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c) {
    cuconform::DeviceBuffer<T> da(a), db(b), dc(c), out(kCount);
    module().launch(kernel, dim3((kCount + kThreads - 1) / kThreads), dim3(kThreads), da.get(), db.get(), dc.get(),
                    out.get(), kCount);
    return out.to_host();
  }
};

RULE_F(NvrtcDpx, Vimax3S32IsMaxOfThree, "5.4.8.6", "__vimax3_s32(a, b, c) returns max(a, b, c) of signed 32-bit ints") {
  const auto a = ints(1), b = ints(2), c = ints(3);
  std::vector<int> expected(kCount);
  for (int i = 0; i < kCount; ++i) expected[i] = std::max({a[i], b[i], c[i]});
  EXPECT_TRUE(cuconform::ElementsEqual(run3("vimax3_s32", a, b, c), expected));
}

RULE_F(NvrtcDpx, Vimin3U32IsMinOfThree, "5.4.8.6",
       "__vimin3_u32(a, b, c) returns min(a, b, c) of unsigned 32-bit ints") {
  const auto a = uints(4), b = uints(5), c = uints(6);
  std::vector<unsigned> expected(kCount);
  for (int i = 0; i < kCount; ++i) expected[i] = std::min({a[i], b[i], c[i]});
  EXPECT_TRUE(cuconform::ElementsEqual(run3("vimin3_u32", a, b, c), expected));
}

RULE_F(NvrtcDpx, ViaddmaxS32IsMaxOfSumAndThird, "5.4.8.6",
       "__viaddmax_s32(a, b, c) returns max(a + b, c) of signed 32-bit ints") {
  const auto a = ints(7), b = ints(8), c = ints(9);
  std::vector<int> expected(kCount);
  for (int i = 0; i < kCount; ++i) expected[i] = std::max(a[i] + b[i], c[i]);
  EXPECT_TRUE(cuconform::ElementsEqual(run3("viaddmax_s32", a, b, c), expected));
}

RULE_F(NvrtcDpx, ViaddminS32ReluClampsAtZero, "5.4.8.6",
       "__viaddmin_s32_relu(a, b, c) returns max(min(a + b, c), 0) of signed 32-bit ints") {
  const auto a = ints(10), b = ints(11), c = ints(12);
  std::vector<int> expected(kCount);
  for (int i = 0; i < kCount; ++i) expected[i] = std::max(std::min(a[i] + b[i], c[i]), 0);
  EXPECT_TRUE(cuconform::ElementsEqual(run3("viaddmin_s32_relu", a, b, c), expected));
}

RULE_F(NvrtcDpx, Vimax3S16x2IsMaxPerSignedHalf, "5.4.8.6",
       "__vimax3_s16x2(a, b, c) returns, in each 16-bit half, the max of the three signed 16-bit values") {
  const auto a = uints(13), b = uints(14), c = uints(15);
  std::vector<unsigned> expected(kCount);
  auto half = [](unsigned v, int shift) { return static_cast<int16_t>(static_cast<uint16_t>(v >> shift)); };
  for (int i = 0; i < kCount; ++i) {
    unsigned result = 0;
    for (int shift : {0, 16}) {
      const int16_t m = std::max({half(a[i], shift), half(b[i], shift), half(c[i], shift)});
      result |= static_cast<unsigned>(static_cast<uint16_t>(m)) << shift;
    }
    expected[i] = result;
  }
  EXPECT_TRUE(cuconform::ElementsEqual(run3("vimax3_s16x2", a, b, c), expected));
}

class NvrtcDpxGuideExamples : public NvrtcDpx {
 protected:
  std::vector<int> results() {
    cuconform::DeviceBuffer<int> out(7);
    module().launch("guide_examples", dim3(1), dim3(1), out.get());
    return out.to_host();
  }
};

RULE_F(NvrtcDpxGuideExamples, Vimax3S32Relu, "5.4.8.6",
       "__vimax3_s32_relu(-15, 8, 5) is 8 and __vimax3_s32_relu(-15, -2, -4) is 0 (the guide's example)") {
  const auto got = results();
  EXPECT_EQ(got[0], 8);
  EXPECT_EQ(got[1], 0);
}

RULE_F(NvrtcDpxGuideExamples, ViaddmaxS32Relu, "5.4.8.6",
       "__viaddmax_s32_relu(-5, 6, -2) is 1 and __viaddmax_s32_relu(-5, 4, -2) is 0 (the guide's example)") {
  const auto got = results();
  EXPECT_EQ(got[2], 1);
  EXPECT_EQ(got[3], 0);
}

RULE_F(NvrtcDpxGuideExamples, VibminU32MinimumAndPredicate, "5.4.8.6",
       "__vibmin_u32(9, 6, &smaller_value) returns 6 and sets smaller_value to true (the guide's example)") {
  const auto got = results();
  EXPECT_EQ(got[4], 6);
  EXPECT_EQ(got[5], 1) << "smaller_value";
}

RULE_F(NvrtcDpxGuideExamples, Vimax3U16x2, "5.4.8.6",
       "__vimax3_u16x2(0x00050002, 0x00070004, 0x00020006) is 0x00070006 (the guide's example)") {
  EXPECT_EQ(static_cast<unsigned>(results()[6]), 0x00070006u);
}

}  // namespace
