// The functions of the double reference (mathref.h), by name: how each evaluates an interval that contains the exact
// value of f(args) at the interval's precision, and which of them MPFR rounds correctly itself in any format.
#pragma once

#include <cstddef>
#include <functional>

#include "interval.h"

namespace cuconform::mathref {

struct Args {
  const double* v;
  int n;
};

using Evaluator = std::function<void(Interval& out, const Args& args)>;

// fmod, remainder and fdim are exact at the format's precision; MPFR rounds them correctly at any precision.
struct Entry {
  const char* name;
  int arity;
  Evaluator eval;
  bool integer_result = false;  // the rounding mode picks the integer; the value is then exact
  MpfrUnary unary = nullptr;    // a function MPFR rounds correctly itself, computed in the target format
  MpfrBinary binary = nullptr;
  int (*order)(mpfr_ptr, long, mpfr_srcptr, mpfr_rnd_t) = nullptr;  // jn, yn: (n, x)
};

// Every function; a function's id (cuconform_mathref_find) is its index.
const Entry* table(std::size_t* count);

// A conversion to an integer type: the argument rounded to an integer in the requested mode, clamped to [lo, hi]
// (PG12.9 20.3). The rounding mode reaches the evaluator through `mode`; the result is exact.
void eval_to_integer(Interval& out, const Args& a, mpfr_rnd_t mode, double lo, double hi);

}  // namespace cuconform::mathref
