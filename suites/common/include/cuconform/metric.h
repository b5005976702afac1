// Measurements a rule reports besides its verdict (litmus outcome counts, worst ULP distance, inputs tested).
// Each is printed as a line the harness reads into results.json and the JUnit properties:
//   [ METRIC   ] name = <JSON value>
// and recorded as a GoogleTest property.
#pragma once

#include <string_view>

namespace cuconform {

void record_metric(std::string_view name, long long value);
void record_metric(std::string_view name, double value);
void record_metric(std::string_view name, std::string_view text);

}  // namespace cuconform
