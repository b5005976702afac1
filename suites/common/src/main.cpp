// cuconform's main for every suite binary: GoogleTest, plus
//   --cuconform_list   one JSON line per test with its rule annotation (touches no CUDA API);
//   a listener that ends the process when a test leaves the CUDA context poisoned (docs/architecture.md).
// The same main is the entry of an area's module (modules/cuconform-<area>.so, the area's objects linked as a shared
// module), which cuconform-multi loads to run the shared batches of several areas in one process
// (docs/design/processes.md).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "cuconform/check.h"
#include "cuconform/child_process.h"
#include "cuconform/device.h"
#include "cuconform/rule.h"

#include "json_string.h"

namespace {

constexpr int kPoisonedExitCode = 3;

using cuconform::detail::json_string;

// "Prefix/Fixture" -> "Fixture": the suite of a parameterized test instance.
std::string_view after_slash(std::string_view text) {
  auto slash = text.rfind('/');
  return slash == std::string_view::npos ? text : text.substr(slash + 1);
}

bool disabled(std::string_view name) { return name.rfind("DISABLED_", 0) == 0; }

void list_tests() {
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const ::testing::TestInfo& test = *suite.GetTestInfo(t);
      std::string_view suite_name = test.test_suite_name();
      std::string_view test_name = test.name();
      if (disabled(after_slash(suite_name)) || disabled(test_name)) continue;
      const cuconform::RuleInfo* rule = cuconform::find_rule_of_test(suite_name, test_name);
      std::string line = "{\"test\": " + json_string(std::string(suite_name) + "." + std::string(test_name));
      if (rule) {
        line += ", \"rule\": " + json_string(std::string(rule->suite) + "." + std::string(rule->name));
        line += ", \"section\": " + json_string(rule->section);
        line += ", \"statement\": " + json_string(rule->statement);
        line += std::string(", \"gpu\": ") + (rule->needs_gpu ? "true" : "false");
        line += std::string(", \"exclusive\": ") + (rule->exclusive ? "true" : "false");
        if (rule->isolated) line += ", \"isolated\": true";
        if (rule->multi_gpu) line += ", \"multi_gpu\": true";
        if (rule->child_processes) line += ", \"child_processes\": true";
      } else {
        line += ", \"rule\": null";
      }
      line += ", \"param\": " + (test.value_param() ? json_string(test.value_param()) : std::string("null"));
      line += ", \"file\": " + json_string(test.file()) + ", \"line\": " + std::to_string(test.line()) + "}";
      std::puts(line.c_str());
    }
  }
}

// A sticky error (illegal address, trap, device assert) poisons the context: every later CUDA call in this process
// fails. The test that caused it has been reported; end the process so that no later test runs in it.
class ContextGuard : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo&) override {
    if (!cuconform::gpu_used()) return;
    if (cudaDeviceSynchronize() == cudaSuccess) return;
    (void)cudaGetLastError();  // a non-sticky error is cleared by this; a sticky one is not
    cudaError_t error = cudaDeviceSynchronize();
    if (error == cudaSuccess) return;
    std::printf("[ POISONED ] %s\n", cuconform::describe(error).c_str());
    std::fflush(stdout);
    std::_Exit(kPoisonedExitCode);
  }
};

void install_context_guard() {
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  // Events that end a test go to listeners in reverse order: putting the guard first makes it see the end of a
  // test after the printer has reported it.
  ::testing::TestEventListener* printer = listeners.Release(listeners.default_result_printer());
  listeners.Append(new ContextGuard);
  if (printer) listeners.Append(printer);
}

}  // namespace

static int run_suite(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a crash must not swallow what the test printed
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cuconform_list") == 0) {
      list_tests();
      return 0;
    }
  }
  install_context_guard();
  return RUN_ALL_TESTS();
}

int main(int argc, char** argv) { return run_suite(argc, argv); }

// The entry cuconform-multi calls in an area's module: argv[0] is the area's own executable, bin/cuconform-<area>,
// built from the same objects; the rules that need a process of their own run their children from it, exactly as
// they do in that executable.
extern "C" __attribute__((visibility("default"))) int cuconform_module_main(int argc, char** argv) {
  cuconform::set_child_executable(argv[0]);
  return run_suite(argc, argv);
}
