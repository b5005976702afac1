// The host side of the half and bfloat16 math rules (half.h): MPFR's correctly rounded result of every 16-bit input,
// once per reference function and format, and the judgement of each lane against it.
#include "half.h"

#include <cuconform/metric.h>
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "reference.h"
#include "sweep_report.h"

namespace cuconform::math {
namespace {

constexpr std::uint32_t kInputs = 1u << 16;

// MPFR's value at each of the 2^16 inputs of the format, computed on all cores the first time a rule asks.
const std::vector<ReferenceValue>& reference_table(const Reference& reference, int id, Format16 format) {
  static std::mutex guard;
  static std::map<std::pair<int, int>, std::vector<ReferenceValue>> tables;
  std::lock_guard<std::mutex> lock(guard);
  std::vector<ReferenceValue>& table = tables[{id, int(format)}];
  if (table.empty()) {
    table.resize(kInputs);
    constexpr std::size_t kBlock = 256;
    parallel_for(kInputs / kBlock, reference.thread_safe(), [&](std::size_t block) {
      for (std::size_t i = block * kBlock; i < (block + 1) * kBlock; ++i) {
        const double x = decode16(std::uint16_t(i), format);
        table[i] = reference.eval(id, &x, int(format), Rounding::Nearest);
      }
    });
  }
  return table;
}

std::string describe16(std::uint16_t bits, Format16 format) {
  char text[48];
  std::snprintf(text, sizeof text, "0x%04x (%.9g)", unsigned(bits), decode16(bits, format));
  return text;
}

// The error in ulps of the format at the exact value hi + lo (fractional): ulp(v) = 2^(max(e, emin) - p + 1).
double fractional_ulps16(double result, const ReferenceValue& v, Format16 format) {
  if (is_nan(v.hi) || is_nan(result)) return is_nan(v.hi) && is_nan(result) ? 0.0 : INFINITY;
  if (is_inf(v.hi) || is_inf(result)) return result == v.hi ? 0.0 : INFINITY;
  const int precision = int(format), min_exponent = format == Format16::Half ? -14 : -126;
  int exponent = 0;
  std::frexp(v.hi, &exponent);
  const int e = v.hi == 0 || exponent - 1 < min_exponent ? min_exponent : exponent - 1;
  return std::ldexp(std::fabs((result - v.hi) - v.lo), precision - 1 - e);
}

}  // namespace

void judge_half(const HalfInfo& f, const std::vector<std::vector<std::uint16_t>>& results, const Bound& bound,
                double seconds) {
  std::string why;
  const Reference* reference = Reference::get(&why);
  if (!reference) {
    GTEST_SKIP() << why;
  }
  const int id = reference->find(f.reference);
  EXPECT_GE(id, 0) << "the reference library has no '" << f.reference << "'";
  if (id < 0) return;
  const std::vector<ReferenceValue>& table = reference_table(*reference, id, f.format);

  SweepReport report;
  report.function = f.name;
  report.exhaustive = true;
  report.exhaustive_inputs = "all 2^16 inputs in each lane";
  report.scale = f.format == Format16::Half ? ProfileScale::Half : ProfileScale::Bfloat16;
  for (std::size_t lane = 0; lane < results.size(); ++lane) {
    for (std::uint32_t i = 0; i < kInputs; ++i) {
      const std::uint16_t input = lane == 0 ? std::uint16_t(i) : second_lane16(i), output = results[lane][i];
      const double x = decode16(input, f.format), y = decode16(output, f.format);
      const Piece* piece = piece_for(bound, &x);
      if (!piece) {
        ++report.excluded;
        continue;
      }
      ++report.tested;
      const ReferenceValue& v = table[input];
      // Written only for an example or a new worst case: on every input it was most of the rule's time.
      const auto where = [&] {
        const std::string text = describe16(input, f.format);
        return f.paired ? "lane " + std::to_string(lane) + " " + text : text;
      };
      if (!v.decided) {
        ++report.undecided;
        if (report.examples.size() < 8) report.examples.push_back("reference undecided at " + where());
        continue;
      }
      const std::uint16_t rounded = encode16(v.rounded, f.format);
      const std::uint64_t distance = ulp_distance16(output, rounded, f.format);
      const double error = fractional_ulps16(y, v, f.format);
      const bool special_differs =
          special_case_applies(bound, &x, 1, v.rounded) && !(is_nan(y) && is_nan(v.rounded)) && output != rounded;
      if (special_differs) {
        ++report.special_mismatches;
        if (report.examples.size() < 8) {
          report.examples.push_back("special value " + where() + ": result " + describe16(output, f.format) +
                                    ", expected " + describe16(rounded, f.format));
        }
      }
      add_to_profile(report.profile, profile_bucket(x, report.scale), distance, error);
      if (piece->metric == Metric::Measured) {
        ++report.measured;
        if (distance > report.measured_worst || report.measured_worst_input == "none") {
          report.measured_worst = distance;
          report.measured_worst_input = where();
        }
        continue;
      }
      if (distance > report.worst_distance || report.worst_input == "none") {
        report.worst_distance = distance;
        report.worst_input = where();
      }
      report.worst_error = std::max(report.worst_error, error);
      if (distance > ulp_limit(*piece, &x)) {
        ++report.exceeded;
        if (report.examples.size() < 8) {
          char text[48];
          std::snprintf(text, sizeof text, "%.6g", error);
          report.examples.push_back(where() + ": result " + describe16(output, f.format) + ", correctly rounded " +
                                    describe16(rounded, f.format) + ", " + std::to_string(distance) +
                                    " ulp apart, error " + text);
        }
      }
    }
  }
  report.rechecked = report.tested;  // every input is compared with MPFR on the host
  report.inputs = static_cast<unsigned long long>(kInputs) * results.size();
  report.seconds = seconds;
  record(report, bound);
  record_metric(f.name + std::string(".lanes"), static_cast<long long>(results.size()));
  expect_within_bound(report);
}

}  // namespace cuconform::math
