// The error profile of a sweep: the worst error in each of kProfileBuckets slices of argument 0's range (argument 1
// where argument 0 is an integer order: jn, yn), from which the HTML report draws a plot
// (harness/cuconform/error_plots.py). The slices are equal shares of the argument format's encodings from -inf to
// +inf (its position on the number line, ulp.h's ordinal), so each covers a few binades of either sign: the picture
// of a function's error over its whole input range at a glance. An integer argument is sliced by value.
#pragma once

#include <cstdint>

#include "format16.h"
#include "ulp.h"

namespace cuconform::math {

inline constexpr int kProfileBuckets = 128;

// How argument 0 is laid out: the ordinal of a float or a double, an integer argument's value, or the ordinal of a
// 16-bit format (the half and bfloat16 functions).
enum class ProfileScale : int { Float, Double, Int32, Uint32, Half, Bfloat16 };

struct ProfileRange {
  std::int64_t lo, hi;  // the ordinals (or integer values) of the range's ends: -inf and +inf for floating point
};

// Where slice 0 begins: slices are counted from here, so that zero begins slice 64 (the format's encodings of
// either sign fill half the slices each); the first and last slices start before -inf and end past +inf.
CUCONFORM_HOST_DEVICE inline std::int64_t profile_origin(ProfileScale scale) {
  return scale == ProfileScale::Double                                    ? std::int64_t(-0x7fffffffffffffffll - 1)
         : scale == ProfileScale::Uint32                                  ? 0
         : scale == ProfileScale::Half || scale == ProfileScale::Bfloat16 ? -32768
                                                                          : std::int64_t(-2147483648ll);
}

CUCONFORM_HOST_DEVICE inline ProfileRange profile_range(ProfileScale scale) {
  switch (scale) {
    case ProfileScale::Float: return {-0x7f800000ll, 0x7f800000ll};
    case ProfileScale::Double: return {-0x7ff0000000000000ll, 0x7ff0000000000000ll};
    case ProfileScale::Int32: return {-2147483648ll, 2147483647ll};
    case ProfileScale::Uint32: return {0, 4294967295ll};
    case ProfileScale::Half: return {-0x7c00, 0x7c00};
    case ProfileScale::Bfloat16: return {-0x7f80, 0x7f80};
  }
  return {0, 1};
}

// A slice is a power of two of positions, so that the GPU finds it with a shift: 2^25 floats (four binades), 2^57
// doubles (64 binades), 2^25 integers, 2^9 of a 16-bit format (half a binade of half, four of bfloat16); the last
// slice ends past the range's end.
CUCONFORM_HOST_DEVICE inline int profile_shift(ProfileScale scale) {
  return scale == ProfileScale::Double ? 57 : scale == ProfileScale::Half || scale == ProfileScale::Bfloat16 ? 9 : 25;
}
CUCONFORM_HOST_DEVICE inline std::uint64_t profile_width(ProfileScale scale) {
  return std::uint64_t(1) << profile_shift(scale);
}

// The bucket of argument 0, or -1 for a NaN.
CUCONFORM_HOST_DEVICE inline int profile_bucket(double x, ProfileScale scale) {
  if (x != x) return -1;
  std::int64_t position;
  switch (scale) {
    case ProfileScale::Float: position = ordinal(float(x)); break;
    case ProfileScale::Double: position = ordinal(x); break;
    case ProfileScale::Half: position = ordinal16(encode16(x, Format16::Half)); break;
    case ProfileScale::Bfloat16: position = ordinal16(encode16(x, Format16::Bfloat16)); break;
    default: position = std::int64_t(x); break;
  }
  const std::uint64_t offset = std::uint64_t(position) - std::uint64_t(profile_origin(scale));
  const std::uint64_t bucket = offset >> profile_shift(scale);
  return bucket < kProfileBuckets ? int(bucket) : kProfileBuckets - 1;
}

// The worst error of each bucket: the integer ulp distance, and the error in the bound's own measure (fractional
// ulps, or absolute / relative error) as the bits of a non-negative double (which order like the numbers).
struct ErrorProfile {
  unsigned long long distance[kProfileBuckets];
  unsigned long long error_bits[kProfileBuckets];
  unsigned long long inputs[kProfileBuckets];
};

// Adds one judged input on the host (the sweep's re-check).
inline void add_to_profile(ErrorProfile& p, int bucket, std::uint64_t distance, double error) {
  if (bucket < 0) return;
  if (distance > p.distance[bucket]) p.distance[bucket] = distance;
  const double magnitude = error != error ? 0.0 : (error < 0 ? -error : error);
  if (bits_of(magnitude) > p.error_bits[bucket]) p.error_bits[bucket] = bits_of(magnitude);
  ++p.inputs[bucket];
}

inline void merge_profile(ErrorProfile& into, const ErrorProfile& from) {
  for (int b = 0; b < kProfileBuckets; ++b) {
    if (from.distance[b] > into.distance[b]) into.distance[b] = from.distance[b];
    if (from.error_bits[b] > into.error_bits[b]) into.error_bits[b] = from.error_bits[b];
    into.inputs[b] += from.inputs[b];
  }
}

// Where slice b begins, within the range (b = kProfileBuckets: where the last one ends).
inline std::int64_t profile_edge(int b, ProfileScale scale) {
  const ProfileRange range = profile_range(scale);
  if (b >= kProfileBuckets) return range.hi;
  const std::int64_t position =
      std::int64_t(std::uint64_t(profile_origin(scale)) + std::uint64_t(b) * profile_width(scale));
  return position < range.lo ? range.lo : position > range.hi ? range.hi : position;
}

// The value of argument 0 at a position of the scale (the inverse of profile_bucket's position).
inline double profile_value(std::int64_t position, ProfileScale scale) {
  const std::uint64_t magnitude = std::uint64_t(position < 0 ? -position : position);
  switch (scale) {
    case ProfileScale::Float: {
      const double v = float_from_bits(std::uint32_t(magnitude));
      return position < 0 ? -v : v;
    }
    case ProfileScale::Double: {
      const double v = double_from_bits(magnitude);
      return position < 0 ? -v : v;
    }
    case ProfileScale::Half:
    case ProfileScale::Bfloat16: {
      const double v =
          decode16(std::uint16_t(magnitude), scale == ProfileScale::Half ? Format16::Half : Format16::Bfloat16);
      return position < 0 ? -v : v;
    }
    default: return double(position);
  }
}

}  // namespace cuconform::math
