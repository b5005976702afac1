// The metric of PG12.9 17.1: the integer distance in ulps between a result and the correctly rounded result, i.e.
// how many representable numbers lie between them. Host and device code share it (the GPU filter, the host
// re-check and the self-tests compute it the same way).
//
// Conventions: +0 and -0 are the same point (distance 0); +inf lies one step after the largest finite number
// (so a result that overflows to inf where the correctly rounded result is FLT_MAX is 1 ulp off); two NaNs are
// distance 0 apart, a NaN and a number are kNanDistance apart.
#pragma once

#include <cstdint>

#include "cuconform/bits.h"  // bits_of, float_from_bits, double_from_bits
#include "cuconform/host_device.h"

namespace cuconform::math {

inline constexpr std::uint64_t kNanDistance = std::uint64_t(1) << 62;

CUCONFORM_HOST_DEVICE inline bool is_nan(float x) { return (bits_of(x) & 0x7fffffffu) > 0x7f800000u; }
CUCONFORM_HOST_DEVICE inline bool is_nan(double x) {
  return (bits_of(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

CUCONFORM_HOST_DEVICE inline bool is_inf(double x) {
  return (bits_of(x) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;
}

// Conversions and a zero test that keep subnormal floats in every build. nvcc's -ftz=true gives every f32
// conversion and comparison of a translation unit the .ftz modifier (cvt.rn.ftz.f32.f64, cvt.ftz.f64.f32,
// setp.eq.ftz.f32), the GPU filter's own judging code too, so the math-ftz and math-fast-math filters judged a
// subnormal input or reference as zero while the host re-check did not. These use the PTX forms without .ftz on
// the device (PTX ISA 9.0, cvt: without .ftz, subnormal inputs and results are supported), so the filter decides
// as the host does whatever the variant's flags; only the function under test is compiled under them.
template <class R>
CUCONFORM_HOST_DEVICE inline R narrow(double x) {
  return static_cast<R>(x);
}
template <>
CUCONFORM_HOST_DEVICE inline float narrow<float>(double x) {
#ifdef __CUDA_ARCH__
  float r;
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(r) : "d"(x));
  return r;
#else
  return static_cast<float>(x);
#endif
}
template <class T>
CUCONFORM_HOST_DEVICE inline double widen(T x) {
  return static_cast<double>(x);
}
template <>
CUCONFORM_HOST_DEVICE inline double widen<float>(float x) {
#ifdef __CUDA_ARCH__
  double r;
  asm("cvt.f64.f32 %0, %1;" : "=d"(r) : "f"(x));
  return r;
#else
  return static_cast<double>(x);
#endif
}
template <class T>
CUCONFORM_HOST_DEVICE inline bool is_zero(T x) {
  return x == T(0);
}
template <>
CUCONFORM_HOST_DEVICE inline bool is_zero<float>(float x) {
  return (bits_of(x) & 0x7fffffffu) == 0;
}

// Position on the number line: consecutive representable numbers are consecutive integers, both zeros are 0.
CUCONFORM_HOST_DEVICE inline std::int64_t ordinal(float x) {
  const std::uint32_t b = bits_of(x);
  const std::int64_t magnitude = b & 0x7fffffffu;
  return (b >> 31) ? -magnitude : magnitude;
}
CUCONFORM_HOST_DEVICE inline std::int64_t ordinal(double x) {
  const std::uint64_t b = bits_of(x);
  const std::int64_t magnitude = std::int64_t(b & 0x7fffffffffffffffull);
  return (b >> 63) ? -magnitude : magnitude;
}

template <class T>
CUCONFORM_HOST_DEVICE inline std::uint64_t ulp_distance(T a, T b) {
  const bool nan_a = is_nan(a), nan_b = is_nan(b);
  if (nan_a || nan_b) return nan_a && nan_b ? 0 : kNanDistance;
  const std::int64_t d = ordinal(a) - ordinal(b);
  const std::uint64_t distance = d < 0 ? std::uint64_t(-d) : std::uint64_t(d);
  return distance < kNanDistance ? distance : kNanDistance - 1;
}

// Rounding modes of the IEEE-rounded intrinsics (PG12.9 17.2): _rn, _rz, _ru, _rd.
enum class Rounding : int { Nearest = 0, TowardZero = 1, Up = 2, Down = 3 };

// The precision of a result format: float (24 bits) or double (53 bits).
template <class T>
struct Format;
template <>
struct Format<float> {
  static constexpr int precision = 24;
  static constexpr int min_exponent = -126;  // of the smallest normal number, 2^-126
  static constexpr const char* name = "f32";
};
template <>
struct Format<double> {
  static constexpr int precision = 53;
  static constexpr int min_exponent = -1022;
  static constexpr const char* name = "f64";
};

}  // namespace cuconform::math
