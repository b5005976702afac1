// The __nv_fp128_* functions of PG12.9 17.1 Table 20 (compute capability 10.0 and later): the host side, compiled
// once (quad.cpp). A binary128 value travels as its two 64-bit words; the device side is quad.cuh.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bounds.h"

namespace cuconform::math {

// The IEEE 754 binary128 encoding: the layout of __float128 on x86-64 and in CUDA (low word first).
struct alignas(16) Quad {
  unsigned long long lo, hi;
};

// An argument or result that is an int in the function's signature (ldexp's exponent, ilogb, frexp's exponent):
// on the device it travels in `lo` as a 64-bit two's complement integer; the reference takes it as binary128.
struct QuadInfo {
  const char* name;       // the device function's key (fn::q_sin)
  const char* reference;  // the id in libcuconform-mathref's quad table ("sin")
  int arity;
  int integer_arg;      // the int argument, or -1
  bool integer_result;  // the result is an int
};

Quad quad_from_integer(long long n);  // exact
bool quad_is_nan(Quad q);
// The number of binary128 values between a and b (±0 one point, both NaN 0 apart, one NaN: kNanDistance).
std::uint64_t quad_ulp_distance(Quad a, Quad b);
std::string describe_quad(Quad q);

// Seeded arguments (arity per input, integer arguments as on the device) for `count` inputs: special values and
// their pairs, random encodings, values of moderate size, and the function's domain (|x| <= 1, x > 0, x >= 1).
std::vector<Quad> quad_inputs(const QuadInfo& f, unsigned count);

// Compares the GPU's results with MPFR in binary128 (round to nearest even) and records metrics; fails on any input
// over the bound or whose special-value result differs. Skips when the reference library is missing.
void judge_quad(const QuadInfo& f, const std::vector<Quad>& args, const std::vector<Quad>& results, const Bound& bound,
                double seconds);

}  // namespace cuconform::math
