// The exact reference of the math suite (see mathref.h): each function evaluates an interval [lo, hi] that contains
// the exact result, at a working precision that grows until both ends round to the same number.
#include "mathref.h"

#define MPFR_USE_NO_MACRO 1  // the functions, not macros, so that Num converts to mpfr_srcptr
#include <mpfr.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <string_view>

namespace {

constexpr mpfr_prec_t kMaxPrecision = 4096;

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

// The four corner values of a binary operation, the smallest rounded down and the largest rounded up.
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
// x^2 of an interval of one sign (all callers square such intervals or points).
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

struct Args {
  const double* v;
  int n;
};

using Evaluator = std::function<void(Interval& out, const Args& args)>;

// A function MPFR rounds correctly itself.
Evaluator direct(MpfrUnary f) {
  return [f](Interval& out, const Args& a) {
    Interval x(out.precision());
    x.set_point(a.v[0]);
    increasing(out, x, f);  // a point: the two roundings bracket the exact value whatever f's direction
  };
}
Evaluator direct2(MpfrBinary f) {
  return [f](Interval& out, const Args& a) {
    const mpfr_prec_t p = out.precision();
    Num x(p), y(p);
    mpfr_set_d(x, a.v[0], MPFR_RNDN);
    mpfr_set_d(y, a.v[1], MPFR_RNDN);
    f(out.lo, x, y, MPFR_RNDD);
    f(out.hi, x, y, MPFR_RNDU);
  };
}

// ---- composite functions -------------------------------------------------------------------------------------

void eval_rsqrt(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (x == 0) {  // rsqrt(+-0) = +-inf (IEEE 754-2008 rSqrt; CUDA's rsqrtf documents the same)
    mpfr_set_inf(out.lo, std::signbit(x) ? -1 : 1);
    mpfr_set_inf(out.hi, std::signbit(x) ? -1 : 1);
    return;
  }
  Interval in(out.precision());
  in.set_point(x);
  increasing(out, in, mpfr_rec_sqrt);
}

void eval_rcbrt(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (x == 0 || std::isinf(x)) {  // 1/cbrt(+-0) = +-inf, 1/cbrt(+-inf) = +-0
    out.set_point(x == 0 ? std::copysign(INFINITY, x) : std::copysign(0.0, x));
    return;
  }
  Interval in(out.precision()), root(out.precision());
  in.set_point(x);
  increasing(root, in, mpfr_cbrt);
  reciprocal(out, root);
}

void eval_rcp(Interval& out, const Args& a) {
  Interval one(out.precision()), x(out.precision());
  one.set_point(1.0);
  x.set_point(a.v[0]);
  corners(out, one, x, mpfr_div);  // a point divisor: signed zeros and infinities follow IEEE division
}

// sqrt of the sum of squares of the arguments; `reciprocal_result` gives 1/sqrt(...).
void eval_norm(Interval& out, const Args& a, bool reciprocal_result) {
  bool any_inf = false, any_nan = false;
  for (int i = 0; i < a.n; ++i) {
    any_inf |= std::isinf(a.v[i]);
    any_nan |= std::isnan(a.v[i]);
  }
  if (any_inf) {  // hypot(inf, NaN) = inf (C99 F.9.4.3), and so do the norms
    return out.set_point(reciprocal_result ? 0.0 : INFINITY);
  }
  if (any_nan) return out.set_nan();
  const mpfr_prec_t p = out.precision();
  Interval sum(p), term(p), x(p);
  sum.set_point(0.0);
  for (int i = 0; i < a.n; ++i) {
    x.set_point(a.v[i]);
    square(term, x);
    add(sum, sum, term);
  }
  Interval root(p);
  increasing(root, sum, mpfr_sqrt);
  if (reciprocal_result) {
    if (mpfr_zero_p(root.hi)) return out.set_point(INFINITY);
    reciprocal(out, root);
  } else {
    mpfr_set(out.lo, root.lo, MPFR_RNDN);
    mpfr_set(out.hi, root.hi, MPFR_RNDN);
  }
}

// erfcx(x) = exp(x^2) erfc(x).
void eval_erfcx(Interval& out, const Args& a) {
  const double x = a.v[0];
  const mpfr_prec_t p = out.precision();
  if (std::isnan(x)) return out.set_nan();
  if (x == INFINITY) return out.set_point(0.0);
  if (x == -INFINITY) return out.set_point(INFINITY);
  if (x > 1e4) {
    // Asymptotic series 1/(x sqrt(pi)) * sum_k (-1)^k (2k-1)!! / (2x^2)^k: for x > 0 its partial sums enclose the
    // value alternately, so the sums ending after an even and an odd term bracket it. Terms shrink by (2k+1)/(2x^2).
    Interval s(p), t(p), q(p), xx(p);
    xx.set_point(x);
    square(q, xx);
    mpfr_mul_2ui(q.lo, q.lo, 1, MPFR_RNDD);
    mpfr_mul_2ui(q.hi, q.hi, 1, MPFR_RNDU);  // q = 2x^2
    Interval even(p), odd(p);
    s.set_point(1.0);
    t.set_point(1.0);
    Interval factor(p), ratio(p);
    for (int k = 1; k <= 2 * (p / 26 + 2); ++k) {
      factor.set_point(-(2.0 * k - 1));
      mul(t, t, factor);
      div(t, t, q);
      add(s, s, t);
      if (k % 2 == 0) {
        mpfr_set(even.lo, s.lo, MPFR_RNDN);  // after a positive term: an upper bound
        mpfr_set(even.hi, s.hi, MPFR_RNDN);
      } else {
        mpfr_set(odd.lo, s.lo, MPFR_RNDN);  // after a negative term: a lower bound
        mpfr_set(odd.hi, s.hi, MPFR_RNDN);
      }
    }
    Interval sum(p), pi(p), root_pi(p), denominator(p);
    mpfr_set(sum.lo, odd.lo, MPFR_RNDN);
    mpfr_set(sum.hi, even.hi, MPFR_RNDN);
    mpfr_const_pi(pi.lo, MPFR_RNDD);
    mpfr_const_pi(pi.hi, MPFR_RNDU);
    increasing(root_pi, pi, mpfr_sqrt);
    mul(denominator, root_pi, xx);
    div(out, sum, denominator);
    return;
  }
  Interval xx(p), sq(p), e(p), c(p);
  xx.set_point(x);
  square(sq, xx);
  increasing(e, sq, mpfr_exp);
  decreasing(c, xx, mpfr_erfc);
  mul(out, e, c);
}

// Phi(x) = erfc(-x / sqrt(2)) / 2.
void normcdf_interval(Interval& out, const Interval& x) {
  const mpfr_prec_t p = out.precision();
  Interval two(p), root2(p), t(p), minus_x(p);
  two.set_point(2.0);
  increasing(root2, two, mpfr_sqrt);
  mpfr_neg(minus_x.lo, x.hi, MPFR_RNDN);
  mpfr_neg(minus_x.hi, x.lo, MPFR_RNDN);
  div(t, minus_x, root2);
  decreasing(out, t, mpfr_erfc);
  mpfr_div_2ui(out.lo, out.lo, 1, MPFR_RNDN);
  mpfr_div_2ui(out.hi, out.hi, 1, MPFR_RNDN);
}
void eval_normcdf(Interval& out, const Args& a) {
  Interval x(out.precision());
  x.set_point(a.v[0]);
  normcdf_interval(out, x);
}

// The inverse of a monotonic function g at `target`: Newton's method from a double guess, then an enclosure
// [y - d, y + d] checked with g's own interval evaluation. Returns false when the check fails at this precision.
struct Inverse {
  std::function<void(Interval&, const Interval&)> g;  // interval evaluation of g
  std::function<void(mpfr_ptr, mpfr_srcptr)> newton_step;  // y <- y - (g(y) - target) / g'(y), at y's precision
  bool increasing;
};

bool solve(Interval& out, const Inverse& inv, double target, double guess) {
  const mpfr_prec_t p = out.precision();
  Num y(p + 32), previous(p + 32);
  mpfr_set_d(y, guess, MPFR_RNDN);
  for (int i = 0; i < 200; ++i) {
    mpfr_set(previous, y, MPFR_RNDN);
    inv.newton_step(y, y);
    if (!mpfr_number_p(y)) return false;
    if (mpfr_equal_p(y, previous)) break;
    Num diff(p + 32);
    mpfr_sub(diff, y, previous, MPFR_RNDN);
    if (mpfr_zero_p(diff) || mpfr_get_exp(diff) < mpfr_get_exp(y) - (p + 24)) break;
  }
  Interval end(p), value(p);
  Num d(p);
  mpfr_set_ui_2exp(d, 1, mpfr_get_exp(y) - p + 4, MPFR_RNDN);
  for (int widen = 0; widen < 6; ++widen, mpfr_mul_2ui(d, d, 8, MPFR_RNDN)) {
    Num a(p), b(p);
    mpfr_sub(a, y, d, MPFR_RNDD);
    mpfr_add(b, y, d, MPFR_RNDU);
    // y lies in [a, b] when g(a) and g(b) lie on either side of the target (g monotonic).
    end.set_point(0);
    mpfr_set(end.lo, a, MPFR_RNDN);
    mpfr_set(end.hi, a, MPFR_RNDN);
    inv.g(value, end);
    const bool a_ok = inv.increasing ? mpfr_cmp_d(value.hi, target) <= 0 : mpfr_cmp_d(value.lo, target) >= 0;
    mpfr_set(end.lo, b, MPFR_RNDN);
    mpfr_set(end.hi, b, MPFR_RNDN);
    inv.g(value, end);
    const bool b_ok = inv.increasing ? mpfr_cmp_d(value.lo, target) >= 0 : mpfr_cmp_d(value.hi, target) <= 0;
    if (a_ok && b_ok) {
      mpfr_set(out.lo, a, MPFR_RNDN);
      mpfr_set(out.hi, b, MPFR_RNDN);
      return true;
    }
  }
  return false;
}

// Bisection in double: a starting point for Newton's method (g increasing or decreasing on [lo, hi]).
double bisect(double (*g)(double), double target, double lo, double hi, bool increasing) {
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    const bool below = increasing ? g(mid) < target : g(mid) > target;
    (below ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// 2/sqrt(pi) exp(-y^2) is erf's derivative.
void erf_newton(mpfr_ptr y, double target, bool complement) {
  const mpfr_prec_t p = mpfr_get_prec(y);
  Num g(p), e(p), k(p);
  (complement ? mpfr_erfc : mpfr_erf)(g, y, MPFR_RNDN);
  mpfr_sub_d(g, g, target, MPFR_RNDN);
  mpfr_sqr(e, y, MPFR_RNDN);
  mpfr_exp(e, e, MPFR_RNDN);  // 1 / exp(-y^2)
  mpfr_const_pi(k, MPFR_RNDN);
  mpfr_sqrt(k, k, MPFR_RNDN);
  mpfr_div_2ui(k, k, 1, MPFR_RNDN);  // sqrt(pi)/2
  mpfr_mul(g, g, e, MPFR_RNDN);
  mpfr_mul(g, g, k, MPFR_RNDN);
  (complement ? mpfr_add : mpfr_sub)(y, y, g, MPFR_RNDN);
}

void eval_erfinv(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (std::isnan(x) || std::fabs(x) > 1) return out.set_nan();
  if (std::fabs(x) == 1 || x == 0) return out.set_point(x == 0 ? x : std::copysign(INFINITY, x));
  const double guess = std::fabs(x) > 0.5 ? std::copysign(bisect([](double y) { return std::erfc(y); },
                                                                  1 - std::fabs(x), 0, 30, false), x)
                                          : bisect([](double y) { return std::erf(y); }, x, -1, 1, true);
  Inverse inv{[](Interval& o, const Interval& y) { increasing(o, y, mpfr_erf); },
              [x](mpfr_ptr y, mpfr_srcptr) { erf_newton(y, x, false); }, true};
  if (!solve(out, inv, x, guess)) mpfr_set_nan(out.lo), mpfr_set_inf(out.hi, 1);
}

void eval_erfcinv(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (std::isnan(x) || x < 0 || x > 2) return out.set_nan();
  if (x == 0) return out.set_point(INFINITY);
  if (x == 2) return out.set_point(-INFINITY);
  if (x == 1) return out.set_point(0.0);
  const double guess = bisect([](double y) { return std::erfc(y); }, x, -30, 30, false);
  Inverse inv{[](Interval& o, const Interval& y) { decreasing(o, y, mpfr_erfc); },
              [x](mpfr_ptr y, mpfr_srcptr) { erf_newton(y, x, true); }, false};
  if (!solve(out, inv, x, guess)) mpfr_set_nan(out.lo), mpfr_set_inf(out.hi, 1);
}

void eval_normcdfinv(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (std::isnan(x) || x < 0 || x > 1) return out.set_nan();
  if (x == 0) return out.set_point(-INFINITY);
  if (x == 1) return out.set_point(INFINITY);
  if (x == 0.5) return out.set_point(0.0);
  const double guess = bisect([](double y) { return 0.5 * std::erfc(-y / std::sqrt(2.0)); }, x, -40, 40, true);
  Inverse inv{normcdf_interval,
              [x](mpfr_ptr y, mpfr_srcptr) {
                // y <- y - (Phi(y) - x) sqrt(2 pi) exp(y^2 / 2)
                const mpfr_prec_t p = mpfr_get_prec(y);
                Num t(p), g(p), e(p), k(p);
                mpfr_set_ui(k, 2, MPFR_RNDN);
                mpfr_sqrt(k, k, MPFR_RNDN);
                mpfr_neg(t, y, MPFR_RNDN);
                mpfr_div(t, t, k, MPFR_RNDN);
                mpfr_erfc(g, t, MPFR_RNDN);
                mpfr_div_2ui(g, g, 1, MPFR_RNDN);
                mpfr_sub_d(g, g, x, MPFR_RNDN);
                mpfr_sqr(e, y, MPFR_RNDN);
                mpfr_div_2ui(e, e, 1, MPFR_RNDN);
                mpfr_exp(e, e, MPFR_RNDN);
                mpfr_const_pi(k, MPFR_RNDN);
                mpfr_mul_2ui(k, k, 1, MPFR_RNDN);
                mpfr_sqrt(k, k, MPFR_RNDN);
                mpfr_mul(g, g, e, MPFR_RNDN);
                mpfr_mul(g, g, k, MPFR_RNDN);
                mpfr_sub(y, y, g, MPFR_RNDN);
              },
              true};
  if (!solve(out, inv, x, guess)) mpfr_set_nan(out.lo), mpfr_set_inf(out.hi, 1);
}

// Modified Bessel functions of the first kind, orders 0 and 1: (x/2)^nu sum_k (x^2/4)^k / (k! (k+nu)!).
void eval_bessel_i(Interval& out, const Args& a, int nu) {
  const double x = a.v[0];
  if (std::isnan(x)) return out.set_nan();
  const double ax = std::fabs(x);
  const bool negate = nu == 1 && std::signbit(x);
  if (ax > 800) {  // I0(800), I1(800) > 2^1100: beyond every format, whatever the rounding
    Num huge(out.precision());
    mpfr_set_ui_2exp(huge, 1, 2000, MPFR_RNDN);
    mpfr_set(out.lo, huge, MPFR_RNDN);
    mpfr_set(out.hi, huge, MPFR_RNDN);
  } else {
    const mpfr_prec_t p = out.precision() + 32;
    Num q_lo(p), q_hi(p), t_lo(p), t_hi(p), s_lo(p), s_hi(p);
    mpfr_set_d(q_lo, ax, MPFR_RNDN);
    mpfr_sqr(q_lo, q_lo, MPFR_RNDD);
    mpfr_div_2ui(q_lo, q_lo, 2, MPFR_RNDD);
    mpfr_set_d(q_hi, ax, MPFR_RNDN);
    mpfr_sqr(q_hi, q_hi, MPFR_RNDU);
    mpfr_div_2ui(q_hi, q_hi, 2, MPFR_RNDU);
    mpfr_set_d(t_lo, nu ? ax / 2 : 1.0, MPFR_RNDN);  // ax / 2 is exact
    mpfr_set(t_hi, t_lo, MPFR_RNDN);
    mpfr_set(s_lo, t_lo, MPFR_RNDN);
    mpfr_set(s_hi, t_hi, MPFR_RNDN);
    const double q = ax * ax / 4;
    for (unsigned long k = 1;; ++k) {
      const unsigned long d = k * (k + nu);
      mpfr_mul(t_lo, t_lo, q_lo, MPFR_RNDD);
      mpfr_div_ui(t_lo, t_lo, d, MPFR_RNDD);
      mpfr_mul(t_hi, t_hi, q_hi, MPFR_RNDU);
      mpfr_div_ui(t_hi, t_hi, d, MPFR_RNDU);
      // Once the ratio of successive terms q / ((k+1)(k+1+nu)) is below 1/2, the tail after term k is below t_k.
      const bool ratio_small = double(k + 1) * double(k + 1 + nu) > 2 * q + 1;
      if (ratio_small && (mpfr_zero_p(t_hi) || mpfr_get_exp(t_hi) < mpfr_get_exp(s_lo) - p - 8)) {
        mpfr_add(s_hi, s_hi, t_hi, MPFR_RNDU);
        mpfr_add(s_hi, s_hi, t_hi, MPFR_RNDU);  // the term itself and a bound on what follows it
        break;
      }
      mpfr_add(s_lo, s_lo, t_lo, MPFR_RNDD);
      mpfr_add(s_hi, s_hi, t_hi, MPFR_RNDU);
    }
    mpfr_set(out.lo, s_lo, MPFR_RNDD);
    mpfr_set(out.hi, s_hi, MPFR_RNDU);
  }
  if (negate) {
    Num lo(out.precision());
    mpfr_neg(lo, out.hi, MPFR_RNDN);
    mpfr_neg(out.hi, out.lo, MPFR_RNDN);
    mpfr_set(out.lo, lo, MPFR_RNDN);
  }
}

void eval_lgamma(Interval& out, const Args& a) {
  Num x(out.precision());
  mpfr_set_d(x, a.v[0], MPFR_RNDN);
  int sign;
  mpfr_lgamma(out.lo, &sign, x, MPFR_RNDD);
  mpfr_lgamma(out.hi, &sign, x, MPFR_RNDU);
}

// logb: the exponent of x as a number, floor(log2|x|).
void eval_logb(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (std::isnan(x)) return out.set_nan();
  if (x == 0) return out.set_point(-INFINITY);
  if (std::isinf(x)) return out.set_point(INFINITY);
  return out.set_point(std::ilogb(x));  // exact integer arithmetic on the host's representation
}
// ilogb: INT_MIN for 0 and NaN, INT_MAX for infinities (the CUDA Math API's documented values).
void eval_ilogb(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (std::isnan(x) || x == 0) return out.set_point(INT_MIN);
  if (std::isinf(x)) return out.set_point(INT_MAX);
  return out.set_point(std::ilogb(x));
}

void eval_frexp_mantissa(Interval& out, const Args& a) {
  int e;
  out.set_point(std::isfinite(a.v[0]) ? std::frexp(a.v[0], &e) : a.v[0]);
}
void eval_frexp_exponent(Interval& out, const Args& a) {
  if (!std::isfinite(a.v[0])) return out.set_nan();  // unspecified for infinities and NaN
  int e;
  std::frexp(a.v[0], &e);
  out.set_point(e);
}
void eval_modf_integral(Interval& out, const Args& a) { out.set_point(std::trunc(a.v[0])); }
void eval_modf_fraction(Interval& out, const Args& a) {
  const double x = a.v[0];
  if (std::isinf(x)) return out.set_point(std::copysign(0.0, x));
  out.set_point(std::copysign(x - std::trunc(x), x));  // exact: x - trunc(x) needs no rounding
}

// ldexp(x, n) = x * 2^n, rounded once to the format.
void eval_ldexp(Interval& out, const Args& a) {
  mpfr_set_d(out.lo, a.v[0], MPFR_RNDN);
  mpfr_mul_2si(out.lo, out.lo, long(a.v[1]), MPFR_RNDN);  // exact: only the exponent changes
  mpfr_set(out.hi, out.lo, MPFR_RNDN);
}

// jn(n, x) and yn(n, x): the order comes first, as in CUDA's jnf(int n, float x).
void eval_jn(Interval& out, const Args& a, bool second_kind) {
  Num x(out.precision());
  mpfr_set_d(x, a.v[1], MPFR_RNDN);
  const long n = long(a.v[0]);
  (second_kind ? mpfr_yn : mpfr_jn)(out.lo, n, x, MPFR_RNDD);
  (second_kind ? mpfr_yn : mpfr_jn)(out.hi, n, x, MPFR_RNDU);
}

void eval_fma(Interval& out, const Args& a) {
  const mpfr_prec_t p = out.precision();
  Num x(p), y(p), z(p);
  mpfr_set_d(x, a.v[0], MPFR_RNDN);
  mpfr_set_d(y, a.v[1], MPFR_RNDN);
  mpfr_set_d(z, a.v[2], MPFR_RNDN);
  mpfr_fma(out.lo, x, y, z, MPFR_RNDD);
  mpfr_fma(out.hi, x, y, z, MPFR_RNDU);
}

void eval_rhypot(Interval& out, const Args& a) { eval_norm(out, a, true); }

// j1(±inf) = ±0 (the CUDA Math API's j1 and j1f: "returns ±0"); MPFR returns +0 for both. Elsewhere MPFR's j1.
int j1_cuda(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rnd) {
  if (mpfr_inf_p(x)) {
    mpfr_set_zero(r, mpfr_sgn(x));
    return 0;
  }
  return mpfr_j1(r, x, rnd);
}

// An integer result (lrint, lround, the conversion intrinsics) is a value of an integer type, which has no -0:
// rounding -0 or a small negative number gives 0, which the caller's double holds as +0.
void integer_zero_is_positive(Interval& out) {
  if (mpfr_zero_p(out.lo)) mpfr_set_zero(out.lo, 1);
  if (mpfr_zero_p(out.hi)) mpfr_set_zero(out.hi, 1);
}

// lrint, llrint: x rounded to an integer, ties to even; lround, llround: ties away from zero (C99 7.12.9.5, 7).
// Exact; only the inputs whose result fits the integer type are checked (bounds.toml).
void eval_lrint(Interval& out, const Args& a) {
  mpfr_set_d(out.lo, a.v[0], MPFR_RNDN);
  mpfr_rint_roundeven(out.lo, out.lo, MPFR_RNDN);
  mpfr_set(out.hi, out.lo, MPFR_RNDN);
  integer_zero_is_positive(out);
}
void eval_lround(Interval& out, const Args& a) {
  mpfr_set_d(out.lo, a.v[0], MPFR_RNDN);
  mpfr_rint_round(out.lo, out.lo, MPFR_RNDN);
  mpfr_set(out.hi, out.lo, MPFR_RNDN);
  integer_zero_is_positive(out);
}

void eval_identity(Interval& out, const Args& a) { out.set_point(a.v[0]); }

// A conversion to an integer type: the argument rounded to an integer in the requested mode, clamped to [lo, hi]
// (PG12.9 20.3). The rounding mode reaches the evaluator through `mode`; the result is exact.
void eval_to_integer(Interval& out, const Args& a, mpfr_rnd_t mode, double lo, double hi) {
  Num x(out.precision());
  mpfr_set_d(x, a.v[0], MPFR_RNDN);
  if (mpfr_nan_p(x)) return out.set_nan();
  mpfr_rint(x, x, mode);
  if (mpfr_cmp_d(x, lo) < 0) mpfr_set_d(x, lo, MPFR_RNDN);
  if (mpfr_cmp_d(x, hi) > 0) mpfr_set_d(x, hi, MPFR_RNDN);
  mpfr_set(out.lo, x, MPFR_RNDN);
  mpfr_set(out.hi, x, MPFR_RNDN);
  integer_zero_is_positive(out);
}

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

const Entry* table(std::size_t* count) {
  static const Entry entries[] = {
      {"identity", 1, eval_identity},  // a conversion: the argument rounded to the format
      {"sqrt", 1, direct(mpfr_sqrt), false, mpfr_sqrt},
      {"rsqrt", 1, eval_rsqrt},
      {"cbrt", 1, direct(mpfr_cbrt), false, mpfr_cbrt},
      {"rcbrt", 1, eval_rcbrt},
      {"rcp", 1, eval_rcp},
      {"exp", 1, direct(mpfr_exp), false, mpfr_exp},
      {"exp2", 1, direct(mpfr_exp2), false, mpfr_exp2},
      {"exp10", 1, direct(mpfr_exp10), false, mpfr_exp10},
      {"expm1", 1, direct(mpfr_expm1), false, mpfr_expm1},
      {"log", 1, direct(mpfr_log), false, mpfr_log},
      {"log2", 1, direct(mpfr_log2), false, mpfr_log2},
      {"log10", 1, direct(mpfr_log10), false, mpfr_log10},
      {"log1p", 1, direct(mpfr_log1p), false, mpfr_log1p},
      {"sin", 1, direct(mpfr_sin), false, mpfr_sin},
      {"cos", 1, direct(mpfr_cos), false, mpfr_cos},
      {"tan", 1, direct(mpfr_tan), false, mpfr_tan},
      {"sinpi", 1, direct(mpfr_sinpi), false, mpfr_sinpi},
      {"cospi", 1, direct(mpfr_cospi), false, mpfr_cospi},
      {"asin", 1, direct(mpfr_asin), false, mpfr_asin},
      {"acos", 1, direct(mpfr_acos), false, mpfr_acos},
      {"atan", 1, direct(mpfr_atan), false, mpfr_atan},
      {"sinh", 1, direct(mpfr_sinh), false, mpfr_sinh},
      {"cosh", 1, direct(mpfr_cosh), false, mpfr_cosh},
      {"tanh", 1, direct(mpfr_tanh), false, mpfr_tanh},
      {"asinh", 1, direct(mpfr_asinh), false, mpfr_asinh},
      {"acosh", 1, direct(mpfr_acosh), false, mpfr_acosh},
      {"atanh", 1, direct(mpfr_atanh), false, mpfr_atanh},
      {"erf", 1, direct(mpfr_erf), false, mpfr_erf},
      {"erfc", 1, direct(mpfr_erfc), false, mpfr_erfc},
      {"erfinv", 1, eval_erfinv},
      {"erfcinv", 1, eval_erfcinv},
      {"erfcx", 1, eval_erfcx},
      {"normcdf", 1, eval_normcdf},
      {"normcdfinv", 1, eval_normcdfinv},
      {"lgamma", 1, eval_lgamma},
      {"tgamma", 1, direct(mpfr_gamma), false, mpfr_gamma},
      {"logb", 1, eval_logb},
      {"ilogb", 1, eval_ilogb},
      {"j0", 1, direct(mpfr_j0), false, mpfr_j0},
      {"j1", 1, direct(j1_cuda), false, j1_cuda},
      {"y0", 1, direct(mpfr_y0), false, mpfr_y0},
      {"y1", 1, direct(mpfr_y1), false, mpfr_y1},
      {"i0", 1, [](Interval& o, const Args& a) { eval_bessel_i(o, a, 0); }},
      {"i1", 1, [](Interval& o, const Args& a) { eval_bessel_i(o, a, 1); }},
      {"trunc", 1, direct(mpfr_rint_trunc), false, mpfr_rint_trunc},
      {"round", 1, direct(mpfr_rint_round), false, mpfr_rint_round},
      {"rint", 1, direct(mpfr_rint_roundeven), false, mpfr_rint_roundeven},
      {"ceil", 1, direct(mpfr_rint_ceil), false, mpfr_rint_ceil},
      {"floor", 1, direct(mpfr_rint_floor), false, mpfr_rint_floor},
      {"lrint", 1, eval_lrint},
      {"lround", 1, eval_lround},
      {"frexp_mantissa", 1, eval_frexp_mantissa},
      {"frexp_exponent", 1, eval_frexp_exponent},
      {"modf_integral", 1, eval_modf_integral},
      {"modf_fraction", 1, eval_modf_fraction},
      {"add", 2, direct2(mpfr_add), false, nullptr, mpfr_add},
      {"sub", 2, direct2(mpfr_sub), false, nullptr, mpfr_sub},
      {"mul", 2, direct2(mpfr_mul), false, nullptr, mpfr_mul},
      {"div", 2, direct2(mpfr_div), false, nullptr, mpfr_div},
      {"pow", 2, direct2(mpfr_pow), false, nullptr, mpfr_pow},
      {"atan2", 2, direct2(mpfr_atan2), false, nullptr, mpfr_atan2},
      {"hypot", 2, [](Interval& o, const Args& a) { eval_norm(o, a, false); }},
      {"rhypot", 2, eval_rhypot},
      {"fmod", 2, direct2(mpfr_fmod), false, nullptr, mpfr_fmod},
      {"remainder", 2, direct2(mpfr_remainder), false, nullptr, mpfr_remainder},
      {"fdim", 2, direct2(mpfr_dim), false, nullptr, mpfr_dim},
      {"fmin", 2, direct2(mpfr_min), false, nullptr, mpfr_min},
      {"fmax", 2, direct2(mpfr_max), false, nullptr, mpfr_max},
      {"ldexp", 2, eval_ldexp},
      {"jn", 2, [](Interval& o, const Args& a) { eval_jn(o, a, false); }, false, nullptr, nullptr, mpfr_jn},
      {"yn", 2, [](Interval& o, const Args& a) { eval_jn(o, a, true); }, false, nullptr, nullptr, mpfr_yn},
      {"fma", 3, eval_fma},
      {"norm3d", 3, [](Interval& o, const Args& a) { eval_norm(o, a, false); }},
      {"rnorm3d", 3, [](Interval& o, const Args& a) { eval_norm(o, a, true); }},
      {"norm4d", 4, [](Interval& o, const Args& a) { eval_norm(o, a, false); }},
      {"rnorm4d", 4, [](Interval& o, const Args& a) { eval_norm(o, a, true); }},
      // norm(dim, p), rnorm(dim, p): any number of coordinates (cuconform_mathref_eval_n).
      {"norm", 0, [](Interval& o, const Args& a) { eval_norm(o, a, false); }},
      {"rnorm", 0, [](Interval& o, const Args& a) { eval_norm(o, a, true); }},
      // Integer conversions: the mode is applied by cuconform_mathref_eval (integer_result).
      {"to_int32", 1, nullptr, true},
      {"to_uint32", 1, nullptr, true},
      {"to_int64", 1, nullptr, true},
      {"to_uint64", 1, nullptr, true},
  };
  *count = sizeof entries / sizeof entries[0];
  return entries;
}

mpfr_rnd_t mode_of(int rounding) {
  switch (rounding) {
    case 1: return MPFR_RNDZ;
    case 2: return MPFR_RNDU;
    case 3: return MPFR_RNDD;
    default: return MPFR_RNDN;
  }
}

// The formats a result may be rounded to, by their precision: binary16 (11), bfloat16 (8), binary32 (24), binary64
// (53). MPFR's exponents: a number is m 2^e with 0.5 <= m < 1, so the smallest subnormal 2^k is 0.5 * 2^(k + 1) and
// emin = k + 1; the largest finite number is below 2^emax.
struct TargetFormat {
  int precision;
  mpfr_exp_t emin, emax;
};
constexpr TargetFormat kFormats[] = {{11, -23, 16}, {8, -132, 128}, {24, -148, 128}, {53, -1073, 1024}};

const TargetFormat* format_of(int precision) {
  for (const TargetFormat& f : kFormats) {
    if (f.precision == precision) return &f;
  }
  return nullptr;
}

// x rounded to the format (precision, exponent range, subnormals, overflow), as a double (exact).
double round_to(mpfr_srcptr x, int precision, mpfr_rnd_t rnd) {
  if (precision == 24) return double(mpfr_get_flt(x, rnd));
  if (precision == 53) return mpfr_get_d(x, rnd);
  const TargetFormat& f = *format_of(precision);
  Num r(precision);
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  int ternary = mpfr_set(r, x, rnd);
  mpfr_set_emin(f.emin);
  mpfr_set_emax(f.emax);
  ternary = mpfr_check_range(r, ternary, rnd);
  mpfr_subnormalize(r, ternary, rnd);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return mpfr_get_d(r, MPFR_RNDN);  // exact
}

// An end that underflowed to zero while the other end is not zero: the exact value is a tiny non-zero number of
// the other end's sign, and every tiny number of that sign rounds like the smallest one MPFR has.
void lift_underflow(mpfr_ptr end, mpfr_srcptr other) {
  if (mpfr_zero_p(end) && mpfr_regular_p(other) && mpfr_get_exp(other) < -100000) {
    mpfr_set_ui_2exp(end, 1, mpfr_get_emin(), MPFR_RNDN);
    if (mpfr_sgn(other) < 0) mpfr_neg(end, end, MPFR_RNDN);
  }
}

// An end that overflowed to infinity while the other end is a finite number beyond every format: the exact value
// is finite and rounds like that other end.
void lift_overflow(mpfr_ptr end, mpfr_srcptr other) {
  if (mpfr_inf_p(end) && mpfr_number_p(other) && mpfr_get_exp(other) > 100000) mpfr_set(end, other, MPFR_RNDN);
}

// f(args) computed by MPFR directly in the target format (precision, exponent range, subnormals): correctly rounded
// by MPFR's own guarantee, whatever the precision the exact value would need to decide the rounding.
double in_target_format(const Entry& entry, const double* args, int precision, mpfr_rnd_t rnd) {
  Num x(53), y(53), r(precision);
  mpfr_set_d(x, args[0], MPFR_RNDN);
  if (entry.binary || entry.order) mpfr_set_d(y, args[1], MPFR_RNDN);
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  const TargetFormat& format = *format_of(precision);
  mpfr_set_emin(format.emin);
  mpfr_set_emax(format.emax);
  int ternary = entry.unary    ? entry.unary(r, x, rnd)
                : entry.binary ? entry.binary(r, x, y, rnd)
                               : entry.order(r, long(args[0]), y, rnd);
  ternary = mpfr_check_range(r, ternary, rnd);
  mpfr_subnormalize(r, ternary, rnd);
  const double value = mpfr_get_d(r, MPFR_RNDN);  // exact
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return value;
}

void init_thread() {
  thread_local bool done = false;
  if (done) return;
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  done = true;
}

}  // namespace

extern "C" {

int cuconform_mathref_abi(void) { return CUCONFORM_MATHREF_ABI; }

int cuconform_mathref_find(const char* name) {
  std::size_t count;
  const Entry* entries = table(&count);
  for (std::size_t i = 0; i < count; ++i) {
    if (std::strcmp(entries[i].name, name) == 0) return int(i);
  }
  return -1;
}

int cuconform_mathref_arity(int id) {
  std::size_t count;
  const Entry* entries = table(&count);
  return id >= 0 && std::size_t(id) < count ? entries[id].arity : -1;
}

int cuconform_mathref_thread_safe(void) { return mpfr_buildopt_tls_p(); }

}  // extern "C"

namespace {

void evaluate(int id, const double* args, int n, int precision, int rounding, cuconform_mathref_result* out) {
  init_thread();
  out->rounded = out->exact_hi = out->exact_lo = NAN;
  std::size_t count;
  const Entry* entries = table(&count);
  if (id < 0 || std::size_t(id) >= count || !format_of(precision) || n < 1 || n > 4096 ||
      (entries[id].arity != 0 && entries[id].arity != n)) {
    out->status = CUCONFORM_MATHREF_BAD_ARGUMENT;
    return;
  }
  const Entry& entry = entries[id];
  const mpfr_rnd_t rnd = mode_of(rounding);
  const Args a{args, n};
  if (entry.integer_result) {
    // 2^63 - 1 and 2^64 - 1 are not doubles: the ends of the 64-bit ranges are given as the doubles the results
    // convert to (2^63, 2^64), so that a clamped result compares equal.
    const std::string_view name = entry.name;
    const double lo = name == "to_int32" ? -2147483648.0 : name == "to_int64" ? -0x1p63 : 0.0;
    const double hi = name == "to_int32" ? 2147483647.0 : name == "to_uint32" ? 4294967295.0
                      : name == "to_int64" ? 0x1p63 : 0x1p64;
    Interval r(64);
    eval_to_integer(r, a, rnd, lo, hi);
    out->rounded = out->exact_hi = mpfr_get_d(r.lo, MPFR_RNDN);
    out->exact_lo = 0;
    out->status = CUCONFORM_MATHREF_OK;
    return;
  }
  if (entry.unary || entry.binary || entry.order) {
    out->rounded = in_target_format(entry, args, precision, rnd);
    // The exact value, for the fractional and absolute errors: the same function at 128 bits, in the wide range.
    Num x(53), y(53), mid(128), rest(129);
    mpfr_set_d(x, args[0], MPFR_RNDN);
    if (entry.binary || entry.order) mpfr_set_d(y, args[1], MPFR_RNDN);
    if (entry.unary) entry.unary(mid, x, MPFR_RNDN);
    else if (entry.binary) entry.binary(mid, x, y, MPFR_RNDN);
    else entry.order(mid, long(args[0]), y, MPFR_RNDN);
    out->exact_hi = mpfr_nan_p(mid) ? NAN : mpfr_get_d(mid, MPFR_RNDN);
    mpfr_sub_d(rest, mid, out->exact_hi, MPFR_RNDN);
    out->exact_lo = std::isfinite(out->exact_hi) ? mpfr_get_d(rest, MPFR_RNDN) : 0.0;
    out->status = CUCONFORM_MATHREF_OK;
    return;
  }
  for (mpfr_prec_t p = precision <= 24 ? 64 : 128; p <= kMaxPrecision; p *= 2) {
    Interval r(p);
    entry.eval(r, a);
    if (mpfr_nan_p(r.lo) && mpfr_nan_p(r.hi)) {
      out->status = CUCONFORM_MATHREF_OK;
      return;  // the exact result is undefined: NaN
    }
    if (mpfr_nan_p(r.lo) || mpfr_nan_p(r.hi)) continue;  // no enclosure at this precision
    lift_underflow(r.lo, r.hi);
    lift_underflow(r.hi, r.lo);
    lift_overflow(r.lo, r.hi);
    lift_overflow(r.hi, r.lo);
    double lo = round_to(r.lo, precision, rnd), hi = round_to(r.hi, precision, rnd);
    if (mpfr_zero_p(r.lo) && mpfr_zero_p(r.hi) && std::signbit(lo) != std::signbit(hi)) {
      // An exact zero reached from both sides (x - x, fma(x, y, -x*y)): IEEE 754 gives +0, and -0 rounding down.
      lo = hi = rnd == MPFR_RNDD ? -0.0 : 0.0;
    }
    if (!(lo == hi) || std::signbit(lo) != std::signbit(hi)) continue;
    out->rounded = lo;
    Num mid(p + 1), rest(p + 1);
    mpfr_add(mid, r.lo, r.hi, MPFR_RNDN);  // exact at p + 1 bits, unless the ends are far apart
    mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
    if (mpfr_inf_p(r.lo) && mpfr_inf_p(r.hi)) mpfr_set(mid, r.lo, MPFR_RNDN);
    out->exact_hi = mpfr_get_d(mid, MPFR_RNDN);
    mpfr_sub_d(rest, mid, out->exact_hi, MPFR_RNDN);
    out->exact_lo = std::isfinite(out->exact_hi) ? mpfr_get_d(rest, MPFR_RNDN) : 0.0;
    out->status = CUCONFORM_MATHREF_OK;
    return;
  }
  out->status = CUCONFORM_MATHREF_UNDECIDED;
}

}  // namespace

extern "C" {

void cuconform_mathref_eval(int id, const double* args, int precision, int rounding,
                            cuconform_mathref_result* out) {
  std::size_t count;
  const Entry* entries = table(&count);
  const int arity = id >= 0 && std::size_t(id) < count ? entries[id].arity : 1;
  evaluate(id, args, arity, precision, rounding, out);
}

void cuconform_mathref_eval_n(int id, const double* args, int n, int precision, int rounding,
                              cuconform_mathref_result* out) {
  evaluate(id, args, n, precision, rounding, out);
}

}  // extern "C"

// ---- binary128: the reference of the __nv_fp128_* functions (PG12.9 17.1 Table 20) ---------------------------
// Every Table 20 function is one MPFR computes with correct rounding (or an exact operation): it is evaluated in the
// binary128 format itself (113 bits, its exponent range, subnormals), correctly rounded by MPFR's guarantee.

namespace {

constexpr mpfr_prec_t kQuadPrecision = 113;
constexpr int kQuadBias = 16383;

// The encoding { low, high } -> an MPFR number of 113 bits (exact).
void quad_to_mpfr(mpfr_ptr x, const unsigned long long* q) {
  const unsigned long long lo = q[0], hi = q[1];
  const bool negative = hi >> 63;
  const int exponent = int((hi >> 48) & 0x7fff);
  const unsigned long long fraction_hi = hi & 0xffffffffffffull;
  if (exponent == 0x7fff) {
    if (fraction_hi || lo) mpfr_set_nan(x);
    else mpfr_set_inf(x, negative ? -1 : 1);
    return;
  }
  mpfr_set_ui(x, (unsigned long)fraction_hi, MPFR_RNDN);
  mpfr_mul_2ui(x, x, 64, MPFR_RNDN);
  mpfr_add_ui(x, x, (unsigned long)lo, MPFR_RNDN);  // < 2^112: exact at 113 bits
  if (exponent != 0) {
    Num implicit(kQuadPrecision);
    mpfr_set_ui_2exp(implicit, 1, 112, MPFR_RNDN);
    mpfr_add(x, x, implicit, MPFR_RNDN);
  }
  // value = significand * 2^(max(exponent, 1) - bias - 112)
  mpfr_mul_2si(x, x, long(exponent == 0 ? 1 : exponent) - kQuadBias - 112, MPFR_RNDN);
  if (negative) mpfr_neg(x, x, MPFR_RNDN);
  else if (mpfr_zero_p(x)) mpfr_abs(x, x, MPFR_RNDN);
}

// An MPFR number already rounded to binary128 (113 bits, subnormalized, in range) -> its encoding.
void mpfr_to_quad(mpfr_srcptr x, unsigned long long* q) {
  const unsigned long long sign = mpfr_signbit(x) ? 1ull << 63 : 0;
  if (mpfr_nan_p(x)) {
    q[0] = 0;
    q[1] = 0x7fff800000000000ull;  // the quiet NaN
    return;
  }
  if (mpfr_inf_p(x) || mpfr_zero_p(x)) {
    q[0] = 0;
    q[1] = sign | (mpfr_inf_p(x) ? 0x7fff000000000000ull : 0);
    return;
  }
  // x = m * 2^e, 0.5 <= |m| < 1: a normal number has biased exponent e - 1 + bias >= 1.
  const long e = long(mpfr_get_exp(x));
  const long biased = e - 1 + kQuadBias;
  Num scaled(kQuadPrecision + 16);
  mpfr_abs(scaled, x, MPFR_RNDN);
  mpfr_mul_2si(scaled, scaled, biased >= 1 ? 112 - (e - 1) : kQuadBias - 1 + 112, MPFR_RNDN);  // an integer
  mpz_t z;
  mpz_init(z);
  mpfr_get_z(z, scaled, MPFR_RNDN);  // exact
  const unsigned long long lo = mpz_getlimbn(z, 0), hi = mpz_size(z) > 1 ? mpz_getlimbn(z, 1) : 0;
  mpz_clear(z);
  const unsigned long long exponent = biased >= 1 ? (unsigned long long)biased : 0;
  q[0] = lo;
  q[1] = sign | (exponent << 48) | (hi & 0xffffffffffffull);
}

enum class QuadKind { Unary, Binary, Fma, Special };

struct QuadEntry {
  const char* name;
  int arity;
  QuadKind kind;
  MpfrUnary unary = nullptr;
  MpfrBinary binary = nullptr;
};

int copysign_mpfr(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) { return mpfr_copysign(r, x, y, rnd); }

const QuadEntry* quad_table(std::size_t* count) {
  static const QuadEntry entries[] = {
      {"add", 2, QuadKind::Binary, nullptr, mpfr_add},
      {"sub", 2, QuadKind::Binary, nullptr, mpfr_sub},
      {"mul", 2, QuadKind::Binary, nullptr, mpfr_mul},
      {"div", 2, QuadKind::Binary, nullptr, mpfr_div},
      {"sqrt", 1, QuadKind::Unary, mpfr_sqrt},
      {"fma", 3, QuadKind::Fma},
      {"sin", 1, QuadKind::Unary, mpfr_sin},
      {"cos", 1, QuadKind::Unary, mpfr_cos},
      {"tan", 1, QuadKind::Unary, mpfr_tan},
      {"asin", 1, QuadKind::Unary, mpfr_asin},
      {"acos", 1, QuadKind::Unary, mpfr_acos},
      {"atan", 1, QuadKind::Unary, mpfr_atan},
      {"exp", 1, QuadKind::Unary, mpfr_exp},
      {"exp2", 1, QuadKind::Unary, mpfr_exp2},
      {"exp10", 1, QuadKind::Unary, mpfr_exp10},
      {"expm1", 1, QuadKind::Unary, mpfr_expm1},
      {"log", 1, QuadKind::Unary, mpfr_log},
      {"log2", 1, QuadKind::Unary, mpfr_log2},
      {"log10", 1, QuadKind::Unary, mpfr_log10},
      {"log1p", 1, QuadKind::Unary, mpfr_log1p},
      {"pow", 2, QuadKind::Binary, nullptr, mpfr_pow},
      {"sinh", 1, QuadKind::Unary, mpfr_sinh},
      {"cosh", 1, QuadKind::Unary, mpfr_cosh},
      {"tanh", 1, QuadKind::Unary, mpfr_tanh},
      {"asinh", 1, QuadKind::Unary, mpfr_asinh},
      {"acosh", 1, QuadKind::Unary, mpfr_acosh},
      {"atanh", 1, QuadKind::Unary, mpfr_atanh},
      {"hypot", 2, QuadKind::Binary, nullptr, mpfr_hypot},
      {"ceil", 1, QuadKind::Unary, mpfr_rint_ceil},
      {"trunc", 1, QuadKind::Unary, mpfr_rint_trunc},
      {"floor", 1, QuadKind::Unary, mpfr_rint_floor},
      {"round", 1, QuadKind::Unary, mpfr_rint_round},
      {"rint", 1, QuadKind::Unary, mpfr_rint_roundeven},
      {"fabs", 1, QuadKind::Unary, mpfr_abs},
      {"copysign", 2, QuadKind::Binary, nullptr, copysign_mpfr},
      {"fmax", 2, QuadKind::Binary, nullptr, mpfr_max},
      {"fmin", 2, QuadKind::Binary, nullptr, mpfr_min},
      {"fdim", 2, QuadKind::Binary, nullptr, mpfr_dim},
      {"fmod", 2, QuadKind::Binary, nullptr, mpfr_fmod},
      {"remainder", 2, QuadKind::Binary, nullptr, mpfr_remainder},
      {"frexp_mantissa", 1, QuadKind::Special},
      {"frexp_exponent", 1, QuadKind::Special},
      {"modf_fraction", 1, QuadKind::Special},
      {"modf_integral", 1, QuadKind::Special},
      {"ldexp", 2, QuadKind::Special},
      {"ilogb", 1, QuadKind::Special},
  };
  *count = sizeof entries / sizeof entries[0];
  return entries;
}

// The functions whose result is exact (or an integer): computed at a wide precision, then rounded once below.
void quad_special(std::string_view name, mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr n) {
  if (name == "frexp_mantissa") {
    mpfr_set(r, x, MPFR_RNDN);
    if (mpfr_regular_p(x)) mpfr_set_exp(r, 0);  // |m| in [0.5, 1); zero, infinities and NaN unchanged
  } else if (name == "frexp_exponent") {
    if (!mpfr_number_p(x)) mpfr_set_nan(r);  // unspecified for infinities and NaN
    else mpfr_set_si(r, mpfr_zero_p(x) ? 0 : long(mpfr_get_exp(x)), MPFR_RNDN);
  } else if (name == "modf_integral") {
    mpfr_rint_trunc(r, x, MPFR_RNDN);
  } else if (name == "modf_fraction") {
    if (mpfr_inf_p(x)) {
      mpfr_set_zero(r, mpfr_signbit(x) ? -1 : 1);
    } else {
      mpfr_frac(r, x, MPFR_RNDN);  // exact, with the sign of x (also for a zero fraction)
      if (mpfr_zero_p(r)) mpfr_setsign(r, r, mpfr_signbit(x), MPFR_RNDN);
    }
  } else if (name == "ldexp") {
    mpfr_set(r, x, MPFR_RNDN);
    if (mpfr_regular_p(x)) mpfr_mul_2si(r, r, mpfr_get_si(n, MPFR_RNDZ), MPFR_RNDN);  // exact at any exponent
  } else {  // ilogb: INT_MIN for 0 and NaN, INT_MAX for infinities (the CUDA Math API's documented values)
    if (mpfr_nan_p(x) || mpfr_zero_p(x)) mpfr_set_si(r, INT_MIN, MPFR_RNDN);
    else if (mpfr_inf_p(x)) mpfr_set_si(r, INT_MAX, MPFR_RNDN);
    else mpfr_set_si(r, long(mpfr_get_exp(x)) - 1, MPFR_RNDN);
  }
}

}  // namespace

extern "C" {

int cuconform_mathref_quad_find(const char* name) {
  std::size_t count;
  const QuadEntry* entries = quad_table(&count);
  for (std::size_t i = 0; i < count; ++i) {
    if (std::strcmp(entries[i].name, name) == 0) return int(i);
  }
  return -1;
}

int cuconform_mathref_quad_arity(int id) {
  std::size_t count;
  const QuadEntry* entries = quad_table(&count);
  return id >= 0 && std::size_t(id) < count ? entries[id].arity : -1;
}

int cuconform_mathref_quad_eval(int id, const unsigned long long* args, unsigned long long* result) {
  init_thread();
  std::size_t count;
  const QuadEntry* entries = quad_table(&count);
  if (id < 0 || std::size_t(id) >= count) return CUCONFORM_MATHREF_BAD_ARGUMENT;
  const QuadEntry& entry = entries[id];
  Num x(kQuadPrecision), y(kQuadPrecision), z(kQuadPrecision), r(kQuadPrecision);
  quad_to_mpfr(x, args);
  if (entry.arity > 1) quad_to_mpfr(y, args + 2);
  if (entry.arity > 2) quad_to_mpfr(z, args + 4);
  if (entry.kind == QuadKind::Special) {
    // Exact results: 113 bits hold them (a frexp mantissa, an integral part, an integer below 2^32); ldexp's
    // result may need rounding into the format's subnormals, which the range step below does.
    Num exact(kQuadPrecision);
    quad_special(entry.name, exact, x, y);
    mpfr_set(r, exact, MPFR_RNDN);
  }
  // The binary128 exponent range (MPFR: value = m 2^e, 0.5 <= m < 1; the smallest subnormal 2^-16494 = 0.5 2^-16493).
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-16493);
  mpfr_set_emax(16384);
  int ternary = 0;
  switch (entry.kind) {
    case QuadKind::Unary: ternary = entry.unary(r, x, MPFR_RNDN); break;
    case QuadKind::Binary: ternary = entry.binary(r, x, y, MPFR_RNDN); break;
    case QuadKind::Fma: ternary = mpfr_fma(r, x, y, z, MPFR_RNDN); break;
    case QuadKind::Special: break;
  }
  ternary = mpfr_check_range(r, ternary, MPFR_RNDN);
  mpfr_subnormalize(r, ternary, MPFR_RNDN);
  mpfr_to_quad(r, result);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return CUCONFORM_MATHREF_OK;
}

}  // extern "C"
