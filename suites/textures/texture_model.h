// The host model of PG12.9 19 (Texture Fetching) and of the addressing modes of 6.2.14.1.
//
// Exactness: the guide gives the formulas with alpha, beta, gamma "in 9-bit fixed point format with 8 bits of
// fractional value". Coordinates on the 1/256 grid need no conversion, so there the model is exact by the guide's
// own words. Off the grid, the guide's texture-gather note (6.2.14.1.6: 1.99805 "is closer to 256/256 than to
// 255/256", so xB becomes 2) says the fraction is rounded to the nearest 1/256; the model rounds to nearest and the
// rules keep away from ties, which the guide does not settle. The weighted sum is evaluated exactly (in double) and
// rounded once to float; the guide does not fix the arithmetic of the sum, so the linear rules compare within
// linear_tolerance*() (one 1/256 step per texel), exactly at texel centres.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace textures {

inline constexpr int kFractionBits = 8;
inline constexpr int kWeightOne = 1 << kFractionBits;  // 256: 1.0 in the 9-bit weight format

// xB = i + weight/256, the fraction rounded to the nearest 1/256 (ties are avoided by the rules).
struct Split {
  long long index;
  int weight;  // 0..256 is impossible by construction: 0..255
};

inline Split split(double xB) {
  const double scaled = std::floor(xB * kWeightOne + 0.5);
  const long long q = static_cast<long long>(scaled);
  const long long index = (q >= 0 ? q / kWeightOne : -((-q + kWeightOne - 1) / kWeightOne));
  return {index, static_cast<int>(q - index * kWeightOne)};
}

// Whether xB lies on a rounding tie of the 8-bit fraction (the guide does not say which way a tie goes).
inline bool is_tie(double xB) {
  const double scaled = xB * kWeightOne;
  return scaled - std::floor(scaled) == 0.5;
}

// 19.1: i = floor(x).
inline long long nearest_index(double x) { return static_cast<long long>(std::floor(x)); }

// A texture of up to three dimensions, texels in x-fastest order.
struct Grid {
  int width, height = 1, depth = 1;
  std::vector<float> texels;
  double at(long long i, long long j = 0, long long k = 0) const {
    return texels[static_cast<size_t>((k * height + j) * width + i)];
  }
};

// 19.2, coordinates in the valid range. A texel whose weight is zero is not read (at x = N - 0.5, T[N] does not
// exist).
inline float linear3d(const Grid& t, double x, double y, double z) {
  const Split s[3] = {split(x - 0.5), split(y - 0.5), split(z - 0.5)};
  double sum = 0;
  for (int dk = 0; dk < 2; ++dk)
    for (int dj = 0; dj < 2; ++dj)
      for (int di = 0; di < 2; ++di) {
        const int d[3] = {di, dj, dk};
        double weight = 1;
        for (int axis = 0; axis < 3; ++axis) {
          const double fraction = s[axis].weight / double(kWeightOne);
          weight *= d[axis] ? fraction : 1 - fraction;
        }
        if (weight != 0) sum += weight * t.at(s[0].index + di, s[1].index + dj, s[2].index + dk);
      }
  return static_cast<float>(sum);
}

// The guide fixes alpha, beta and gamma to 8 fractional bits but not the precision of the weighted sum: the products
// of the weights (alpha*beta, ...), the products with the texels and the additions may be evaluated in any arithmetic.
// The H100 rounds each texel's combined weight to 1/256 (2-D and 3-D values are multiples of 1/256 of the texels) and
// rounds a 16-bit float texture's result to half precision. The bound allowed around the exact value: one 1/256 step
// of each texel that takes part (a texel takes part when every axis it moves along has a non-zero weight), plus
// float rounding. At a texel centre (all weights zero) the bound is 0: the formula is T[i, j, k] in any arithmetic.
inline double linear_tolerance3d(const Grid& t, double x, double y, double z) {
  const Split s[3] = {split(x - 0.5), split(y - 0.5), split(z - 0.5)};
  if (s[0].weight == 0 && s[1].weight == 0 && s[2].weight == 0) return 0;
  double magnitude = 0;
  for (int dk = 0; dk <= (s[2].weight ? 1 : 0); ++dk)
    for (int dj = 0; dj <= (s[1].weight ? 1 : 0); ++dj)
      for (int di = 0; di <= (s[0].weight ? 1 : 0); ++di)
        magnitude += std::fabs(t.at(s[0].index + di, s[1].index + dj, s[2].index + dk));
  return magnitude * (1.0 / kWeightOne + 1.0 / (1 << 20));
}
inline double linear_tolerance2d(const Grid& t, double x, double y) { return linear_tolerance3d(t, x, y, 0.5); }
inline double linear_tolerance1d(const Grid& t, double x) { return linear_tolerance3d(t, x, 0.5, 0.5); }

// The 1-D and 2-D forms are the 3-D form with the unused coordinates on a texel centre (weight 0).
inline float linear2d(const Grid& t, double x, double y) { return linear3d(t, x, y, 0.5); }
inline float linear1d(const Grid& t, double x) { return linear3d(t, x, 0.5, 0.5); }

// 6.2.14.1 addressing of a normalized coordinate u (point filtering), giving the texel index in [0, n) or -1 for
// the border. Wrap: frac(u). Mirror: frac(u) if floor(u) is even, 1 - frac(u) if odd. Clamp: [0, 1).
enum class Address { Wrap, Clamp, Mirror, Border };

inline long long address_normalized(Address mode, double u, int n) {
  const double fl = std::floor(u), fr = u - fl;
  double v = u;
  switch (mode) {
    case Address::Wrap: v = fr; break;
    case Address::Mirror: v = (static_cast<long long>(fl) % 2 == 0) ? fr : 1 - fr; break;
    case Address::Clamp: v = u < 0 ? 0 : u; break;
    case Address::Border:
      if (u < 0 || u >= 1) return -1;
      break;
  }
  long long i = nearest_index(v * n);
  if (i > n - 1) i = n - 1;  // clamp to [0, 1): the last texel
  return i;
}

// Unnormalized coordinate x: clamp to [0, n), or the border (-1) outside it.
inline long long address_unnormalized(Address mode, double x, int n) {
  if (mode == Address::Border && (x < 0 || x >= n)) return -1;
  long long i = nearest_index(x);
  if (i < 0) i = 0;
  if (i > n - 1) i = n - 1;
  return i;
}

// A deterministic generator for texel values and sampled coordinates.
struct Lcg {
  std::uint64_t state;
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint32_t>(n)); }
};

}  // namespace textures
