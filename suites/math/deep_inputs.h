// The inputs of the deep double-precision sweep (issue 24): input i of a function is a pure function of (i, seed,
// argument, focus), computed on the GPU for the sweep and again on the host for the re-check, so a run is
// deterministic and any chunk can be redone alone (the journal's resumption). Only operations whose IEEE result is
// the same on both sides are used (integer mixing, exact scalings, single roundings, an explicit fma), so that the
// host re-checks the very input the GPU evaluated.
//
// Input i falls in one of four families by i mod 4:
//   0  any encoding (random 64 bits: every sign, binade, subnormals, infinities, NaNs)
//   1  ordinary numbers: a random significand in a binade between 2^-64 and 2^64, either sign
//   2  the family's hard region (below), dense
//   3  the neighbours of a power of two: 2^e (1 + k 2^-52) or 2^e (1 - k 2^-53), |k| < 2^12, e over the whole range
// The hard regions, after the literature on testing libm (large trig arguments and near multiples of pi/2, the
// overflow and underflow thresholds of exp, log near 1, division and square root near powers of two):
//   Exp       within 2^-k (k = 0..45) of the thresholds of exp, exp2, exp10 (overflow, the end of the normal range,
//             the last subnormal) and of 0
//   Log       1 + d, |d| = 2^-k (k = 2..61) times a random significand; and random subnormals
//   Division  significands near 1 and near 2 (the hard cases of division and reciprocal), any exponent
//   Trig      large arguments (2^20..2^1023) and k pi/2 + d for |k| < 2^20
//   other     random significands with exponents in [-1022, 1023] (the subnormals come from families 0 and 3)
#pragma once

#include <cmath>
#include <cstdint>

#include "inputs.h"
#include "ulp.h"

namespace cuconform::math {

CUCONFORM_HOST_DEVICE inline std::uint64_t mix64(std::uint64_t z) {  // splitmix64's finaliser
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A double in [1, 2) from 52 random bits.
CUCONFORM_HOST_DEVICE inline double significand_of(std::uint64_t h) {
  return double_from_bits(0x3ff0000000000000ull | (h & 0xfffffffffffffull));
}

CUCONFORM_HOST_DEVICE inline double with_sign(double x, std::uint64_t h) { return (h >> 63) ? -x : x; }

CUCONFORM_HOST_DEVICE inline double deep_hard_region(Focus focus, std::uint64_t h, std::uint64_t g) {
  switch (focus) {
    case Focus::Exp: {
      const double thresholds[] = {
          709.782712893384,   -708.3964185322641, -745.1332191019411,  1024.0, -1022.0, -1074.0,
          308.25471555991675, -307.6526555685888, -323.60724533877976, 0.0};
      const double t = thresholds[g % 10];
      const double d = significand_of(h) * ldexp(1.0, -int((g >> 8) % 46));
      return t == 0.0 ? with_sign(ldexp(significand_of(h), -int((g >> 8) % 1000)), h) : t + with_sign(d, h);
    }
    case Focus::Log:
      if (g % 8 == 0) return double_from_bits(h & 0xfffffffffffffull);  // a subnormal
      return 1.0 + with_sign(significand_of(h) * ldexp(1.0, -1 - int((g >> 8) % 60)), h) / 2;
    case Focus::Division: {
      const double near = (g & 1) ? 1.0 + double(h & 0xfffff) * 0x1p-52 : 2.0 - double(h & 0xfffff) * 0x1p-53;
      return with_sign(ldexp(near, int((g >> 8) % 2046) - 1022), h);
    }
    case Focus::Trig: {
      if (g & 1) return with_sign(ldexp(significand_of(h), 20 + int((g >> 8) % 1004)), h);
      const double k = double(std::int64_t((g >> 8) % (1u << 21)) - (1 << 20));
      return fma(k, 1.5707963267948966, with_sign(ldexp(significand_of(h), -int((g >> 32) % 60)), h));
    }
    default: return with_sign(ldexp(significand_of(h), int((g >> 8) % 2046) - 1022), h);
  }
}

// Argument `arg` of input i.
CUCONFORM_HOST_DEVICE inline double deep_input(std::uint64_t i, int arg, Focus focus, std::uint64_t seed) {
  const std::uint64_t h = mix64(i ^ mix64(seed + 0x100u * std::uint64_t(arg)));
  const std::uint64_t g = mix64(h ^ 0x5851f42d4c957f2dull);
  switch (i % 4) {
    case 0: return double_from_bits(h);
    case 1: return with_sign(ldexp(significand_of(h), int(g % 129) - 64), h);
    case 2: return deep_hard_region(focus, h, g);
    default: {
      const double power = ldexp(1.0, int(g % 2098) - 1074);
      const double k = double((g >> 16) & 0xfff);
      const double x = (h & 1) ? power * (1 + k * 0x1p-52) : power * (1 - k * 0x1p-53);
      return with_sign(x, h);
    }
  }
}

}  // namespace cuconform::math
