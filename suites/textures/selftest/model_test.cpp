// Host-side checks of the texture model (texture_model.h), runnable without a GPU
// (build/<preset>/selftest/cuconform-textures-selftest). Not a suite: these check the model against the guide's own
// worked examples and check the exactness the GPU rules rely on, not the GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "texture_model.h"

namespace textures {
namespace {

TEST(TextureModel, SplitsOnTheGridWithoutRounding) {
  EXPECT_EQ(split(1.5).index, 1);
  EXPECT_EQ(split(1.5).weight, 128);
  EXPECT_EQ(split(-0.25).index, -1);
  EXPECT_EQ(split(-0.25).weight, 192);
  EXPECT_EQ(split(3.0).index, 3);
  EXPECT_EQ(split(3.0).weight, 0);
  for (int k = -1024; k <= 1024; ++k) {
    const Split s = split(k / 256.0);
    EXPECT_EQ(s.index * 256 + s.weight, k) << k;
    EXPECT_GE(s.weight, 0);
    EXPECT_LT(s.weight, 256);
  }
}

TEST(TextureModel, RoundsTheFractionToTheNearest256thAsInTheGatherExample) {
  // 6.2.14.1.6: x = 2.49805, xB = 1.99805, "closer to 256/256 than to 255/256", so xB = 2.
  const Split s = split(static_cast<double>(2.49805f) - 0.5);
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.weight, 0);
  EXPECT_FALSE(is_tie(static_cast<double>(2.49805f) - 0.5));
  EXPECT_TRUE(is_tie(1.0 + 1.0 / 512));
  EXPECT_EQ(split(1.0 + 3.0 / 4096).weight, 0);  // below the tie (8/4096): down
  EXPECT_EQ(split(1.0 + 9.0 / 4096).weight, 1);  // above the tie: up
}

TEST(TextureModel, LinearFilteringFollowsTheGuidesExamples) {
  Grid g{4, 1, 1, {10, 20, 40, 80}};
  EXPECT_EQ(linear1d(g, 0.5), 10.0f);   // a texel centre: T[i]
  EXPECT_EQ(linear1d(g, 3.5), 80.0f);   // the last centre reads no T[N]
  EXPECT_EQ(linear1d(g, 1.0), 15.0f);   // half way
  EXPECT_EQ(linear1d(g, 2.75), 50.0f);  // xB = 2.25: 0.75 * 40 + 0.25 * 80
  // 19.3: TL(x) = tex((N-1)/R x + 0.5): TL(0) = T[0], TL(R) = T[N-1].
  for (double r : {1.0, 4.0}) {
    EXPECT_EQ(linear1d(g, 0.5), 10.0f);
    EXPECT_EQ(linear1d(g, (4 - 1) / r * r + 0.5), 80.0f);
  }
  Grid g2{2, 2, 1, {0, 100, 200, 255}};
  EXPECT_EQ(linear2d(g2, 1.0, 1.0), (0 + 100 + 200 + 255) / 4.0f);
}

// The GPU rules compare bit for bit because their texels make the exact weighted sum a float: check that claim over
// every weight and random texels (1-D: below 2^15; 2-D: below 2^8; 3-D: 0 or 1).
TEST(TextureModel, TheRulesTexelsMakeEveryFilteredValueExactInFloat) {
  Lcg rng{99};
  for (int w = 0; w < 256; ++w) {
    const double a = w / 256.0;
    for (int n = 0; n < 64; ++n) {
      const double t0 = rng.below(1 << 15), t1 = rng.below(1 << 15);
      const double v = (1 - a) * t0 + a * t1;
      EXPECT_EQ(static_cast<double>(static_cast<float>(v)), v);
    }
    for (int wb = 0; wb < 256; wb += 3) {
      const double b = wb / 256.0;
      const double t[4] = {double(rng.below(256)), double(rng.below(256)), double(rng.below(256)),
                           double(rng.below(256))};
      const double v = (1 - a) * (1 - b) * t[0] + a * (1 - b) * t[1] + (1 - a) * b * t[2] + a * b * t[3];
      EXPECT_EQ(static_cast<double>(static_cast<float>(v)), v);
      // and so is every partial sum, whichever order the terms come in
      EXPECT_EQ(static_cast<double>(static_cast<float>((1 - a) * (1 - b) * t[0])), (1 - a) * (1 - b) * t[0]);
      for (int wc = 0; wc < 256; wc += 37) {
        const double c = wc / 256.0;
        double sum = 0;
        for (int corner = 0; corner < 8; ++corner) {
          const double weight = (corner & 1 ? a : 1 - a) * (corner & 2 ? b : 1 - b) * (corner & 4 ? c : 1 - c);
          sum += weight * rng.below(2);
          EXPECT_EQ(static_cast<double>(static_cast<float>(sum)), sum);
        }
      }
    }
  }
}

TEST(TextureModel, AddressingModesOfNormalizedCoordinates) {
  const int n = 8;
  EXPECT_EQ(address_normalized(Address::Wrap, -0.03125, n), 7);    // frac(-1/32) = 31/32
  EXPECT_EQ(address_normalized(Address::Mirror, -0.03125, n), 0);  // floor odd: 1 - 31/32
  EXPECT_EQ(address_normalized(Address::Mirror, 1.03125, n), 7);   // floor odd: 1 - 1/32
  EXPECT_EQ(address_normalized(Address::Mirror, 2.03125, n), 0);   // floor even
  EXPECT_EQ(address_normalized(Address::Clamp, 1.5, n), 7);
  EXPECT_EQ(address_normalized(Address::Clamp, -0.5, n), 0);
  EXPECT_EQ(address_normalized(Address::Border, 1.0, n), -1);
  EXPECT_EQ(address_normalized(Address::Border, 0.99, n), 7);
  EXPECT_EQ(address_unnormalized(Address::Clamp, 8.0, n), 7);
  EXPECT_EQ(address_unnormalized(Address::Border, -0.125, n), -1);
}

TEST(TextureModel, LinearBoundIsZeroAtCentresAndCoversTheH100sRoundedCombinedWeights) {
  // The first H100 run, 2-D at (x, y) = (0.50390625, 0.50390625): the GPU gave (254 T00 + T10 + T01) / 256, each
  // combined weight rounded to 1/256; that must lie within the bound, and a texel centre must be exact.
  const Grid g{2, 2, 1, {113, 81, 145, 7}};
  const double x = 0.50390625, y = 0.50390625;
  const double rounded = (254 * g.at(0, 0) + g.at(1, 0) + g.at(0, 1)) / 256.0;
  EXPECT_LE(std::fabs(rounded - linear2d(g, x, y)), linear_tolerance2d(g, x, y));
  EXPECT_EQ(linear_tolerance2d(g, 0.5, 1.5), 0.0);
  EXPECT_EQ(linear_tolerance1d(g, 1.5), 0.0);
  // Only the texels that take part: on y's centre, T[.,1] does not count.
  EXPECT_NEAR(linear_tolerance2d(g, 1.0, 0.5), (113 + 81) * (1.0 / 256 + 1.0 / (1 << 20)), 1e-12);
  // The 1-D border finding (T[0] / 2 at a centre) lies outside any bound.
  EXPECT_GT(std::fabs(g.at(0) / 2 - linear1d(g, 0.5)), linear_tolerance1d(g, 0.5));
}

}  // namespace
}  // namespace textures
