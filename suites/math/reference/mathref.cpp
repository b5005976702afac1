// The double reference (mathref.h): f(args) correctly rounded to binary16, bfloat16, binary32 or binary64. A function
// MPFR rounds correctly itself is computed in the target format; any other evaluates an interval that contains the
// exact result (functions.cpp) at a working precision that grows until both ends round to the same number.
#include "mathref.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <string_view>

#include "functions.h"
#include "interval.h"

namespace cuconform::mathref {
namespace {

constexpr mpfr_prec_t kMaxPrecision = 4096;

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
    const double hi = name == "to_int32"    ? 2147483647.0
                      : name == "to_uint32" ? 4294967295.0
                      : name == "to_int64"  ? 0x1p63
                                            : 0x1p64;
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
}  // namespace cuconform::mathref

using namespace cuconform::mathref;

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

void cuconform_mathref_eval(int id, const double* args, int precision, int rounding, cuconform_mathref_result* out) {
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
