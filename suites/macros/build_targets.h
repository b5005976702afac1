// What this binary's device code was built for, as CMake passed it: CUCONFORM_DEVICE_TARGETS lists the targets
// (e.g. "90", "90a", "100f"), separated by commas.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#ifndef CUCONFORM_DEVICE_TARGETS
#define CUCONFORM_DEVICE_TARGETS ""
#endif

namespace cuconform_macros {

struct Target {
  int version;         // 90 for compute_90, compute_90a and compute_90f
  std::string suffix;  // "", "a" (architecture-specific) or "f" (family-specific)
};

inline std::vector<Target> device_targets() {
  std::vector<Target> targets;
  std::stringstream list(CUCONFORM_DEVICE_TARGETS);
  for (std::string entry; std::getline(list, entry, ',');) {
    std::size_t digits = 0;
    while (digits < entry.size() && entry[digits] >= '0' && entry[digits] <= '9') ++digits;
    if (digits == 0) continue;
    std::string suffix = entry.substr(digits);
    if (suffix.rfind("-", 0) == 0) suffix.clear();  // "90-real", "90-virtual"
    targets.push_back({std::stoi(entry.substr(0, digits)), suffix});
  }
  return targets;
}

}  // namespace cuconform_macros
