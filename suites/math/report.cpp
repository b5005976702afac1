// The metrics of one accuracy sweep (docs/architecture.md "Profiles and metrics"), named <function>.<metric>.
#include <cuconform/metric.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "bounds.h"
#include "sweep_report.h"

namespace cuconform::math {
namespace {

std::string json_number(double x) {
  if (std::isnan(x)) return "null";
  if (std::isinf(x)) return x > 0 ? "\"inf\"" : "\"-inf\"";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

}  // namespace

// <function>.error_profile: the worst error per slice of the input range as JSON, which the HTML report draws
// (harness/cuconform/error_plots.py): {"measure": "ulp" | "absolute" | "relative", "scale": "float" | ...,
// "axis": what the slices divide, "edges": [129 values], "worst": [128, null where no input fell],
// "inputs": [128 counts], "bound": [128 limits at each slice's middle, null where the guide gives none]}.
std::string profile_json(const ErrorProfile& profile, ProfileScale scale, const char* measure, const char* axis,
                         const std::function<double(double)>& bound_at) {
  const char* scales[] = {"float", "double", "int32", "uint32", "half", "bfloat16"};
  const bool in_ulps = std::string(measure) == "ulp";
  std::string edges, worst, inputs, limits;
  for (int b = 0; b <= kProfileBuckets; ++b) {
    edges += (b ? "," : "") + json_number(profile_value(profile_edge(b, scale), scale));
    if (b == kProfileBuckets) break;
    const double value = in_ulps ? double(profile.distance[b]) : double_from_bits(profile.error_bits[b]);
    worst += (b ? "," : "") + (profile.inputs[b] ? json_number(value) : std::string("null"));
    inputs += (b ? "," : "") + std::to_string(profile.inputs[b]);
    const std::int64_t lo = profile_edge(b, scale), hi = profile_edge(b + 1, scale);
    limits += (b ? "," : "") + json_number(bound_at ? bound_at(profile_value(lo + (hi - lo) / 2, scale)) : NAN);
  }
  return std::string("{\"measure\":\"") + measure + "\",\"scale\":\"" + scales[int(scale)] + "\",\"axis\":\"" + axis +
         "\",\"edges\":[" + edges + "],\"worst\":[" + worst + "],\"inputs\":[" + inputs + "],\"bound\":[" + limits +
         "]}";
}

namespace {

std::string sweep_profile_json(const SweepReport& r, const Bound& bound, bool absolute, bool relative) {
  const bool in_ulps = !absolute && !relative;
  // The bound at a slice's middle (the other arguments taken as 1): the piece that holds there, in the plot's measure.
  return profile_json(r.profile, r.scale,
                      in_ulps    ? "ulp"
                      : absolute ? "absolute"
                                 : "relative",
                      "input", [&](double middle) {
                        const double args[4] = {middle, 1, 1, 1};
                        const Piece* piece = piece_for(bound, args);
                        if (!piece || piece->metric == Metric::Measured || is_ulp_metric(piece->metric) != in_ulps) {
                          return double(NAN);
                        }
                        return in_ulps ? double(ulp_limit(*piece, args)) : piece->limit;
                      });
}

}  // namespace

void record(const SweepReport& r, const Bound& bound) {
  const std::string p = r.function + ".";
  bool ulp = false, absolute = false, relative = false;
  for (int i = 0; i < bound.count; ++i) {
    ulp |= is_ulp_metric(bound.pieces[i].metric);
    absolute |= bound.pieces[i].metric == Metric::Absolute;
    relative |= bound.pieces[i].metric == Metric::Relative;
  }
  record_metric(p + "inputs_tested", static_cast<long long>(r.tested));
  record_metric(p + "exhaustive", r.exhaustive ? r.exhaustive_inputs : "sampled");
  record_metric(p + "max_ulp_distance", static_cast<long long>(r.worst_distance));
  record_metric(p + "max_ulp_distance_input", r.worst_input);
  // The worst error in the bound's own measure: fractional ulps, or absolute / relative error.
  const char* error_name = ulp        ? "max_fractional_ulp_error"
                           : absolute ? "max_absolute_error"
                           : relative ? "max_relative_error"
                                      : "max_fractional_ulp_error";
  record_metric(p + error_name, r.worst_error);
  record_metric(p + "inputs_over_bound", static_cast<long long>(r.exceeded));
  record_metric(p + "rechecked_with_mpfr", static_cast<long long>(r.rechecked));
  if (bound.special_values != SpecialValues::Unchecked)
    record_metric(p + "special_value_mismatches", static_cast<long long>(r.special_mismatches));
  if (r.excluded) record_metric(p + "inputs_outside_documented_range", static_cast<long long>(r.excluded));
  if (r.measured) {
    record_metric(p + "inputs_without_bound", static_cast<long long>(r.measured));
    record_metric(p + "max_ulp_distance_without_bound", static_cast<long long>(r.measured_worst));
    record_metric(p + "max_ulp_distance_without_bound_input", r.measured_worst_input);
  }
  if (r.flushed) record_metric(p + "results_flushed_to_zero", static_cast<long long>(r.flushed));
  if (r.undecided) record_metric(p + "reference_undecided", static_cast<long long>(r.undecided));
  if (r.filter_disagreements) {
    record_metric(p + "filter_disagreements_on_audited_inputs", static_cast<long long>(r.filter_disagreements));
  }
  record_metric(p + "seconds", r.seconds);
  record_metric(p + "error_profile", sweep_profile_json(r, bound, absolute && !ulp, relative && !ulp && !absolute));
}

void expect_within_bound(const SweepReport& r) {
  const std::string& f = r.function;
  std::string examples;
  for (const std::string& e : r.examples) examples += "\n  " + e;
  EXPECT_GT(r.tested, 0u) << f << ": no input is covered by the bound";
  EXPECT_EQ(r.exceeded, 0u) << f << ": " << r.exceeded << " of " << r.tested << " inputs exceed the documented bound"
                            << examples;
  EXPECT_EQ(r.special_mismatches, 0u)
      << f << ": " << r.special_mismatches
      << " inputs with a special argument (±0, ±inf, NaN) differ from the exact special-case result" << examples;
  EXPECT_EQ(r.undecided, 0u) << f << ": the reference could not decide" << examples;
  EXPECT_EQ(r.lost_candidates, 0u) << f << ": " << r.lost_candidates << " suspicious inputs were not re-checked";
  EXPECT_EQ(r.tested + r.excluded, r.inputs)
      << f << ": " << r.tested << " inputs tested and " << r.excluded << " outside the bound's range, of " << r.inputs
      << ": the sweep lost count of its inputs";
  EXPECT_EQ(r.filter_disagreements, 0u)
      << f << ": on " << r.filter_disagreements
      << " audited inputs the GPU filter's judgement differs from MPFR's (its within verdicts are not to be trusted)"
      << examples;
}

}  // namespace cuconform::math
