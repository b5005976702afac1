// The metrics of one accuracy sweep (docs/architecture.md "Profiles and metrics"), named <function>.<metric>.
#include <cuconform/metric.h>

#include <string>

#include "bounds.h"
#include "sweep_report.h"

namespace cuconform::math {

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
}

}  // namespace cuconform::math
