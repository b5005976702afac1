// The metrics of one accuracy sweep (docs/architecture.md "Profiles and metrics"), named <function>.<metric>.
#include <cuconform/metric.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// <function>.error_profile: the worst error per slice of the input range as JSON, which the HTML report draws
// (harness/cuconform/error_plots.py): {"measure": "ulp" | "absolute" | "relative", "scale": "float" | ...,
// "edges": [129 argument values], "worst": [128, null where no input fell], "inputs": [128 counts],
// "bound": [128 limits at each slice's middle, null where the guide gives none]}.
std::string profile_json(const SweepReport& r, const Bound& bound, bool absolute, bool relative) {
  const char* scales[] = {"float", "double", "int32", "uint32"};
  std::string edges, worst, inputs, limits;
  for (int b = 0; b <= kProfileBuckets; ++b) {
    edges += (b ? "," : "") + json_number(profile_value(profile_edge(b, r.scale), r.scale));
    if (b == kProfileBuckets) break;
    const bool any = r.profile.inputs[b] > 0;
    const double value = absolute || relative ? double_from_bits(r.profile.error_bits[b]) : double(r.profile.distance[b]);
    worst += (b ? "," : "") + (any ? json_number(value) : std::string("null"));
    inputs += (b ? "," : "") + std::to_string(r.profile.inputs[b]);
    // The bound at the slice's middle (the other arguments taken as 1): the piece that holds there.
    const std::int64_t lo = profile_edge(b, r.scale), hi = profile_edge(b + 1, r.scale);
    const double args[4] = {profile_value(lo + (hi - lo) / 2, r.scale), 1, 1, 1};
    const Piece* piece = piece_for(bound, args);
    double limit = NAN;
    const bool in_ulps = !absolute && !relative;
    if (piece && piece->metric != Metric::Measured && is_ulp_metric(piece->metric) == in_ulps) {
      limit = in_ulps ? double(ulp_limit(*piece, args)) : piece->limit;  // a limit in the plot's own measure
    }
    limits += (b ? "," : "") + json_number(limit);
  }
  return std::string("{\"measure\":\"") + (absolute ? "absolute" : relative ? "relative" : "ulp") + "\",\"scale\":\"" +
         scales[int(r.scale)] + "\",\"edges\":[" + edges + "],\"worst\":[" + worst + "],\"inputs\":[" + inputs +
         "],\"bound\":[" + limits + "]}";
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
  record_metric(p + "exhaustive", r.exhaustive ? "all 2^32 inputs" : "sampled");
  record_metric(p + "max_ulp_distance", static_cast<long long>(r.worst_distance));
  record_metric(p + "max_ulp_distance_input", r.worst_input);
  // The worst error in the bound's own measure: fractional ulps, or absolute / relative error.
  const char* error_name = ulp ? "max_fractional_ulp_error" : absolute ? "max_absolute_error"
                           : relative ? "max_relative_error" : "max_fractional_ulp_error";
  record_metric(p + error_name, r.worst_error);
  record_metric(p + "inputs_over_bound", static_cast<long long>(r.exceeded));
  record_metric(p + "rechecked_with_mpfr", static_cast<long long>(r.rechecked));
  if (bound.special_values != SpecialValues::Unchecked) record_metric(p + "special_value_mismatches", static_cast<long long>(r.special_mismatches));
  if (r.excluded) record_metric(p + "inputs_outside_documented_range", static_cast<long long>(r.excluded));
  if (r.measured) {
    record_metric(p + "inputs_without_bound", static_cast<long long>(r.measured));
    record_metric(p + "max_ulp_distance_without_bound", static_cast<long long>(r.measured_worst));
    record_metric(p + "max_ulp_distance_without_bound_input", r.measured_worst_input);
  }
  if (r.flushed) record_metric(p + "results_flushed_to_zero", static_cast<long long>(r.flushed));
  if (r.undecided) record_metric(p + "reference_undecided", static_cast<long long>(r.undecided));
  record_metric(p + "seconds", r.seconds);
  record_metric(p + "error_profile", profile_json(r, bound, absolute && !ulp, relative && !ulp && !absolute));
}

}  // namespace cuconform::math
