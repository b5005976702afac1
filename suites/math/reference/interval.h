// The arithmetic of the math suite's exact reference (mathref.h): MPFR numbers that free themselves, and intervals
// [lo, hi] of them that contain an exact value. Every operation rounds the lower end down and the upper end up, so
// the result contains the exact result of the operation on any values inside its operands.
#pragma once

#define MPFR_USE_NO_MACRO 1  // the functions, not macros, so that Num converts to mpfr_srcptr
#include <mpfr.h>

namespace cuconform::mathref {

// An MPFR number that frees itself.
struct Num {
  mpfr_t v;
  explicit Num(mpfr_prec_t p) { mpfr_init2(v, p); }
  Num(const Num&) = delete;
  ~Num() { mpfr_clear(v); }
  operator mpfr_ptr() { return v; }
  operator mpfr_srcptr() const { return v; }
};

// lo <= exact <= hi.
struct Interval {
  Num lo, hi;
  explicit Interval(mpfr_prec_t p) : lo(p), hi(p) {}
  mpfr_prec_t precision() const { return mpfr_get_prec(lo.v); }
  void set_point(double x) {
    mpfr_set_d(lo, x, MPFR_RNDN);
    mpfr_set_d(hi, x, MPFR_RNDN);
  }
  void set_nan() {
    mpfr_set_nan(lo);
    mpfr_set_nan(hi);
  }
};

using MpfrUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using MpfrBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

// f is increasing: [f(lo) rounded down, f(hi) rounded up]. `out` may alias `in` only when in is a point.
void increasing(Interval& out, const Interval& in, MpfrUnary f);
void decreasing(Interval& out, const Interval& in, MpfrUnary f);
// The four corner values of a binary operation, the smallest rounded down and the largest rounded up.
void corners(Interval& out, const Interval& a, const Interval& b, MpfrBinary f);
void add(Interval& out, const Interval& a, const Interval& b);
void mul(Interval& out, const Interval& a, const Interval& b);
// NaN (no bound) when the divisor holds zero and is not a point.
void div(Interval& out, const Interval& a, const Interval& b);
// x^2 of an interval of one sign (all callers square such intervals or points).
void square(Interval& out, const Interval& a);
void reciprocal(Interval& out, const Interval& a);

// Gives the calling thread MPFR's widest exponent range, once: the working numbers neither overflow nor underflow,
// and each rounding to a format narrows the range only for its own step.
void init_thread();

}  // namespace cuconform::mathref
