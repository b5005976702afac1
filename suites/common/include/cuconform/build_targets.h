// What this binary's device code was built for, as CMake passed it (cuconform_define_device_targets in
// cmake/CuconformSuite.cmake): CUCONFORM_DEVICE_TARGETS lists the targets (e.g. "90", "90a", "100f", "80-real"),
// separated by commas. And which of them runs on a device, by the guide's compatibility rules (PG12.9 6.1.2-6.1.4).
#pragma once

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "device.h"
#include "gate.h"

#ifndef CUCONFORM_DEVICE_TARGETS
#define CUCONFORM_DEVICE_TARGETS ""
#endif

namespace cuconform {

struct Target {
  int version;         // 90 for compute_90, compute_90a and compute_90f
  std::string suffix;  // "", "a" (architecture-specific) or "f" (family-specific)
  bool binary = true;  // sm_<version> code is embedded (not "-virtual")
  bool ptx = true;     // compute_<version> PTX is embedded (not "-real")
};

inline std::vector<Target> device_targets() {
  std::vector<Target> targets;
  std::stringstream list(CUCONFORM_DEVICE_TARGETS);
  for (std::string entry; std::getline(list, entry, ',');) {
    std::size_t digits = 0;
    while (digits < entry.size() && entry[digits] >= '0' && entry[digits] <= '9') ++digits;
    if (digits == 0) continue;
    Target target{std::stoi(entry.substr(0, digits)), entry.substr(digits)};
    const std::size_t dash = target.suffix.find('-');
    if (dash != std::string::npos) {
      const std::string kind = target.suffix.substr(dash + 1);  // CMake's "90-real", "90-virtual"
      target.binary = kind != "virtual";
      target.ptx = kind != "real";
      target.suffix.erase(dash);
    }
    targets.push_back(target);
  }
  return targets;
}

// Whether code of `target` can run on a device of compute capability `cc` (major * 10 + minor): a binary for X.y
// runs on X.z with z >= y (6.1.2); PTX is compiled for any equal or higher capability (6.1.3); architecture-specific
// code runs only on its own capability, family-specific code only on its family (same major, not older).
inline bool runs_on(const Target& target, bool as_binary, int cc) {
  const bool same_major = target.version / 10 == cc / 10;
  if (target.suffix == "a") return target.version == cc;
  if (target.suffix == "f") return same_major && target.version <= cc;
  return as_binary ? same_major && target.version <= cc : target.version <= cc;
}

// The __CUDA_ARCH__ of the code a device of capability `cc` runs, as 6.1.4 chooses it: the highest compatible binary
// ("7.0 binary code for devices with compute capability 7.0 and 7.5"), else the highest compatible PTX, compiled
// just in time. None: nothing in the build runs on the device.
inline std::optional<int> expected_cuda_arch(const std::vector<Target>& targets, int cc) {
  std::optional<int> binary, ptx;
  for (const Target& t : targets) {
    if (t.binary && runs_on(t, true, cc) && (!binary || t.version > *binary)) binary = t.version;
    if (t.ptx && runs_on(t, false, cc) && (!ptx || t.version > *ptx)) ptx = t.version;
  }
  if (binary) return *binary * 10;
  if (ptx) return *ptx * 10;
  return std::nullopt;
}

// Why the device code this device runs cannot hold what compute capability `cc` (major * 10 + minor) brings: the
// build's targets give that code a lower __CUDA_ARCH__ (an sm_80 build run on CC 9.0), where a rule's device code
// for `cc` is compiled out. None when the build's targets do not say (CUCONFORM_DEVICE_TARGETS is defined for the
// binaries whose CMakeLists call cuconform_define_device_targets).
inline std::optional<std::string> device_code_below(int cc) {
  const std::vector<Target> targets = device_targets();
  if (targets.empty()) return std::nullopt;
  const std::optional<int> arch = expected_cuda_arch(targets, device().cc());
  if (!arch || *arch >= cc * 10) return std::nullopt;
  return "compiled out: this device runs the build's code for __CUDA_ARCH__ " + std::to_string(*arch) +
         " (targets " CUCONFORM_DEVICE_TARGETS "), below compute capability " + std::to_string(cc / 10) + "." +
         std::to_string(cc % 10);
}

// Why the build holds no binary code that this device runs: a PTX-only build (CMake's "-virtual", the sm80-ptx
// preset), all of whose code the driver JIT-compiles, so that a rule about what the embedded binary code does (the
// JIT variables of PG12.9 22) cannot observe it. None when it holds such code or the build's targets do not say.
inline std::optional<std::string> no_device_binary() {
  const std::vector<Target> targets = device_targets();
  if (targets.empty()) return std::nullopt;
  const int cc = device().cc();
  for (const Target& t : targets) {
    if (t.binary && runs_on(t, true, cc)) return std::nullopt;
  }
  return "the build holds no binary code for compute capability " + std::to_string(cc / 10) + "." +
         std::to_string(cc % 10) + " (targets " CUCONFORM_DEVICE_TARGETS "): the driver JIT-compiles all of its PTX";
}

}  // namespace cuconform

// Skips a rule about the build's embedded binary code where it holds none for this device (a PTX-only build).
#define REQUIRE_DEVICE_BINARY() CUCONFORM_SKIP_IF_(::cuconform::no_device_binary())

// Skips a rule whose device code needs compute capability major.minor where the code this device runs was built for
// a lower target (after REQUIRE_CC, which asks the same of the device).
#define REQUIRE_DEVICE_CODE(major, minor) CUCONFORM_SKIP_IF_(::cuconform::device_code_below((major) * 10 + (minor)))
