// A documented error bound (PG12.9 17.1 Tables 18-19, 17.2 Tables 22-23) as data: pieces, each with a condition on
// the inputs and a metric, as written in spec/math/bounds.toml. The first piece whose condition holds
// applies; an input that no piece covers is excluded (the guide documents nothing for it).
#pragma once

#include <cmath>
#include <cstdint>

#include "ulp.h"

namespace cuconform::math {

enum class Condition : int {
  Always,
  In,             // a <= x <= b
  AbsIn,          // a <= |x| <= b
  AbsBelow,       // |x| < a
  AbsBelowOrder,  // |x| < a * n, n the integer order argument (argument 0)
  AbsAboveOrder,  // |x| > a * n
  NotNan,         // x is a number (conversions: NaN is not an out-of-range value)
};

enum class Metric : int {
  Ulp,        // integer distance to the correctly rounded result <= a
  UlpLinear,  // <= a + floor(|b * x|)            (__expf, __exp10f)
  UlpOrder,   // <= ceil(a + b * n)                (ynf)
  Absolute,   // |result - exact| <= a
  Relative,   // |result - exact| <= a * |exact|
  Measured,   // reported, never a failure ("larger otherwise", "derived from its implementation")
};

struct Piece {
  Condition condition = Condition::Always;
  int arg = 0;  // the argument the condition reads
  double a = 0, b = 0;
  Metric metric = Metric::Measured;
  double limit = 0, slope = 0;
};

inline constexpr int kMaxPieces = 3;

// Where an argument is a special value (±0, ±inf, NaN), whether the result must be the reference's exactly (the same
// NaN-ness, infinity and sign of zero) rather than within the bound:
enum class SpecialValues : int {
  // never: the fast intrinsics, whose special-case handling the guide says may differ (PG12.9 17.2)
  Unchecked,
  // always (C99 Annex F, as the CUDA Math API documents each function's special cases, e.g. cos(±0) = 1)
  Exact,
  // only where the correctly rounded result is itself ±0, ±inf or NaN: for the functions whose documented special
  // cases all have such results (the norms, j0, jn); elsewhere, e.g. rhypotf(0, 3) or j0f(0), the bound applies
  WhereResultIsSpecial,
};

struct Bound {
  Piece pieces[kMaxPieces];
  int count = 0;
  Rounding rounding = Rounding::Nearest;
  SpecialValues special_values = SpecialValues::Exact;
};

CUCONFORM_HOST_DEVICE inline bool is_special(double x) { return x == 0 || is_inf(x) || is_nan(x); }

// An integer result (lrint, the conversion intrinsics) as a double: an integer type has no -0.
CUCONFORM_HOST_DEVICE inline double integer_value(double x) { return x == 0 ? 0.0 : x; }

// Whether a result is exactly the reference: both NaN, or the same number with the same sign of zero.
template <class R>
CUCONFORM_HOST_DEVICE inline bool identical(R result, R reference) {
  return (is_nan(result) && is_nan(reference)) || bits_of(result) == bits_of(reference);
}

CUCONFORM_HOST_DEVICE inline bool has_special_argument(const double* args, int arity) {
  for (int k = 0; k < arity; ++k) {
    if (is_special(args[k])) return true;
  }
  return false;
}

// Whether the result at these arguments must be exactly `rounded`, the correctly rounded result (see SpecialValues).
CUCONFORM_HOST_DEVICE inline bool special_case_applies(const Bound& bound, const double* args, int arity,
                                                       double rounded) {
  switch (bound.special_values) {
    case SpecialValues::Unchecked: return false;
    case SpecialValues::Exact: return has_special_argument(args, arity);
    case SpecialValues::WhereResultIsSpecial: return has_special_argument(args, arity) && is_special(rounded);
  }
  return false;
}

CUCONFORM_HOST_DEVICE inline bool holds(const Piece& p, const double* args) {
  const double x = args[p.arg];
  switch (p.condition) {
    case Condition::Always: return true;
    case Condition::In: return p.a <= x && x <= p.b;
    case Condition::AbsIn: return p.a <= fabs(x) && fabs(x) <= p.b;
    case Condition::AbsBelow: return fabs(x) < p.a;
    case Condition::AbsBelowOrder: return fabs(x) < p.a * args[0];
    case Condition::AbsAboveOrder: return fabs(x) > p.a * args[0];
    case Condition::NotNan: return !is_nan(x);
  }
  return false;
}

// The piece that applies to these inputs, or nullptr when none does.
CUCONFORM_HOST_DEVICE inline const Piece* piece_for(const Bound& bound, const double* args) {
  for (int i = 0; i < bound.count; ++i) {
    if (holds(bound.pieces[i], args)) return &bound.pieces[i];
  }
  return nullptr;
}

CUCONFORM_HOST_DEVICE inline bool is_ulp_metric(Metric m) {
  return m == Metric::Ulp || m == Metric::UlpLinear || m == Metric::UlpOrder;
}

// The largest distance an ulp piece allows at these inputs.
CUCONFORM_HOST_DEVICE inline std::uint64_t ulp_limit(const Piece& p, const double* args) {
  switch (p.metric) {
    case Metric::Ulp: return std::uint64_t(p.limit);
    case Metric::UlpLinear: {
      const double extra = floor(fabs(p.slope * args[0]));
      return extra < 1e18 ? std::uint64_t(p.limit + extra) : kNanDistance;
    }
    case Metric::UlpOrder: return std::uint64_t(ceil(p.limit + p.slope * args[0]));
    default: return kNanDistance;
  }
}

// |result - exact| for the Absolute metric and that over |exact| for Relative; exact = hi + lo.
// Infinities and NaNs: 0 when the result is the same special value, infinity otherwise.
CUCONFORM_HOST_DEVICE inline double error_against(Metric m, double result, double hi, double lo) {
  if (is_nan(hi) || is_nan(result)) return is_nan(hi) && is_nan(result) ? 0.0 : INFINITY;
  if (is_inf(hi) || is_inf(result)) return result == hi ? 0.0 : INFINITY;
  const double error = fabs((result - hi) - lo);
  if (m != Metric::Relative) return error;
  if (hi == 0) return result == 0 ? 0.0 : INFINITY;
  return error / fabs(hi);
}

// The error of `result` in ulps of the format at the exact value (fractional), reported beside the integer
// distance: ulp(v) = 2^(max(exponent(v), min_exponent) - precision + 1).
template <class R>
CUCONFORM_HOST_DEVICE inline double fractional_ulps(double result, double hi, double lo) {
  if (is_nan(hi) || is_nan(result)) return is_nan(hi) && is_nan(result) ? 0.0 : INFINITY;
  if (is_inf(hi) || is_inf(result)) return result == hi ? 0.0 : INFINITY;
  int exponent = 0;
  frexp(hi, &exponent);  // hi = m 2^exponent, 0.5 <= |m| < 1
  int e = exponent - 1;
  if (hi == 0 || e < Format<R>::min_exponent) e = Format<R>::min_exponent;
  return ldexp(fabs((result - hi) - lo), Format<R>::precision - 1 - e);
}

}  // namespace cuconform::math
