// norm, normf, rnorm, rnormf: the length of a vector of any dimension and its reciprocal (PG12.9 17.1 Tables 18
// and 19: "An error bound cannot be provided"; CUDA Math API 13.0: "without undue overflow or underflow", and the
// special cases). The host side, compiled once (vector_norms.cpp); the kernel is in vector_norms.cuh.
#pragma once

#include <vector>

#include "bounds.h"

namespace cuconform::math {

// The dimensions every function is checked at.
inline constexpr unsigned kVectorLengths[] = {1, 2, 3, 4, 7, 16, 100};

// Vectors of one sweep, their coordinates concatenated: vector v is values[offset[v] .. offset[v] + length[v]).
struct VectorSet {
  std::vector<double> values;  // each exactly a float when built for precision 24
  std::vector<unsigned> offset, length;
  std::vector<const char*> kind;  // how it was made: "ordinary", "wide", "huge", "huge_finite", ...
};

// Seeded vectors of every length of kVectorLengths for a format (precision 24: float, 53: double): `per_kind`
// vectors of each kind, which include the scaling cases a naive sqrt(sum of squares) over- or underflows on.
VectorSet vector_inputs(int precision, unsigned per_kind);

// The rule's body once the GPU has computed `results` (widened exactly): compares each with the correctly rounded
// result (MPFR), reports metrics, fails on a special-value mismatch, an undue overflow or underflow, or an input the
// reference cannot decide. Skips when the reference library is missing.
void judge_vector_norms(const char* function, const char* reference, int precision, const VectorSet& in,
                        const std::vector<double>& results, const Bound& bound, double seconds);

}  // namespace cuconform::math
