// The GPU filter's view of a result: the double-precision approximation r of the exact value, rounded to float in
// software (integer-exact double operations only, so no verdict depends on the GPU's conversion instructions).
// An input is re-checked exactly on the host when r lies so close to a point where the rounding changes (a midpoint
// for round-to-nearest, a float for the directed modes) that r's own error could move it across.
#pragma once

#include <cfloat>
#include <cmath>

#include "ulp.h"

namespace cuconform::math {

// r's relative error is a few double ulps (2^-50); a margin of 2^-20 float ulps leaves a factor of 2^9 to spare.
inline constexpr double kAmbiguityMargin = 0x1p-20;

struct Rounded {
  double value;    // r rounded to the result format in the requested mode
  bool ambiguous;  // the exact value might round differently
};

template <class R>
CUCONFORM_HOST_DEVICE inline Rounded round_approximation(double r, Rounding mode, bool r_is_exact);

// Results of type double are integer-valued or exact (conversions, rint, ilogb): the approximation is the value.
template <>
CUCONFORM_HOST_DEVICE inline Rounded round_approximation<double>(double r, Rounding, bool r_is_exact) {
  return {r, !r_is_exact};
}

template <>
CUCONFORM_HOST_DEVICE inline Rounded round_approximation<float>(double r, Rounding mode, bool r_is_exact) {
  if (is_nan(r) || is_inf(r) || r == 0) return {r, false};
  const bool negative = r < 0;
  const double magnitude = fabs(r);
  // The float grid spacing at |r|: 2^(e - 23) for 2^e <= |r| < 2^(e+1), and 2^-149 below 2^-126.
  int exponent = 0;
  frexp(magnitude, &exponent);
  int e = exponent - 1;
  if (e < -126) e = -126;
  const double spacing = ldexp(1.0, e - 23);
  const double scaled = magnitude / spacing;  // exact: a division by a power of two
  const double k = floor(scaled);
  const double fraction = scaled - k;  // exact
  double below = k * spacing, above = (k + 1) * spacing;
  const double largest = double(FLT_MAX);
  // Which way |r| goes: toward zero for RZ, and for RU/RD by the sign.
  bool up;
  switch (mode) {
    case Rounding::TowardZero: up = false; break;
    case Rounding::Up: up = !negative; break;
    case Rounding::Down: up = negative; break;
    default: up = fraction > 0.5 || (fraction == 0.5 && fmod(k, 2.0) == 1.0); break;
  }
  if (fraction == 0) up = false;
  double value = up ? above : below;
  // Past the largest float a directed mode overflows to infinity when it rounds away from zero, whether or not |r|
  // lies on the grid of float spacings (an r on it, e.g. 2^130, has fraction 0 and up false, yet RU gives +inf).
  const bool away = (mode == Rounding::Up && !negative) || (mode == Rounding::Down && negative);
  if (below >= 0x1p128) value = (mode == Rounding::Nearest || away) ? INFINITY : largest;  // past the largest float
  if (value > largest) {
    // RN overflows to infinity from FLT_MAX + half an ulp on; directed modes stop at FLT_MAX unless going away.
    value = (mode == Rounding::Nearest || away) ? INFINITY : largest;
  }
  bool ambiguous = false;
  if (!r_is_exact) {
    if (mode == Rounding::Nearest) {
      ambiguous = fabs(fraction - 0.5) <= kAmbiguityMargin;
    } else {
      ambiguous = fraction <= kAmbiguityMargin || fraction >= 1 - kAmbiguityMargin;
    }
  }
  return {negative ? -value : value, ambiguous};
}

// -ftz=true: the value an input has once a subnormal float is flushed to zero of the same sign.
CUCONFORM_HOST_DEVICE inline double flush_subnormal(double x) {
  return (x != 0 && fabs(x) < 0x1p-126) ? (x < 0 ? -0.0 : 0.0) : x;
}
CUCONFORM_HOST_DEVICE inline bool is_subnormal_float(double x) { return x != 0 && fabs(x) < 0x1p-126; }

}  // namespace cuconform::math
