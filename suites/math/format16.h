// The two 16-bit floating-point formats of the CUDA Math API's half and bfloat16 functions, by their encodings:
// binary16 (__half: 11-bit significand, exponents -14..15) and bfloat16 (__nv_bfloat16: 8-bit significand, float's
// exponent range). Host and device code share it (the error profile's slices, the host judge).
#pragma once

#include <cmath>
#include <cstdint>

#include "ulp.h"

namespace cuconform::math {

// The value of an enum is the format's precision, which is how libcuconform-mathref names a result format.
enum class Format16 : int { Half = 11, Bfloat16 = 8 };

CUCONFORM_HOST_DEVICE inline double decode16(std::uint16_t bits, Format16 format) {
  if (format == Format16::Bfloat16) return double(float_from_bits(std::uint32_t(bits) << 16));
  const int exponent = (bits >> 10) & 31, fraction = bits & 1023;
  const double magnitude = exponent == 31  ? (fraction ? NAN : INFINITY)
                           : exponent == 0 ? ldexp(double(fraction), -24)
                                           : ldexp(double(1024 + fraction), exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

// The encoding of x, a value of the format (NaN: the canonical quiet NaN). Another number gives the encoding of a
// neighbour (bfloat16: float's rounding, then truncation; binary16: truncation, infinity past 65504), which keeps
// the order: the error profile's slices of an arbitrary value stay monotone.
CUCONFORM_HOST_DEVICE inline std::uint16_t encode16(double x, Format16 format) {
  if (format == Format16::Bfloat16) return is_nan(x) ? 0x7fc0 : std::uint16_t(bits_of(float(x)) >> 16);
  const std::uint16_t sign = (bits_of(x) >> 63) ? 0x8000 : 0;
  const double a = fabs(x);
  if (is_nan(x)) return 0x7e00;
  if (a > 65504) return sign | 0x7c00;
  if (a < 0x1p-14) return sign | std::uint16_t(a * 0x1p24);  // subnormal (or zero): exact
  int e = 0;
  frexp(a, &e);  // a = f 2^e, 0.5 <= f < 1
  const std::uint16_t fraction = std::uint16_t(ldexp(a, 11 - e) - 1024);
  return sign | std::uint16_t((e + 14) << 10) | fraction;
}

CUCONFORM_HOST_DEVICE inline bool is_nan16(std::uint16_t bits, Format16 format) {
  return format == Format16::Half ? (bits & 0x7fff) > 0x7c00 : (bits & 0x7fff) > 0x7f80;
}

// Position on the number line (ulp.h's ordinal): both zeros are 0, neighbours differ by 1.
CUCONFORM_HOST_DEVICE inline std::int64_t ordinal16(std::uint16_t bits) {
  const std::int64_t magnitude = bits & 0x7fff;
  return (bits & 0x8000) ? -magnitude : magnitude;
}

// The integer ulp distance of ulp.h in a 16-bit format.
CUCONFORM_HOST_DEVICE inline std::uint64_t ulp_distance16(std::uint16_t a, std::uint16_t b, Format16 format) {
  const bool nan_a = is_nan16(a, format), nan_b = is_nan16(b, format);
  if (nan_a || nan_b) return nan_a && nan_b ? 0 : kNanDistance;
  const std::int64_t d = ordinal16(a) - ordinal16(b);
  return std::uint64_t(d < 0 ? -d : d);
}

// Input lane 1 of input i of a paired (half2, nv_bfloat162) sweep: a permutation of the 65536 encodings (an odd
// multiplier modulo 2^16), so that each lane meets every input once and the two lanes of one call differ.
CUCONFORM_HOST_DEVICE inline std::uint16_t second_lane16(std::uint32_t i) {
  return std::uint16_t(i * 40503u + 0x3c01u);
}

}  // namespace cuconform::math
