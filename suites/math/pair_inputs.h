// The random pairs of the full profile's two-argument float sweep (issue 31): pair i of a function is a pure function
// of (i, seed, focus), the seed being the plan's mixed with the function's name (pair_seed). The GPU computes it for
// the sweep and the host again for the re-check, from integer mixing and bit patterns only, so both see the same
// floats, a run is deterministic, and any range of pairs can be redone alone; nothing holds 2^32 pairs in memory.
//
// Pair i falls in one of four families by i mod 4:
//   0  any encodings: both arguments 32 random bits (every sign and binade, subnormals, NaNs); in one pair of 16 the
//      fraction of x is cleared, in another one of 16 that of y (zeros, powers of two and infinities with any partner)
//   1  near exponents: x any finite encoding, y within 2^±26 of it (cancellation in x - y and fdim, long quotients
//      and small ones in fmod and remainder, atan2 and division of like magnitudes, hypot where neither dominates)
//   2  moderate numbers: both in 2^-32..2^33 with random signs (pow and atan2 away from overflow and underflow)
//   3  the focus of the function:
//      Pow       x next to 1 (1 + k 2^-23 or 1 - k 2^-24, k < 2^j, j < 24 random) with |y| in 2^-8..2^32; or x of
//                either sign in 2^-20..2^21 with an integer y (|y| < 2^24, of any magnitude)
//      Division  significands next to 1 and next to 2 (the hard cases of division), any exponent
//      other     one argument subnormal, the other in the lowest binades (underflow of hypot, atan2, remainders)
#pragma once

#include <cstdint>

#include "deep_inputs.h"  // mix64
#include "inputs.h"       // Focus
#include "ulp.h"

namespace cuconform::math {

struct FloatPair {
  float x, y;
};

// The float with this sign bit, biased exponent field (0..254) and 23 fraction bits.
CUCONFORM_HOST_DEVICE inline float float_of(std::uint64_t sign, int field, std::uint64_t fraction) {
  return float_from_bits(std::uint32_t((sign & 1u) << 31 | std::uint64_t(field) << 23 | (fraction & 0x7fffffu)));
}

CUCONFORM_HOST_DEVICE inline int clamp_field(int field) { return field < 0 ? 0 : field > 254 ? 254 : field; }

// Family 3. h and g are 64 random bits each.
CUCONFORM_HOST_DEVICE inline FloatPair focus_pair(Focus focus, std::uint64_t h, std::uint64_t g) {
  switch (focus) {
    case Focus::Pow: {
      if (g & 1) {  // x of either sign in 2^-20..2^21, y an integer below 2^24 of any magnitude (exact in float)
        const float m = float(std::uint32_t((g >> 8) & 0xffffffu) >> ((g >> 32) % 24));
        return {float_of(h >> 63, 127 - 20 + int((g >> 40) % 41), h), (g >> 56) & 1 ? -m : m};
      }
      const std::uint32_t k = std::uint32_t(h) & ((1u << ((g >> 8) % 24)) - 1u);
      const float x = float_from_bits((h >> 62) & 1 ? 0x3f800000u + k : 0x3f800000u - k);
      return {x, float_of(h >> 63, 127 - 8 + int((g >> 16) % 40), h >> 23)};
    }
    case Focus::Division: {
      const std::uint64_t kx = h & 0xfff, ky = (h >> 12) & 0xfff;
      return {float_of(h >> 63, int(g % 255), (g >> 32) & 1 ? kx : 0x7fffffu - kx),
              float_of(h >> 62, int((g >> 8) % 255), (g >> 33) & 1 ? ky : 0x7fffffu - ky)};
    }
    default: {
      const float subnormal = float_of(h >> 63, 0, h), low = float_of(h >> 62, int(g % 25), h >> 23);
      return (g >> 32) & 1 ? FloatPair{subnormal, low} : FloatPair{low, subnormal};
    }
  }
}

// Pair i of a function whose sweep has this seed (pair_seed).
CUCONFORM_HOST_DEVICE inline FloatPair random_pair(std::uint64_t i, Focus focus, std::uint64_t seed) {
  const std::uint64_t h = mix64(i ^ mix64(seed)), g = mix64(h ^ 0x5851f42d4c957f2dull);
  switch (i % 4) {
    case 0: {
      const std::uint32_t x = std::uint32_t(h), y = std::uint32_t(h >> 32);
      return {float_from_bits(g % 16 == 0 ? x & 0xff800000u : x),
              float_from_bits(g / 16 % 16 == 0 ? y & 0xff800000u : y)};
    }
    case 1: {
      const int field = int(g % 255);
      return {float_of(h >> 63, field, h), float_of(h >> 62, clamp_field(field + int((g >> 8) % 53) - 26), h >> 23)};
    }
    case 2: return {float_of(h >> 63, 95 + int(g % 65), h), float_of(h >> 62, 95 + int((g >> 8) % 65), h >> 23)};
    default: return focus_pair(focus, h, g);
  }
}

// The seed of one function's pairs: the plan's seed mixed with the function's name (FNV-1a), so that each function
// gets pairs of its own and a report can name them.
inline std::uint64_t pair_seed(std::uint64_t seed, const char* name) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char* c = name; *c; ++c) h = (h ^ std::uint8_t(*c)) * 1099511628211ull;
  return mix64(seed ^ h);
}

}  // namespace cuconform::math
