// Interval arithmetic on MPFR numbers (interval.h).
#include "interval.h"

#include <initializer_list>

namespace cuconform::mathref {

void increasing(Interval& out, const Interval& in, MpfrUnary f) {
  f(out.lo, in.lo, MPFR_RNDD);
  f(out.hi, in.hi, MPFR_RNDU);
}
void decreasing(Interval& out, const Interval& in, MpfrUnary f) {
  Num lo(out.precision());
  f(lo, in.hi, MPFR_RNDD);
  f(out.hi, in.lo, MPFR_RNDU);
  mpfr_set(out.lo, lo, MPFR_RNDN);
}

void corners(Interval& out, const Interval& a, const Interval& b, MpfrBinary f) {
  const mpfr_prec_t p = out.precision();
  Num lo(p), hi(p), t(p);
  mpfr_set_inf(lo, 1);
  mpfr_set_inf(hi, -1);
  bool nan = false;
  for (mpfr_srcptr x : {a.lo.v, a.hi.v}) {
    for (mpfr_srcptr y : {b.lo.v, b.hi.v}) {
      f(t, x, y, MPFR_RNDD);
      nan |= mpfr_nan_p(t);
      mpfr_min(lo, lo, t, MPFR_RNDN);
      f(t, x, y, MPFR_RNDU);
      nan |= mpfr_nan_p(t);
      mpfr_max(hi, hi, t, MPFR_RNDN);
    }
  }
  if (nan) return out.set_nan();
  mpfr_set(out.lo, lo, MPFR_RNDN);
  mpfr_set(out.hi, hi, MPFR_RNDN);
}

void add(Interval& out, const Interval& a, const Interval& b) {
  Num lo(out.precision());
  mpfr_add(lo, a.lo, b.lo, MPFR_RNDD);
  mpfr_add(out.hi, a.hi, b.hi, MPFR_RNDU);
  mpfr_set(out.lo, lo, MPFR_RNDN);
}
void mul(Interval& out, const Interval& a, const Interval& b) { corners(out, a, b, mpfr_mul); }
void div(Interval& out, const Interval& a, const Interval& b) {
  // A divisor interval that holds zero (but is not a point) has no useful bound.
  if (mpfr_sgn(b.lo) < 0 && mpfr_sgn(b.hi) > 0) return out.set_nan();
  corners(out, a, b, mpfr_div);
}
void square(Interval& out, const Interval& a) {
  Interval abs(out.precision());
  mpfr_abs(abs.lo, a.lo, MPFR_RNDN);
  mpfr_abs(abs.hi, a.hi, MPFR_RNDN);
  if (mpfr_cmp(abs.lo, abs.hi) > 0) mpfr_swap(abs.lo, abs.hi);
  mpfr_sqr(out.lo, abs.lo, MPFR_RNDD);
  mpfr_sqr(out.hi, abs.hi, MPFR_RNDU);
}
void reciprocal(Interval& out, const Interval& a) {
  Interval one(out.precision());
  one.set_point(1.0);
  div(out, one, a);
}

void init_thread() {
  thread_local bool done = false;
  if (done) return;
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  done = true;
}

}  // namespace cuconform::mathref
