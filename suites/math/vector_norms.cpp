// The host side of the vector-norm rules (vector_norms.h): the vectors, the MPFR comparison, the verdict.
#include "vector_norms.h"

#include <cuconform/metric.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "error_profile.h"
#include "reference.h"
#include "sweep_report.h"
#include "ulp.h"

namespace cuconform::math {
namespace {

struct FormatLimits {
  int precision;
  double max, min_normal, min_subnormal;
  int max_exponent, min_exponent;  // the normal numbers are [2^min_exponent, 2^(max_exponent + 1))
  double to_format(double x) const { return precision == 24 ? double(float(x)) : x; }
};

FormatLimits limits_of(int precision) {
  if (precision == 24) return {24, double(std::numeric_limits<float>::max()), 0x1p-126, 0x1p-149, 127, -126};
  return {53, std::numeric_limits<double>::max(), 0x1p-1022, 0x1p-1074, 1023, -1022};
}

// One coordinate of a vector of the given kind.
class CoordinateSource {
 public:
  CoordinateSource(const FormatLimits& f, std::uint64_t seed) : f_(f), rng_(seed) {}

  double sign() { return bit(rng_) ? -1.0 : 1.0; }
  // sign * [1, 2) * 2^e, rounded to the format (e within the normal range or below it: then a subnormal)
  double with_exponent(int e) { return f_.to_format(sign() * std::ldexp(1.0 + unit(rng_), e)); }
  double exponent_in(int lo, int hi) { return with_exponent(std::uniform_int_distribution<int>(lo, hi)(rng_)); }
  // sign * u * max, u in [lo, hi): the magnitudes whose squares overflow
  double fraction_of_max(double lo, double hi, double scale = 1.0) {
    return f_.to_format(sign() * std::uniform_real_distribution<double>(lo, hi)(rng_) * (f_.max * scale));
  }
  double subnormal() {
    return sign() * double(std::uniform_int_distribution<int>(1, 4096)(rng_)) * f_.min_subnormal;  // exact
  }
  unsigned position(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng_); }

 private:
  FormatLimits f_;
  std::mt19937_64 rng_;
  std::bernoulli_distribution bit{0.5};
  std::uniform_real_distribution<double> unit{0.0, 1.0};
};

const char* const kKinds[] = {"ordinary",        "wide",      "huge",  "huge_finite",
                              "near_min_normal", "subnormal", "mixed", "special"};

void fill(const char* kind, unsigned n, unsigned index, const FormatLimits& f, CoordinateSource& s, double* v) {
  const std::string k = kind;
  for (unsigned j = 0; j < n; ++j) {
    if (k == "ordinary") v[j] = s.exponent_in(-20, 20);
    else if (k == "wide") v[j] = s.exponent_in(f.min_exponent - f.precision, f.max_exponent);
    else if (k == "huge") v[j] = s.fraction_of_max(0.25, 1.0);  // the exact length may exceed the format
    else if (k == "huge_finite") v[j] = s.fraction_of_max(0.25, 0.7, 1.0 / std::sqrt(double(n)));  // length < max
    else if (k == "near_min_normal") v[j] = s.exponent_in(f.min_exponent - 8, f.min_exponent + 24);
    else if (k == "subnormal") v[j] = s.subnormal();
    else if (k == "mixed") {
      const int band = int(s.position(3));
      v[j] = band == 0   ? s.exponent_in(f.max_exponent - 8, f.max_exponent)
             : band == 1 ? s.exponent_in(-8, 8)
                         : s.exponent_in(f.min_exponent - 8, f.min_exponent + 8);
    } else {  // special: all zeros; an infinity among NaNs; a NaN; an infinity among ordinary numbers
      v[j] = index % 4 == 0 ? s.sign() * 0.0 : index % 4 == 1 ? NAN : s.exponent_in(-20, 20);
    }
  }
  if (k == "special" && index % 4 != 0) {
    v[s.position(n)] = index % 4 == 2 ? NAN : s.sign() * INFINITY;
  }
}

std::string describe(double x, int precision) {
  char text[64];
  if (precision == 24) std::snprintf(text, sizeof text, "0x%08" PRIx32 " (%.9g)", bits_of(float(x)), x);
  else std::snprintf(text, sizeof text, "0x%016" PRIx64 " (%.17g)", bits_of(x), x);
  return text;
}

std::string describe_vector(const VectorSet& in, unsigned v, int precision) {
  std::string s = "length " + std::to_string(in.length[v]) + ", " + in.kind[v] + " [";
  const unsigned shown = std::min(in.length[v], 4u);
  for (unsigned j = 0; j < shown; ++j) s += (j ? ", " : "") + describe(in.values[in.offset[v] + j], precision);
  return s + (in.length[v] > shown ? ", ...]" : "]");
}

struct Verdict {
  std::uint64_t distance = 0;
  bool undecided = false, special_mismatch = false, undue = false;
  double reference = 0;
};

}  // namespace

VectorSet vector_inputs(int precision, unsigned per_kind) {
  const FormatLimits f = limits_of(precision);
  VectorSet set;
  CoordinateSource source(f, 0x5eed0000u + unsigned(precision));
  for (unsigned n : kVectorLengths) {
    for (const char* kind : kKinds) {
      for (unsigned i = 0; i < per_kind; ++i) {
        set.offset.push_back(unsigned(set.values.size()));
        set.length.push_back(n);
        set.kind.push_back(kind);
        set.values.resize(set.values.size() + n);
        fill(kind, n, i, f, source, set.values.data() + set.offset.back());
      }
    }
  }
  return set;
}

