#include "cuconform/gate.h"

#include "cuconform/check.h"
#include "cuconform/device.h"
#include "cuconform/rule.h"

#include <string_view>

namespace cuconform {
namespace {

// The rule of the running test (a parameterized test's suite and name carry a prefix and a parameter).
const RuleInfo* running_rule() {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!test) return nullptr;
  std::string_view suite = test->test_suite_name();
  std::string_view name = test->name();
  if (auto slash = suite.rfind('/'); slash != std::string_view::npos) suite = suite.substr(slash + 1);
  return find_rule(suite, name.substr(0, name.find('/')));
}

}  // namespace

std::optional<std::string> missing_cc(int major, int minor) {
  const Device& d = device();
  if (!d.available) return d.describe();
  if (d.cc() >= major * 10 + minor) return std::nullopt;
  return "needs compute capability " + std::to_string(major) + "." + std::to_string(minor) + "; " + d.describe();
}

std::optional<std::string> missing_device_count(int count) {
  // A rule about several GPUs sees them only in a process that the harness runs alone with every GPU of the run
  // visible: an exclusive fixture (MultiGpuTest). In a shared batch each process sees one GPU and the rule would
  // skip on every machine (DynamicParallelism's DeviceGetAttributeAnswersForAnotherDevice did, on 2 x H200).
  if (const RuleInfo* rule = running_rule(); count > 1 && rule && !rule->exclusive) {
    ADD_FAILURE() << "suite bug: " << rule->suite << "." << rule->name << " needs " << count
                  << " GPUs but its fixture is not a MultiGpuTest, so the harness never shows it a second GPU";
  }
  const Device& d = device();
  if (d.count >= count) return std::nullopt;
  return "needs " + std::to_string(count) + " GPUs; " + std::to_string(d.count) + " visible";
}

std::optional<std::string> missing_attribute(cudaDeviceAttr attribute, const char* feature) {
  const Device& d = device();
  if (!d.available) return d.describe();
  int value = 0;
  if (cudaError_t error = cudaDeviceGetAttribute(&value, attribute, d.ordinal); error != cudaSuccess) {
    return std::string("cannot query support for ") + feature + ": " + describe(error);
  }
  if (value != 0) return std::nullopt;
  return std::string("device does not support ") + feature + "; " + d.describe();
}

}  // namespace cuconform
