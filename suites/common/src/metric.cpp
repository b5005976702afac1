#include "cuconform/metric.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "json_string.h"

namespace cuconform {
namespace {

void print_metric(std::string_view name, const std::string& json) {
  std::printf("[ METRIC   ] %.*s = %s\n", int(name.size()), name.data(), json.c_str());
  std::fflush(stdout);
}

using detail::json_string;

}  // namespace

void record_metric(std::string_view name, long long value) {
  print_metric(name, std::to_string(value));
  ::testing::Test::RecordProperty(std::string(name), std::to_string(value));
}

void record_metric(std::string_view name, double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  print_metric(name, std::isfinite(value) ? text : json_string(text));
  ::testing::Test::RecordProperty(std::string(name), text);
}

void record_metric(std::string_view name, std::string_view text) {
  print_metric(name, json_string(text));
  ::testing::Test::RecordProperty(std::string(name), std::string(text));
}

}  // namespace cuconform
