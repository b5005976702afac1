// Self-tests of the host model (formats.h), no GPU: values worked out by hand from the formats' definitions, at
// the places where rounding is easiest to get wrong (ties, underflow, overflow, saturation, the guard bits).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "formats.h"

namespace cuconform::lowp {
namespace {

std::uint16_t rounded(Format f, Rounding r, double hi, double lo = 0.0, Overflow o = Overflow::Ieee) {
  return round_exact(f, r, o, hi, lo).bits;
}
constexpr Rounding RN = Rounding::Nearest, RZ = Rounding::TowardZero, RD = Rounding::Down, RU = Rounding::Up;
const double inf = std::numeric_limits<double>::infinity();

TEST(HalfModel, ExactValuesAndTies) {
  EXPECT_EQ(rounded(kHalf, RN, 1.0), 0x3c00);
  EXPECT_EQ(rounded(kHalf, RN, -2.0), 0xc000);
  EXPECT_EQ(rounded(kHalf, RN, -0.0), 0x8000);
  EXPECT_EQ(rounded(kHalf, RN, 1.0 + 0x1p-11), 0x3c00);            // tie to even
  EXPECT_EQ(rounded(kHalf, RN, 1.0 + 3 * 0x1p-11), 0x3c02);        // tie to even, upward
  EXPECT_EQ(rounded(kHalf, RN, 1.0 + 0x1p-11, 0x1p-60), 0x3c01);   // just above the tie
  EXPECT_EQ(rounded(kHalf, RN, 1.0 + 0x1p-11, -0x1p-60), 0x3c00);  // just below it
  EXPECT_EQ(rounded(kHalf, RZ, 1.0 - 0x1p-30), 0x3bff);
  EXPECT_EQ(rounded(kHalf, RU, 1.0 + 0x1p-30), 0x3c01);
  EXPECT_EQ(rounded(kHalf, RD, -1.0 - 0x1p-30), 0xbc01);
  EXPECT_EQ(rounded(kHalf, RU, -1.0 - 0x1p-30), 0xbc00);
  EXPECT_EQ(rounded(kHalf, RU, 1.0, 0x1p-80), 0x3c01);  // only lo says it is above 1
  EXPECT_EQ(rounded(kHalf, RD, 1.0, -0x1p-80), 0x3bff);
}

TEST(HalfModel, Underflow) {
  EXPECT_EQ(rounded(kHalf, RN, 0x1p-24), 0x0001);
  EXPECT_EQ(rounded(kHalf, RN, 0x1p-25), 0x0000);  // tie between 0 and the smallest subnormal
  EXPECT_EQ(rounded(kHalf, RN, -0x1p-25), 0x8000);
  EXPECT_EQ(rounded(kHalf, RN, 0x1p-25 + 0x1p-40), 0x0001);
  EXPECT_EQ(rounded(kHalf, RN, 3 * 0x1p-25), 0x0002);  // tie to even
  EXPECT_EQ(rounded(kHalf, RU, 0x1p-149), 0x0001);
  EXPECT_EQ(rounded(kHalf, RD, 0x1p-149), 0x0000);
  EXPECT_EQ(rounded(kHalf, RD, -0x1p-149), 0x8001);
  EXPECT_EQ(rounded(kHalf, RN, 0x1p-14 - 0x1p-25), 0x0400);  // rounds up into the normals
  EXPECT_EQ(rounded(kHalf, RN, 0x1p-1074), 0x0000);          // a double subnormal
}

TEST(HalfModel, Overflow) {
  EXPECT_EQ(rounded(kHalf, RN, 65504.0), 0x7bff);
  EXPECT_EQ(rounded(kHalf, RN, 65519.99), 0x7bff);
  EXPECT_EQ(rounded(kHalf, RN, 65520.0), 0x7c00);  // the tie past the largest value rounds to infinity
  EXPECT_EQ(rounded(kHalf, RZ, 1e6), 0x7bff);
  EXPECT_EQ(rounded(kHalf, RZ, inf), 0x7c00);
  EXPECT_EQ(rounded(kHalf, RU, 65504.5), 0x7c00);
  EXPECT_EQ(rounded(kHalf, RD, 1e300), 0x7bff);
  EXPECT_EQ(rounded(kHalf, RD, -65504.5), 0xfc00);
  EXPECT_EQ(rounded(kHalf, RU, -1e300), 0xfbff);
  EXPECT_TRUE(round_exact(kHalf, RN, Overflow::Ieee, std::nan("")).nan);
}

TEST(Bfloat16Model, TiesAndRange) {
  EXPECT_EQ(rounded(kBfloat16, RN, 1.0 + 0x1p-8), 0x3f80);
  EXPECT_EQ(rounded(kBfloat16, RN, 1.0 + 3 * 0x1p-8), 0x3f82);
  EXPECT_EQ(rounded(kBfloat16, RN, 0x1p-133), 0x0001);  // the smallest subnormal
  EXPECT_EQ(rounded(kBfloat16, RN, 0x1p-134), 0x0000);
  EXPECT_EQ(rounded(kBfloat16, RN, double(std::numeric_limits<float>::max())), 0x7f80);
  EXPECT_EQ(rounded(kBfloat16, RZ, double(std::numeric_limits<float>::max())), 0x7f7f);
}

TEST(Fp8Model, E4M3Saturation) {
  EXPECT_EQ(rounded(kE4M3, RN, 448.0, 0, Overflow::NoSat), 0x7e);
  EXPECT_EQ(rounded(kE4M3, RN, 464.0, 0, Overflow::NoSat), 0x7e);  // tie: 448's mantissa is even
  EXPECT_TRUE(round_exact(kE4M3, RN, Overflow::NoSat, 464.5).nan);
  EXPECT_EQ(rounded(kE4M3, RN, 464.5, 0, Overflow::SatFinite), 0x7e);
  EXPECT_EQ(rounded(kE4M3, RN, -inf, 0, Overflow::SatFinite), 0xfe);
  EXPECT_TRUE(round_exact(kE4M3, RN, Overflow::NoSat, inf).nan);
  EXPECT_EQ(rounded(kE4M3, RN, 0x1p-9, 0, Overflow::NoSat), 0x01);  // the smallest subnormal
  EXPECT_EQ(rounded(kE4M3, RN, 0x1p-10, 0, Overflow::NoSat), 0x00);
  EXPECT_EQ(rounded(kE4M3, RN, 1.0, 0, Overflow::NoSat), 0x38);
  EXPECT_TRUE(is_nan_bits(kE4M3, 0x7f));
  EXPECT_TRUE(is_nan_bits(kE4M3, 0xff));
  EXPECT_FALSE(is_nan_bits(kE4M3, 0x7e));
  EXPECT_EQ(value_of(kE4M3, 0x7e), 448.0f);
  EXPECT_EQ(value_of(kE4M3, 0x78), 256.0f);  // S.1111.000 is a number, not an infinity
}

TEST(Fp8Model, E5M2Saturation) {
  EXPECT_EQ(rounded(kE5M2, RN, 57344.0, 0, Overflow::NoSat), 0x7b);
  EXPECT_EQ(rounded(kE5M2, RN, 61440.0, 0, Overflow::NoSat), 0x7c);  // tie rounds to the even 65536: infinity
  EXPECT_EQ(rounded(kE5M2, RN, 61440.0, 0, Overflow::SatFinite), 0x7b);
  EXPECT_EQ(rounded(kE5M2, RN, inf, 0, Overflow::SatFinite), 0x7b);
  EXPECT_EQ(rounded(kE5M2, RN, -inf, 0, Overflow::NoSat), 0xfc);
  EXPECT_EQ(rounded(kE5M2, RN, 0x1p-16, 0, Overflow::NoSat), 0x01);
}

TEST(TwoSum, IsExact) {
  const Sum s = two_sum(1.0, 0x1p-80);
  EXPECT_EQ(s.hi, 1.0);
  EXPECT_EQ(s.lo, 0x1p-80);
  const Sum z = two_sum(-0.0, -0.0);
  EXPECT_TRUE(std::signbit(z.hi));
}

}  // namespace
}  // namespace cuconform::lowp