void judge_vector_norms(const char* function, const char* reference, int precision, const VectorSet& in,
                        const std::vector<double>& results, const Bound& bound, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  std::string why;
  const Reference* ref = Reference::get(&why);
  if (!ref) GTEST_SKIP() << why;
  const int id = ref->find(reference);
  ASSERT_GE(id, 0) << "the reference library has no '" << reference << "' (rebuild it: scripts/build-math-reference)";
  const FormatLimits f = limits_of(precision);
  const std::size_t count = in.offset.size();
  ASSERT_EQ(results.size(), count);
  std::vector<Verdict> verdicts(count);
  parallel_for(count, ref->thread_safe(), [&](std::size_t v) {
    const ReferenceValue exact =
        ref->eval_n(id, in.values.data() + in.offset[v], int(in.length[v]), precision, bound.rounding);
    Verdict& out = verdicts[v];
    out.reference = exact.rounded;
    if (!exact.decided) {
      out.undecided = true;
      return;
    }
    const double y = results[v], r = exact.rounded;
    out.distance = precision == 24 ? ulp_distance(float(y), float(r)) : ulp_distance(y, r);
    // The documented special cases, exactly: +inf (+0 for the reciprocal) at an infinite coordinate even among
    // NaNs, +0 (+inf) for a zero vector, NaN otherwise with a NaN. A length that overflows is not one of them: it
    // is measured like any other result.
    const double* coordinates = in.values.data() + in.offset[v];
    bool any_special = false, all_zero = true;
    for (unsigned j = 0; j < in.length[v]; ++j) {
      any_special |= std::isinf(coordinates[j]) || std::isnan(coordinates[j]);
      all_zero &= coordinates[j] == 0;
    }
    out.special_mismatch = bound.special_values != SpecialValues::Unchecked && (any_special || all_zero) &&
                           !(precision == 24 ? identical(float(y), float(r)) : identical(y, r));
    // "Without undue overflow or underflow": an infinite, zero or NaN result where the correctly rounded one is a
    // normal number clear of overflow (at most half the largest finite number).
    const double magnitude = std::fabs(r);
    out.undue = std::isfinite(r) && magnitude >= f.min_normal && magnitude <= f.max / 2 &&
                (std::isinf(y) || y == 0 || std::isnan(y));
  });

  const std::string p = std::string(function) + ".";
  std::uint64_t worst = 0;
  std::size_t worst_at = count;
  unsigned long long specials = 0, undue = 0, undecided = 0;
  std::vector<std::string> examples;
  for (std::size_t v = 0; v < count; ++v) {
    const Verdict& x = verdicts[v];
    undecided += x.undecided;
    specials += x.special_mismatch;
    undue += x.undue;
    if (!x.undecided && (x.distance > worst || worst_at == count)) worst = x.distance, worst_at = v;
    if ((x.undecided || x.special_mismatch || x.undue) && examples.size() < 8) {
      examples.push_back(describe_vector(in, unsigned(v), precision) + ": result " + describe(results[v], precision) +
                         ", correctly rounded " + describe(x.reference, precision) +
                         (x.undecided ? " (reference undecided)"
                          : x.undue   ? " (undue overflow or underflow)"
                                      : " (special case)"));
    }
  }
  // The error over the range of the correctly rounded result (the length, or its reciprocal): no bound to draw.
  ErrorProfile profile{};
  const ProfileScale scale = precision == 24 ? ProfileScale::Float : ProfileScale::Double;
  for (std::size_t v = 0; v < count; ++v) {
    if (!verdicts[v].undecided && !std::isnan(results[v])) {
      add_to_profile(profile, profile_bucket(verdicts[v].reference, scale), verdicts[v].distance, 0.0);
    }
  }
  record_metric(p + "error_profile", profile_json(profile, scale, "ulp", "correctly rounded result", nullptr));
  for (unsigned n : kVectorLengths) {
    std::uint64_t at_length = 0;
    for (std::size_t v = 0; v < count; ++v) {
      if (in.length[v] == n && !verdicts[v].undecided) at_length = std::max(at_length, verdicts[v].distance);
    }
    record_metric(p + "max_ulp_distance_without_bound.length_" + std::to_string(n), static_cast<long long>(at_length));
  }
  record_metric(p + "inputs_tested", static_cast<long long>(count));
  record_metric(p + "exhaustive", "sampled");
  record_metric(p + "inputs_without_bound", static_cast<long long>(count));
  record_metric(p + "max_ulp_distance_without_bound", static_cast<long long>(worst));
  record_metric(p + "max_ulp_distance_without_bound_input",
                worst_at < count ? describe_vector(in, unsigned(worst_at), precision) + ": result " +
                                       describe(results[worst_at], precision) + ", correctly rounded " +
                                       describe(verdicts[worst_at].reference, precision)
                                 : std::string("none"));
  record_metric(p + "rechecked_with_mpfr", static_cast<long long>(count));
  record_metric(p + "special_value_mismatches", static_cast<long long>(specials));
  record_metric(p + "undue_overflow_or_underflow", static_cast<long long>(undue));
  if (undecided) record_metric(p + "reference_undecided", static_cast<long long>(undecided));
  record_metric(p + "seconds",
                seconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::string list;
  for (const std::string& e : examples) list += "\n  " + e;
  EXPECT_EQ(specials, 0u) << function << ": " << specials
                          << " results of a documented special case (an infinite or NaN coordinate, a zero vector) "
                             "differ from it:"
                          << list;
  EXPECT_EQ(undue, 0u) << function << ": " << undue
                       << " undue overflows or underflows (an infinite, zero or NaN result where the length is a "
                          "normal number):"
                       << list;
  EXPECT_EQ(undecided, 0u) << function << ": " << undecided << " inputs the reference could not decide:" << list;
}

}  // namespace cuconform::math
