// What one accuracy sweep found (sweep.cuh), and how a rule reports it as metrics (report.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bounds.h"
#include "error_profile.h"

namespace cuconform::math {

// What one sweep found, as the rule reports it.
struct SweepReport {
  std::string function;
  unsigned long long tested = 0, excluded = 0, measured = 0, flushed = 0, rechecked = 0, exceeded = 0, undecided = 0;
  unsigned long long special_mismatches = 0;  // special arguments whose result is not exactly the reference's
  std::uint64_t worst_distance = 0;
  std::string worst_input = "none";
  double worst_error = 0;
  std::uint64_t measured_worst = 0;
  std::string measured_worst_input = "none";
  double seconds = 0;
  bool exhaustive = false;
  std::string exhaustive_inputs = "all 2^32 inputs";  // what `exhaustive` covered, as the metric says it
  unsigned long long lost_candidates = 0;             // sent by the GPU beyond the buffer: not re-checked
  unsigned long long inputs = 0;                      // every input of the sweep: tested + excluded must match it
  unsigned long long filter_disagreements = 0;        // audited inputs the GPU filter judged unlike MPFR
  std::vector<std::string> examples;                  // the first inputs over the bound, described
  ErrorProfile profile{};                             // the worst error per slice of argument 0's range
  ProfileScale scale = ProfileScale::Float;
};

// An error profile as the JSON of the <function>.error_profile metric (report.cpp): `measure` "ulp", "absolute" or
// "relative"; `axis` what the slices divide ("input"); bound_at(x) the documented limit at x, NaN where none.
std::string profile_json(const ErrorProfile& profile, ProfileScale scale, const char* measure, const char* axis,
                         const std::function<double(double)>& bound_at);

// Records the report as metrics named <function>.<metric>.
void record(const SweepReport& report, const Bound& bound);

// The verdict of a sweep (GoogleTest expectations): some input covered, none over the bound, every special value
// exact, every input decided by the reference and re-checked, every input accounted for (tested or excluded), and
// the GPU filter's judgement of every audited input it decided the same as MPFR's.
void expect_within_bound(const SweepReport& report);

}  // namespace cuconform::math
