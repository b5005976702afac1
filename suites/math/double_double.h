// The deep double-precision sweep's GPU reference (issue 24): double-double arithmetic (an unevaluated sum hi + lo
// of two doubles, about 106 bits) and double-double versions of the double functions whose exact value it can
// bracket tightly. Host and device share it: the GPU filter decides with it which inputs are unambiguous, and the
// self-tests hold it to MPFR on the host.
//
// Accuracy: every reference here is within 2^-95 (relative) of the exact value where it answers (measured against
// MPFR by the self-tests); the filter calls a result ambiguous within 2^-90 of a rounding boundary
// (kDeepRelativeError), and such inputs go to MPFR, as do those a reference does not answer (lo = NaN).
// Where a reference starts from the device's own value (sqrt, rcp, cbrt: a correction step), it is accurate only
// when that value is close: k ulps away, the reference is off by about k^2 2^-54 ulps, so a verdict "within a bound
// of a few ulps" stays exact, and a result far off fails its bound whatever the reference says.
//
// No operation may be contracted into an fma where it would change a rounding: the error-free transformations use
// only additions (two_sum) or an explicit fma (two_prod).
#pragma once

#include <cfloat>
#include <cmath>

#include "filter.h"
#include "ulp.h"

namespace cuconform::math {

struct DoubleDouble {
  double hi, lo;  // hi = RN(hi + lo), or lo = NaN: the reference cannot answer here (the input goes to MPFR)
  int scale = 0;  // a reference's result is (hi + lo) 2^scale: results near the subnormals and near overflow
};

namespace dd {

CUCONFORM_HOST_DEVICE inline DoubleDouble two_sum(double a, double b) {
  const double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
CUCONFORM_HOST_DEVICE inline DoubleDouble quick_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}
CUCONFORM_HOST_DEVICE inline DoubleDouble two_prod(double a, double b) {
  const double p = a * b;
  return {p, fma(a, b, -p)};
}
CUCONFORM_HOST_DEVICE inline DoubleDouble add(DoubleDouble a, DoubleDouble b) {
  DoubleDouble s = two_sum(a.hi, b.hi);
  const DoubleDouble t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = quick_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return quick_two_sum(s.hi, s.lo);
}
CUCONFORM_HOST_DEVICE inline DoubleDouble neg(DoubleDouble a) { return {-a.hi, -a.lo}; }
CUCONFORM_HOST_DEVICE inline DoubleDouble mul(DoubleDouble a, DoubleDouble b) {
  DoubleDouble p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return quick_two_sum(p.hi, p.lo);
}
CUCONFORM_HOST_DEVICE inline DoubleDouble mul(DoubleDouble a, double b) { return mul(a, DoubleDouble{b, 0}); }
CUCONFORM_HOST_DEVICE inline DoubleDouble div(DoubleDouble a, DoubleDouble b) {
  const double q1 = a.hi / b.hi;
  DoubleDouble r = add(a, neg(mul(b, q1)));
  const double q2 = r.hi / b.hi;
  r = add(r, neg(mul(b, q2)));
  const double q3 = r.hi / b.hi;
  return add(quick_two_sum(q1, q2), DoubleDouble{q3, 0});
}
CUCONFORM_HOST_DEVICE inline DoubleDouble scale(DoubleDouble a, int e) { return {ldexp(a.hi, e), ldexp(a.lo, e)}; }

CUCONFORM_HOST_DEVICE inline DoubleDouble exact(double x) { return {x, 0.0}; }
CUCONFORM_HOST_DEVICE inline DoubleDouble unknown(double x) { return {x, NAN}; }

// Constants as dd pairs (scalars, which device code may read: a constexpr object of class type it may not).
inline constexpr double kLn2Hi = 0x1.62e42fefa39efp-1, kLn2Lo = 0x1.abc9e3b39803fp-56;
inline constexpr double kLn10Hi = 0x1.26bb1bbb55516p+1, kLn10Lo = -0x1.f48ad494ea3e9p-53;
inline constexpr double kInvLn2Hi = 0x1.71547652b82fep+0, kInvLn2Lo = 0x1.777d0ffda0d24p-56;
inline constexpr double kInvLn10Hi = 0x1.bcb7b1526e50ep-2, kInvLn10Lo = 0x1.95355baaafad3p-57;
CUCONFORM_HOST_DEVICE inline DoubleDouble ln2() { return {kLn2Hi, kLn2Lo}; }
CUCONFORM_HOST_DEVICE inline DoubleDouble ln10() { return {kLn10Hi, kLn10Lo}; }
CUCONFORM_HOST_DEVICE inline DoubleDouble inv_ln2() { return {kInvLn2Hi, kInvLn2Lo}; }
CUCONFORM_HOST_DEVICE inline DoubleDouble inv_ln10() { return {kInvLn10Hi, kInvLn10Lo}; }
// ln 2 in three pieces for the reduction x - k ln 2: the first has 42 significant bits, so k * it is exact.
inline constexpr double kLn2Part1 = 0x1.62e42fefa3800p-1, kLn2Part2 = 0x1.ef35793c76730p-45,
                        kLn2Part3 = 0x1.f97b57a079a19p-103;

// e^r - 1 for |r| <= 0.35: the Taylor series of e^(r/1024) - 1 to degree 8 (error below 2^-120), then ten
// doublings e <- 2e + e^2, which keep the relative accuracy of a small result.
CUCONFORM_HOST_DEVICE inline DoubleDouble expm1_reduced(DoubleDouble r) {
  const DoubleDouble t = scale(r, -10);
  DoubleDouble e = div(exact(1.0), exact(40320.0));  // 1/8!
  for (int n = 7; n >= 1; --n) {
    double factorial = 1;
    for (int j = 2; j <= n; ++j) factorial *= j;
    e = add(mul(e, t), div(exact(1.0), exact(factorial)));
  }
  e = mul(e, t);
  for (int k = 0; k < 10; ++k) e = add(scale(e, 1), mul(e, e));
  return e;
}

// x = k ln 2 + r, |r| <= 0.35 (x as a dd, |x| < 1100).
CUCONFORM_HOST_DEVICE inline int reduce_ln2(DoubleDouble x, DoubleDouble* r) {
  const double k = rint(x.hi * kInvLn2Hi);
  DoubleDouble rest = add(x, exact(-k * kLn2Part1));  // exact product
  rest = add(rest, neg(two_prod(k, kLn2Part2)));
  rest = add(rest, exact(-k * kLn2Part3));
  *r = rest;
  return int(k);
}

// e^x for x a dd, as (1 + expm1(r)) 2^k; beyond the thresholds the rounded result is exact (+inf, +0).
CUCONFORM_HOST_DEVICE inline DoubleDouble exp_of(DoubleDouble x) {
  if (is_nan(x.hi)) return exact(x.hi);
  if (x.hi >= 709.79) return exact(INFINITY);  // e^x >= DBL_MAX + ulp/2
  if (x.hi <= -745.14) return exact(0.0);      // e^x < 2^-1075: rounds to +0
  DoubleDouble r;
  const int k = reduce_ln2(x, &r);
  DoubleDouble v = add(exact(1.0), expm1_reduced(r));
  v.scale = k;
  return v;
}

CUCONFORM_HOST_DEVICE inline DoubleDouble exp_ref(double x) { return exp_of(exact(x)); }
CUCONFORM_HOST_DEVICE inline DoubleDouble exp2_ref(double x) {
  if (is_nan(x)) return exact(x);
  if (x >= 1024) return exact(INFINITY);
  if (x <= -1075) return exact(0.0);
  const double k = rint(x);
  DoubleDouble v = add(exact(1.0), expm1_reduced(mul(ln2(), x - k)));
  v.scale = int(k);
  return v;
}
CUCONFORM_HOST_DEVICE inline DoubleDouble exp10_ref(double x) {
  if (is_nan(x)) return exact(x);
  if (x >= 308.26) return exact(INFINITY);
  if (x <= -323.61) return exact(0.0);
  if (x == 0) return exact(1.0);
  return exp_of(mul(ln10(), x));
}
CUCONFORM_HOST_DEVICE inline DoubleDouble expm1_ref(double x) {
  if (is_nan(x) || fabs(x) < 0x1p-500) return exact(x);  // expm1(±0) = ±0; else x + x^2/2 rounds to x
  if (x >= 709.79) return exact(INFINITY);
  if (x > 709.0) return exp_ref(x);    // e^x - 1 rounds like e^x there: 1 is far below half an ulp
  if (x < -40) return {-1.0, exp(x)};  // -1 + e^x with e^x < 2^-57: rounds to -1
  if (fabs(x) <= 0.34) return expm1_reduced(exact(x));
  DoubleDouble r;
  const int k = reduce_ln2(exact(x), &r);
  return add(scale(add(exact(1.0), expm1_reduced(r)), k), exact(-1.0));
}

// 2 atanh(u) = log((1 + u) / (1 - u)) for |u| <= 0.18: the series 2u (1 + u^2/3 + u^4/5 + ...) to u^42.
CUCONFORM_HOST_DEVICE inline DoubleDouble two_atanh(DoubleDouble u) {
  const DoubleDouble u2 = mul(u, u);
  DoubleDouble s = div(exact(1.0), exact(43.0));
  for (int n = 41; n >= 1; n -= 2) s = add(mul(s, u2), div(exact(1.0), exact(double(n))));
  return scale(mul(s, u), 1);
}

// log x, x > 0 finite: x = 2^e m, m in [1/sqrt 2, sqrt 2), log m = 2 atanh((m - 1) / (m + 1)).
CUCONFORM_HOST_DEVICE inline DoubleDouble log_positive(double x) {
  int e = 0;
  double m = frexp(x, &e);  // exact, subnormals included
  if (m < 0.70710678118654752) m *= 2, --e;
  const DoubleDouble u = div(exact(m - 1.0), two_sum(m, 1.0));  // m - 1 is exact (Sterbenz)
  return add(mul(ln2(), double(e)), two_atanh(u));
}
CUCONFORM_HOST_DEVICE inline bool log_special(double x, DoubleDouble* r) {
  if (is_nan(x) || x < 0) return *r = exact(NAN), true;
  if (x == 0) return *r = exact(-INFINITY), true;
  if (is_inf(x)) return *r = exact(INFINITY), true;
  return false;
}
CUCONFORM_HOST_DEVICE inline DoubleDouble log_ref(double x) {
  DoubleDouble r;
  return log_special(x, &r) ? r : log_positive(x);
}
CUCONFORM_HOST_DEVICE inline DoubleDouble log2_ref(double x) {
  DoubleDouble r;
  if (log_special(x, &r)) return r;
  int e = 0;
  if (frexp(x, &e) == 0.5) return exact(double(e - 1));  // a power of two: exact
  return mul(log_positive(x), inv_ln2());
}
CUCONFORM_HOST_DEVICE inline DoubleDouble log10_ref(double x) {
  DoubleDouble r;
  if (log_special(x, &r)) return r;
  return mul(log_positive(x), inv_ln10());
}
CUCONFORM_HOST_DEVICE inline DoubleDouble log1p_ref(double x) {
  if (is_nan(x) || x < -1) return exact(NAN);
  if (x == -1) return exact(-INFINITY);
  if (is_inf(x) || fabs(x) < 0x1p-500) return exact(x);                   // log1p(±0) = ±0; else x - x^2/2 rounds to x
  if (fabs(x) <= 0.25) return two_atanh(div(exact(x), two_sum(2.0, x)));  // (1 + u)/(1 - u) = 1 + x
  const DoubleDouble a = two_sum(1.0, x);
  return add(log_positive(a.hi),
             exact(a.lo / a.hi));  // log(hi + lo) = log hi + lo/hi - (lo/hi)^2/2...: |lo/hi| < 2^-53
}

// sqrt x: s = the device's sqrt, corrected once with the exact residual x - s^2 (fma). Scaled by 2^200 below
// 2^-900, where the residual would lose bits to the subnormals.
CUCONFORM_HOST_DEVICE inline DoubleDouble sqrt_of(double x) {
  if (is_nan(x) || x < 0) return exact(NAN);
  if (x == 0 || is_inf(x)) return exact(x);
  const bool tiny = x < 0x1p-900;
  const double y = tiny ? x * 0x1p200 : x;
  const double s = sqrt(y);
  const DoubleDouble r = quick_two_sum(s, fma(-s, s, y) / (2 * s));
  return tiny ? scale(r, -100) : r;
}
CUCONFORM_HOST_DEVICE inline DoubleDouble sqrt_ref(double x) { return sqrt_of(x); }
CUCONFORM_HOST_DEVICE inline DoubleDouble rsqrt_ref(double x) {
  if (x == 0) return exact(1.0 / x);  // rsqrt(±0) = ±inf
  if (is_nan(x) || x < 0) return exact(NAN);
  if (is_inf(x)) return exact(0.0);
  int e = 0;
  const double m = frexp(x, &e);
  if (m == 0.5 && (e - 1) % 2 == 0) return exact(ldexp(1.0, -(e - 1) / 2));  // an even power of two: exact
  return div(exact(1.0), sqrt_of(x));
}
// x / y: q = the device's quotient of the significands, corrected with the exact residual, times 2^(ex - ey).
CUCONFORM_HOST_DEVICE inline DoubleDouble div_ref(double x, double y) {
  // IEEE 754's special cases, written out rather than taken from the device's division (the function under test).
  const bool negative = (bits_of(x) >> 63) != (bits_of(y) >> 63);
  if (is_nan(x) || is_nan(y) || (x == 0 && y == 0) || (is_inf(x) && is_inf(y))) return exact(NAN);
  if (is_inf(x) || y == 0) return exact(negative ? -INFINITY : INFINITY);
  if (x == 0 || is_inf(y)) return exact(negative ? -0.0 : 0.0);
  int ex = 0, ey = 0;
  const double mx = frexp(x, &ex), my = frexp(y, &ey);  // x = mx 2^ex, y = my 2^ey, 0.5 <= |m| < 1
  const int e = ex - ey;
  if (e > 1025) return exact(copysign(INFINITY, x) * copysign(1.0, y));
  if (e < -1076) return exact(copysign(0.0, x) * copysign(1.0, y));
  const double q = mx / my;
  DoubleDouble r = quick_two_sum(q, fma(-q, my, mx) / my);
  r.scale = e;
  return r;
}
CUCONFORM_HOST_DEVICE inline DoubleDouble rcp_ref(double x) { return div_ref(1.0, x); }
// cbrt x: c = the device's cbrt, then two Newton steps c <- c - (c^3 - x) / (3 c^2) in dd. Scaled into
// [2^-900, 2^900] by a power of 2^3.
CUCONFORM_HOST_DEVICE inline DoubleDouble cbrt_ref(double x) {
  if (is_nan(x) || is_inf(x) || x == 0) return exact(x);
  const double a = fabs(x);
  const int k = a < 0x1p-900 ? 100 : a > 0x1p900 ? -100 : 0;  // a 2^(3k)
  const double y = ldexp(a, 3 * k);
  DoubleDouble c = exact(cbrt(y));
  for (int step = 0; step < 2; ++step) {
    const DoubleDouble c3 = mul(mul(c, c), c);
    const DoubleDouble residual = add(c3, exact(-y));
    c = add(c, neg(div(residual, mul(mul(c, c), 3.0))));
  }
  c = scale(c, -k);
  return x < 0 ? neg(c) : c;
}

}  // namespace dd

// The references' promised accuracy (relative), 2^5 above the worst the self-tests measure against MPFR (2^-95.3,
// exp10 at large arguments): a result whose distance to a rounding boundary is within that is ambiguous.
inline constexpr double kDeepRelativeError = 0x1p-90;

// (hi + lo) 2^scale rounded to nearest even double, and whether the reference's error could change that. The
// rounding is done on the scaled value, so that a result in the subnormals or at the overflow threshold is rounded at
// its own quantum without the low part losing bits. Other rounding modes are not served (ambiguous): the deep sweep
// checks the round-to-nearest rows of Table 19.
CUCONFORM_HOST_DEVICE inline Rounded round_double_double(DoubleDouble v, Rounding mode) {
  if (mode != Rounding::Nearest || is_nan(v.lo)) return {ldexp(v.hi, v.scale), true};
  if (is_nan(v.hi) || is_inf(v.hi) || v.hi == 0) return {v.hi, false};
  const bool negative = v.hi < 0;
  const double hi = fabs(v.hi), lo = negative ? -v.lo : v.lo;
  int e = 0;
  const double m = frexp(hi, &e);  // hi = m 2^e, 0.5 <= m < 1: the value's binade is e - 1 + scale
  int binade = e - 1 + v.scale;
  if (m == 0.5 && lo < 0) --binade;  // just below a power of two
  if (binade >= 1024) return {negative ? -INFINITY : INFINITY, false};
  const int quantum = binade - 52 > -1074 ? binade - 52 : -1074;  // the result is n 2^quantum
  if (binade < -1076) return {negative ? -0.0 : 0.0, false};      // below 2^-1075: rounds to zero
  // hi + lo in units of the quantum: n + fraction, n an integer below 2^53.
  const double units_hi = ldexp(hi, v.scale - quantum), units_lo = ldexp(lo, v.scale - quantum);
  double n = floor(units_hi);
  double fraction = (units_hi - n) + units_lo;
  if (fraction < 0) n -= 1, fraction += 1;
  if (fraction >= 1) n += 1, fraction -= 1;
  const double excess = fraction - 0.5;
  if (fabs(excess) <= units_hi * kDeepRelativeError + 0x1p-60) return {ldexp(n, quantum), true};
  if (excess > 0) n += 1;
  const double rounded = ldexp(n, quantum);  // exact, or +inf past the largest double
  return {negative ? -rounded : rounded, false};
}

}  // namespace cuconform::math
