// The functions of the double reference (functions.h): each evaluates an interval [lo, hi] that contains the exact
// result; mathref.cpp raises the working precision until both ends round to the same number.
#include "functions.h"

#include <climits>
#include <cmath>

namespace cuconform::mathref {
namespace {

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
  std::function<void(Interval&, const Interval&)> g;       // interval evaluation of g
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
  const double guess =
      std::fabs(x) > 0.5
          ? std::copysign(bisect([](double y) { return std::erfc(y); }, 1 - std::fabs(x), 0, 30, false), x)
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

}  // namespace

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

}  // namespace cuconform::mathref
