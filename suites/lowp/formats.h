// The host model of the low-precision formats: IEEE rounding of an exact value into binary16 (half), bfloat16,
// FP8 E4M3 and FP8 E5M2, written from the formats' definitions on the bits of a double (no CUDA header involved).
//
// A value to round is given as the unevaluated sum hi + lo of two doubles with |lo| <= ulp(hi)/2 (lo = 0 for a
// conversion): two guard bits below hi's last bit record whether the exact value lies a little above or below hi,
// which is all a coarser rounding needs to know. The same source is compiled for the GPU, where it serves only as
// the sweeps' filter; every verdict comes from the host's copy.
#pragma once

#include <cstdint>

#include "cuconform/bits.h"  // bits_of, float_from_bits, double_from_bits
#include "cuconform/host_device.h"

namespace cuconform::lowp {

enum class Rounding { Nearest, TowardZero, Down, Up };  // _rn, _rz, _rd, _ru

// What happens past the largest finite value: IEEE (half, bfloat16: infinity or the largest finite by the rounding
// direction), or the FP8 saturation modes of cuda_fp8.h.
enum class Overflow { Ieee, SatFinite, NoSat };

struct Format {
  int exponent_bits;
  int mantissa_bits;
  bool has_infinity;  // false for E4M3: S.1111.111 is its only NaN, S.1111.110 (448) its largest finite value
};

inline constexpr Format kHalf{5, 10, true};
inline constexpr Format kBfloat16{8, 7, true};
inline constexpr Format kE4M3{4, 3, false};
inline constexpr Format kE5M2{5, 2, true};

struct Model {
  std::uint32_t bits;  // the expected encoding (for a NaN: the format's canonical NaN, 0x7FFF or 0x7F)
  bool nan;            // any NaN encoding matches unless the rule says which one
};

CUCONFORM_HOST_DEVICE constexpr int width_of(Format f) { return 1 + f.exponent_bits + f.mantissa_bits; }
CUCONFORM_HOST_DEVICE constexpr int bias_of(Format f) { return (1 << (f.exponent_bits - 1)) - 1; }
CUCONFORM_HOST_DEVICE constexpr std::uint32_t sign_bit(Format f) { return 1u << (width_of(f) - 1); }
// Exponent field and mantissa as one number: it grows with the magnitude.
CUCONFORM_HOST_DEVICE constexpr std::uint32_t largest_finite_code(Format f) {
  const std::uint32_t all_ones = (1u << f.exponent_bits) - 1;
  return f.has_infinity ? (((all_ones - 1) << f.mantissa_bits) | ((1u << f.mantissa_bits) - 1))
                        : ((all_ones << f.mantissa_bits) | ((1u << f.mantissa_bits) - 2));
}
CUCONFORM_HOST_DEVICE constexpr std::uint32_t infinity_code(Format f) {
  return ((1u << f.exponent_bits) - 1) << f.mantissa_bits;
}
CUCONFORM_HOST_DEVICE constexpr std::uint32_t canonical_nan(Format f) { return sign_bit(f) - 1; }

CUCONFORM_HOST_DEVICE inline bool is_nan_bits(Format f, std::uint32_t bits) {
  const std::uint32_t magnitude = bits & (sign_bit(f) - 1);
  if (!f.has_infinity) return magnitude == canonical_nan(f);
  return magnitude > infinity_code(f);
}

CUCONFORM_HOST_DEVICE inline int leading_zeros(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}

// The result for a value past the largest finite one (or an infinite input, which never rounds).
CUCONFORM_HOST_DEVICE inline Model overflowed(Format f, Rounding r, Overflow o, bool negative, bool infinite) {
  const std::uint32_t sign = negative ? sign_bit(f) : 0;
  const Model largest{static_cast<std::uint16_t>(sign | largest_finite_code(f)), false};
  const Model infinity{static_cast<std::uint16_t>(sign | infinity_code(f)), false};
  const Model nan{static_cast<std::uint16_t>(canonical_nan(f)), true};
  switch (o) {
    case Overflow::SatFinite: return largest;  // "input larger than ... MAXNORM ... round to the MAXNORM"
    case Overflow::NoSat: return f.has_infinity ? infinity : nan;  // E4M3: "larger than the maximum ... become NaN"
    case Overflow::Ieee: break;
  }
  if (infinite) return infinity;
  switch (r) {
    case Rounding::Nearest: return infinity;
    case Rounding::TowardZero: return largest;
    case Rounding::Up: return negative ? largest : infinity;
    case Rounding::Down: return negative ? infinity : largest;
  }
  return infinity;
}

// hi + lo (|lo| <= ulp(hi)/2, exact) rounded to f in mode r.
CUCONFORM_HOST_DEVICE inline Model round_exact(Format f, Rounding r, Overflow o, double hi, double lo = 0.0) {
  const std::uint64_t b = bits_of(hi);
  const bool negative = (b >> 63) != 0;
  const int biased = static_cast<int>((b >> 52) & 0x7ff);
  std::uint64_t m = b & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) {
    if (m != 0) return {static_cast<std::uint16_t>(canonical_nan(f)), true};
    return overflowed(f, r, o, negative, true);
  }
  const std::uint16_t sign = negative ? static_cast<std::uint16_t>(sign_bit(f)) : 0;
  if (biased == 0 && m == 0) return {sign, false};  // a zero keeps its sign (lo is then zero too)
  int q = biased == 0 ? -1074 : biased - 1075;      // hi = m * 2^q
  if (biased != 0) m |= std::uint64_t{1} << 52;
  m <<= 2;
  q -= 2;
  if (lo != 0) {
    const bool lo_negative = (bits_of(lo) >> 63) != 0;
    if (lo_negative == negative) m |= 1;
    else m -= 1;  // strictly between hi and its neighbour
  }
  const int binade = 63 - leading_zeros(m) + q;  // 2^binade <= |value| < 2^(binade+1)
  const int min_exponent = 1 - bias_of(f);
  const int quantum = (binade > min_exponent ? binade : min_exponent) - f.mantissa_bits;  // result = n * 2^quantum
  const int shift = quantum - q;  // >= 1: the format has fewer bits than hi + two guard bits
  std::uint64_t n;
  enum { Exact, Below, Tie, Above } rest;
  if (shift >= 64) {
    n = 0;
    const std::uint64_t half = std::uint64_t{1} << 63;
    rest = shift > 64 || m < half ? Below : (m == half ? Tie : Above);
  } else {
    n = m >> shift;
    const std::uint64_t remainder = m & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    rest = remainder == 0 ? Exact : remainder < half ? Below : remainder == half ? Tie : Above;
  }
  bool up = false;
  switch (r) {
    case Rounding::Nearest: up = rest == Above || (rest == Tie && (n & 1) != 0); break;
    case Rounding::TowardZero: up = false; break;
    case Rounding::Up: up = rest != Exact && !negative; break;
    case Rounding::Down: up = rest != Exact && negative; break;
  }
  if (up) ++n;
  if (n == 0) return {sign, false};
  int exponent = quantum;
  if (n >> (f.mantissa_bits + 1)) {  // rounded up into the next binade
    n >>= 1;
    ++exponent;
  }
  std::int64_t code;
  if (n < (std::uint64_t{1} << f.mantissa_bits)) {
    code = static_cast<std::int64_t>(n);  // subnormal
  } else {
    const std::int64_t field = exponent + f.mantissa_bits + bias_of(f);
    code = (field << f.mantissa_bits) | static_cast<std::int64_t>(n - (std::uint64_t{1} << f.mantissa_bits));
  }
  if (code > static_cast<std::int64_t>(largest_finite_code(f))) return overflowed(f, r, o, negative, false);
  return {static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(code)), false};
}

