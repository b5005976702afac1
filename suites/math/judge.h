// One input, one result, one bound: within it, over it, or (on the GPU) not decidable without the exact reference.
// The GPU filter and the host re-check call the same function; only the reference differs (an approximation that
// may be ambiguous on the GPU, MPFR's exact value on the host).
#pragma once

#include "bounds.h"
#include "filter.h"
#include "ulp.h"

namespace cuconform::math {

// What the reference says about one input.
struct Expected {
  double rounded;  // the correctly rounded result (in the bound's rounding mode)
  bool ambiguous;  // the approximation cannot tell which number that is
  double hi, lo;   // the exact value, hi + lo
};

enum class Outcome : int { Within, Flushed, Exceeds, Undecided };

struct Judgement {
  Outcome outcome;
  std::uint64_t distance;  // integer ulp distance to `rounded`
  double error;            // fractional ulps, or the absolute/relative error for those metrics
};

// -ftz=true (nvcc's documentation of the flag): subnormal inputs may be read as zero of the same sign and
// subnormal results written as zero. `flushed_input` is the reference at the flushed inputs, when an input was
// subnormal. A zero is accepted where the correctly rounded result is subnormal or within the bound of one.
template <class R>
CUCONFORM_HOST_DEVICE inline bool acceptable_under_ftz(R result, const Expected& exact, const Expected* flushed_input,
                                                       std::uint64_t limit) {
  const double smallest_normal = Format<R>::precision == 24 ? 0x1p-126 : 0x1p-1022;
  auto flush_ok = [&](const Expected& e) {
    if (!is_zero(result)) return false;
    const double magnitude = fabs(e.rounded);
    return magnitude < smallest_normal || ulp_distance(narrow<R>(magnitude), narrow<R>(smallest_normal)) <= limit;
  };
  if (flush_ok(exact)) return true;
  if (flushed_input && !flushed_input->ambiguous) {
    if (ulp_distance(result, narrow<R>(flushed_input->rounded)) <= limit || flush_ok(*flushed_input)) return true;
  }
  return false;
}

template <class R>
CUCONFORM_HOST_DEVICE inline Judgement judge(const Piece& piece, const double* args, R result, const Expected& exact,
                                             bool ftz, const Expected* flushed_input) {
  Judgement j{Outcome::Within, ulp_distance(result, narrow<R>(exact.rounded)), 0.0};
  if (is_ulp_metric(piece.metric) || piece.metric == Metric::Measured) {
    j.error = fractional_ulps<R>(widen(result), exact.hi, exact.lo);
    if (piece.metric == Metric::Measured) return j;
    if (exact.ambiguous) return {Outcome::Undecided, j.distance, j.error};
    const std::uint64_t limit = ulp_limit(piece, args);
    if (j.distance <= limit) return j;
    if (ftz && acceptable_under_ftz(result, exact, flushed_input, limit)) j.outcome = Outcome::Flushed;
    else j.outcome = Outcome::Exceeds;
    return j;
  }
  // Absolute and relative bounds: the GPU's approximation decides only with a margin to the limit.
  j.error = error_against(piece.metric, widen(result), exact.hi, exact.lo);
  if (j.error <= piece.limit) {
    if (exact.ambiguous && j.error > piece.limit * (1 - kAmbiguityMargin)) j.outcome = Outcome::Undecided;
    return j;
  }
  if (exact.ambiguous) j.outcome = Outcome::Undecided;
  else if (ftz && is_zero(result) && fabs(exact.hi) < 0x1p-126) j.outcome = Outcome::Flushed;
  else j.outcome = Outcome::Exceeds;
  return j;
}

}  // namespace cuconform::math
