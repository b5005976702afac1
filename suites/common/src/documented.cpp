#include "cuconform/documented.h"

#include <string>

#include "cuconform/device.h"

namespace cuconform {
namespace {

struct DocumentedValue {
  std::string_view scope;  // "sm_90", "sm_9x" or "common"
  std::string_view key;
  long long value;
};

// Generated from spec/cc_values.toml by harness/cuconform/values.py at build time.
constexpr DocumentedValue kDocumented[] = {
#include "cuconform/documented_values.inc"
};

std::optional<long long> find(std::string_view scope, std::string_view key) {
  for (const DocumentedValue& entry : kDocumented) {
    if (entry.scope == scope && entry.key == key) return entry.value;
  }
  return std::nullopt;
}

}  // namespace

std::optional<long long> documented_value(std::string_view key, int cc) {
  const std::string exact = "sm_" + std::to_string(cc);
  const std::string family = "sm_" + std::to_string(cc / 10) + "x";
  for (std::string_view scope : {std::string_view(exact), std::string_view(family), std::string_view("common")}) {
    if (auto value = find(scope, key)) return value;
  }
  return std::nullopt;
}

std::optional<long long> documented_value(std::string_view key) {
  const Device& d = device();
  if (!d.available) return find("common", key);
  return documented_value(key, d.cc());
}

}  // namespace cuconform