// The value of an encoding, exactly (every format here is a subset of float).
CUCONFORM_HOST_DEVICE inline float value_of(Format f, std::uint32_t bits) {
  const bool negative = (bits & sign_bit(f)) != 0;
  const std::uint32_t magnitude = bits & (sign_bit(f) - 1);
  const std::uint32_t field = magnitude >> f.mantissa_bits;
  const std::uint32_t mantissa = magnitude & ((1u << f.mantissa_bits) - 1);
  const std::uint32_t sign = negative ? 0x80000000u : 0u;
  if (is_nan_bits(f, bits)) return float_from_bits(0x7fc00000u | sign);
  if (f.has_infinity && magnitude == infinity_code(f)) return float_from_bits(0x7f800000u | sign);
  // m * 2^(e - mantissa_bits), built as a double and narrowed exactly.
  const int e = field == 0 ? 1 - bias_of(f) : static_cast<int>(field) - bias_of(f);
  const std::uint64_t m = field == 0 ? mantissa : (mantissa | (1u << f.mantissa_bits));
  const std::uint64_t unit = static_cast<std::uint64_t>(1023 + e - f.mantissa_bits) << 52;  // 2^(e - M), normal
  const double value = static_cast<double>(m) * double_from_bits(unit);
  return negative ? -static_cast<float>(value) : static_cast<float>(value);
}

// hi + lo = a + b exactly (Knuth's two-sum; round-to-nearest double arithmetic, no contraction possible).
struct Sum {
  double hi, lo;
};
CUCONFORM_HOST_DEVICE inline Sum two_sum(double a, double b) {
  const double s = a + b;
  if (s != s || s - s != 0) return {s, 0.0};  // NaN or infinity: lo is meaningless
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);
  return {s, err};
}

}  // namespace cuconform::lowp
