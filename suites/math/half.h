// The half and bfloat16 math functions of the CUDA Math API 13.0 (Half, Half2, Bfloat16 and Bfloat162 Math
// Functions): the host side, compiled once (half.cpp). The device side is half.cuh.
//
// Every function has 2^16 inputs, so every rule is exhaustive in every profile: the GPU evaluates the function on
// all of them (the paired forms on all of them in each lane, lane 1 taking second_lane16(i) beside lane 0's i) and
// hands back the raw results; the host compares each lane with MPFR's correctly rounded result in the format
// (libcuconform-mathref at precision 11 or 8), computed once per reference function and format.
#pragma once

#include <cstdint>
#include <vector>

#include "bounds.h"
#include "format16.h"

namespace cuconform::math {

struct HalfInfo {
  const char* name;       // the device function's key (fn::hsin_half)
  const char* reference;  // the id in libcuconform-mathref ("sin")
  Format16 format;
  bool paired;  // a half2 / nv_bfloat162 function: two lanes
};

// Compares the results (results[lane][i]: lane 0 holds f(i), lane 1 f(second_lane16(i))) with MPFR and records the
// sweep's metrics (report.cpp); fails on any input over the bound or any special argument whose result is not
// exactly the reference's. Skips the test where the reference library is missing.
void judge_half(const HalfInfo& f, const std::vector<std::vector<std::uint16_t>>& results, const Bound& bound,
                double seconds);

}  // namespace cuconform::math
