// The binary128 reference (mathref.h): the reference of the __nv_fp128_* functions (PG12.9 17.1 Table 20). Every
// Table 20 function is one MPFR computes with correct rounding (or an exact operation): it is evaluated in the
// binary128 format itself (113 bits, its exponent range, subnormals), correctly rounded by MPFR's guarantee.
#include "mathref.h"

#include <climits>
#include <cstddef>
#include <cstring>
#include <string_view>

#include "interval.h"  // Num, init_thread

using namespace cuconform::mathref;

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
